"""Entering moves by clicks (the core state machine behind the board's input)."""
from __future__ import annotations

import itertools

import pytest

from rulesbook.draughts import Position
from rulesbook.draughts.pdn import iter_games
from rulesbook.reconstruct.entry import Entry, click, drag, hints
from tests.datapaths import CORPUS


def positions_of_real_games(limit: int = 60) -> list[Position]:
    """Positions of recorded games (every ply of the first games of two files)."""
    out = []
    for name, variant in (("english-tinsley-1946-1960s.pdn", "english"),
                          ("russian-abatsiev.pdn", "russian")):
        text = (CORPUS / name).read_text(encoding="utf-8", errors="replace")
        for game in itertools.islice(iter_games(text, variant), 4):
            position = game.start
            for node in game.mainline:
                if node.move is None or position is None:
                    break
                out.append(position)
                position = position.play(node.move)
    assert len(out) >= limit  # the corpus files hold long games
    return out


def click_path(position: Position, squares: tuple[int, ...]):
    entry, step = Entry(), None
    for square in squares:
        step = click(position, entry, square)
        entry = step.entry
        if step.move is not None:
            break
    return step


def test_every_legal_move_of_real_games_can_be_clicked_stop_by_stop():
    """The rule of the board: a move is entered by its squares in order; whatever
    the position, clicking a legal move's path plays exactly that move."""
    checked = 0
    for position in positions_of_real_games():
        for move in position.legal_moves():
            step = click_path(position, move.path)
            assert step is not None and step.move is not None, (position.fen(), move)
            # the move played leads where the clicked one does (flying kings' landing
            # squares may read the same)
            assert position.play(step.move) == position.play(move)
            checked += 1
    assert checked > 500


def test_start_and_end_are_enough_when_they_tell_the_move_apart():
    for position in positions_of_real_games()[:40]:
        legal = position.legal_moves()
        for move in legal:
            same_ends = [m for m in legal if (m.start, m.end) == (move.start, move.end)]
            if len(same_ends) == 1:
                assert click_path(position, (move.start, move.end)).move == move
                assert drag(position, move.start, move.end).move == move


def test_a_capture_must_be_made():
    # pool, Black to move: 15x22 is the only legal move (captures are compulsory)
    position = Position.from_fen("B:W18,32:B15,1", "pool")
    assert [m.full_text() for m in position.legal_moves()] == ["15x22"]
    step = click(position, Entry(), 1)
    assert step.entry.squares == (1,)
    assert "cannot move: you must capture: 15x22" in step.message
    assert hints(position, Entry((15,))) == (22,)
    refused = click(position, Entry((1,)), 5)
    assert refused.move is None and refused.entry == Entry()
    assert refused.message.startswith("Refused: ")


@pytest.mark.parametrize("square, words", [
    (20, "20 is empty: click a Black piece"),
    (18, "Black to move: the piece on 18 is White's"),
])
def test_a_first_click_that_cannot_start_a_move_says_why(square, words):
    position = Position.from_fen("B:W18,32:B15,1", "pool")
    step = click(position, Entry(), square)
    assert step.message.startswith(words) and step.entry == Entry() and step.move is None


def test_clicking_the_last_square_again_takes_it_back():
    position = Position.start("pool")
    assert click(position, Entry((11,)), 11).entry == Entry()
