"""Fixtures for the UI tests: offscreen Qt, settings and logs in temporary folders."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402

from rulesbook.datapath import bundled_data_dir  # noqa: E402


@pytest.fixture(autouse=True)
def private_settings(tmp_path, monkeypatch):
    """Never touch the real user's settings or log folder."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      str(tmp_path / "qsettings"))
    monkeypatch.setenv("RULESBOOK_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setenv("RULESBOOK_AUTOSAVE_DIR", str(tmp_path / "autosave"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("RULESBOOK_CONFIG", str(tmp_path / "config" / "rulesbook"))  # keys
    yield


@pytest.fixture
def settings(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "rulesbook.ini"), QSettings.Format.IniFormat)


def copy_data(target: Path) -> Path:
    shutil.copytree(bundled_data_dir(), target,
                    ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    return target


@pytest.fixture
def two_editions(tmp_path) -> Path:
    """A data folder whose editions.yaml has a second edition adopting apca:28A
    (by a signed, sealed ballot, as `ballot adopt` writes it: the edition chain
    refuses an edition entered by hand)."""
    from tests.ballots.helpers import adopt_edition

    folder = copy_data(tmp_path / "two-editions")
    adopt_edition(folder, "second", {"28": "28A"}, title="Second edition (test)",
                  date="2026-06-01")
    return folder


@pytest.fixture
def controller(qapp):
    from ui.controller import AppController

    ctrl = AppController()
    result = ctrl.load()
    assert result.ok, result.problems
    return ctrl


@pytest.fixture
def window(qtbot, controller, settings):
    from ui.mainwindow import MainWindow

    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


@pytest.fixture
def open_ballots(qtbot, settings):
    """Start "the app" on a data folder and return (window, ballots workspace); each
    call is a new session. Dialogs that would block a test answer "discard"."""
    from ui.controller import AppController
    from ui.mainwindow import MainWindow

    def start(data: Path):
        controller = AppController()
        assert controller.load(data).ok
        win = MainWindow(controller, settings)
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        ws = win.workspaces["ballots"]
        ws.ask_unsaved = lambda: "discard"
        win.workspaces["board"].confirm_close = lambda: "discard"
        return win, ws

    return start
