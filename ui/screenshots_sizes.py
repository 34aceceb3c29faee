"""Screenshots of the whole window at the sizes issue 19 names (1024x700, 1280x800,
1920x1080), every workspace and the Board's main states, into
``docs/screenshots/<W>x<H>/``. For each shot it also prints what the window hides
behind a toolbar's », cuts off or scrolls sideways (``tests/ui/layout_fit.py``
checks the same in the test suite).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m ui.screenshots_sizes [OUT_DIR]
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from .board.screenshots import RECORD, run_gap_demo  # noqa: E402
from .screenshots import OUT, grab  # noqa: E402

SIZES = ((1024, 700), (1280, 800), (1920, 1080))


def shoot(out: Path) -> list[Path]:
    app = QApplication.instance() or QApplication(["rulesbook-screenshots"])
    from rulesbook.datapath import bundled_data_dir

    from .controller import AppController
    from .mainwindow import MainWindow
    from .workspaces.board import BoardWorkspace

    saved: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RULESBOOK_CONFIG"] = str(Path(tmp) / "config")
        os.environ["RULESBOOK_AUTOSAVE_DIR"] = str(Path(tmp) / "autosave")
        data = Path(tmp) / "data"
        shutil.copytree(bundled_data_dir(), data,
                        ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
        controller = AppController()
        if not controller.load(data).ok:
            return saved
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        window = MainWindow(controller, settings)
        board = window.workspace(BoardWorkspace)
        board.confirm_close = lambda: "discard"
        board.confirm_replace = lambda _what: "discard"
        bc = board.board_controller
        window.show()
        for width, height in SIZES:
            folder = out / f"{width}x{height}"
            folder.mkdir(parents=True, exist_ok=True)
            window.resize(width, height)
            app.processEvents()

            def shot(name: str, folder: Path = folder) -> None:
                path = grab(window, folder / f"{name}.png")
                saved.append(path)
                print(path, *_misfits(window, name))

            controller.open_ref("28")
            shot("rules")
            controller.compare("28")
            shot("compare")
            window.show_workspace("editions")
            shot("editions")
            window.show_workspace("board")
            bc.editing.new_game()
            bc.editing.type_moves(RECORD)
            bc.go(6)
            board.panels.setCurrentIndex(0)
            shot("board-play")
            bc.check.run()
            shot("board-check")
            board.mode_actions["setup"].trigger()
            shot("board-setup")
            board.mode_actions["play"].trigger()
            run_gap_demo(board, bc)  # the interview's first question on screen
            shot("board-gap")
            window.show_workspace("rulings")
            shot("rulings")
            window.show_workspace("ballots")
            shot("ballots")
            bc.editing.new_game()
        bc.files.enabled = False
        window.close()
    return saved


def _misfits(window: QWidget, name: str) -> list[str]:
    try:
        from tests.ui.layout_fit import misfits
    except ImportError:  # an installed copy without the tests
        return []
    return [f"\n    {m.what}" for m in misfits(window, name)]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    shoot(Path(argv[0]) if argv else OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
