"""The move entry under the record (real widgets, offscreen): a word that cannot be
read as a move is not counted as one added (issue 21, a referee's check). It is
named with the notation module's reason, and it and what follows stay in the
entry, selected, to be corrected. The expected moves are the ones the test
typed; the expected reason is what :func:`rulesbook.draughts.notation.read_move`
says of the word."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from rulesbook.draughts.notation import NotationError, read_move
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    private_autosave_dir,
)


def reason(word: str) -> str:
    with pytest.raises(NotationError) as caught:
        read_move(word)
    return caught.value.explanation


def typed(qtbot, ws, text: str) -> None:
    ws.move_entry.clear()
    qtbot.keyClicks(ws.move_entry, text)
    qtbot.keyClick(ws.move_entry, Qt.Key.Key_Return)


def texts(ws) -> list[str]:
    return [m.text for m in ws.board_controller.moves]


def test_a_word_that_is_no_move_is_not_counted_and_is_left_to_correct(qtbot, ws):
    typed(qtbot, ws, "11-15 23-19 8-1l 22-17")  # a letter l typed for the figure 1
    assert texts(ws) == ["11-15", "23-19"]
    status = ws.status_text()
    assert status.startswith("Added 2 moves")
    assert f"'8-1l' cannot be read as a move: {reason('8-1l')}" in status
    assert ws.move_entry.text() == "8-1l 22-17"
    assert ws.move_entry.selectedText() == "8-1l"
    # typing over the selected word corrects it; Enter adds the rest
    qtbot.keyClicks(ws.move_entry, "8-11")
    qtbot.keyClick(ws.move_entry, Qt.Key.Key_Return)
    assert texts(ws) == ["11-15", "23-19", "8-11", "22-17"]
    assert ws.status_text().startswith("Added 2 moves") and ws.move_entry.text() == ""


def test_one_move_then_a_square_that_does_not_exist(qtbot, ws):
    typed(qtbot, ws, "11-15 11-33")
    assert texts(ws) == ["11-15"]
    status = ws.status_text()
    assert status.startswith("Added 1 move.") and "(s)" not in status
    assert f"'11-33' cannot be read as a move: {reason('11-33')}" in status
    assert ws.move_entry.text() == "11-33"


def test_nothing_readable_first_adds_nothing_and_keeps_what_was_typed(qtbot, ws):
    typed(qtbot, ws, "{from the scoresheet} garbage 11-15")
    assert texts(ws) == []
    assert ws.status_text() == (f"No move added: 'garbage' cannot be read as a move: "
                                f"{reason('garbage')}")
    assert ws.move_entry.text() == "{from the scoresheet} garbage 11-15"
    assert ws.move_entry.selectedText() == "garbage"


def test_an_illegal_move_is_still_kept_as_written(qtbot, ws):
    # a move that can be read but not played stands in the record (Check Record
    # reports it): only a word that is no move at all is refused
    typed(qtbot, ws, "11-15 23-19 15-11")  # Black's man on 15 moving back
    assert texts(ws) == ["11-15", "23-19", "15-11"]
    status = ws.status_text()
    assert status.startswith("Added 3 moves")
    assert "15-11" in status and ws.move_entry.text() == ""
