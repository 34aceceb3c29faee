"""Reading a record off the GUI thread (issue #34: a record of 60,000 plies froze
the window for minutes): the core imports the text, replays it and works out its
counts and draw claims in a :class:`RecordReader`; the board then shows what it
read (the move list is lazy, :mod:`ui.board.movelist`)."""
from __future__ import annotations

import gc
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QThread, Signal

from rulesbook.draughts import CountRules, CountState, DraughtsError, Variant
from rulesbook.reconstruct import GameRecord, ImportedRecord, Replay, import_record, replay

from .counts import announcements_for, count_states

if TYPE_CHECKING:
    from rulesbook.library import Library
    from rulesbook.rulings import DrawAnnouncement

__all__ = ["ReadRecord", "RecordReader", "board_replay", "read_record",
           "READ_IN_WORKER_CHARS"]

#: texts longer than this are read off the GUI thread (a record of about 300
#: plies: read, replayed and counted in well under 100 ms); shorter ones at once
READ_IN_WORKER_CHARS = 3000


def board_replay(record: GameRecord) -> Replay:
    """The replay the board shows: the whole record, illegal moves standing as played."""
    return replay(record.written, start=record.start, variant=record.variant,
                  let_stand=True, result=record.result)


@dataclass(frozen=True)
class ReadRecord:
    """A record read from a text, with what the board works out from it."""

    imported: ImportedRecord
    replay: Replay
    states: tuple[CountState, ...]
    announcements: tuple[DrawAnnouncement, ...] | None


def read_record(text: str, index: int, variant: Variant | None, rules: CountRules,
                library: Library | None, edition_id: str | None,
                stage: object = None) -> ReadRecord:
    """Import game ``index`` of ``text`` (the core's :func:`import_record`; raises
    DraughtsError), replay it as the board does and work out its counts and draw
    claims under ``rules`` and ``edition_id``. ``stage``: called with the name of
    each step (the reader's progress)."""
    say = stage if callable(stage) else (lambda _what: None)
    say("reading")
    imported = import_record(text, index, variant)
    record = imported.record
    say(f"replaying {len(record.moves)} plies")
    replayed = board_replay(record)
    say("counting")
    states = tuple(count_states(record.start, replayed, rules))
    say("finding the draw claims")
    claims = announcements_for(library, record.start, replayed, edition_id)
    return ReadRecord(imported, replayed, states, claims)


_readers = 0  # readers running (the collector is paused while any runs)
_readers_lock = threading.Lock()
_collecting = True


def _pause_collection() -> None:
    global _readers, _collecting
    with _readers_lock:
        if _readers == 0:
            _collecting = gc.isenabled()
            gc.disable()
        _readers += 1


def _resume_collection() -> None:
    global _readers
    with _readers_lock:
        _readers -= 1
        if _readers == 0:
            gc.freeze()
            if _collecting:
                gc.enable()


class RecordReader(QThread):
    """Runs :func:`read_record` on a worker thread.

    Signals (queued to the GUI thread):
      stage(str)          the step it is at ("replaying 60000 plies")
      done(object)        the :class:`ReadRecord`
      failed(str)         a readable error (the core's message), never a traceback
    """

    stage = Signal(str)
    done = Signal(object)
    failed = Signal(str)

    def __init__(self, text: str, index: int, variant: Variant | None, rules: CountRules,
                 library: Library | None, edition_id: str | None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self._args = (text, index, variant, rules, library, edition_id)

    def run(self) -> None:
        # no cyclic collection while the record is read, and what exists when it is
        # read is left out of later ones (gc.freeze): the read makes a million
        # objects (positions, moves, counts) and each collection over them held the
        # GIL, and so the GUI thread, for 100-600 ms (60,000 plies). They are freed
        # by reference counting as ever (a record's objects make no cycles)
        _pause_collection()
        try:
            read = read_record(*self._args, stage=self.stage.emit)
        except DraughtsError as exc:
            self.failed.emit(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - reported to the user, never lost
            self.failed.emit(f"the record could not be read: {type(exc).__name__}: {exc}")
            return
        finally:
            _resume_collection()
        self.done.emit(read)
