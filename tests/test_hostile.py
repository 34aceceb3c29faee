"""Hostile files: each is refused or read within bounded time and memory, with a
clear message, never a traceback."""
from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from rulesbook import validate_folder
from rulesbook.ballots import BallotError, load_ballot
from rulesbook.draughts.pdn import iter_games

MEMORY_LIMIT = 1536 * 1024 * 1024  # 1.5 GiB of address space for the child


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_cli(*argv, timeout=120):
    return subprocess.run([sys.executable, "-m", "rulesbook", *argv], capture_output=True,
                          text=True, timeout=timeout, preexec_fn=limited)


BILLION_LAUGHS = "\n".join(
    ["schema_version: 1", "kind: topics", "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]"
       for i in range(8)]) + "\n"


@pytest.mark.parametrize("name, content, expected", [
    ("topics.yaml", "schema_version: 1\nkind: topics\ntopics: !!python/object/apply:os.system"
     " ['echo pwned']\n", "topics.yaml:3:9: unsupported tag"),
    ("topics.yaml", BILLION_LAUGHS, "aliases"),
    ("topics.yaml", "a:\n" + "  " * 0 + "[" * 5000 + "]" * 5000 + "\n", "topics.yaml:"),
    ("members.yaml", "\x00\x01\x02binary\xff junk".encode("latin-1"), "members.yaml:"),
    ("members.yaml", "schema_version: 1\nkind: members\nmembers:\n  - {id: A, name: "
     "Pecan}\n".encode("utf-16"), "not UTF-8"),
])
def test_hostile_yaml_in_the_data_folder(data_copy, name, content, expected):
    path = data_copy / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    problems = "\n".join(str(p) for p in validate_folder(data_copy))
    assert expected in problems, problems


def test_a_huge_data_file_is_refused_without_reading_it(data_copy):
    huge = data_copy / "huge.yaml"
    with open(huge, "wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # sparse: no disk used
    result = run_cli("validate", str(data_copy), timeout=60)
    assert result.returncode == 1
    assert "huge.yaml: the file is 314,572,800 bytes" in result.stdout
    assert "Traceback" not in result.stderr


def test_a_huge_binary_pdn_is_read_in_bounded_memory(tmp_path):
    junk = tmp_path / "junk.pdn"
    with open(junk, "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # 200 MB of NUL bytes and no line break
    result = run_cli("pdn", "check", str(junk), timeout=120)
    assert result.returncode == 1, result.stderr
    assert "1 games, 1 with errors" in result.stdout
    assert "line longer than" in result.stdout
    assert "Traceback" not in result.stderr


def test_unterminated_comment_and_variation_are_reported():
    games = list(iter_games('[Event "a"]\n1. 11-15 {never closed 23-19\n\n[Event "b"]\n'
                            '1. 11-15 (23-19 (22-18\n*\n', variant="pool"))
    messages = [e.message for g in games for e in g.errors]
    assert any("comment" in m for m in messages)
    assert any("variation" in m for m in messages)


def test_deeply_nested_variations_do_not_recurse():
    text = "1. 11-15 " + "(23-19 " * 20000 + ")" * 20000 + " *"
    game = next(iter_games(text, variant="pool"))
    assert any("deep" in e.message or "nest" in e.message for e in game.errors)


def test_a_ballot_with_an_unsafe_tag_is_refused(tmp_path):
    path = tmp_path / "ballot.yaml"
    path.write_text("schema_version: 1\nkind: !!python/name:os.system ballot\n", encoding="utf-8")
    with pytest.raises(BallotError) as err:
        load_ballot(path)
    assert "unsupported tag" in "\n".join(str(p) for p in err.value.problems)


def test_a_hundred_thousand_ply_game_is_read():
    body = "1. 1-5 32-28 2. 5-1 28-32 " * 25_000  # two kings shuffling: 100,000 plies
    text = '[FEN "B:WK32:BK1"]\n' + body + "*\n"
    game = next(iter_games(text, variant="pool"))
    assert game.errors == [] and len(game.mainline_moves()) == 100_000
