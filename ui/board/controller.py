"""The board controller: the session (the core's frozen
:class:`~rulesbook.reconstruct.BoardSession`), undo, the current ply and the mode.

Every new record reaches the board through :meth:`BoardController.commit` (one
undo step). Small controllers it owns do the rest, each a QObject with its own
signals (status messages are relayed on :attr:`BoardController.statusMessage`):
``editing`` (moves typed or played, comments, new records), ``input`` (clicks and
drags), ``setup`` (the palette and the position set up), ``check`` ("Check record",
the move list's marks, rulings), ``gap`` (the gap search off the GUI thread and its
preview), ``counts`` (the draw counts of the edition in force), ``clocks`` (clock
pro-rating), ``nav`` (first, last, next, previous), ``export`` (PDN, FEN, the
report), ``files`` (imports, the atomic autosave at every change, case files): one
module each in this package.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from rulesbook.draughts import Move, Position, Variant
from rulesbook.reconstruct import (
    BoardSession,
    GameRecord,
    IllegalMove,
    RecordMove,
    Replay,
    replay,
)

from ..autosave import autosave_dir
from .check import CheckController
from .clocks import ClockController
from .counts import CountsController
from .editing import RecordEditing
from .exporting import RecordExport
from .files import SESSION_VERSION, SessionFiles
from .gap import GapController
from .input import InputController
from .mode import MODES, BoardMode
from .navigation import Navigation
from .reading import board_replay
from .setup import TOOLS, SetupController

__all__ = ["BoardController", "board_replay", "autosave_dir", "AUTOSAVE_NAME", "TOOLS", "MODES",
           "VARIANT_NAMES", "SESSION_VERSION"]

AUTOSAVE_NAME = "board-autosave.json"
VARIANT_NAMES = ("pool", "english", "russian", "brazilian")
UNDO_DEPTH = 50


class BoardController(QObject):
    """Owns the game state of the Board workspace.

    Signals:
      changed()                   anything shown changed (board, list, panels)
      recordChanged()             the moves of the record changed
      plyChanged(int)             the current ply changed
      modeChanged(str)            "play" | "setup" | "check"
      statusMessage(str)          a sentence for the status bar (also the small controllers')
      dirtyChanged(bool)          unsaved changes (not yet in a case file)
      rulingsRequested(RulingsRequest)   for the rulings panel (relays the
                                  check controller's)
    """

    changed = Signal()
    recordChanged = Signal()
    plyChanged = Signal(int)
    modeChanged = Signal(str)
    statusMessage = Signal(str)
    dirtyChanged = Signal(bool)
    rulingsRequested = Signal(object)  # RulingsRequest

    def __init__(self, parent: QObject | None = None, autosave_path: str | Path | None = None):
        super().__init__(parent)
        path = Path(autosave_path) if autosave_path is not None else \
            autosave_dir() / AUTOSAVE_NAME
        self._session = BoardSession(GameRecord.empty("pool"))
        self._ply = 0
        self._mode = BoardMode.PLAY
        self._replay: Replay = replay([], start=self.start)
        self._illegal: dict[int, IllegalMove] = {}
        self.case_path: Path | None = None
        self._dirty = False
        #: the record is as it was imported or started (New): nothing typed since
        self._fresh = True
        #: where the record came from: "opened" (imported from a file or a paste, or
        #: a case file: replacing its later moves asks first), "setup" (started from
        #: a position set up) or "new" (New: typed from scratch)
        self.origin = "new"
        #: the records before each change, the ply shown, their origin and their replay
        #: (undone without replaying a long record again)
        self._undo: list[tuple[GameRecord, int, str, Replay]] = []
        self.check = CheckController(self)
        self.input = InputController(self)
        self.setup = SetupController(self)
        self.gap = GapController(self)
        self.counts = CountsController(self)
        self.clocks = ClockController(self)
        self.files = SessionFiles(self, path)
        self.editing = RecordEditing(self)
        self.export = RecordExport(self)
        self.nav = Navigation(self)
        for part in (self.check, self.input, self.setup, self.gap, self.files, self.counts,
                     self.editing, self.export, self.nav):
            part.statusMessage.connect(self.statusMessage)
        for changed in (self.input.changed, self.gap.changed, self.counts.changed):
            changed.connect(self.changed)
        self.check.rulingsRequested.connect(self.rulingsRequested)
        self.counts.rulingsRequested.connect(self.rulingsRequested)
        self._recompute()

    # ------------------------------------------------------------------ the session
    @property
    def session(self) -> BoardSession:
        return self._session

    @property
    def record(self) -> GameRecord:
        return self._session.record

    @property
    def variant(self) -> Variant:
        return self.record.variant

    @property
    def start(self) -> Position:
        return self.record.start

    @property
    def moves(self) -> tuple[RecordMove, ...]:
        return self.record.moves

    @property
    def gap_target(self) -> Position | None:
        """The board now: the target of gap filling (None: not marked)."""
        return self._session.target

    @property
    def let_stand(self) -> bool:
        return self._session.let_stand

    def set_let_stand(self, value: bool) -> None:
        """Let illegal moves stand (a check already shown is run again)."""
        self._session = self._session.replace(let_stand=bool(value))
        if self.check.result is not None:
            self.check.run()

    @property
    def notes(self) -> str:
        return self._session.notes

    def set_notes(self, text: str) -> None:
        """The referee's notes (kept in the case file)."""
        if text != self._session.notes:
            self._session = self._session.replace(notes=str(text))
            self._set_dirty(True)
            self.files.autosave()

    def set_setup(self, position: Position) -> None:
        """The position being set up (the set-up controller's edits)."""
        self._session = self._session.replace(setup=position)
        self.changed.emit()
        self.files.autosave()

    def set_target(self, target: Position) -> None:
        """The board now (the gap controller checks it); from set-up mode the board
        shows the end of the record."""
        self._session = self._session.replace(target=target)
        if self._mode is BoardMode.SETUP:
            self.leave_setup()
            self._ply = self.available_plies
            self.plyChanged.emit(self._ply)
        self.changed.emit()
        self.files.autosave()

    @property
    def opened(self) -> bool:
        """The record was opened (a file, a paste, a case), not typed or set up here."""
        return self.origin == "opened"

    # ------------------------------------------------------------------ derived state
    def _recompute(self, prepared: Replay | None = None) -> None:
        """The replay of the record (``prepared``: :func:`board_replay` of it, worked
        out off the GUI thread or kept for undo). Otherwise the record is replayed
        from where it differs from the one shown before (an edit replays what it
        changed, not the whole record)."""
        record = self.record
        # the caller's replay of this very record: a cheap check that it is one of it
        fits = prepared is not None and prepared.start == record.start \
            and len(prepared.moves) == len(record.moves) \
            and (not record.moves or prepared.moves[-1] == record.moves[-1].text)
        self._replay = prepared if prepared is not None and fits else \
            board_replay(record, previous=self._replay)
        self._illegal = {item.ply: item for item in self._replay.illegal}
        self._ply = min(self._ply, self.available_plies)

    @property
    def replay(self) -> Replay:
        """The replay of the whole record, illegal moves standing as played."""
        return self._replay

    @property
    def positions(self) -> tuple[Position, ...]:
        return self._replay.positions

    @property
    def available_plies(self) -> int:
        """How many plies can be shown (the replay stops at a move it cannot put
        on the board)."""
        return len(self._replay.positions) - 1

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def mode(self) -> BoardMode:
        return self._mode

    def position(self) -> Position:
        """What the board shows now (the set-up position in set-up mode)."""
        if self._mode is BoardMode.SETUP:
            return self.setup.position()
        if self.gap.previewing:
            return self.gap.preview_position()
        return self._replay.positions[self._ply]

    def played_move(self, ply: int) -> Move | None:
        """The legal move of ``ply`` (1-based), None when illegal or not replayed."""
        if 1 <= ply <= len(self._replay.played):
            return self._replay.played[ply - 1]
        return None

    def illegal_at(self, ply: int) -> IllegalMove | None:
        return self._illegal.get(ply)

    def move_number(self, ply: int) -> int:
        return self.record.move_number(ply)

    # ------------------------------------------------------------------ undo and saving
    def _push_undo(self) -> None:
        self._undo.append((self.record, self._ply, self.origin, self._replay))
        del self._undo[:-UNDO_DEPTH]

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> bool:
        if not self._undo:
            self.statusMessage.emit("Nothing to undo")
            return False
        record, ply, self.origin, replayed = self._undo.pop()
        self._session = self._session.replace(record=record)
        self._record_changed(ply, prepared=replayed)
        self.statusMessage.emit("Undone")
        return True

    @property
    def dirty(self) -> bool:
        """Changes not saved in a case file."""
        return self._dirty

    @property
    def unsaved_work(self) -> bool:
        """Work that replacing the record would lose: changes not saved in a case file,
        made since the record was imported or started (a record just opened from a
        PDN file or a new empty one is not unsaved work)."""
        return self._dirty and not self._fresh

    def _set_dirty(self, dirty: bool) -> None:
        was_fresh, self._fresh = self._fresh, self._fresh and not dirty
        if dirty != self._dirty or was_fresh != self._fresh:
            self._dirty = dirty
            self.dirtyChanged.emit(dirty)

    def mark_saved(self) -> None:
        """Nothing unsaved any more (saved, or the user discarded it)."""
        self._set_dirty(False)
        self._fresh = True

    # ------------------------------------------------------------------ record changes
    def commit(self, session: BoardSession, ply: int, *, to_play: bool = False,
               fresh: bool = False, prepared: Replay | None = None,
               origin: str | None = None) -> None:
        """Make ``session`` (another record) the board's, one undo step, showing ``ply``.
        The check, the gap result and the input no longer apply; check mode (with
        ``to_play`` any mode) ends. ``fresh``: the record is as imported or started,
        not unsaved work of the user's; ``prepared``: its :func:`board_replay`;
        ``origin``: where a new record comes from (:attr:`origin`), None: the same
        record edited (its origin stays)."""
        self._push_undo()
        if origin is not None:
            self.origin = origin
        self._session = session
        self._record_changed(ply, to_play, prepared)
        if fresh:
            self._fresh = True
            self.dirtyChanged.emit(self._dirty)  # "unsaved" or not: the title follows

    def annotate(self, record: GameRecord) -> None:
        """Make ``record`` (the same moves, other comments) the board's, one undo step;
        the check and the gap result still apply."""
        self._push_undo()
        self._session = self._session.replace(record=record)
        self._set_dirty(True)
        self.recordChanged.emit()
        self.files.autosave()

    def _record_changed(self, ply: int, to_play: bool = False,
                        prepared: Replay | None = None) -> None:
        """After the record changed: the check, the gap result and the input no
        longer apply; check mode (or with ``to_play`` any mode) ends."""
        self.input.reset()
        self.gap.forget()
        self._recompute(prepared)
        self._ply = max(0, min(ply, self.available_plies))
        if self._mode is BoardMode.CHECK or (to_play and self._mode is not BoardMode.PLAY):
            self._mode = BoardMode.PLAY
            self.modeChanged.emit("play")
        self.check.clear()
        self._set_dirty(True)
        self.recordChanged.emit()
        self.plyChanged.emit(self._ply)
        self.changed.emit()
        self.files.autosave()

    def restore(self, session: BoardSession, ply: int, mode: str, dirty: bool,
                case_path: Path | None, origin: str = "new",
                prepared: Replay | None = None) -> None:
        """Show a session restored from an autosave (no undo: nothing was lost);
        ``prepared``: its :func:`board_replay`, worked out off the GUI thread."""
        self._session = session
        self.origin = origin
        self.case_path = case_path
        self._mode = BoardMode(mode) if mode in ("play", "setup") else BoardMode.PLAY
        self.input.reset()
        self.gap.forget()
        self._recompute(prepared)
        self.check.clear()
        self._ply = max(0, min(ply, self.available_plies))
        self._dirty = dirty
        self._fresh = not dirty
        self.modeChanged.emit(self._mode)
        self.recordChanged.emit()
        self.dirtyChanged.emit(self._dirty)
        self.plyChanged.emit(self._ply)
        self.changed.emit()

    # ------------------------------------------------------------------ modes
    def set_mode(self, mode: BoardMode | str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        mode = BoardMode(mode)
        if mode == self._mode:
            return
        if mode is BoardMode.SETUP:
            self._session = self._session.replace(setup=self.position())
        self.gap.stop_preview()
        if mode is BoardMode.CHECK and self.check.result is None:
            self.check.run()
            return
        self._mode = mode
        self.input.reset()
        self.modeChanged.emit(mode)
        if mode is BoardMode.SETUP:
            self.statusMessage.emit("Setting up: drag or click pieces; right-click: the "
                                    "other colour; K: king; Ctrl+V: a FEN")
        elif mode is BoardMode.PLAY:
            self.statusMessage.emit(f"Ply {self._ply}: {self.position().turn.title} to move")
        self.changed.emit()
        self.files.autosave()

    def leave_setup(self) -> None:
        """Back to play mode if setting up (no redraw: the caller redraws)."""
        if self._mode is BoardMode.SETUP:
            self._mode = BoardMode.PLAY
            self.modeChanged.emit("play")

    def enter_check(self, ply: int) -> None:
        """Check mode at ``ply`` (the check controller has its result)."""
        self._mode = BoardMode.CHECK
        self.input.reset()
        self._ply = max(0, min(ply, self.available_plies))
        self.modeChanged.emit("check")
        self.plyChanged.emit(self._ply)
        self.changed.emit()

    # ------------------------------------------------------------------ navigation
    def go(self, ply: int) -> None:
        """Show the record at ``ply`` (ends a gap preview)."""
        self.gap.stop_preview()
        ply = max(0, min(int(ply), self.available_plies))
        self.input.reset()
        self.leave_setup()
        if ply != self._ply:
            self._ply = ply
            self.plyChanged.emit(ply)
            self.counts.announce(ply)
        self.changed.emit()

    def shutdown(self) -> None:
        """Stop a running search and a record being read (window closing)."""
        self.gap.shutdown()
        self.files.shutdown()
