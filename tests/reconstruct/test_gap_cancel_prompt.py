"""Issue 30, Must 5: a cancel returns within 0.5 s with what was found and the
count so far (a lower bound, said to be one), and the progress moves with the
work, also while a backward layer is built (it used to stand still there).

The gap: 20 plies of a real English game (Tinsley collection, from ply 20:
``bench/gap_cases.py``), which the search takes seconds over, most of them
building the sixth backward layer (from some 58,000 positions).  The search
runs on a thread of its own, as in the app; the test's thread sets the cancel
token.  The half second is the behaviour the issue asks for, so it is
measured (``time.monotonic`` from the cancel to the answer); the machine is
shared, so the CPU time the process spent meanwhile is measured too and both
are said when the bound is missed.
"""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from rulesbook.reconstruct.gap import CancelToken, GapResult, Status, fill_gap
from rulesbook.reconstruct.gap import compiled as gap_compiled
from rulesbook.reconstruct.gap import search as gap_search

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gap_cases import GapCase, english_cases  # noqa: E402 - the bench's corpus cases

#: the issue's bound on the time a cancel takes to return
PROMPT = 0.5
#: a layer built from this many positions takes the search seconds
BIG_LAYER = 40_000


def _case() -> GapCase:
    return next(c for c in english_cases(20, 13) if c.name == "tinsley game 15")


def replays(case: GapCase, sequence) -> bool:
    position = case.earlier
    for move in sequence:
        if move not in position.legal_moves():
            return False
        position = position.play(move)
    return position == case.board


class Run:
    """``fill_gap`` of the case on a thread, cancelled from the test's thread."""

    def __init__(self, case: GapCase, compiled: bool) -> None:
        self.case = case
        self.token = CancelToken()
        self.reports: list[tuple[float, float, int, bool]] = []  # (t, fraction, nodes, in layer)
        self.in_layer = False
        self.result: GapResult | None = None
        self.compiled = compiled
        self.thread = threading.Thread(target=self._work, daemon=True)

    def _progress(self, fraction: float, nodes: int) -> bool:
        self.reports.append((time.monotonic(), fraction, nodes, self.in_layer))
        return True

    def _work(self) -> None:
        self.result = fill_gap(self.case.earlier, self.case.board, plies=20,
                               progress=self._progress, cancel=self.token,
                               compiled=self.compiled)

    def cancel_and_wait(self) -> tuple[float, float]:
        """Cancel; (wall seconds, CPU seconds) until the answer came."""
        wall, cpu = time.monotonic(), time.process_time()
        self.token.cancel()
        self.thread.join(30)
        assert not self.thread.is_alive(), "the search did not stop"
        return time.monotonic() - wall, time.process_time() - cpu


@pytest.fixture
def layers(monkeypatch):
    """Marks the runs' reports made while a big backward layer is built, and
    sets ``started`` once one is."""
    started = threading.Event()
    build = gap_search.next_layer
    runs: list[Run] = []

    def inside(below, work):
        big = len(below) >= BIG_LAYER
        for run in runs:
            run.in_layer = big
        if big:
            started.set()
        try:
            return work(big)
        finally:
            for run in runs:
                run.in_layer = False

    def spy(below, *args, **kwargs):
        return inside(below, lambda big: build(below, *args, **kwargs))

    monkeypatch.setattr(gap_search, "next_layer", spy)
    if gap_compiled.AVAILABLE:
        # the compiled search builds its layers in the kernel, a chunk of
        # positions at a time (tens of milliseconds each): a big layer is made
        # to take seconds, as on a slow machine, by a pause at each chunk
        from rulesbook.reconstruct.gap import compiled_layers
        build_compiled = compiled_layers.build_layer

        def spy_compiled(search, fast, k, variant, start, tick):
            def slow(share: float, positions: int) -> None:
                time.sleep(0.1)
                tick(share, positions)
            return inside(search.back[k - 1], lambda big: build_compiled(
                search, fast, k, variant, start, slow if big else tick))

        monkeypatch.setattr(compiled_layers, "build_layer", spy_compiled)
    return started, runs


def compiled_modes() -> list[bool]:
    return [True] if gap_compiled.AVAILABLE else [False]


def check_partial(run: Run, wall: float, cpu: float) -> GapResult:
    result = run.result
    assert result is not None
    assert wall <= PROMPT, f"the cancel took {wall:.2f} s ({cpu:.2f} s of CPU)"
    assert cpu <= PROMPT, f"the cancel took {cpu:.2f} s of CPU ({wall:.2f} s)"
    assert result.cancelled and result.status is Status.CANCELLED
    # the count so far, said to be a lower bound: no exact count
    data = result.to_dict()
    assert data["count"] is None and data["complete"] is False
    assert data["count_at_least"] == result.count_at_least >= len(result.sequences)
    assert all(replays(run.case, seq) for seq in result.sequences)
    return result


@pytest.mark.parametrize("compiled", compiled_modes())
def test_a_cancel_while_counting_returns_at_once_with_the_count_so_far(compiled):
    run = Run(_case(), compiled)
    run.thread.start()
    # well into the forward count: sequences have been found by then
    deadline = time.monotonic() + 120
    while not run.reports or run.reports[-1][2] < 2_500_000:
        assert run.thread.is_alive(), "the search finished before it could be cancelled"
        assert time.monotonic() < deadline
        time.sleep(0.01)
    wall, cpu = run.cancel_and_wait()
    result = check_partial(run, wall, cpu)
    assert result.count_at_least > 0
    assert f"at least {result.count_at_least:,} sequences" in result.explanation
    assert "more may exist" in result.explanation


@pytest.mark.parametrize("compiled", compiled_modes())
def test_a_backward_layer_reports_progress_and_a_cancel_in_it_returns_at_once(compiled, layers):
    started, runs = layers
    run = Run(_case(), compiled)
    runs.append(run)
    run.thread.start()
    assert started.wait(120), "no big backward layer was built"
    time.sleep(1.0)  # inside it (it takes seconds)
    assert run.in_layer and run.thread.is_alive()
    wall, cpu = run.cancel_and_wait()
    result = check_partial(run, wall, cpu)
    # what the forward search had found before it stopped for the layer stays
    assert result.count_at_least > 0
    assert f"at least {result.count_at_least:,} sequences" in result.explanation
    inside = [r for r in run.reports if r[3]]
    assert len(inside) >= 5, inside  # reported all along (every 50 ms)
    fractions = [f for _, f, _, _ in inside]
    nodes = [n for _, _, n, _ in inside]
    # the positions the layer examines are counted as searched, and the
    # fraction moves across the layer (never back)
    assert nodes == sorted(nodes) and nodes[-1] > nodes[0]
    assert result.nodes >= nodes[-1]
    assert fractions == sorted(fractions) and fractions[-1] > fractions[0]
    assert result.done >= fractions[-1] > 0
    # nor does it stand still: no gap of half a second between reports
    times = [t for t, _, _, _ in inside]
    assert max(b - a for a, b in zip(times, times[1:], strict=False)) < PROMPT
