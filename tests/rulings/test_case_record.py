"""Issue 20, item 3: a case's moves are read by the one reader of written moves."""
from __future__ import annotations

import pytest

from rulesbook.reconstruct.record import parse_moves_text, written_squares
from rulesbook.report import _squares_of
from rulesbook.rulings.case_record import move_tokens


@pytest.mark.parametrize("text", [
    "11-15 {good} 2-0",                       # the example: a comment and a result
    "1. 11-15 23-19 2. 8-11 22-17 *",
    "1. 11-15 {a long\ncomment} 23-19 1/2-1/2",
    "12... 9x18 0-1",
])
def test_case_moves_are_what_the_record_reader_reads(text):
    assert move_tokens(text) == [m.text for m in parse_moves_text(text)]
    assert "{good}" not in move_tokens(text) and "2-0" not in move_tokens(text)


@pytest.mark.parametrize("text", ["9-13", "10x19x26", "c3-d4", "11×15", "b6-a5"])
def test_the_report_marks_the_squares_the_reader_reads(text):
    assert _squares_of(text) == (written_squares(text) or ())
