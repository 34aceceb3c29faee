"""Counts in the texts of a gap search (core, CLI): "1 ply", "1 sequence", never
"1 plies" / "1 sequences" (issue 21, a referee's check). Each count below is
the one the position forces (a gap of one ply, a board with one king more than
the earlier position can explain), not one read off the program's output."""
from __future__ import annotations

import io
import re

import pytest

from rulesbook.cli import main
from rulesbook.cli.progress import GapProgress
from rulesbook.draughts import Position
from rulesbook.draughts.notation import count_text, plies_text
from rulesbook.reconstruct.gap import fill_gap

#: "1 plies", "1 sequences", "1 positions", "1 moves", "1 pieces", "1 kings",
#: "1 ... men", "piece(s)": what no gap text may say
WRONG = re.compile(r"(?<![0-9,])1 (\w+ )?(plies|sequences|positions|moves|pieces|kings|men)\b"
                   r"|\(s\)")


def test_count_text_writes_the_noun_as_the_number_asks():
    assert count_text(1, "sequence") == "1 sequence"
    assert count_text(0, "sequence") == "0 sequences"
    assert count_text(2, "white man", "white men") == "2 white men"
    assert count_text(12345, "position") == "12,345 positions"
    assert plies_text(1) == "1 ply" and plies_text(21) == "21 plies"


def test_a_gap_of_one_ply_says_one_ply():
    start = Position.start("pool")
    result = fill_gap(start, start.play("11-15"), plies=1)
    assert result.status == "unique"
    assert "exactly one sequence of 1 ply:" in result.explanation
    assert not WRONG.search(result.explanation), result.explanation


@pytest.mark.parametrize("kwargs, span", [({"plies": 1}, "of 1 ply"),
                                          ({"max_plies": 1}, "of at most 1 ply")])
def test_no_sequence_of_one_ply_says_one_ply(kwargs, span):
    start = Position.start("pool")
    # three plies on: no single move leads there
    board = start.play("11-15").play("23-19").play("8-11")
    result = fill_gap(start, board, **kwargs)
    assert result.status == "impossible"
    assert f"no legal sequence {span} leads" in result.explanation
    assert not WRONG.search(result.explanation), result.explanation


def test_one_piece_and_one_king_too_many_are_counted_in_the_singular():
    # one black man before; on the board a man and a king: one piece came from
    # nowhere and one king has no man that could have been crowned
    start = Position.from_fen("B:W30:B5", "pool")
    board = Position.from_fen("B:W30:B5,K6", "pool")
    result = fill_gap(start, board, plies=2)
    assert result.status == "impossible"
    text = result.explanation
    assert "the board has 2 black pieces but the earlier position only 1" in text
    assert "1 black piece cannot be accounted for" in text
    assert "the board has 1 black king; only 0 kings and 0 crowned men can explain it" in text
    assert not WRONG.search(text), text


def test_the_cli_says_one_ply(capsys):
    code = main(["reconstruct", "--from", "start", "--to", "W:W21-32:B1-10,12,15",
                 "--plies", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "exactly one sequence of 1 ply:" in out
    assert not WRONG.search(out), out


def test_the_cli_progress_line_counts_in_the_singular():
    progress = GapProgress("gaps of up to 1 ply", io.StringIO(), lambda: 0.0)
    line = progress.line(0.5, 1)
    assert "1 position searched" in line and not WRONG.search(line), line


def test_a_gap_of_no_ply_says_no_move_is_missing(capsys):
    from rulesbook.cli import main

    code = main(["reconstruct", "--from", "start", "--to", "B:W21-32:B1-12", "--plies", "0"])
    out = capsys.readouterr().out
    assert code == 0
    assert "no move is missing" in out and "1. (no move)" in out
    assert "1. \n" not in out


def test_the_help_names_every_json_key(capsys):
    from rulesbook.cli import main

    try:
        main(["reconstruct", "--help"])
    except SystemExit:
        pass
    text = " ".join(capsys.readouterr().out.split())
    for key in ("status", "sequences", "diverge_at", "explanation", "more_exist", "complete"):
        assert f'"{key}"' in text


def test_the_texts_of_the_sequences_are_the_positions_own_move_texts():
    # fill_gap writes quiet moves without asking the position for its moves
    # (the texts are written between a cancel and its answer): the same texts
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from gap_cases import english_cases, pool_cases, russian_cases

    written = 0
    for case in english_cases(12, 6) + pool_cases(10, 3) + russian_cases(10, 3):
        result = fill_gap(case.earlier, case.board, plies=len(case.truth))
        assert result.sequences
        for moves, texts in zip(result.sequences, result.texts, strict=True):
            position = case.earlier
            for move, text in zip(moves, texts, strict=True):
                assert text == position.move_text(move), (case.name, move)
                position = position.play(move)
                written += 1
    assert written > 1000
