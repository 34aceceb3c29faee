"""Hostile paths of issue 34 (attack 6, the parts not about YAML), through the real
command line: a loop of symbolic links, a 300-character file name, a FIFO as the data
folder and as a game file. Each is one message naming the path, exit 2, never an
internal error; a FIFO nobody writes to does not hang the command."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.datapaths import REPO


def rulesbook(tmp: Path, *argv: object, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), RULESBOOK_CONFIG=str(tmp / "config"),
               RULESBOOK_AUTHOR="Hostile Test <hostile@apca.invalid>")
    env.pop("RULESBOOK_DATA", None)
    return subprocess.run([sys.executable, "-m", "rulesbook", *map(str, argv)], env=env,
                          cwd=tmp, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def place(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("hostile3")
    assert rulesbook(tmp, "init", tmp / "club").returncode == 0
    (tmp / "loop").symlink_to("loop")
    os.mkfifo(tmp / "fifo")
    return tmp


def one_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]


LOOP_COMMANDS = {
    "validate": ("validate", "{loop}"),
    "ballot new": ("--data", "{club}", "ballot", "new", "{loop}"),
    "ballot vote": ("--data", "{club}", "ballot", "vote", "{loop}", "--member", "A",
                    "--question", "28", "--ranking", "28A"),
    "ballot tally": ("--data", "{club}", "ballot", "tally", "{loop}"),
    "ballot close": ("--data", "{club}", "ballot", "close", "{loop}", "--as", "A"),
}


@pytest.mark.parametrize("command", sorted(LOOP_COMMANDS))
def test_a_symlink_loop_is_one_message_naming_it(place, command):
    argv = [a.format(loop=place / "loop", club=place / "club") for a in LOOP_COMMANDS[command]]
    result = rulesbook(place, *argv)
    one_error(result, "loop")
    assert "symbolic links" in result.stderr or "Too many levels" in result.stderr


def test_a_300_character_file_name_is_one_message(place):
    name = "a" * 300
    for argv in (["validate", place / name],
                 ["--data", place / "club", "ballot", "new",
                  place / "club" / "apca" / "ballots" / f"{name}.yaml"]):
        result = rulesbook(place, *argv)
        one_error(result, "aaaa", "too long")
        assert len(result.stderr) < 400  # the name is shortened, not printed whole


def test_validate_a_fifo_says_what_it_is(place):
    result = rulesbook(place, "validate", place / "fifo")
    assert result.returncode != 0
    assert "named pipe (FIFO), not a data folder" in result.stdout + result.stderr
    assert "does not exist" not in result.stdout + result.stderr


def test_pdn_check_of_a_fifo_nobody_writes_to_does_not_hang(place):
    from rulesbook.textio import PIPE_WAIT_SECONDS

    result = rulesbook(place, "pdn", "check", place / "fifo",
                       timeout=PIPE_WAIT_SECONDS + 170)  # a hang fails here
    one_error(result, "fifo", "named pipe (FIFO)", "no program wrote to it")


def test_pdn_check_of_a_fifo_with_a_writer_reads_it(place):
    def write() -> None:
        with open(place / "fifo", "w", encoding="utf-8") as pipe:
            pipe.write('[Event "piped"]\n\n1. 11-15 23-19 *\n')

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    result = rulesbook(place, "pdn", "check", place / "fifo")
    writer.join(timeout=60)
    assert result.returncode == 0, result.stderr
    assert "1 games, 0 with errors" in result.stdout


def test_pdn_check_of_a_fifo_whose_writer_keeps_it_open_is_stopped(place):
    """`(cat some.pdn; sleep 95) > f & rulesbook pdn check f` blocked for as long as
    the writer lived: a pipe that stays open with nothing more is refused, naming it."""
    from rulesbook.textio import PIPE_WAIT_SECONDS

    done = threading.Event()

    def write() -> None:
        with open(place / "fifo", "w", encoding="utf-8") as pipe:
            pipe.write('[Event "piped"]\n\n1. 11-15 23-19 *\n')
            pipe.flush()
            done.wait(PIPE_WAIT_SECONDS + 200)  # open, silent, until the command is over

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        result = rulesbook(place, "pdn", "check", place / "fifo",
                           timeout=PIPE_WAIT_SECONDS + 120)  # a hang fails here
    finally:
        done.set()
        writer.join(timeout=60)
    one_error(result, "fifo", "pipe or a device that was not closed",
              f"nothing more came within {PIPE_WAIT_SECONDS:g} s")
