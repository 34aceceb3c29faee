"""`rulesbook perft` and `rulesbook moves` contracts."""
from __future__ import annotations

import json

import pytest

from rulesbook.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_perft(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "--variant", "pool", "--depth", "5")
    assert code == 0
    assert out.strip().splitlines()[-1] == "7482"


def test_perft_divide(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "--variant", "english", "--depth", "3", "--divide")
    lines = out.strip().splitlines()
    assert code == 0 and lines[-1] == "302"
    assert len(lines) == 8 and lines[0].endswith(": 43") or ":" in lines[0]
    assert sum(int(x.split(": ")[1]) for x in lines[:-1]) == 302


def test_perft_from_fen(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "--variant", "pool", "--depth", "1",
                       "--fen", "W:WK29:B18")
    assert code == 0 and out.strip() == "4"


def test_moves_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "--variant", "russian", "--fen", "W:Wa1,c3:Bd4,f6",
                       "--json")
    assert code == 0
    assert json.loads(out) == [
        {"move": "22x15x8", "path": [22, 15, 8], "captures": [18, 11], "crowns": False}]


def test_moves_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "--variant", "pool", "--fen", "B:W21-32:B1-12")
    assert code == 0
    assert out.split() == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]


def test_moves_fen_file(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    f = tmp_path / "fens.txt"
    f.write_text("B:W21-32:B1-12\n\nW:WK29:B18\n", encoding="utf-8")
    code, out, _ = run(capsys, "moves", "--variant", "pool", "--fen-file", str(f), "--json")
    assert code == 0
    lists = [json.loads(line) for line in out.strip().splitlines()]
    assert len(lists) == 2
    assert len(lists[0]) == 7
    assert {m["move"] for m in lists[1]} == {"29x15", "29x11", "29x8", "29x4"}


@pytest.mark.parametrize(
    "argv",
    [
        ("moves", "--variant", "pool", "--fen", "B:W21-32:B1-13"),
        ("moves", "--variant", "pool", "--fen", "nonsense"),
        ("moves", "--variant", "chess", "--fen", "B:W21:B1"),
        ("moves", "--variant", "pool", "--fen-file", "/nonexistent/file.txt"),
        ("perft", "--variant", "pool", "--depth", "-1"),
        ("perft", "--variant", "pool", "--depth", "1", "--fen", "B:W0:B1"),
    ],
)
def test_errors_exit_2_without_traceback(capsys: pytest.CaptureFixture[str], argv) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert "Traceback" not in err and err.strip()
    assert out == ""


def test_moves_a_straight_king_run_once_per_landing(capsys: pytest.CaptureFixture[str]) -> None:
    # issue 21: the king on 29 takes 25 and 15 on one line and lands on 11, 8
    # or 4; where it "stops" between the two pieces is no choice: 3 moves.
    code, out, _ = run(capsys, "moves", "--variant", "russian", "--fen", "W:WK29:B25,15,1",
                       "--json")
    assert code == 0
    moves = json.loads(out)
    assert sorted(m["path"][-1] for m in moves) == [4, 8, 11]
    assert all(m["captures"] == [25, 15] for m in moves)
