"""Issue #14 on the Board: files read by the one decoding policy, and the
import/paste refusal of text in which no move can be read. Driven through the
real widgets (the toolbar's Paste Record action, the status line)."""
from __future__ import annotations

import random

import pytest
from PySide6.QtGui import QGuiApplication

from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    private_autosave_dir,
    wait_read,
)

LEGAL = '[Event "club"]\n[Black "Ann"]\n[White "Bob"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n'


def paste(ws, text: str) -> None:
    QGuiApplication.clipboard().setText(text)
    ws.paste_action.trigger()


def test_a_pdn_file_with_a_bom_opens_as_the_game_it_is(ws, tmp_path):
    path = tmp_path / "bom.pdn"
    path.write_bytes(b"\xef\xbb\xbf" + LEGAL.encode("utf-8"))
    assert ws.open_pdn(path)
    bc = ws.board_controller
    assert [m.text for m in bc.moves] == ["11-15", "23-19", "8-11", "22-17"]
    assert bc.record.tags.get("Black") == "Ann"


def test_a_windows_1252_file_opens_with_a_warning_naming_it(ws, tmp_path):
    path = tmp_path / "cp1252.pdn"
    path.write_bytes(LEGAL.replace("Ann", "Ren\xe9e").encode("cp1252"))
    assert ws.open_pdn(path)
    assert ws.board_controller.record.tags.get("Black") == "Renée"
    assert "cp1252.pdn" in ws.status_text() and "Windows-1252" in ws.status_text()


@pytest.mark.parametrize("text, found", [
    ("hello world 99-100", "line 1 col 1: 'hello' is not a move"),
    ("\n\n  %&/(§ zz-yy", "line 3 col 3"),
])
def test_paste_refuses_text_with_no_readable_move(ws, text, found):
    paste(ws, LEGAL)
    before = [m.text for m in ws.board_controller.moves]
    assert before  # a record is on the board
    paste(ws, text)
    assert [m.text for m in ws.board_controller.moves] == before  # nothing imported
    status = ws.status_text()
    assert "Cannot import" in status and "no move can be read" in status and found in status


def test_paste_refuses_random_bytes(ws, qtbot):
    # fixed bytes (seeded): the same input on every run
    junk = random.Random(14).randbytes(4096).decode("latin-1").replace("\x00", "")
    paste(ws, junk)
    wait_read(qtbot, ws)  # a long text is read off the GUI thread
    assert ws.board_controller.moves == ()
    assert "no move can be read" in ws.status_text()


def test_a_record_with_one_readable_move_is_still_imported(ws):
    """Refusal is only for text with no move at all: bad moves are for Check record."""
    paste(ws, "11-15 hello 23-19")
    assert [m.text for m in ws.board_controller.moves] == ["11-15", "hello", "23-19"]


def test_a_flush_failure_after_the_rename_says_the_case_was_saved(ws, tmp_path, monkeypatch):
    from rulesbook import storage

    def fail(_folder):
        raise OSError(5, "Input/output error")

    paste(ws, LEGAL)
    monkeypatch.setattr(storage, "_fsync_dir", fail)
    path = tmp_path / "case.yaml"
    assert ws.board_controller.files.save_case(path) == path
    assert path.exists() and "was saved" in ws.status_text()
    assert "Cannot save" not in ws.status_text()


def test_a_restore_shows_the_autosaves_time_and_is_announced_on_any_workspace(
        qtbot, controller, settings, autosave_dir):
    """After a crash the banner gives the time the autosave was written (from the
    file, not the new session's start), and the main window says at start that
    work was restored while another workspace is shown."""
    import json

    from ui.mainwindow import MainWindow
    from ui.workspaces.board import BoardWorkspace

    first = BoardWorkspace(controller)
    first.board_controller.editing.type_moves("11-15 23-19")
    path = autosave_dir / "board-autosave.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["saved_at"] = "2001-02-03 04:05:06"  # a time no new session can have
    path.write_text(json.dumps(data), encoding="utf-8")
    first.hide()
    first.deleteLater()  # the app dies without closing
    del first
    QGuiApplication.processEvents()

    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    board = win.workspaces["board"]
    board.confirm_close = lambda: "discard"
    win.show()
    assert "autosaved 2001-02-03 04:05:06" in board.banner_label.text()
    assert win.stack.currentWidget() is not board
    notice = win.findChild(type(win.edition_status), "start-notice")
    assert notice is not None and notice.isVisibleTo(win)
    assert "restored" in notice.text() and "2001-02-03 04:05:06" in notice.text()


def test_the_board_header_shows_a_bidi_override_as_its_code(ws):
    """Issue 34: a PDN White tag holding U+202E was shown raw in the Board's header
    (the names after it read backwards)."""
    assert ws.import_text('[Black "Ann"]\n[White "\u202eecilA"]\n[Event "Open\u200b"]\n\n'
                          '1. 11-15 *\n', source="bidi.pdn")
    title = ws.record_title.text()
    assert "<U+202E>ecilA" in title or "&lt;U+202E&gt;ecilA" in title
    assert "\u202e" not in title and "\u200b" not in title
