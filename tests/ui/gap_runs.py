"""The real Gap tab searching a real gap, for the tests of its progress and its
Cancel (issue 30, Must 5): 20 plies of an English game of the Tinsley
collection (from ply 20, ``bench/gap_cases.py``), set up on the board and
searched by clicking Search, as a referee does."""
from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gap_cases import GapCase, english_cases  # noqa: E402 - the bench's corpus cases

#: the issue's bound: a cancel shows its answer within half a second, and the
#: progress shown changes at least as often
PROMPT = 0.5
#: "at least N sequences lead to the board", as the tab says it
AT_LEAST = re.compile(r"at least ([0-9,]+) sequences? leads? to the board")


def tinsley(name: str, plies: int = 20) -> GapCase:
    return next(c for c in english_cases(plies, 100) if c.name == name)


@dataclass
class GapRun:
    """What the tab showed of one search: each report (the time it arrived,
    what it said, the label's text then), and the answer."""

    began: float = 0.0
    reports: list[tuple[float, Any, str]] = field(default_factory=list)
    finished: list[Any] = field(default_factory=list)
    finished_at: float = 0.0


def start(qtbot: Any, ws: Any, case: GapCase, plies: int = 20) -> GapRun:
    """Set the case up and click Search."""
    bc = ws.board_controller
    bc.editing.new_game("english", case.earlier)
    assert bc.gap.mark_board_now(case.board)
    run = GapRun()

    def shown(progress: Any) -> None:
        run.reports.append((time.monotonic(), progress, ws.gap_explanation.text()))

    def finished(result: Any) -> None:
        run.finished_at = time.monotonic()
        run.finished.append(result)

    bc.gap.progressShown.connect(shown)
    bc.gap.finished.connect(finished)
    ws.gap_kind.setCurrentIndex(0)
    ws.gap_plies.setValue(plies)
    run.began = time.monotonic()
    qtbot.mouseClick(ws.gap_search_button, Qt.MouseButton.LeftButton)
    assert bc.gap.running and ws.gap_cancel_button.isEnabled()
    return run


def counted_at_least(text: str) -> int | None:
    """N of "at least N sequences lead to the board" in ``text`` (None: not said)."""
    found = AT_LEAST.search(text)
    return int(found.group(1).replace(",", "")) if found else None


def cancel_when_counted(qtbot: Any, ws: Any, run: GapRun) -> tuple[float, float, int]:
    """Once the search has counted sequences, click Cancel: (seconds until the
    tab said "cancelled" and the count so far, seconds until the search's
    answer came, the count the tab said)."""
    qtbot.waitUntil(lambda: bool(run.reports) and run.reports[-1][1].found >= 1,
                    timeout=120_000)
    assert not run.finished, "the search finished before it could be cancelled"
    clicked = time.monotonic()
    qtbot.mouseClick(ws.gap_cancel_button, Qt.MouseButton.LeftButton)
    said = None
    while said is None and time.monotonic() < clicked + 30:
        said = counted_at_least(ws.gap_explanation.text())
        if said is None:
            QApplication.processEvents()
    shown = time.monotonic() - clicked
    assert said is not None, ws.gap_explanation.text()
    while not run.finished and time.monotonic() < clicked + 30:
        QApplication.processEvents()
        time.sleep(0.002)
    assert run.finished, "the search did not stop"
    return shown, run.finished_at - clicked, said
