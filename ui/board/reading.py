"""Reading a record off the GUI thread (issue #34: a record of 60,000 plies froze
the window for minutes): the core imports the text (or loads the case file, or
the autosave), replays it and works out its counts and draw claims in a
:class:`RecordReader`; the board then shows what it read (the move list is lazy,
:mod:`ui.board.movelist`)."""
from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from rulesbook.draughts import CountRules, CountState, DraughtsError, Variant
from rulesbook.reconstruct import (
    GameRecord,
    ImportedRecord,
    Replay,
    import_record,
    replay,
    split_games,
)
from rulesbook.reconstruct.record import looks_like_pdn

from .counts import announcements_for, count_states
from .worker import BoardWorker

if TYPE_CHECKING:
    from rulesbook.library import Library
    from rulesbook.rulings import DrawAnnouncement

__all__ = ["Prepared", "Progress", "ReadRecord", "RecordReader", "board_replay",
           "enable_collection", "game_size", "prepare", "read_record",
           "READ_IN_WORKER_CHARS", "LONG_PLIES"]

#: texts longer than this are read off the GUI thread (a record of about 300
#: plies: read, replayed and counted in well under 100 ms); shorter ones at once
READ_IN_WORKER_CHARS = 3000
#: records of more plies than this (a case file's, the autosave's) are replayed
#: and counted off the GUI thread
LONG_PLIES = 300

#: called with the name of each step of a read (the reader's progress)
Say = Callable[[str], None]


def game_size(text: str, index: int) -> int:
    """How long the text of game ``index`` is (the whole text for a move list)."""
    if len(text) <= READ_IN_WORKER_CHARS or not looks_like_pdn(text):
        return len(text)
    chunks = split_games(text)
    return len(chunks[index].text) if 0 <= index < len(chunks) else len(text)


def board_replay(record: GameRecord, previous: Replay | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Replay:
    """The replay the board shows: the whole record, illegal moves standing as
    played (``previous``: a replay of a record with the same start, whose plies
    before the first changed move are taken over, not replayed again; ``progress``:
    the core's, plies replayed and plies)."""
    return replay(record.written, start=record.start, variant=record.variant,
                  let_stand=True, result=record.result, previous=previous,
                  progress=progress)


#: a reader says how far it is at most this often, in seconds (and at least every
#: 0.5 s while it replays or counts a long record)
PROGRESS_SECONDS = 0.2


class Progress(str):
    """What a reader says of how far it is in a step ("replayed 12,000 of 60,000
    plies (20%)"), not a step of its own: shown over the move list, not logged."""

    __slots__ = ()


def progress_of(say: Say, step: str) -> Callable[[int, int], None]:
    """A progress callback (done, total) that says (a :class:`Progress`) ``step``,
    how many plies of how many and the share done, at most every
    :data:`PROGRESS_SECONDS`."""
    said = [0.0]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if now - said[0] >= PROGRESS_SECONDS:
            said[0] = now
            share = 100 * done // total if total else 100
            say(Progress(f"{step} {done:,} of {total:,} plies ({share}%)"))
    return report


@dataclass(frozen=True)
class Prepared:
    """What the board works out from a record: its replay, the counts at each ply
    of its legal play and its draw claims (None: worked out when asked)."""

    replay: Replay
    states: tuple[CountState, ...]
    announcements: tuple[DrawAnnouncement, ...] | None
    #: the limits the counts are worked out under
    rules: CountRules


#: the count limits of a record of a variant (:meth:`CountsController.rules_of`)
RulesFor = Callable[[Variant], CountRules]


def prepare(record: GameRecord, rules_for: RulesFor, library: Library | None,
            edition_id: str | None, say: Say = lambda _what: None) -> Prepared:
    """Replay ``record`` as the board does and work out its counts and draw claims
    under its variant's limits (``rules_for``) and ``edition_id``."""
    say(f"replaying {len(record.moves)} plies")
    replayed = board_replay(record, progress=progress_of(say, "replayed"))
    # the moves' autosave texts (made once, :meth:`GameRecord.moves_json`) made
    # here, not by the first autosave on the GUI thread
    record.moves_json()
    say("counting")
    rules = rules_for(record.variant)
    states = tuple(count_states(record.start, replayed, rules,
                                progress=progress_of(say, "counted")))
    say("finding the draw claims")
    claims = announcements_for(library, record.start, replayed, edition_id)
    return Prepared(replayed, states, claims, rules)


@dataclass(frozen=True)
class ReadRecord:
    """A record read from a text, with what the board works out from it."""

    imported: ImportedRecord
    replay: Replay
    states: tuple[CountState, ...]
    announcements: tuple[DrawAnnouncement, ...] | None
    rules: CountRules

    @property
    def prepared(self) -> Prepared:
        return Prepared(self.replay, self.states, self.announcements, self.rules)


def read_record(text: str, index: int, variant: Variant | None, rules: RulesFor,
                library: Library | None, edition_id: str | None,
                stage: Say | None = None) -> ReadRecord:
    """Import game ``index`` of ``text`` (the core's :func:`import_record`; raises
    DraughtsError), replay it as the board does and work out its counts and draw
    claims under its variant's limits (``rules``) and ``edition_id``. ``stage``:
    called with the name of each step (the reader's progress)."""
    say: Say = stage if stage is not None else (lambda _what: None)
    say("reading")
    imported = import_record(text, index, variant)
    done = prepare(imported.record, rules, library, edition_id, say)
    return ReadRecord(imported, done.replay, done.states, done.announcements, done.rules)


_readers = 0  # readers running (the collector is paused while any runs)
_readers_lock = threading.Lock()
_collecting = True
_switching = 0.005

#: how long the GUI thread waits at most for the interpreter lock while a reader
#: runs (Python's default is 5 ms): the GUI thread takes the lock again at every
#: call from Qt into Python (each cell the move list paints, each event filter),
#: and with a reader busy each of those waited up to 5 ms: building and painting
#: the window while the autosave of 60,000 plies was read took 350 ms where its
#: own work was 60 ms. At 0.5 ms the window built while an autosave of 8,000 plies
#: was read still waited 110 ms of a 150 ms stall on 2 cores (about 200 calls into
#: Python, each waiting for the reader to let go); at 0.1 ms it waits about 30 ms
READER_SWITCH_INTERVAL = 0.0001


def _pause_collection() -> None:
    global _readers, _collecting, _switching
    with _readers_lock:
        if _readers == 0:
            _collecting = gc.isenabled()
            gc.disable()
            _switching = sys.getswitchinterval()
            sys.setswitchinterval(min(_switching, READER_SWITCH_INTERVAL))
        _readers += 1


def _resume_collection() -> None:
    global _readers
    with _readers_lock:
        _readers -= 1
        if _readers == 0:
            sys.setswitchinterval(_switching)
            gc.freeze()
            if _collecting:
                gc.enable()


def enable_collection() -> None:
    """Turn the cyclic collector on (the app has started), or while a reader runs
    once the last one ends: the autosave of a crashed run is read as the library
    comes, and a collection turned on in the middle of its read held the GUI
    thread for a second (60,000 plies)."""
    global _collecting
    with _readers_lock:
        if _readers:
            _collecting = True
        else:
            gc.enable()


class RecordReader(BoardWorker):
    """Runs ``job(say)`` on a worker thread: :func:`read_record` of a text, or a
    case file or autosave loaded and :func:`prepare`\\ d; ``say`` reports its steps.

    Signals (queued to the GUI thread):
      stage(str)          the step it is at ("replaying 60000 plies"), or how far
                          in it (a :class:`Progress`)
      done(object)        what the job returned (a :class:`ReadRecord`, ...)
      failed(str)         a readable error (the core's message), never a traceback
    """

    stage = Signal(object)  # str, Progress (kept as such: not Signal(str))
    done = Signal(object)
    what_failed = "the record could not be read"

    def __init__(self, job: Callable[[Say], object], parent: QObject | None = None,
                 expected: tuple[type[BaseException], ...] = (DraughtsError,)):
        super().__init__(parent, expected)
        self._job = job

    @classmethod
    def of_text(cls, text: str, index: int, variant: Variant | None, rules: RulesFor,
                library: Library | None, edition_id: str | None,
                parent: QObject | None = None) -> RecordReader:
        """The reader of game ``index`` of ``text`` (:func:`read_record`)."""
        return cls(lambda say: read_record(text, index, variant, rules, library, edition_id,
                                           stage=say), parent)

    def work(self) -> object:
        # no cyclic collection while the record is read, and what exists when it is
        # read is left out of later ones (gc.freeze): the read makes a million
        # objects (positions, moves, counts) and each collection over them held the
        # GIL, and so the GUI thread, for 100-600 ms (60,000 plies). They are freed
        # by reference counting as ever (a record's objects make no cycles)
        _pause_collection()
        try:
            return self._job(self.stage.emit)
        finally:
            _resume_collection()

    def deliver(self, result: object) -> None:
        self.done.emit(result)
