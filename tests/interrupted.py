"""A real ``rulesbook`` process stopped with Ctrl+C (SIGINT) once what it has
printed on stderr says it is ready: the gap search's command-line tests of
progress and cancel (issue 30) run it the same way."""
from __future__ import annotations

import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from tests.datapaths import REPO


class Interrupted(NamedTuple):
    """What the stopped process gave: its exit code, stdout, the stderr lines
    read before the Ctrl+C (``seen``) and the rest of stderr after it, and the
    seconds from the Ctrl+C to its end."""

    returncode: int
    out: str
    seen: list[str]
    err: str
    took: float


def interrupt_when(cmd: Sequence[str], ready: Callable[[list[str]], bool],
                   hang: float = 120.0) -> Interrupted:
    """Run ``cmd`` from the repository; send Ctrl+C once ``ready(lines so far)``.
    ``hang`` seconds only end a hang (no timing assertion): the test fails then,
    as it does when the process ends before it was stopped."""
    proc = subprocess.Popen(list(cmd), cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    seen: list[str] = []
    try:
        assert proc.stderr is not None
        selector = selectors.DefaultSelector()
        selector.register(proc.stderr, selectors.EVENT_READ)
        deadline = time.monotonic() + hang
        while not ready(seen):
            assert proc.poll() is None, ("it ended before it was stopped", seen,
                                         proc.communicate())
            assert time.monotonic() < deadline, f"not ready after {hang:.0f} s: {seen}"
            if selector.select(timeout=0.5):
                seen.append(proc.stderr.readline())
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return Interrupted(proc.returncode, out, seen, err, took)
