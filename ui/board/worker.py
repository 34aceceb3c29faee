"""One place for how the Board's worker threads end (issue #34): a
:class:`BoardWorker` runs its :meth:`~BoardWorker.work` off the GUI thread and
either hands the result to :meth:`~BoardWorker.deliver` or emits ``failed`` with a
readable sentence: the message of an error it expects (:attr:`~BoardWorker.expected`,
by default a :class:`DraughtsError`: the core's message), the exception's type and
text for anything else (reported, never lost, never a traceback). The gap search
(:mod:`ui.board.gapworker`) and the record reader (:mod:`ui.board.reading`) are two
of them."""
from __future__ import annotations

from PySide6.QtCore import QObject, QThread, Signal

from rulesbook.draughts import DraughtsError

__all__ = ["BoardWorker"]


class BoardWorker(QThread):
    """Runs :meth:`work` on a worker thread.

    Signals (queued to the GUI thread):
      failed(str)     a readable error, never a traceback
    """

    failed = Signal(str)

    #: the start of the sentence for an unexpected error ("<it>: ValueError: ...")
    what_failed = "the work failed"

    def __init__(self, parent: QObject | None = None,
                 expected: tuple[type[BaseException], ...] = (DraughtsError,)):
        super().__init__(parent)
        #: the errors whose message is the sentence (bad input, said as the core says it)
        self.expected = expected

    def work(self) -> object:
        """What the worker does (on the worker thread); raises to fail."""
        raise NotImplementedError

    def deliver(self, result: object) -> None:
        """Hand ``result`` on (a signal of the subclass; on the worker thread)."""
        raise NotImplementedError

    def run(self) -> None:
        try:
            result = self.work()
        except Exception as exc:  # noqa: BLE001 - reported to the user, never lost
            if isinstance(exc, self.expected):
                self.failed.emit(str(exc))
            else:
                self.failed.emit(f"{self.what_failed}: {type(exc).__name__}: {exc}")
            return
        self.deliver(result)
