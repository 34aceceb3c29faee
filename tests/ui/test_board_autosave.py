"""Autosave and recovery of the Board workspace (real widgets, offscreen): a crash
recovered, the question before closing, two apps at once, a live owner."""
from __future__ import annotations

import json

from PySide6.QtWidgets import QApplication

from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    click_square,
    private_autosave_dir,
)


def test_autosave_survives_a_crash_and_is_recovered(qtbot, controller, settings,
                                                   autosave_dir):
    from ui.mainwindow import MainWindow
    from ui.workspaces.board import BoardWorkspace

    first = BoardWorkspace(controller)
    first.show()
    bc = first.board_controller
    bc.editing.type_moves("11-15 23-19 8-11")
    click_square(qtbot, first, 22)
    click_square(qtbot, first, 17)
    bc.editing.set_comment(2, "the referee saw this")
    saved = json.loads((autosave_dir / "board-autosave.json").read_text(encoding="utf-8"))
    assert saved["dirty"] and [m if isinstance(m, str) else m["text"]
                               for m in saved["moves"]] == ["11-15", "23-19", "8-11", "22-17"]
    # the app dies: the widget is dropped without being closed
    first.hide()
    first.deleteLater()
    del first, bc
    QApplication.processEvents()

    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    board = win.workspaces["board"]
    board.confirm_close = lambda: "discard"
    restored = board.board_controller
    assert [m.text for m in restored.moves] == ["11-15", "23-19", "8-11", "22-17"]
    assert restored.moves[1].comment == "the referee saw this"
    assert restored.dirty
    assert board.banner.isVisibleTo(board)
    assert "Restored" in board.banner_label.text()


def test_ask_before_closing_with_unsaved_changes(qtbot, controller, settings, autosave_dir):
    from ui.mainwindow import MainWindow

    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    board = win.workspaces["board"]
    win.show_workspace("board")
    board.board_controller.editing.type_moves("11-15")
    asked = []
    board.confirm_close = lambda: asked.append(1) or "cancel"
    assert not win.close()
    assert asked and win.isVisible()
    assert (autosave_dir / "board-autosave.json").exists()
    board.confirm_close = lambda: "discard"
    assert win.close()
    assert not (autosave_dir / "board-autosave.json").exists()


def test_two_apps_running_at_once_keep_separate_autosaves(qtbot, autosave_dir):
    """A second app does not take over the first one's live autosave, and neither
    overwrites the other; once the first is gone, its work is offered. "Running"
    is the OS lock on the autosave (held by a child process here), not a pid."""
    import subprocess
    import sys

    from ui.autosave import owner_lock_path, release
    from ui.board.controller import AUTOSAVE_NAME, BoardController

    first = BoardController()
    first.files.autosave()
    live = autosave_dir / AUTOSAVE_NAME
    data = json.loads(live.read_text(encoding="utf-8"))
    data["dirty"] = True
    live.write_text(json.dumps(data), encoding="utf-8")
    release(live)  # this process lets go; the other app (a child) takes the lock
    other = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(owner_lock_path(live))],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"
        before = live.read_bytes()
        second = BoardController()
        with qtbot.waitSignal(second.statusMessage) as said:
            assert second.files.recoverable() is None
        assert "still running" in said.args[0] and str(live) in said.args[0]
        assert second.files.autosave()
        assert second.files.autosave_path != live and live.read_bytes() == before
    finally:
        other.kill()
        other.wait()
        if other.stdout is not None:
            other.stdout.close()
    third = BoardController()  # the other app is gone: its unsaved work is offered
    found = third.files.recoverable()
    assert found is not None and third.files.autosave_path == live


def test_a_live_process_with_the_recorded_pid_does_not_hide_a_recovery(qtbot, autosave_dir):
    """After a reboot the pid written in an autosave may belong to any process:
    the work must still be offered (main treated it as "in use" and hid it)."""
    import subprocess
    import sys

    from ui.board.controller import AUTOSAVE_NAME, BoardController

    first = BoardController()
    first.files.autosave()
    first.files.discard_autosave()  # releases the lock, as a crash would
    live = autosave_dir / AUTOSAVE_NAME
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        session = first.files.to_session()
        session["dirty"] = True
        session["pid"] = stranger.pid  # a live process that is no Rulesbook
        live.write_text(json.dumps(session), encoding="utf-8")
        found = BoardController().files.recoverable()
        assert found is not None and found["pid"] == stranger.pid
    finally:
        stranger.kill()
        stranger.wait()


#: A child process that holds an owner lock (as another running app does).
HOLD_LOCK = ("import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, "
             "0o600); fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)")
