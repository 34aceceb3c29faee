"""``Rulesbook --smoke-test FILE OUTDIR``: the installed app checks itself as a referee
uses it, then quits (how the bundle's test and the CI workflow see that a built
bundle works on a computer that has no Python).

Once the window is shown on the rules folder (made from the seed on a first
start), through the real widgets: the Board opens game ``--smoke-game N`` of
the PDN file FILE (what File ▸ Open PDN does once a file is chosen), "Check
record" is clicked, the first illegal move is read from the board, the case is
saved as ``OUTDIR/case.yaml`` and, from "Rulings for This Incident", the
dispute report as ``OUTDIR/report.html``. What was found is written to
``OUTDIR/smoke.json`` (a windowed app on Windows has no standard output); the
exit code is 0 when every step did what it should, 1 otherwise (the reason in
``smoke.json``'s ``error``).
"""
from __future__ import annotations

import json
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    from .app import Launcher

__all__ = ["RESULT", "SmokeTest"]

RESULT = "smoke.json"


class SmokeTest:
    """The ``when_ready`` callback of :func:`ui.app.main` for ``--smoke-test``."""

    def __init__(self, record: str | Path, outdir: str | Path, game: int = 1,
                 started: float | None = None):
        self.record = Path(record).resolve()
        self.outdir = Path(outdir).resolve()
        self.game = game
        self.started = started

    def __call__(self, app: QApplication, launcher: Launcher) -> None:
        result: dict[str, Any] = {"ok": False}
        code = 1
        try:
            result.update(self.run(launcher))
            result["ok"] = True
            code = 0
        except Exception as exc:  # noqa: BLE001 - reported in smoke.json, never a dialog
            result["error"] = f"{type(exc).__name__}: {exc}"
            result["traceback"] = traceback.format_exc()
        self.outdir.mkdir(parents=True, exist_ok=True)
        (self.outdir / RESULT).write_text(json.dumps(result, indent=2), encoding="utf-8")
        app.exit(code)

    def run(self, launcher: Launcher) -> dict[str, Any]:
        from rulesbook.version import frozen, version

        window = launcher.window
        ready = None if self.started is None or launcher.ready_at is None else \
            round(launcher.ready_at - self.started, 3)
        from .workspaces.board import BoardWorkspace
        from .workspaces.rulings import RulingsWorkspace

        window.show_workspace("board")
        board = window.workspaces["board"]
        rulings = window.workspaces["rulings"]
        assert isinstance(board, BoardWorkspace) and isinstance(rulings, RulingsWorkspace)
        board.confirm_replace = lambda _what: "cancel"  # never replace work of the user's
        if not board.open_pdn(self.record, self.game - 1):
            raise SmokeFailed(f"the Board did not open game {self.game} of {self.record}: "
                              f"{board.status_text()}")
        moves = len(board.board_controller.moves)
        board.check_button.click()
        illegal = board.board_controller.check.first_illegal
        if illegal is None:
            raise SmokeFailed(f"Check record found no illegal move: {board.status_text()}")
        self.outdir.mkdir(parents=True, exist_ok=True)
        case = self.outdir / "case.yaml"
        if not board.save_case(case) or not case.is_file():
            raise SmokeFailed(f"the case was not saved: {board.status_text()}")
        board.rulings_button.click()
        report = rulings.save_report("html", str(self.outdir / "report.html"))
        if report is None:
            raise SmokeFailed("the dispute report was not saved")
        return {"version": version(), "frozen": frozen(), "data_dir": str(window.controller.data_dir),
                "record": str(self.record), "game": self.game, "plies": moves,
                "illegal": {"ply": illegal.ply, "move": illegal.move, "message": illegal.message},
                "status": board.status_text(), "case": str(case), "report": str(report),
                "ready_seconds": ready, "finished_at": time.time()}


class SmokeFailed(Exception):
    """A step of the smoke test did not do what it should."""
