"""Progress lines on stderr for a command that can run long (``rulesbook
reconstruct``): a user waiting at a terminal sees that it works and how to stop
it; a script reading stdout (``--json``) never gets them there."""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from ..draughts.notation import count_text

__all__ = ["GapProgress", "QUIET_SECONDS", "EVERY_SECONDS"]

#: Seconds a search runs before a progress line is printed when stderr is not a
#: terminal (a script's log); at a terminal the first line comes at once.
QUIET_SECONDS = 2.0
#: Seconds between two progress lines.
EVERY_SECONDS = 3.0


class GapProgress:
    """A ``progress(fraction, nodes)`` callback for
    :func:`rulesbook.reconstruct.gap.fill_gap` that prints one line to
    ``stream`` (stderr) every :data:`EVERY_SECONDS`, from the first report
    when ``stream`` is a terminal, otherwise once the search has run
    :data:`QUIET_SECONDS`.  It never cancels the search.  :meth:`counted` is
    ``fill_gap``'s ``counted``: the line says the sequences counted so far (a
    lower bound of the count) once there are some."""

    def __init__(self, gap: str, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.gap = gap  # what is searched: "the 8-ply gap", "gaps of up to 12 plies"
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.started = clock()
        self.lines = 0
        self.found = 0  # the sequences counted so far
        try:
            tty = self.stream.isatty()
        except (AttributeError, ValueError):  # a closed or unusual stream
            tty = False
        self._next = self.started if tty else self.started + QUIET_SECONDS

    def line(self, fraction: float, nodes: int) -> str:
        """The progress line for ``fraction`` of the search done after ``nodes``."""
        found = (f"at least {count_text(self.found, 'sequence')} so far, "
                 if self.found else "")
        return (f"searching {self.gap}: {count_text(nodes, 'position')} searched, {found}"
                f"{min(max(fraction, 0.0), 1.0):.0%} done, "
                f"{self.clock() - self.started:.0f} s; "
                "Ctrl+C stops and lists what was found")

    def counted(self, found: int) -> None:
        self.found = max(self.found, found)

    def __call__(self, fraction: float, nodes: int) -> bool:
        now = self.clock()
        if now >= self._next:
            self._next = now + EVERY_SECONDS
            try:
                print(self.line(fraction, nodes), file=self.stream, flush=True)
            except (OSError, ValueError):  # stderr closed: the search goes on
                pass
            self.lines += 1
        return True
