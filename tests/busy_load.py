"""A loaded machine for the tests that bound a time under load (issue 30, Must 5:
a cancel returns within half a second also while other programs use the CPU):
:func:`busy_loops` runs processes that spin on the CPU (pure Python, nothing
else) while its block runs, and ends them after it.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections.abc import Iterator
from typing import Any

#: the busy processes the tests run (the machine has two cores: three keep
#: both busy and leave the test's process a share of them, not a core)
BUSY = 3


def _spin(ready: Any) -> None:
    ready.set()
    while True:
        pass


@contextlib.contextmanager
def busy_loops(count: int = BUSY) -> Iterator[list[multiprocessing.process.BaseProcess]]:
    """``count`` processes spinning on the CPU, started (each has begun to spin)
    before the block runs and ended after it."""
    context = multiprocessing.get_context("spawn")  # (no fork of a process with threads)
    processes = []
    try:
        for _ in range(count):
            ready = context.Event()
            process = context.Process(target=_spin, args=(ready,), daemon=True)
            process.start()
            processes.append(process)
            if not ready.wait(60):
                raise RuntimeError("a busy process did not start")
        time.sleep(0.2)  # every one spinning
        yield processes
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(10)
