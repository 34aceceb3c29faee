"""What the Board workspace tests share: the planted record, a workspace shown
offscreen, clicks on a square, and a private autosave folder. A test module uses
the fixtures by importing them: ``from tests.ui.board_helpers import
board_workspace, private_autosave_dir  # noqa: F401`` (fixtures ``ws`` and
``autosave_dir``)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

#: Black has to capture 10x19 at ply 7 but plays 9-13 (a failure to capture)
PLANTED = "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20"


@pytest.fixture(name="autosave_dir", autouse=True)
def private_autosave_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never autosave into the real user's app data folder (autouse where imported)."""
    folder = tmp_path / "autosave"
    monkeypatch.setenv("RULESBOOK_AUTOSAVE_DIR", str(folder))
    return folder


def make_workspace(qtbot: Any, controller: Any) -> Any:
    from ui.workspaces.board import BoardWorkspace

    ws = BoardWorkspace(controller)
    ws.confirm_close = lambda: "discard"
    qtbot.addWidget(ws)
    ws.resize(1100, 720)
    ws.show()
    qtbot.waitExposed(ws)
    return ws


@pytest.fixture(name="ws")
def board_workspace(qtbot: Any, controller: Any) -> Iterator[Any]:
    """A shown Board workspace, its controller shut down afterwards."""
    ws = make_workspace(qtbot, controller)
    yield ws
    ws.board_controller.shutdown()


def click_square(qtbot: Any, ws: Any, square: int,
                 button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    qtbot.mouseClick(ws.board, button, pos=ws.board.square_rect(square).center())


def wait_read(qtbot: Any, ws: Any, timeout: int = 60000) -> None:
    """Wait for a long record being read off the GUI thread to be shown or refused."""
    qtbot.waitUntil(lambda: ws.board_controller.files.reading is None, timeout=timeout)
