"""Issue 34 (retest): "Saved the case to /tmp/t34/…" on the Board's status line was
copied with the zero-width spaces that let it wrap (ui.widgets.breakable): a path
copied from the app was not the path. What is copied leaves them out."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

import ui.widgets
from tests.datapaths import REPO

PATH = "/tmp/t34/a-long-folder-name/cases/case-2026-12-03_draw.yaml"


def test_this_worktrees_ui_is_tested():
    # under pytest ``ui`` may be tests/ui and ``ui.widgets`` another checkout's
    assert Path(ui.widgets.__file__).resolve().is_relative_to(REPO / "ui"), ui.widgets.__file__


def select_all_and_copy(qtbot, label) -> str:
    clipboard = QGuiApplication.clipboard()
    clipboard.setText("before")
    label.setSelection(0, len(label.text()))
    label.setFocus()
    qtbot.keyClick(label, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    return clipboard.text()


def test_the_board_status_is_copied_without_its_break_opportunities(qtbot, window):
    ws = window.workspaces["board"]
    window.show_workspace("board")
    ws.show_status(f"Saved the case to {PATH}")
    assert "\u200b" in ws.status.text()  # it still wraps at the slashes
    assert select_all_and_copy(qtbot, ws.status) == f"Saved the case to {PATH}"


def test_a_breakable_label_copies_what_was_given(qtbot):
    from ui.widgets import BreakableLabel, breakable

    label = BreakableLabel(breakable(f"File: {PATH}"))
    qtbot.addWidget(label)
    label.show()
    assert label.text() != f"File: {PATH}"
    assert select_all_and_copy(qtbot, label) == f"File: {PATH}"
    assert "\u200b" in label.selectedText()  # what Qt itself would copy
    label.setSelection(6, len(label.text()) - 6)
    label.copy()
    assert QGuiApplication.clipboard().text() == PATH


#: a cancelled gap search's answer as the Board's status line was given it: six
#: lines under the board at 1024 x 700, which took the board's height
LONG = ("Search cancelled after 1,234,567 positions in 3.4 s: at least 12,345 sequences "
        "lead to the board (counted so far), more may exist; the first 200 found are "
        "listed; they first differ at ply 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14; to "
        "narrow them down, add a move the players agree on")


def test_a_long_status_takes_two_lines_and_keeps_the_board(qtbot, window):
    """The Board's status line shows at most two lines, the second cut with "…"; the
    whole text is in its tooltip and is what Select All copies; the board keeps
    its squares (a six-line answer moved it up and, on a short window, shrank it)."""
    window.resize(1024, 560)
    ws = window.workspaces["board"]
    window.show_workspace("board")
    ws.show_status("Ready")
    qtbot.wait(50)
    square = ws.board.square_rect(1).size()
    line = ws.status.fontMetrics().lineSpacing()
    ws.show_status(LONG)
    qtbot.wait(50)
    assert ws.status.height() <= 2 * line + 8, (ws.status.height(), line)
    assert ws.status.text().endswith("…") and len(ws.status.text()) < len(LONG)
    assert "<p>Search cancelled after" in ws.status.toolTip()
    assert "agree on" in ws.status.toolTip()
    assert ws.board.square_rect(1).size() == square
    assert select_all_and_copy(qtbot, ws.status) == LONG
    assert ws.status_text() == LONG
    ws.show_status("Saved")  # a short one is shown whole
    qtbot.wait(20)
    assert ws.status.text() == "Saved"


def test_a_status_cut_at_two_lines_grows_back_when_wider(qtbot):
    from ui.widgets import BreakableLabel

    label = BreakableLabel(LONG, max_lines=2)
    qtbot.addWidget(label)
    label.resize(300, 60)
    label.show()
    qtbot.wait(20)
    assert label.text().endswith("…")
    label.resize(4000, 60)
    qtbot.wait(20)
    assert label.text() == LONG
