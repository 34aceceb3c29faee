"""Running the gap search (:func:`rulesbook.reconstruct.gap.fill_gap`) off the GUI thread."""
from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Signal

from .worker import BoardWorker

__all__ = ["GapWorker"]


class GapWorker(BoardWorker):
    """Runs ``fill_gap(**kwargs)`` on a worker thread.

    Signals (delivered on the GUI thread through queued connections):
      progressed(float fraction, int nodes, float seconds, object found)
                               seconds since the start, read by ``clock`` when the
                               search reported; ``found``: the sequences counted so
                               far (``fill_gap(counted=...)``, a proven lower bound
                               of the count, never going back)
      found(object GapResult)
      failed(str message)      a readable error (bad input), never a traceback
                               (:class:`~ui.board.worker.BoardWorker`)
    """

    progressed = Signal(float, int, float, object)  # (found: a count may pass 2**31)
    found = Signal(object)
    what_failed = "the search failed"

    def __init__(self, kwargs: dict, parent=None,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__(parent)
        from rulesbook.reconstruct.gap import CancelToken

        self.kwargs = dict(kwargs)
        self.token = CancelToken()
        self.clock = clock
        self.began = 0.0
        #: the sequences counted so far (set on the worker thread, read by the
        #: GUI thread when Cancel is pressed: an int, replaced whole)
        self.counted = 0

    def cancel(self) -> None:
        self.token.cancel()

    def _counted(self, found: int) -> None:
        self.counted = max(self.counted, int(found))

    def _progress(self, fraction: float, nodes: int) -> bool:
        self.progressed.emit(float(fraction), int(nodes), self.clock() - self.began,
                             self.counted)
        return not self.token.is_set()

    def work(self) -> object:
        from rulesbook.reconstruct.gap import fill_gap

        self.began = self.clock()
        return fill_gap(progress=self._progress, cancel=self.token, counted=self._counted,
                        **self.kwargs)

    def deliver(self, result: object) -> None:
        self.found.emit(result)
