"""The board controller: the session (the core's frozen
:class:`~rulesbook.reconstruct.BoardSession`), undo, the current ply and the mode.

Every edit of the record goes through here (so that it can be undone) and makes a
new frozen session. Small controllers it owns do the rest, each a QObject with its
own signals (status messages are relayed on :attr:`BoardController.statusMessage`):
``input`` (clicks and drags), ``setup`` (the palette and the position set up),
``check`` ("Check record", the move list's marks, rulings), ``gap`` (the gap search
off the GUI thread and its preview), ``counts`` (the draw counts of the edition in
force), ``clocks`` (clock pro-rating), ``files`` (imports, the atomic autosave at
every change, case files): one module each in this package.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from rulesbook.draughts import IllegalMoveError, Move, Position, Variant
from rulesbook.reconstruct import (
    BoardSession,
    GameRecord,
    IllegalMove,
    RecordMove,
    Replay,
    parse_moves_text,
    record_pdn,
    replay,
    written_squares,
)

from ..autosave import autosave_dir
from .check import CheckController
from .clocks import ClockController
from .counts import CountsController
from .files import SESSION_VERSION, SessionFiles
from .gap import GapController
from .input import InputController
from .mode import MODES, BoardMode
from .setup import TOOLS, SetupController, board_check_message

__all__ = ["BoardController", "autosave_dir", "AUTOSAVE_NAME", "TOOLS", "MODES",
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
      checkChanged(object)        the Replay of "Check record" (None: cleared)
      dirtyChanged(bool)          unsaved changes (not yet in a case file)
      rulingsRequested(RulingsRequest)   for the rulings panel (relays the
                                  check controller's)
    """

    changed = Signal()
    recordChanged = Signal()
    plyChanged = Signal(int)
    modeChanged = Signal(str)
    statusMessage = Signal(str)
    checkChanged = Signal(object)
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
        self.case_path: Path | None = None
        self._dirty = False
        #: the record is as it was imported or started (New): nothing typed since
        self._fresh = True
        self._undo: list[tuple[GameRecord, int]] = []
        self.check = CheckController(self)
        self.input = InputController(self)
        self.setup = SetupController(self)
        self.gap = GapController(self)
        self.counts = CountsController(self)
        self.clocks = ClockController(self)
        self.files = SessionFiles(self, path)
        for changed in (self.input.changed, self.gap.changed, self.counts.changed):
            changed.connect(self.changed)
        for status in (self.check.statusMessage, self.input.statusMessage,
                       self.setup.statusMessage, self.gap.statusMessage,
                       self.files.statusMessage, self.counts.statusMessage):
            status.connect(self.statusMessage)
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

    @property
    def notes(self) -> str:
        return self._session.notes

    @notes.setter
    def notes(self, text: str) -> None:
        self.set_notes(text)

    def set_notes(self, text: str) -> None:
        """The referee's notes (kept in the case file)."""
        if text != self._session.notes:
            self._session = self._session.replace(notes=str(text))
            self._set_dirty(True)
            self.autosave()

    @property
    def edition_id(self) -> str | None:
        return self.counts.edition_id

    # ------------------------------------------------------------------ derived state
    def _recompute(self) -> None:
        record = self.record
        self._replay = replay(record.written, start=record.start, variant=record.variant,
                              let_stand=True, result=record.result)
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

    @property
    def dirty(self) -> bool:
        return self._dirty

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
        return next((item for item in self._replay.illegal if item.ply == ply), None)

    def last_move_squares(self) -> tuple[int, ...]:
        if self._mode is BoardMode.SETUP:
            return ()
        if self.gap.previewing:
            moves = self.gap.preview_moves()
            return moves[self.gap.preview_ply - 1].path if self.gap.preview_ply else ()
        if self._ply == 0:
            return ()
        move = self.played_move(self._ply)
        if move is not None:
            return move.path
        return written_squares(self.moves[self._ply - 1].text) or ()

    def move_number(self, ply: int) -> int:
        return self.record.move_number(ply)

    # ------------------------------------------------------------------ change plumbing
    def _push_undo(self) -> None:
        self._undo.append((self.record, self._ply))
        del self._undo[:-UNDO_DEPTH]

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> bool:
        if not self._undo:
            self.statusMessage.emit("Nothing to undo")
            return False
        record, ply = self._undo.pop()
        self._session = self._session.replace(record=record)
        self._record_changed(ply)
        self.statusMessage.emit("Undone")
        return True

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

    def _set_record(self, record: GameRecord, ply: int, to_play: bool = False,
                    **session: Any) -> None:
        self._push_undo()
        self._session = self._session.replace(record=record, **session)
        self._record_changed(ply, to_play)

    def _record_changed(self, ply: int | None = None, to_play: bool = False) -> None:
        """After the record changed: the check, the gap result and the input no
        longer apply; check mode (or with ``to_play`` any mode) ends."""
        self.input.reset()
        self.check.clear()
        self.gap.forget()
        self._recompute()
        if ply is not None:
            self._ply = max(0, min(ply, self.available_plies))
        if self._mode is BoardMode.CHECK or (to_play and self._mode is not BoardMode.PLAY):
            self._mode = BoardMode.PLAY
            self.modeChanged.emit("play")
        self.checkChanged.emit(None)
        self._set_dirty(True)
        self.recordChanged.emit()
        self.plyChanged.emit(self._ply)
        self.changed.emit()
        self.autosave()

    def set_record(self, record: GameRecord, ply: int | None = None) -> None:
        """Replace the record (undoable); show ``ply`` (default: the current one)."""
        self._set_record(record, self._ply if ply is None else ply)

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
        if mode is BoardMode.CHECK and self.checked is None:
            self.check_record()
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
        self.autosave()

    def leave_setup(self) -> None:
        """Back to play mode if setting up (no redraw: the caller redraws)."""
        if self._mode is BoardMode.SETUP:
            self._mode = BoardMode.PLAY
            self.modeChanged.emit("play")

    def set_setup(self, position: Position) -> None:
        """The position being set up (the set-up controller's edits)."""
        self._session = self._session.replace(setup=position)
        self.changed.emit()
        self.autosave()

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
            self._announce(ply)
        self.changed.emit()

    def _announce(self, ply: int) -> None:
        """On arriving at ``ply``: the draw claim decided there, or the flag of a move
        played after a count was reached, on the status line."""
        if self._mode is BoardMode.SETUP:
            return
        here = self.counts.announced_at(ply)
        flag = self.counts.after_draw_text(ply)
        if here is not None:
            self.statusMessage.emit(here.text)
        elif flag:
            move = self.moves[ply - 1].text if 0 < ply <= len(self.moves) else ""
            self.statusMessage.emit(f"{self.record.ply_prefix(ply, dots='...')} {move} — "
                                    f"{flag}")

    def first(self) -> None:
        """The first ply (of the previewed gap sequence while previewing)."""
        if self.gap.previewing:
            self.gap.preview_go(0)
            return
        self.go(0)

    def last(self) -> None:
        if self.gap.previewing:
            self.gap.preview_go(len(self.gap.preview_moves()))
            return
        self.go(self.available_plies)

    def next(self) -> None:
        if self.gap.previewing:
            self.gap.step(1)
            return
        if self._ply >= self.available_plies and self.moves and self._ply < len(self.moves):
            self.statusMessage.emit(
                f"The record cannot be replayed past ply {self._ply}: "
                f"{self.moves[self._ply].text} cannot be put on the board")
        self.go(self._ply + 1)

    def previous(self) -> None:
        if self.gap.previewing:
            self.gap.step(-1)
            return
        self.go(self._ply - 1)

    # ------------------------------------------------------------------ records
    def new_record(self, record: GameRecord, fresh: bool = False) -> None:
        """Start over with ``record`` (undoable) in play mode, no board now marked;
        ``fresh``: as imported or started, not unsaved work of the user's."""
        self._set_record(record, 0, to_play=True, target=None)
        if fresh != self._fresh:
            self._fresh = fresh
            self.dirtyChanged.emit(self._dirty)  # "unsaved" or not: the title follows

    def new_game(self, variant: str | Variant | None = None, start: Position | None = None) -> None:
        """New: an empty record (no tags: players, event, round and the game's comment
        go) from the standard start, no notes, no case file."""
        chosen = Variant.named(variant) if variant is not None else self.variant
        self.case_path = None
        self._session = self._session.replace(notes="")
        self.new_record(GameRecord.empty(chosen, start), fresh=True)

    def set_variant(self, variant: str | Variant) -> None:
        """Read the record under another variant (the standard start follows it)."""
        new = Variant.named(variant)
        if new == self.variant:
            return
        self._push_undo()
        self._session = self._session.in_variant(new)
        self._record_changed(self._ply)
        self.statusMessage.emit(f"Variant: {new.name}")

    def type_moves(self, text: str) -> int:
        """Append moves typed as written (a scoresheet: ``11-15 23-19 ...``); illegal
        ones are kept as written for "Check record". Returns how many were added."""
        written = parse_moves_text(text)
        if not written:
            self.statusMessage.emit("No move to add: write moves as 11-15 or 15x24")
            return 0
        at = self._ply
        replaced = len(self.moves) - at
        self._set_record(self.record.spliced(at, [RecordMove(w.text) for w in written]), at)
        self.go(min(at + len(written), self.available_plies))
        msg = f"Added {len(written)} move(s)"
        if replaced > 0:
            msg += f", replacing {replaced} later move(s) (Ctrl+Z to undo)"
        if self.available_plies < len(self.moves):
            msg += f"; the record stops at ply {self.available_plies + 1}"
        self.statusMessage.emit(self._with_claims(msg, at + 1, at + len(written)))
        return len(written)

    def set_comment(self, ply: int, text: str) -> None:
        if not 1 <= ply <= len(self.moves) or self.moves[ply - 1].comment == text:
            return
        self._push_undo()
        self._session = self._session.replace(record=self.record.with_comment(ply, text))
        self._set_dirty(True)
        self.recordChanged.emit()
        self.autosave()

    def adopt_moves(self, at: int, moves: Iterable[RecordMove]) -> None:
        """The record up to ply ``at`` followed by ``moves`` (a gap sequence adopted)."""
        spliced = self.record.spliced(at, moves)
        self._set_record(spliced, len(spliced.moves), target=None)

    def start_record_from(self, position: Position) -> None:
        """A new record from ``position`` (set up), keeping the tags but a set-up's."""
        tags = {k: v for k, v in self.record.tags.items() if k not in ("FEN", "SetUp", "Setup")}
        record = self.record.replace(start=position, moves=(), result="*", tags=tags)
        self._set_record(record, 0, to_play=True)
        self.statusMessage.emit(f"New record from {position.fen()} (Ctrl+Z to undo)")

    def export_pdn(self) -> str:
        return record_pdn(self.record)

    def export_fen(self) -> str:
        return self.position().fen()

    def play_move(self, move: Move | str) -> Move | None:
        """Play a legal move at the current ply (only legal moves are accepted)."""
        if self._mode is not BoardMode.PLAY:
            self.set_mode("play")
        pos = self.position()
        try:
            move = move if isinstance(move, Move) and pos.is_legal(move) else \
                pos.parse_move(move if isinstance(move, str) else move.full_text())
        except IllegalMoveError as exc:
            self.input.reset()
            self.statusMessage.emit(f"Refused: {exc}")
            self.changed.emit()
            return None
        text = pos.move_text(move)
        at = self._ply
        if at < len(self.moves) and self.played_move(at + 1) == move:
            self.go(at + 1)
            return move
        replaced = len(self.moves) - at
        self._set_record(self.record.spliced(at, [RecordMove(text)]), at + 1)
        msg = f"{self.record.ply_prefix(at + 1, dots='...')} {text}"
        if replaced:
            msg += f" — replaced {replaced} later move(s) (Ctrl+Z to undo)"
        after = self.position()
        if after.is_game_over():
            msg += f" — {after.turn.title} has no move: {after.turn.opponent.title} wins"
        self.statusMessage.emit(self._with_claims(msg, at + 1, at + 1))
        return move

    def _with_claims(self, msg: str, first: int, last: int) -> str:
        """``msg`` about the plies ``first``..``last`` just added, with the draw claim
        decided among them or the flag of moves played after a count was reached."""
        here = [a for ply in range(first, last + 1)
                if (a := self.counts.announced_at(ply)) is not None]
        if here:  # a draw reached under the rules in force says most, then the first
            said = next((a for a in here if a.reached), here[0])
            later = last - said.ply if said.reached else 0
            return f"{msg} — {said.text}" + (
                f"; {later} later move(s) played after the draw" if later > 0 else "")
        flag = self.counts.after_draw_text(first)
        return f"{msg} — {flag}" if flag else msg

    def mark_board_now(self, position: Position | None = None) -> bool:
        """Take the board shown (the set-up position in set-up mode) as "the board now":
        the target of gap filling from the end of the record."""
        pos = position if position is not None else self.position()
        problem = board_check_message(pos)
        if problem is not None:
            self.statusMessage.emit(f"Cannot use this board: {problem}")
            return False
        target = Position(pos.pieces(), pos.turn, self.variant)
        self._session = self._session.replace(target=target)
        self.gap.forget()
        if self._mode is BoardMode.SETUP:
            self.leave_setup()
            self._ply = self.available_plies
            self.plyChanged.emit(self._ply)
        self.statusMessage.emit(f"The board now: {target.fen()}")
        self.changed.emit()
        self.autosave()
        return True

    # ------------------------------------------------------------------ checking
    def set_let_stand(self, value: bool) -> None:
        self._session = self._session.replace(let_stand=bool(value))
        if self.checked is not None:
            self.check.run()

    def check_record(self) -> Replay:
        """Replay the record and mark the first illegal move (see :mod:`.check`)."""
        return self.check.run()

    def enter_check(self, checked: Replay, ply: int) -> None:
        """Check mode at ``ply``, showing ``checked`` (the check controller's result)."""
        self._mode = BoardMode.CHECK
        self.input.reset()
        self._ply = max(0, min(ply, self.available_plies))
        self.modeChanged.emit("check")
        self.checkChanged.emit(checked)
        self.plyChanged.emit(self._ply)
        self.changed.emit()

    @property
    def checked(self) -> Replay | None:
        """The replay of the last "Check record" (None: not checked since the last edit)."""
        return self.check.result

    @property
    def first_illegal(self) -> IllegalMove | None:
        """The first illegal move of the checked record, or None."""
        return self.check.first_illegal

    def move_state(self, ply: int) -> str:
        return self.check.move_state(ply)

    def shutdown(self) -> None:
        """Stop a running search (window closing)."""
        self.gap.shutdown()

    # ------------------------------------------------------------------ files
    @property
    def autosave_enabled(self) -> bool:
        return self.files.enabled

    @autosave_enabled.setter
    def autosave_enabled(self, enabled: bool) -> None:
        self.files.enabled = bool(enabled)

    @property
    def autosave_path(self) -> Path:
        return self.files.autosave_path

    def autosave(self) -> bool:
        """Write the session to the autosave file at once (atomic); never raises."""
        return self.files.autosave()

    def restore(self, session: BoardSession, ply: int, mode: str, dirty: bool,
                case_path: Path | None) -> None:
        """Show a session restored from an autosave (no undo: nothing was lost)."""
        self._session = session
        self.case_path = case_path
        self._mode = BoardMode(mode) if mode in ("play", "setup") else BoardMode.PLAY
        self.check.clear()
        self.input.reset()
        self.gap.forget()
        self._recompute()
        self._ply = max(0, min(ply, self.available_plies))
        self._dirty = dirty
        self._fresh = not dirty
        self.modeChanged.emit(self._mode)
        self.recordChanged.emit()
        self.dirtyChanged.emit(self._dirty)
        self.plyChanged.emit(self._ply)
        self.changed.emit()

    def open_session(self, session: BoardSession, case_path: Path) -> None:
        """Show the session of a case file just opened (the current record can be had
        back with Undo); nothing unsaved."""
        self.case_path = case_path
        self._set_record(session.record, 0, to_play=True, target=session.target,
                         notes=session.notes, let_stand=False)
        self._set_dirty(False)
        self.autosave()

    def saved_as(self, path: Path) -> None:
        """The session is saved in the case file ``path``."""
        self.case_path = path
        self._set_dirty(False)
        self.autosave()
