"""The progress of a long gap search on the Gap tab (real widgets, offscreen): the
positions searched and the time are shown, the bar fills with a percentage only
while the search's fraction has kept pace with the time (issue 21: the "% done"
jumped and stalled).

The search's reports are scripted, with the time they were made at (the clock
of the search is replaced, so nothing depends on this machine's speed): the
uneven ones are those of a real pool search, the steady ones a search that
covers a twentieth of its tree a second. The answer at the end is the real
search of the gap set up."""
from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt

from rulesbook.reconstruct import gap as gap_module
from rulesbook.reconstruct.gap.progress import MIN_SECONDS
from tests.reconstruct.test_gap_progress_shown import POOL_16  # a real search's reports
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    private_autosave_dir,
)

#: a twentieth of the tree a second, 100,000 positions a second, for 10 s: the
#: k-th report, at k/2 s, has covered k/40 of the tree, (100 k) // 40 whole percent
STEADY = [(k / 2, k / 40, 50_000 * k) for k in range(1, 21)]


class ScriptedSearch:
    """Stands for fill_gap on the worker thread: makes the reports at their times
    (``clock`` reads them), waits for the test to look, then answers for real."""

    def __init__(self, reports):
        self.reports = reports
        self.now = 0.0
        self.looked = threading.Event()
        self.real = gap_module.fill_gap

    def clock(self) -> float:
        return self.now

    def fill_gap(self, progress=None, cancel=None, **kwargs):
        for seconds, fraction, nodes in self.reports:
            self.now = seconds
            progress(fraction, nodes)
        self.looked.wait(20)
        return self.real(**kwargs)


def run(qtbot, ws, monkeypatch, reports):
    bc = ws.board_controller
    bc.editing.type_moves("11-15 23-19")
    assert bc.gap.mark_board_now(bc.position().play("8-11").play("22-17"))
    script = ScriptedSearch(reports)
    monkeypatch.setattr(gap_module, "fill_gap", script.fill_gap)
    bc.gap.clock = script.clock
    # the bar as each report arrives (it shows the report before)
    bars: list[tuple[int, str]] = []
    bar = ws.gap_progress
    bc.gap.progress.connect(lambda _f, _n: bars.append((bar.maximum(), bar.text())))
    ws.gap_kind.setCurrentIndex(0)
    ws.gap_plies.setValue(2)
    qtbot.mouseClick(ws.gap_search_button, Qt.MouseButton.LeftButton)
    try:
        qtbot.waitUntil(lambda: len(bars) == len(reports), timeout=10000)
    except BaseException:
        script.looked.set()
        raise
    bars.append((bar.maximum(), bar.text()))  # and after the last one
    return script, bars


def finish(qtbot, ws, script) -> None:
    script.looked.set()  # (the answer is delivered on this thread, while waiting)
    with qtbot.waitSignal(ws.board_controller.gap.finished, timeout=20000) as blocker:
        pass
    result = blocker.args[0]
    bar = ws.gap_progress
    assert bar.maximum() > 0 and bar.value() == bar.maximum()
    assert bar.text() == "done"
    assert f"{result.nodes:,} position" in bar.toolTip()


def test_an_uneven_search_shows_positions_and_time_not_a_percentage(qtbot, ws, monkeypatch):
    script, bars = run(qtbot, ws, monkeypatch, POOL_16)
    try:
        bar = ws.gap_progress
        # busy all along: no fill, no percentage that would mislead
        assert bars == [(0, "")] * (len(POOL_16) + 1)
        assert bar.minimum() == bar.maximum() == 0
        seconds, _, nodes = POOL_16[-1]
        assert ws.gap_explanation.text() == (f"Searching… {nodes:,} positions searched in "
                                             f"{seconds:.1f} s")
    finally:
        finish(qtbot, ws, script)


def test_a_steady_search_shows_its_percentage(qtbot, ws, monkeypatch):
    shown = []
    ws.board_controller.gap.progressShown.connect(shown.append)
    script, _ = run(qtbot, ws, monkeypatch, STEADY)
    try:
        assert len(shown) == len(STEADY)
        for k, ((seconds, _, nodes), report) in enumerate(zip(STEADY, shown, strict=True), 1):
            assert report.nodes == nodes and report.seconds == pytest.approx(seconds)
            # from MIN_SECONDS on the fraction has kept pace with the time
            expected = (100 * k) // 40 if seconds >= MIN_SECONDS else None
            assert report.percent == expected, seconds
        bar = ws.gap_progress
        assert bar.maximum() == 100 and bar.value() == 50 and bar.text() == "50%"
        assert ws.gap_explanation.text() == ("Searching… 1,000,000 positions searched in "
                                             "10.0 s, about 50% done")
    finally:
        finish(qtbot, ws, script)
