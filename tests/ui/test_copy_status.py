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
