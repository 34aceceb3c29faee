"""Running the gap search (:func:`rulesbook.reconstruct.gap.fill_gap`) off the GUI thread."""
from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QThread, Signal

__all__ = ["GapWorker"]


class GapWorker(QThread):
    """Runs ``fill_gap(**kwargs)`` on a worker thread.

    Signals (delivered on the GUI thread through queued connections):
      progressed(float fraction, int nodes, float seconds)   seconds since the start,
                                           read by ``clock`` when the search reported
      found(object GapResult)
      failed(str message)      a readable error (bad input), never a traceback
    """

    progressed = Signal(float, int, float)
    found = Signal(object)
    failed = Signal(str)

    def __init__(self, kwargs: dict, parent=None,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__(parent)
        from rulesbook.reconstruct.gap import CancelToken

        self.kwargs = dict(kwargs)
        self.token = CancelToken()
        self.clock = clock
        self.began = 0.0

    def cancel(self) -> None:
        self.token.cancel()

    def _progress(self, fraction: float, nodes: int) -> bool:
        self.progressed.emit(float(fraction), int(nodes), self.clock() - self.began)
        return not self.token.is_set()

    def run(self) -> None:
        from rulesbook.draughts import DraughtsError
        from rulesbook.reconstruct.gap import fill_gap

        self.began = self.clock()
        try:
            result = fill_gap(progress=self._progress, cancel=self.token, **self.kwargs)
        except DraughtsError as exc:
            self.failed.emit(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - reported to the user, never lost
            self.failed.emit(f"the search failed: {type(exc).__name__}: {exc}")
            return
        self.found.emit(result)
