"""The Board's states a referee works in (issue 33), each put on the real window the
way a user gets there: a record played through, a record checked, set-up, a gap
searched with a long answer, the counts with every count running. The layout test
(tests/ui/test_layout_fit.py), the Tab test (tests/ui/test_keyboard.py) and the
screenshots of the review use the same states."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from tests.datapaths import CORPUS

#: Black has to capture 10x19 at ply 7 but plays 9-13 (a failure to capture)
PLANTED = "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20"
#: three kings against a lone king, which steps back and forth: the 13-count, the
#: stronger side's count and the repetition all run
COUNTS_FEN = "B:WK32:BK1,K2,K3"
COUNTS_MOVES = "1-5 32-28 5-1 28-32 1-5 32-28 5-1 28-32"
#: a board now six plies of kings away: thousands of sequences, the longest answer
GAP_FEN = "W:WK21:BK31,K22,K2"
BOARD_STATES = ("play", "check", "set-up", "gap", "counts")
CHECK_TAB, COUNTS_TAB, GAP_TAB = range(3)


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def put_board_in(window: Any, qtbot: Any, state: str) -> Any:
    """Show the Board in ``state``; returns the workspace."""
    window.show_workspace("board")
    ws = window.workspaces["board"]
    ws.confirm_close = lambda: "discard"
    ws.confirm_replace = lambda _what: "discard"
    bc = ws.board_controller
    if bc.mode == "setup":
        ws.toolbar.widgetForAction(ws.toolbar.mode_actions["play"]).click()
    if state == "play":
        assert ws.open_pdn(CORPUS / "english-tinsley-1946-1960s.pdn", 0)
        bc.go(min(10, len(bc.moves)))
        ws.panels.setCurrentIndex(CHECK_TAB)
    elif state == "check":
        bc.editing.new_game()
        assert bc.editing.type_moves(PLANTED)
        ws.check_panel.clocks.toggle.setChecked(True)  # the clock questions shown too
        qtbot.mouseClick(ws.check_button, Qt.MouseButton.LeftButton)
        assert bc.check.result is not None
    elif state == "set-up":
        bc.editing.new_game()
        ws.toolbar.widgetForAction(ws.toolbar.mode_actions["setup"]).click()
        assert bc.mode == "setup"
    elif state == "gap":
        from rulesbook.draughts import Position

        kings = Position.from_fen(GAP_FEN, "pool")
        bc.editing.new_game(start=kings)
        bc.set_target(kings)
        ws.panels.setCurrentIndex(GAP_TAB)
        ws.gap_panel.plies.setValue(6)
        with qtbot.waitSignal(bc.gap.finished, timeout=60000):
            qtbot.mouseClick(ws.gap_panel.search_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not bc.gap.running, timeout=5000)
        assert bc.gap.result is not None and (bc.gap.result.count or 0) > 200
    elif state == "counts":
        from rulesbook.draughts import Position

        bc.editing.new_game(start=Position.from_fen(COUNTS_FEN, "pool"))
        assert bc.editing.type_moves(COUNTS_MOVES)
        bc.go(len(bc.moves))
        ws.panels.setCurrentIndex(COUNTS_TAB)
        text = ws.counts_text()
        assert "of 13" in text and "stronger" in text and "3 times" in text, text
    else:
        raise ValueError(state)
    settle()
    return ws


def scale_font(app: QApplication, factor: float) -> QFont:
    """Scale the application's font by ``factor``; returns the font before."""
    before = QFont(app.font())
    font = QFont(before)
    font.setPointSizeF(before.pointSizeF() * factor)
    app.setFont(font)
    return before
