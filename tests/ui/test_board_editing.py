"""Editing the record through the Board's widgets: every edit is one undo step
(typed moves, a move clicked, a comment, another variant, a record started from a
set-up), a comment leaves the check standing, and Export PDN writes what was typed.
The expected records are the moves the test typed or clicked, nothing the
program printed."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from rulesbook.draughts import Position
from rulesbook.reconstruct import import_record
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    PLANTED,
    board_workspace,
    click_square,
    private_autosave_dir,
)


def typed(qtbot, ws, text: str) -> None:
    ws.move_entry.clear()
    qtbot.keyClicks(ws.move_entry, text)
    qtbot.keyClick(ws.move_entry, Qt.Key.Key_Return)


def texts(ws) -> list[str]:
    return [m.text for m in ws.board_controller.moves]


def test_every_edit_is_one_undo_step(qtbot, ws):
    bc = ws.board_controller
    typed(qtbot, ws, "11-15 23-19")
    click_square(qtbot, ws, 8)   # Black's 8-11, a legal reply, by two clicks
    click_square(qtbot, ws, 11)
    assert texts(ws) == ["11-15", "23-19", "8-11"]
    bc.editing.set_comment(2, "the usual reply")
    assert bc.moves[1].comment == "the usual reply"
    english = ws.variant_combo.findData("english")
    ws.variant_combo.setCurrentIndex(english)
    ws.variant_combo.activated.emit(english)
    assert bc.variant.name == "english" and texts(ws) == ["11-15", "23-19", "8-11"]

    ws.undo_action.trigger()  # the variant
    assert bc.variant.name == "pool" and bc.moves[1].comment == "the usual reply"
    ws.undo_action.trigger()  # the comment
    assert bc.moves[1].comment == "" and texts(ws) == ["11-15", "23-19", "8-11"]
    ws.undo_action.trigger()  # the move clicked
    assert texts(ws) == ["11-15", "23-19"]
    ws.undo_action.trigger()  # both typed moves were one edit
    assert texts(ws) == [] and not ws.undo_action.isEnabled()


def test_a_record_started_from_a_set_up_position_is_undone_in_one_step(qtbot, ws):
    bc = ws.board_controller
    typed(qtbot, ws, "11-15 23-19")
    ws.mode_actions["setup"].trigger()
    ws.fen_edit.setText("W:W22:B11,18")
    qtbot.keyClick(ws.fen_edit, Qt.Key.Key_Return)
    ws.confirm_replace = lambda _what: "discard"
    qtbot.mouseClick(ws.use_start_button, Qt.MouseButton.LeftButton)
    assert bc.mode == "play" and bc.moves == ()
    assert bc.start == Position.from_fen("W:W22:B11,18")
    ws.undo_action.trigger()
    assert texts(ws) == ["11-15", "23-19"] and bc.start == Position.start("pool")


def test_a_comment_leaves_the_check_standing(qtbot, ws):
    bc = ws.board_controller
    typed(qtbot, ws, PLANTED)
    qtbot.mouseClick(ws.check_button, Qt.MouseButton.LeftButton)
    # PLANTED: Black has to capture 10x19 at ply 7 but plays 9-13
    assert ws.marked_plies() == [7] and bc.mode == "check"
    bc.editing.set_comment(7, "the referee was called here")
    assert ws.marked_plies() == [7] and bc.mode == "check"
    assert "9-13" in ws.check_view.toPlainText()
    typed(qtbot, ws, "24-20")  # a move: the check no longer applies
    assert ws.marked_plies() == [] and ws.check_view.toPlainText() == ""


def test_export_pdn_writes_the_record_typed(qtbot, ws, tmp_path, monkeypatch):
    typed(qtbot, ws, "11-15 23-19 8-11")
    ws.board_controller.editing.set_comment(2, "a comment {with braces}")
    target = tmp_path / "exported.pdn"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *_a, **_k: (str(target), "")))
    ws.export_action.trigger()
    # the record had no GameType: the one written (the board's variant) is said
    assert ws.status_text() == (f'Exported {target} — GameType "23,B,8,8,N1,0" written: the '
                                f"record had no GameType tag; the board plays it as pool "
                                f"checkers")
    assert '[GameType "23,B,8,8,N1,0"]' in target.read_text(encoding="utf-8")
    back = import_record(target.read_text(encoding="utf-8"), 0, None).record
    assert [m.text for m in back.moves] == ["11-15", "23-19", "8-11"]
    assert "with braces" in back.moves[1].comment


def test_comments_and_variations_typed_with_the_moves_are_kept(qtbot, ws):
    # what the user typed in braces and parentheses stays with the move it
    # follows (nothing typed is lost); the variation is not played
    bc = ws.board_controller
    typed(qtbot, ws, "{Old Faithful} 11-15 {the usual} 23-19 (22-18 15x22) 8-11")
    assert texts(ws) == ["11-15", "23-19", "8-11"]
    assert bc.record.comment == "Old Faithful"
    assert bc.moves[0].comment == "the usual"
    assert bc.moves[1].variations == ("22-18 15x22",)
    ws.board_controller.go(1)
    assert "the usual" in ws.comment_view.toPlainText()
    # typed later, a leading comment belongs to the move before
    typed(qtbot, ws, "{a slip} 21-17")
    assert bc.moves[0].comment == "the usual a slip" and texts(ws)[1] == "21-17"
    ws.undo_action.trigger()
    assert bc.moves[0].comment == "the usual" and texts(ws) == ["11-15", "23-19", "8-11"]


def test_a_typed_move_that_cannot_stand_says_why_at_once(qtbot, ws):
    # "garbage" is no move; 11-33 names no square; 9-13 in the planted record is
    # a failure to capture: the status says so when the moves are added
    typed(qtbot, ws, "11-15 garbage")
    assert "garbage" in ws.status_text() and "cannot be read" in ws.status_text()
    ws.board_controller.editing.new_game()
    typed(qtbot, ws, PLANTED)
    assert "Black had to capture: 10x19" in ws.status_text()


def test_attack_a_gametype_read_is_exported_verbatim_and_none_is_added_silently(
        qtbot, ws, tmp_path, monkeypatch):
    """Issue 31 retest, item 4: a record with [GameType "21"] was exported with
    [GameType "21,B,8,8,N1,0"]; the writer writes the GameType the record had."""
    from PySide6.QtGui import QGuiApplication

    QGuiApplication.clipboard().setText('[Event "x"]\n[GameType "21"]\n\n1. 11-15 23-19 *\n')
    ws.paste_action.trigger()
    assert ws.board_controller.variant.name == "english"
    target = tmp_path / "exported.pdn"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *_a, **_k: (str(target), "")))
    ws.export_action.trigger()
    text = target.read_text(encoding="utf-8")
    assert '[GameType "21"]' in text and "21,B" not in text, text
    assert ws.status_text() == f"Exported {target}"
