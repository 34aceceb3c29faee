"""Screenshots of the Board workspace in play, set-up and check modes (offscreen).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m ui.board.screenshots [OUT_DIR]
(``ui/screenshots.py`` has no registration hook, so the board has its own.)
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

if TYPE_CHECKING:
    from ..workspaces.board import BoardWorkspace
    from .controller import BoardController

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
#: a record with a failure to capture at ply 7 (Black had to take 10x19)
RECORD = "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20"
PLAY = "11-15 23-19 8-11 22-17 9-14 17-13 4-8 25-22 15-18 22x15 11x18 19-15"
#: a record that stops after 2 plies while the board shows 6 more (three sequences)
GAP_RECORD = "11-15 23-19"
GAP_MISSING = "8-11 22-17 4-8 17-13 15-18 24-20"


def set_up_gap_demo(bc: BoardController) -> None:
    """Gap filling as the screenshots show it: the record stops after two plies, the
    board (marked as the board now) shows six more."""
    bc.editing.new_game()
    bc.editing.type_moves(GAP_RECORD)
    target = bc.position()
    for text in GAP_MISSING.split():
        target = target.play(text)
    bc.gap.mark_board_now(target)


def run_gap_demo(ws: BoardWorkspace, bc: BoardController) -> None:
    """The gap demo searched on the Gap tab, its interview's first question asked and
    the second sequence previewed where the sequences part."""
    app = QApplication.instance()
    set_up_gap_demo(bc)
    ws.panels.setCurrentIndex(2)  # the panels' column has the whole height (issue 33)
    ws.gap_kind.setCurrentIndex(0)
    ws.gap_plies.setValue(len(GAP_MISSING.split()))
    ws.start_gap()
    bc.gap.wait(60000)
    for _ in range(20):
        if app is not None:
            app.processEvents()
        if bc.gap.result is not None:
            break
        QTest.qWait(50)
    if bc.gap.result is not None and len(bc.gap.result.sequences) > 1:
        ws.gap_list.setCurrentRow(1)
        bc.gap.preview_go(2)  # the position where the sequences part


def shoot(out: Path, size: tuple[int, int] = (1200, 760)) -> list[Path]:
    """Save board-play.png, board-setup.png, board-check.png and board-gap.png into
    ``out``."""
    app = QApplication.instance() or QApplication(["rulesbook-board-screenshots"])
    from ..controller import AppController
    from ..screenshots import grab
    from ..workspaces.board import BoardWorkspace
    from .controller import BoardController

    out.mkdir(parents=True, exist_ok=True)
    saved = []
    with tempfile.TemporaryDirectory() as tmp:
        controller = AppController()
        controller.load()
        bc = BoardController(autosave_path=Path(tmp) / "autosave.json")
        ws = BoardWorkspace(controller, board_controller=bc)
        bc.setParent(ws)
        ws.confirm_close = lambda: "discard"
        ws.resize(*size)
        ws.show()
        QTest.qWaitForWindowExposed(ws)

        def shot(name: str) -> None:
            saved.append(grab(ws, out / f"{name}.png", settle_ms=20))

        bc.editing.type_moves(PLAY)
        bc.go(len(bc.moves))
        bc.input.click_square(10)  # select a piece: its moves are hinted (10x19)
        shot("board-play")
        bc.set_mode("setup")
        bc.setup.clear()
        for square, tool in ((30, "black-king"), (22, "black-king"), (2, "black-king"),
                             (21, "white-king"), (15, "black-man"), (27, "white-man")):
            bc.setup.set_tool(tool)
            bc.input.click_square(square)
        bc.setup.set_tool("white-king")
        bc.setup.set_turn(bc.setup.turn.opponent)
        ws.numbers_action.setChecked(True)
        ws.board.set_show_numbers(True)
        shot("board-setup")
        ws.numbers_action.setChecked(False)
        ws.board.set_show_numbers(False)
        bc.editing.new_game()
        bc.editing.type_moves(RECORD)
        bc.check.run()
        ws.clock_toggle.setChecked(True)
        ws.clock_black.setText("18:40")
        ws.clock_white.setText("21:05")
        ws.clock_control.setValue(30)
        shot("board-check")
        run_gap_demo(ws, bc)
        shot("board-gap")
        bc.files.enabled = False
        ws.close()
        ws.deleteLater()
        app.processEvents()
    return saved


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for path in shoot(Path(argv[0]) if argv else OUT):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
