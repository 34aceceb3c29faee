"""Issue 30, Must 5 on a loaded machine: a cancel returns within half a second
with what was found and the count so far also while other programs keep every
core busy (three processes spinning on the CPU, ``tests/busy_load.py``).

The gap: 20 plies of Tinsley game 15 (from ply 20, ``bench/gap_cases.py``),
searched on a thread of its own as in the app, cancelled from the test's
thread once sequences were counted.  The half second is the bound the issue
asks for, so it is measured (``time.monotonic`` from the cancel to the answer).
"""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from rulesbook.reconstruct.gap import CancelToken, GapResult, fill_gap
from rulesbook.reconstruct.gap import compiled as gap_compiled
from tests.busy_load import busy_loops

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gap_cases import GapCase, english_cases  # noqa: E402 - the bench's corpus cases

PROMPT = 0.5


def tinsley_15() -> GapCase:
    return next(c for c in english_cases(20, 13) if c.name == "tinsley game 15")


def cancel_once_counted(case: GapCase, compiled: bool = True) -> tuple[float, int, GapResult]:
    """Search the case on a thread, cancel once it has counted sequences:
    (seconds from the cancel to the answer, the count so far told before the
    cancel, the answer)."""
    token = CancelToken()
    told = [0]
    out: list[GapResult] = []

    def counted(found: int) -> None:
        told[0] = found

    def work() -> None:
        out.append(fill_gap(case.earlier, case.board, plies=20, cancel=token,
                            counted=counted, progress=lambda _f, _n: True,
                            compiled=compiled))

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while told[0] < 1:
        assert thread.is_alive(), "the search finished before it could be cancelled"
        assert time.monotonic() < deadline, "no sequence counted"
        time.sleep(0.01)
    before = told[0]
    began = time.monotonic()
    token.cancel()
    thread.join(30)
    took = time.monotonic() - began
    assert out, "the search did not stop"
    return took, before, out[0]


def test_a_cancel_returns_within_half_a_second_while_three_programs_spin():
    if not gap_compiled.AVAILABLE:
        pytest.skip("numba is not installed")
    gap_compiled.warm_up()
    case = tinsley_15()
    with busy_loops():
        took, before, result = cancel_once_counted(case)
    assert took <= PROMPT, f"the cancel took {took:.2f} s under load"
    assert result.cancelled and result.count is None
    assert result.count_at_least >= before >= 1 and result.sequences
