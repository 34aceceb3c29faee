"""Issue #14, what a tester found after round two: text with no readable move
is a record error in the CLI as in the app; what the record says is quoted, cut
short, never a different move; long tokens are never printed whole.

Expected values come from the issue's text (the app's message "no move can be
read in it", the exit codes of the CLI contracts), not from the program's output.
"""
from __future__ import annotations

import json

import pytest

from rulesbook.cli import main
from rulesbook.draughts.pdn import iter_games

NOT_A_MOVE = {
    "hello.txt": b"hello world 99-100\n",
    "random.bin": bytes((i * 151 + 7) % 256 for i in range(3000)),
    "brackets.txt": b"[" * 1_000_000,
    "utf16.txt": "1. 11-15 23-19 *\n".encode("utf-16-le"),  # no BOM
}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", sorted(NOT_A_MOVE))
def test_text_with_no_readable_move_is_a_record_error_never_a_ruling(tmp_path, capsys, name):
    path = tmp_path / name
    path.write_bytes(NOT_A_MOVE[name])
    code, out, err = run(capsys, "rulings", "--from-game", path)
    assert code == 1
    assert "no move can be read in it" in err
    assert "apca:10" not in out and "illegal_move" not in out
    code, out, err = run(capsys, "rulings", "--from-game", path, "--json")
    assert code == 1 and json.loads(out) == []
    code, out, err = run(capsys, "replay", path, "--json")
    assert code == 1 and "no move can be read in it" in err
    (game,) = json.loads(out)
    assert game["first_illegal"] is None and game["illegal"] == []


def test_a_ten_megabyte_tag_is_never_ruled_on(tmp_path, capsys):
    path = tmp_path / "tag.pdn"
    path.write_text('[Event "' + "x" * 10_000_000 + '"]\n\n1. 11-15 23-19 *\n')
    code, out, err = run(capsys, "pdn", "check", path, "--json")
    checked = json.loads(out)
    assert code == 1 and len(checked) == 1
    code, out, err = run(capsys, "replay", path, "--json")
    (game,) = json.loads(out)
    # the record's moves are 11-15 23-19 (both legal): the tag is none of them
    assert code == 1 and game["plies"] == 2 and game["first_illegal"] is None
    assert "[Event" in err and len(err) < 2_000
    code, out, err = run(capsys, "rulings", "--from-game", path)
    assert code == 1 and "apca:10" not in out and "Event" not in out


def test_a_move_followed_by_thousands_of_digits_is_quoted_as_written(tmp_path, capsys):
    path = tmp_path / "nines.pdn"
    path.write_text('[Event "x"]\n\n1. 11-' + "9" * 5000 + " *\n")
    (game,) = iter_games(path.read_text())
    assert game.errors and "11-99 " not in " ".join(e.message for e in game.errors)
    code, out, err = run(capsys, "replay", path, "--json")
    (report,) = json.loads(out)
    assert report["plies"] == 1  # one word was written, not 11-99 and 999...
    assert "'11-99'" not in err and "11-999" in err and "…" in err
    assert len(err) < 1_000


def test_a_million_character_token_is_never_printed_whole(tmp_path, capsys):
    path = tmp_path / "token.txt"
    path.write_text("11-15 " + "a" * 1_000_000 + "\n")  # a readable move, then junk
    for extra in ((), ("--json",)):
        code, out, err = run(capsys, "replay", path, *extra)
        assert code == 1
        assert len(out) + len(err) < 5_000, "the token was printed"
        assert "aaaa…" in out
    code, out, err = run(capsys, "rulings", "--from-game", path)
    assert len(out) + len(err) < 20_000 and "aaaa…" in out


@pytest.mark.parametrize("argv, command", [
    (("replay", "/dev/zero"), "rulesbook replay"),
    (("pdn", "check", "/dev/zero"), "rulesbook pdn check"),
    (("rulings", "--from-game", "/dev/zero"), "rulesbook rulings"),
])
def test_one_prefix_style_for_every_command(capsys, argv, command):
    code, out, err = run(capsys, *argv)
    lines = err.splitlines()
    # the style argparse gives a bad argument: "rulesbook replay: error: ..."
    assert code == 2 and len(lines) == 1 and lines[0].startswith(f"{command}: error: ")
    assert "16,777,216 bytes" in lines[0]


def test_the_pipe_limit_is_in_the_readme():
    from pathlib import Path

    from rulesbook.limits import MAX_STREAM_BYTES

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Reading what users give it", 1)[1].split("\n## ", 1)[0]
    assert f"{MAX_STREAM_BYTES // 2**20} MiB read from a pipe" in " ".join(section.split())


def test_a_data_file_that_is_not_utf8_is_reported_once_not_as_a_cascade(data_copy):
    from rulesbook.loading import validate_folder

    path = data_copy / "incidents.yaml"
    raw = path.read_bytes()
    at = raw.index(b"title")
    path.write_bytes(raw[:at] + b"\xe9" + raw[at:])  # é in Latin-1: not UTF-8
    problems = validate_folder(data_copy)
    texts = [f"{p.file}: {p.message}" for p in problems]
    assert any(p.file == "incidents.yaml" and "0xe9" in p.message and "UTF-8" in p.message
               for p in problems), texts
    # the folder is otherwise clean: nothing that depends on incidents.yaml is
    # reported as missing or unknown
    assert not any("there is no incidents.yaml" in t or "unknown incident" in t
                   for t in texts), texts
    assert len(problems) <= 3, texts
