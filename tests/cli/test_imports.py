"""Each command imports only what it uses (issue #29): run in a child process, as
a user runs it, each command leaves in ``sys.modules`` none of the heavy
libraries it does not need -- numba and llvmlite (the compiled gap search),
PySide6 (the app), dulwich (the rules folder's history) and cryptography
(signatures).  Loading numba alone costs about 0.7 s of CPU, the gap tables
0.5 s: every command paid for both.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.datapaths import REPO

HEAVY = ("numba", "llvmlite", "PySide6", "dulwich", "cryptography")
NEVER = frozenset({"numba", "llvmlite", "PySide6"})  # no command of the CLI needs them

def imported(args: list[str], tmp_path: Path, env: dict[str, str] | None = None) -> set[str]:
    """The heavy modules in ``sys.modules`` after ``rulesbook ARGS`` in a fresh process."""
    report = tmp_path / "modules.json"
    script = (
        "import json, sys\n"
        "report, argv = sys.argv[1], sys.argv[2:]\n"
        "sys.argv = ['rulesbook'] + argv\n"
        "from rulesbook.cli import main\n"
        "try:\n"
        "    code = main()\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        f"heavy = sorted({{n.split('.')[0] for n in sys.modules}} & set({list(HEAVY)!r}))\n"
        "open(report, 'w').write(json.dumps({'code': code, 'heavy': heavy}))\n"
    )
    child_env = dict(os.environ, **(env or {}))
    proc = subprocess.run([sys.executable, "-c", script, str(report), *args], cwd=tmp_path,
                          env=child_env, capture_output=True, text=True, timeout=120)
    assert report.exists(), f"rulesbook {' '.join(args)} did not finish: {proc.stderr[-2000:]}"
    result = json.loads(report.read_text())
    assert result["code"] in (0, 1), f"rulesbook {' '.join(args)}: exit {result['code']}: " \
                                     f"{proc.stderr[-2000:]}"
    return set(result["heavy"])


@pytest.fixture
def files(data_copy, tmp_path) -> dict[str, str]:
    """A data folder that is not a rules folder (nothing to initialise) and a record."""
    record = tmp_path / "game.pdn"
    shutil.copy(REPO / "tests" / "data" / "corpus" / "pool-3-kings-vs-1-theory.pdn", record)
    return {"data": str(data_copy), "record": str(record)}


# (command, the heavy modules it may import): None = only those it needs
READING = [
    (["--help"], set()),
    (["show", "28"], set()),
    (["search", "crown"], set()),
    (["validate"], set()),
    (["moves", "--fen", "B:W21-32:B1-12"], set()),
    (["perft", "--depth", "3"], set()),
    (["pdn", "check", "{record}"], set()),
    (["replay", "{record}"], set()),
    (["rulings", "--from-game", "{record}", "--game", "1"], set()),
    (["incidents"], set()),
    (["ballot", "--help"], set()),
    (["member", "--help"], set()),
    (["member", "list"], set()),
]


@pytest.mark.parametrize(("args", "allowed"), READING, ids=[" ".join(a) for a, _ in READING])
def test_a_reading_command_imports_no_heavy_library(args, allowed, files, tmp_path):
    argv = ["--data", files["data"], *[a.format(**files) for a in args]]
    if args == ["--help"]:
        argv = ["--help"]
    heavy = imported(argv, tmp_path)
    assert heavy <= allowed, f"rulesbook {' '.join(args)} imported {sorted(heavy - allowed)}"


def test_verifying_and_counting_a_ballot_imports_cryptography_only(
        sealed_ballot, tmp_path):
    data, ballot = sealed_ballot
    for args in (["ballot", "verify", ballot], ["ballot", "tally", ballot]):
        heavy = imported(["--data", data, *args], tmp_path)
        assert heavy <= {"cryptography"}, f"rulesbook {' '.join(args)} imported {heavy}"


def test_a_writing_command_imports_dulwich_but_never_numba_or_qt(files, tmp_path):
    heavy = imported(["--data", files["data"], "member", "add", "Imports Tester"], tmp_path)
    assert not heavy & NEVER, heavy


def test_a_short_gap_is_searched_without_numba(tmp_path):
    # an 8-ply gap is answered by the Python search before numba could even load
    from rulesbook.draughts import Position

    position = Position.start("pool")
    for _ in range(8):
        position = position.play(position.legal_moves()[0])
    heavy = imported(["reconstruct", "--from", "start", "--to", position.fen(), "--plies", "8"],
                     tmp_path)
    assert not heavy & NEVER, heavy


@pytest.fixture
def sealed_ballot(data_copy, tmp_path, monkeypatch) -> tuple[str, str]:
    from rulesbook.ballots import build_ballot, cast_vote, close_ballot, load_registry, save_ballot
    from rulesbook.loading import load_library
    from tests.ballots.helpers import VOTES, make_keys

    monkeypatch.setenv("RULESBOOK_CONFIG", str(tmp_path / "config"))
    keys = make_keys(data_copy)
    registry = load_registry(data_copy)
    ballot = build_ballot(load_library(data_copy), "imports", method="irv", quorum=3,
                          signer=keys["A"], at="2026-02-15T09:00:00Z", registry=registry)
    for member, question, ranking in VOTES:
        ballot = cast_vote(ballot, member, question, ranking, at="2026-03-01T10:00:00Z",
                           signer=keys[member], registry=registry)
    ballot = close_ballot(ballot, keys["A"], registry, at="2026-03-02T12:00:00Z")
    path = tmp_path / "ballot.yaml"
    save_ballot(path, ballot)
    return str(data_copy), str(path)
