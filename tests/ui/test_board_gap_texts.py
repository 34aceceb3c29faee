"""Counts in the Gap tab's texts (real widgets, offscreen): a gap of one ply reads
"1 ply", never "1 plies" (issue 21, a referee's check). The counts are those of
the gap the test sets up (one ply missing), not read off the program."""
from __future__ import annotations

import re

from PySide6.QtCore import Qt

from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    private_autosave_dir,
)

#: what no text of the tab may say
WRONG = re.compile(r"(?<![0-9,])1 (\w+ )?(plies|sequences|positions|moves)\b|\(s\)")


def test_the_number_of_missing_plies_reads_in_the_singular(qtbot, ws):
    spin = ws.gap_plies
    spin.setFocus()
    spin.setValue(3)
    qtbot.keyClick(spin, Qt.Key.Key_Down)
    qtbot.keyClick(spin, Qt.Key.Key_Down)
    assert spin.value() == 1 and spin.text() == "1 ply missing"
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert spin.text() == "2 plies missing"


def test_a_one_ply_gap_searched_and_adopted_says_one_ply(qtbot, ws):
    bc = ws.board_controller
    bc.editing.type_moves("11-15")
    board_now = bc.position().play("23-19")
    assert bc.gap.mark_board_now(board_now)
    said: list[str] = []
    bc.gap.statusMessage.connect(said.append)
    ws.gap_kind.setCurrentIndex(0)  # exactly
    ws.gap_plies.setValue(1)
    with qtbot.waitSignal(bc.gap.finished, timeout=20000):
        qtbot.mouseClick(ws.gap_search_button, Qt.MouseButton.LeftButton)
    assert "Searching the missing 1 ply…" in said
    assert "exactly one sequence of 1 ply: 23-19" in ws.gap_explanation.text()
    qtbot.mouseClick(ws.gap_adopt_button, Qt.MouseButton.LeftButton)
    assert bc.position() == board_now
    assert said[-1] == "Adopted 1 ply: 23-19"
    shown = [ws.gap_explanation.text(), ws.gap_progress.text(), ws.status_text(), *said]
    assert not any(WRONG.search(text) for text in shown), shown


def test_a_bounded_search_says_how_many_plies_at_most(qtbot, ws):
    bc = ws.board_controller
    bc.editing.type_moves("11-15")
    assert bc.gap.mark_board_now(bc.position().play("23-19"))
    said: list[str] = []
    bc.gap.statusMessage.connect(said.append)
    ws.gap_kind.setCurrentIndex(1)  # at most
    ws.gap_plies.setValue(1)
    with qtbot.waitSignal(bc.gap.finished, timeout=20000):
        qtbot.mouseClick(ws.gap_search_button, Qt.MouseButton.LeftButton)
    assert "Searching up to 1 missing ply…" in said
    assert not any(WRONG.search(text) for text in said), said
