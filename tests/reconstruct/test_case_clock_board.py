"""Case files (kind dispute), clock pro-rating and board sanity checks."""
from __future__ import annotations

import dataclasses

import pytest

from rulesbook.draughts import Color, Position
from rulesbook.reconstruct import replay
from rulesbook.reconstruct.board import BoardError, check_board, prorate_clocks
from rulesbook.reconstruct.case import CaseFileError, DisputeCase, load_case, save_case


def full_case() -> DisputeCase:
    result = replay("11-15 22-18 8-11 23-19")
    bad = result.first_illegal
    return DisputeCase(
        record="1. 11-15 22-18 2. 8-11 23-19", variant="pool", start="start",
        event="Ohio Open \u2013 2026", round="3", date="2026-05-02", black="A. Pecan",
        white="J. Kacher", edition="original", board=result.final.fen(),
        notes="White claims the huff.\nBlack says 15x22 was not possible.",
        findings={"summary": bad.message, "first_illegal": bad.to_dict(), "facts": bad.facts,
                  "gap": None, "restored_fen": bad.fen_before,
                  "clocks": prorate_clocks(600, 540, 2, 2, 1, 1, 900).to_dict()})


def test_round_trip(tmp_path):
    case = full_case()
    path = tmp_path / "case.yaml"
    save_case(case, path)
    assert load_case(path) == case
    save_case(load_case(path), path)
    assert load_case(path) == case
    assert not list(tmp_path.glob(".*.tmp"))


def test_minimal_round_trip(tmp_path):
    case = DisputeCase(record="")
    save_case(case, tmp_path / "c.yaml")
    assert load_case(tmp_path / "c.yaml") == case


def test_damaged_file_reports_line_and_is_not_overwritten(tmp_path):
    path = tmp_path / "case.yaml"
    save_case(full_case(), path)
    damaged = path.read_text(encoding="utf-8").replace("variant: pool", "variant: [pool")
    path.write_text(damaged, encoding="utf-8")
    with pytest.raises(CaseFileError) as info:
        load_case(path)
    assert str(path) in str(info.value) and ":" in str(info.value)
    assert info.value.problem.line > 1
    before = path.read_bytes()
    with pytest.raises(CaseFileError):
        save_case(dataclasses.replace(full_case(), variant="checkers-deluxe"), path)
    assert path.read_bytes() == before


def test_schema_problems_have_lines(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text("schema_version: 1\nkind: dispute\nvariant: pool\nstart: start\n"
                    "record: ''\nboard: 'X:W1'\nplayer: {}\n", encoding="utf-8")
    with pytest.raises(CaseFileError) as info:
        load_case(path)
    text = str(info.value)
    assert "case.yaml:7:1" in text and "did you mean 'players'" in text
    path.write_text("schema_version: 1\nkind: dispute\nvariant: pool\nstart: start\n"
                    "record: ''\nboard: 'X:W1'\n", encoding="utf-8")
    with pytest.raises(CaseFileError) as info:
        load_case(path)
    assert "case.yaml:6:1: board:" in str(info.value)


def test_clock_prorating():
    advice = prorate_clocks(black_reading=600, white_reading=300, black_moves_total=20,
                            white_moves_total=20, black_moves_since=4, white_moves_since=3,
                            time_control=1800)
    # Black used 1200 s over 20 moves: 60 s a move, 4 moves back -> +240
    assert advice.black == pytest.approx(840) and advice.black_given_back == pytest.approx(240)
    # White used 1500 s over 20 moves: 75 s a move, 3 moves back -> +225
    assert advice.white == pytest.approx(525)
    same = prorate_clocks(600, 300, 20, 20, 4, 3)
    assert (same.black, same.white) == (600, 300) and "no time control" in same.note
    with pytest.raises(ValueError):
        prorate_clocks(600, 300, 2, 2, 3, 0, 900)
    assert prorate_clocks(100, 100, 0, 0, 0, 0, 900).black == 100


def test_check_board():
    position = Position.start("pool")
    assert check_board(position) is position
    assert check_board(position, to_move=Color.WHITE).turn is Color.WHITE
    with pytest.raises(BoardError, match="the board as set up cannot be right: 13 black"):
        check_board(Position.from_fen("B:W21-32:B1-13", check=False),
                    "the board as set up")
    with pytest.raises(BoardError, match="black man on 30"):
        check_board(Position.from_fen("W:W21:B30", check=False))
    with pytest.raises(BoardError, match="no piece left"):
        check_board(Position.from_fen("W:W21:B", check=False))
    with pytest.raises(BoardError, match="no legal move"):
        check_board(Position.from_fen("W:W29:B25,22", check=False))
    assert check_board(Position.from_fen("W:W29:B25,22", check=False),
                       game_over_ok=True)
