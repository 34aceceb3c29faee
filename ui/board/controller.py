"""The board controller: owns the record, the current ply, the set-up position,
the check result and the gap search; the widgets display what it emits.

Everything the user changes is autosaved at once (atomically) to
``autosave_path`` so that a crash loses nothing; :meth:`recover` reads it back.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from rulesbook.draughts import (
    Color,
    CountRules,
    DraughtsError,
    Game,
    IllegalMoveError,
    Move,
    Piece,
    Position,
    Variant,
)
from rulesbook.storage import SaveError, atomic_write_text, durability_notes

from ..autosave import (
    autosave_dir,
    claim,
    in_use_by_another_app,
    in_use_notice,
    read_json,
    release,
)
from .records import GameChunk, RecordMove, node_line_text, split_games

__all__ = ["BoardController", "autosave_dir", "AUTOSAVE_NAME", "TOOLS", "MODES"]

AUTOSAVE_NAME = "board-autosave.json"
SESSION_VERSION = 1
MODES = ("play", "setup", "check")
#: the set-up palette: tool id -> piece (None = eraser)
TOOLS: dict[str, Piece | None] = {
    "black-man": Piece(Color.BLACK, False),
    "black-king": Piece(Color.BLACK, True),
    "white-man": Piece(Color.WHITE, False),
    "white-king": Piece(Color.WHITE, True),
    "eraser": None,
}
VARIANT_NAMES = ("pool", "english", "russian", "brazilian")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _is_subsequence(needle, hay) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


class BoardController(QObject):
    """Owns the game state of the Board workspace.

    Signals:
      changed()                   anything shown changed (board, list, panels)
      recordChanged()             the moves of the record changed
      plyChanged(int)             the current ply changed
      modeChanged(str)            "play" | "setup" | "check"
      statusMessage(str)          a sentence for the status bar
      checkChanged(object)        the Replay of "Check record" (None: cleared)
      gapStarted() / gapProgress(float, int) / gapFinished(object GapResult) / gapFailed(str)
      dirtyChanged(bool)          unsaved changes (not yet in a case file)
      rulingsRequested(str incident, dict facts)   for the rulings panel
      previewChanged(int index, int ply)   the gap sequence previewed on the board
                                  (index -1: no preview, the board shows the record)
    """

    changed = Signal()
    recordChanged = Signal()
    plyChanged = Signal(int)
    modeChanged = Signal(str)
    statusMessage = Signal(str)
    checkChanged = Signal(object)
    gapStarted = Signal()
    gapProgress = Signal(float, int)
    gapFinished = Signal(object)
    gapFailed = Signal(str)
    dirtyChanged = Signal(bool)
    rulingsRequested = Signal(str, dict)
    previewChanged = Signal(int, int)

    def __init__(self, parent: QObject | None = None, autosave_path: str | Path | None = None):
        super().__init__(parent)
        self.autosave_path = Path(autosave_path) if autosave_path is not None else \
            autosave_dir() / AUTOSAVE_NAME
        self.autosave_enabled = True
        self.last_autosave_error = ""
        self._owns_autosave = False  # only this session's autosave is ever deleted
        self.variant: Variant = Variant.named("pool")
        self.start: Position = Position.start(self.variant)
        self.moves: list[RecordMove] = []
        self.tags: dict[str, str] = {}
        self.result = "*"
        self.comment = ""
        self._ply = 0
        self._mode = "play"
        self._replay = None
        self._states: list | None = None
        self.count_rules = CountRules()
        self.count_label = ""
        self.edition_id: str | None = None
        self.notes = ""
        self.let_stand = False
        self.checked = None  # Replay of the last "Check record" (None: not checked)
        # play input
        self.partial: tuple[int, ...] = ()
        self.pending_end: int | None = None  # an ambiguous capture's end, waiting for a stop
        # set-up
        self.tool = "black-man"
        self.setup_pieces: dict[int, Piece] = {}
        self.setup_turn: Color = Color.BLACK
        # gap filling
        self.gap_target: Position | None = None
        self.gap_from_ply: int | None = None
        self.gap_result = None
        self._worker = None
        # the gap sequence previewed on the board (None: the board shows the record)
        self.preview_index: int | None = None
        self.preview_ply = 0
        # files
        self.case_path: Path | None = None
        self._dirty = False
        self._undo: list[dict] = []
        self._recompute()

    # ------------------------------------------------------------------ derived state
    def _recompute(self) -> None:
        from rulesbook.reconstruct import WrittenMove, replay

        written = [WrittenMove(m.text, m.line, m.col) for m in self.moves]
        self._replay = replay(written, start=self.start, variant=self.variant, let_stand=True,
                              result=self.result)
        self._states = None
        self._ply = min(self._ply, self.available_plies)

    @property
    def record_replay(self):
        """The core Replay of the whole record (illegal moves standing as played)."""
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
    def mode(self) -> str:
        return self._mode

    @property
    def dirty(self) -> bool:
        return self._dirty

    def position(self) -> Position:
        """What the board shows now (the set-up position in set-up mode)."""
        if self._mode == "setup":
            return self.setup_position()
        if self.previewing:
            return self.preview_position()
        return self._replay.positions[self._ply]

    def played_move(self, ply: int) -> Move | None:
        """The legal move of ``ply`` (1-based), None when illegal or not replayed."""
        if 1 <= ply <= len(self._replay.played):
            return self._replay.played[ply - 1]
        return None

    def illegal_at(self, ply: int):
        for item in self._replay.illegal:
            if item.ply == ply:
                return item
        return None

    def move_state(self, ply: int) -> str:
        """How the move list shows ``ply``: ``illegal`` (found by "Check record"),
        ``suspect`` (not legal, record not checked yet), ``unchecked`` (after the
        first illegal move when they are not let stand), ``unplayed`` (the replay
        cannot reach it) or ``legal``."""
        checked = self.checked
        if checked is not None:
            if any(item.ply == ply for item in checked.illegal):
                return "illegal"
            if not checked.let_stand and checked.first_illegal is not None \
                    and ply > checked.first_illegal.ply:
                return "unchecked"
        elif self.illegal_at(ply) is not None:
            return "suspect"
        if ply > self.available_plies:
            return "unplayed"
        return "legal"

    def last_move_squares(self) -> tuple[int, ...]:
        if self._mode == "setup":
            return ()
        if self.previewing:
            moves = self.preview_moves()
            return moves[self.preview_ply - 1].path if self.preview_ply else ()
        if self._ply == 0:
            return ()
        move = self.played_move(self._ply)
        if move is not None:
            return move.path
        from rulesbook.reconstruct.replay import _squares  # the core's reading of a text

        return _squares(self.moves[self._ply - 1].text) or ()

    def move_number(self, ply: int) -> int:
        from rulesbook.reconstruct.replay import move_number

        return move_number(self.start, ply)

    @property
    def first_illegal(self):
        """The first illegal move of the checked record (core ``IllegalMove``:
        ``.incident``, ``.facts``, ``.message``, ``.legal_moves``), or None."""
        if self.checked is None:
            return None
        return self.checked.first_illegal

    # ------------------------------------------------------------------ change plumbing
    def _snapshot(self) -> dict:
        return {"variant": self.variant.name, "start": self.start.fen(),
                "moves": [m.to_dict() for m in self.moves], "tags": dict(self.tags),
                "result": self.result, "comment": self.comment, "ply": self._ply}

    def _push_undo(self) -> None:
        self._undo.append(self._snapshot())
        del self._undo[:-50]

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> bool:
        if not self._undo:
            self.statusMessage.emit("Nothing to undo")
            return False
        snap = self._undo.pop()
        self._apply_record(snap)
        self._record_changed(snap.get("ply", 0))
        self.statusMessage.emit("Undone")
        return True

    def _apply_record(self, data: dict) -> None:
        self.variant = Variant.named(data.get("variant", "pool"))
        self.start = Position.from_fen(data.get("start") or Position.start(self.variant).fen(),
                                       self.variant, check=False)
        self.moves = [RecordMove.from_dict(m) for m in data.get("moves", [])]
        self.tags = {str(k): str(v) for k, v in (data.get("tags") or {}).items()}
        self.result = str(data.get("result", "*") or "*")
        self.comment = str(data.get("comment", "") or "")

    def _set_dirty(self, dirty: bool) -> None:
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirtyChanged.emit(dirty)

    def _record_changed(self, ply: int | None = None) -> None:
        self.partial = ()
        self.pending_end = None
        self.checked = None
        self.gap_result = None
        self._end_preview()
        self._recompute()
        if ply is not None:
            self._ply = max(0, min(ply, self.available_plies))
        if self._mode == "check":
            self._mode = "play"
            self.modeChanged.emit("play")
        self.checkChanged.emit(None)
        self._set_dirty(True)
        self.recordChanged.emit()
        self.plyChanged.emit(self._ply)
        self.changed.emit()
        self.autosave()

    # ------------------------------------------------------------------ modes
    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        if mode == self._mode:
            return
        if mode == "setup":
            pos = self.position()
            self.setup_pieces = dict(pos.pieces())
            self.setup_turn = pos.turn
        self.stop_preview()
        if mode == "check" and self.checked is None:
            self.check_record()
            return
        self._mode = mode
        self.partial = ()
        self.pending_end = None
        self.modeChanged.emit(mode)
        if mode == "setup":
            self.statusMessage.emit("Setting up: choose a piece in the palette and click "
                                    "squares (right-click removes)")
        elif mode == "play":
            self.statusMessage.emit(f"Ply {self._ply}: {self.position().turn.title} to move")
        self.changed.emit()
        self.autosave()

    # ------------------------------------------------------------------ navigation
    def go(self, ply: int) -> None:
        """Show the record at ``ply`` (ends a gap preview)."""
        self.stop_preview()
        ply = max(0, min(int(ply), self.available_plies))
        self.partial = ()
        self.pending_end = None
        if self._mode == "setup":
            self._mode = "play"
            self.modeChanged.emit("play")
        if ply != self._ply:
            self._ply = ply
            self.plyChanged.emit(ply)
        self.changed.emit()

    def first(self) -> None:
        """The first ply (of the previewed gap sequence while previewing)."""
        if self.previewing:
            self.preview_go(0)
            return
        self.go(0)

    def last(self) -> None:
        if self.previewing:
            self.preview_go(len(self.preview_moves()))
            return
        self.go(self.available_plies)

    def next(self) -> None:
        if self.previewing:
            self.preview_go(self.preview_ply + 1)
            return
        if self._ply >= self.available_plies and self.moves and self._ply < len(self.moves):
            self.statusMessage.emit(
                f"The record cannot be replayed past ply {self._ply}: "
                f"{self.moves[self._ply].text} cannot be put on the board")
        self.go(self._ply + 1)

    def previous(self) -> None:
        if self.previewing:
            self.preview_go(self.preview_ply - 1)
            return
        self.go(self._ply - 1)

    # ------------------------------------------------------------------ records
    def new_game(self, variant: str | Variant | None = None, start: Position | None = None) -> None:
        self._push_undo()
        self.variant = Variant.named(variant) if variant is not None else self.variant
        self.start = start if start is not None else Position.start(self.variant)
        if self.start.variant != self.variant:
            self.start = Position(self.start.pieces(), self.start.turn, self.variant)
        self.moves = []
        self.tags = {}
        self.result = "*"
        self.comment = ""
        self.gap_target = None
        changed = self._mode != "play"
        self._mode = "play"
        self._record_changed(0)
        if changed:
            self.modeChanged.emit("play")

    def set_variant(self, variant: str | Variant) -> None:
        """Read the record under another variant (the standard start follows it)."""
        new = Variant.named(variant)
        if new == self.variant:
            return
        self._push_undo()
        was_standard = self.start == Position.start(self.variant)
        self.variant = new
        self.start = Position.start(new) if was_standard else \
            Position(self.start.pieces(), self.start.turn, new)
        if self.gap_target is not None:
            self.gap_target = Position(self.gap_target.pieces(), self.gap_target.turn, new)
        self._record_changed(self._ply)
        self.statusMessage.emit(f"Variant: {new.name}")

    @staticmethod
    def games_in(text: str) -> list[GameChunk]:
        """The games of a PDN text (titles for the chooser), without resolving moves."""
        return split_games(text)

    def load_text(self, text: str, index: int = 0, variant: str | Variant | None = None,
                  source: str = "") -> bool:
        """Import a record: PDN (game ``index`` of the file) or a plain move list.
        Games without a GameType tag are read as ``variant`` (the one chosen)."""
        from rulesbook.draughts.pdn import iter_games
        from rulesbook.reconstruct import RecordError, read_records
        from rulesbook.reconstruct.record import check_importable, looks_like_pdn

        chosen = Variant.named(variant) if variant is not None else self.variant
        try:
            if looks_like_pdn(text):
                chunks = split_games(text)
                if not chunks:
                    raise RecordError("the file has no game")
                if not 0 <= index < len(chunks):
                    raise RecordError(f"the file has {len(chunks)} games; there is no game "
                                      f"{index + 1}")
                chunk = chunks[index]
                body = "\n" * (chunk.first_line - 1) + chunk.text  # file line numbers
                record = read_records(body, chosen)[0]
                games = list(iter_games(body, chosen))
                game = games[0] if games else None
            else:
                record = read_records(text, chosen)[0]
                game = None
            check_importable(record)
        except DraughtsError as exc:
            self.statusMessage.emit(f"Cannot import{' ' + source if source else ''}: {exc}")
            return False
        if record.start is None:
            self.statusMessage.emit("Cannot import: " + "; ".join(record.problems))
            return False
        notes: dict[tuple[int, int], tuple[str, tuple[str, ...]]] = {}
        if game is not None:
            for node in game.mainline:
                variations = tuple(node_line_text(v) for v in node.variations if v)
                notes[(node.line, node.col)] = (node.comment, variations)
        self._push_undo()
        self.variant = record.variant
        self.start = record.start
        self.moves = [RecordMove(m.text, *notes.get((m.line, m.col), ("", ())), m.line, m.col)
                      for m in record.moves]
        self.tags = dict(record.tags)
        self.result = record.result
        self.comment = game.comment if game is not None else ""
        self.gap_target = None
        self.case_path = None
        changed = self._mode != "play"
        self._mode = "play"
        self._record_changed(0)
        if changed:
            self.modeChanged.emit("play")
        problems = "; ".join(record.problems)
        what = source or "the record"
        self.statusMessage.emit(
            f"Imported {what}: {len(self.moves)} plies ({self.variant.name})"
            + (f" — problems: {problems}" if problems else ""))
        return True

    def type_moves(self, text: str) -> int:
        """Append moves typed as written (a scoresheet: ``11-15 23-19 ...``); illegal
        ones are kept as written for "Check record". Returns how many were added."""
        from rulesbook.reconstruct import parse_moves_text

        written = parse_moves_text(text)
        if not written:
            self.statusMessage.emit("No move to add: write moves as 11-15 or 15x24")
            return 0
        self._push_undo()
        at = self._ply
        replaced = len(self.moves) - at
        self.moves = self.moves[:at] + [RecordMove(w.text) for w in written]
        self._record_changed(at)
        self.go(min(at + len(written), self.available_plies))
        msg = f"Added {len(written)} move(s)"
        if replaced > 0:
            msg += f", replacing {replaced} later move(s) (Ctrl+Z to undo)"
        if self.available_plies < len(self.moves):
            msg += f"; the record stops at ply {self.available_plies + 1}"
        self.statusMessage.emit(msg)
        return len(written)

    def set_comment(self, ply: int, text: str) -> None:
        if not 1 <= ply <= len(self.moves):
            return
        old = self.moves[ply - 1]
        if old.comment == text:
            return
        self._push_undo()
        self.moves[ply - 1] = RecordMove(old.text, text, old.variations, old.line, old.col)
        self._set_dirty(True)
        self.recordChanged.emit()
        self.autosave()

    def export_pdn(self) -> str:
        from rulesbook.draughts.pdn import PdnGame, PdnNode, write_game

        nodes = []
        position: Position | None = self.start
        for i, m in enumerate(self.moves, 1):
            move = self.played_move(i) if position is not None else None
            nodes.append(PdnNode(m.text, move=move, comment=m.comment))
            if move is None:
                position = None
            elif position is not None:
                position = position.play(move)
        game = PdnGame(tags=dict(self.tags), variant=self.variant, start=self.start,
                       mainline=nodes, result=self.result, comment=self.comment)
        return write_game(game)

    def export_fen(self) -> str:
        return self.position().fen()

    # ------------------------------------------------------------------ playing
    def legal_moves(self) -> list[Move]:
        return self.position().legal_moves() if self._mode == "play" else []

    def hint_squares(self) -> tuple[int, ...]:
        """Where the selected piece can go next (or the pieces that can move)."""
        if self._mode != "play":
            return ()
        legal = self.legal_moves()
        if not self.partial:
            return ()
        inner = self.partial[1:]
        out = []
        for m in legal:
            if m.start != self.partial[0]:
                continue
            rest = m.path[1:]
            # the next square after the squares clicked so far
            if inner and not _is_subsequence(inner, rest):
                continue
            idx = 0
            for s in inner:
                idx = rest.index(s, idx) + 1
            if idx < len(rest):
                out.append(rest[idx])  # the next stop
                out.append(m.end)
        return tuple(sorted(set(out)))

    def movable_squares(self) -> tuple[int, ...]:
        return tuple(sorted({m.start for m in self.legal_moves()}))

    def click_square(self, square: int, erase: bool = False) -> None:
        """A click on the board: set-up edits, or a step of a move in play mode."""
        if self._mode == "setup":
            self.setup_click(square, erase=erase)
            return
        if self.previewing:
            self.statusMessage.emit(
                f"Previewing sequence {self.preview_index + 1}: adopt it, or press Esc "
                f"to go back to the record")
            return
        if self._mode != "play":
            self.statusMessage.emit("Checking the record: choose Play to make moves")
            return
        pos = self.position()
        piece = pos.piece_at(square)
        if erase:
            self.cancel_input()
            return
        if not self.partial:
            if piece is None:
                self.statusMessage.emit(f"{square} is empty: click a {pos.turn.title} piece "
                                        f"to move")
                return
            if piece.color is not pos.turn:
                self.statusMessage.emit(f"{pos.turn.title} to move: the piece on {square} is "
                                        f"{piece.color.title}'s")
                return
            self.partial = (square,)
            self._explain_selection(pos, square)
            self.changed.emit()
            return
        if self.pending_end is not None:
            end, self.pending_end = self.pending_end, None
            if square != end:
                self._extend(pos, self.partial + (square, end))
                return
        if square == self.partial[-1]:
            self.partial = self.partial[:-1]
            self.changed.emit()
            return
        if len(self.partial) == 1 and piece is not None and piece.color is pos.turn:
            self.partial = (square,)
            self._explain_selection(pos, square)
            self.changed.emit()
            return
        self._extend(pos, self.partial + (square,))

    def cancel_input(self) -> None:
        """Forget the squares clicked so far (Escape); ends a gap preview."""
        if self.previewing:
            self.stop_preview()
            return
        self.partial = ()
        self.pending_end = None
        self.changed.emit()

    def drop_piece(self, start: int, end: int) -> None:
        """A piece dragged from ``start`` to ``end``."""
        if self._mode == "setup":
            piece = self.setup_pieces.pop(start, None)
            if piece is not None:
                self.setup_pieces[end] = piece
                self._setup_changed()
            return
        if self._mode != "play" or self.previewing:
            return
        pos = self.position()
        piece = pos.piece_at(start)
        if piece is None or piece.color is not pos.turn:
            self.partial = ()
            self.pending_end = None
            self.click_square(start)
            return
        self._extend(pos, (start, end))

    def _explain_selection(self, pos: Position, square: int) -> None:
        legal = pos.legal_moves()
        own = [m for m in legal if m.start == square]
        if own:
            self.statusMessage.emit(
                f"{pos.piece_at(square).description.capitalize()} on {square}: "
                + ", ".join(pos.move_text(m) for m in own))
            return
        what = pos.piece_at(square).description
        if legal and legal[0].is_capture:
            texts = ", ".join(pos.move_text(m) for m in legal)
            self.statusMessage.emit(f"The {what} on {square} cannot move: you must "
                                    f"capture: {texts}")
        else:
            self.statusMessage.emit(f"The {what} on {square} cannot move: it is blocked")

    def _extend(self, pos: Position, squares: tuple[int, ...]) -> None:
        legal = pos.legal_moves()
        start, end = squares[0], squares[-1]
        inner = squares[1:-1]
        ending = [m for m in legal if m.start == start and m.end == end
                  and _is_subsequence(inner, m.path[1:-1])]
        exact = [m for m in ending if m.path == squares]
        if len(exact) == 1:
            ending = exact
        passing = [m for m in legal if m.start == start and end in m.path[1:-1]
                   and _is_subsequence(squares[1:], m.path[1:])]
        if len(ending) == 1 and not passing:
            self.play_move(ending[0])
            return
        if len(ending) == 1 and passing:
            # ends here or goes on: the shorter reading is a legal move only if listed
            self.play_move(ending[0])
            return
        if len(ending) > 1 or passing:
            self.partial = squares
            if len(ending) > 1:
                # ask for a square the piece stops on (one that tells the captures apart)
                self.partial = squares[:-1]
                self.pending_end = end
                options = " or ".join(m.full_text() for m in ending)
                self.statusMessage.emit(
                    f"Several captures end on {end}: {options} — click a square the "
                    f"piece stops on to choose")
            else:
                self.statusMessage.emit(f"Go on: click the next square of the capture "
                                        f"from {end}")
            self.changed.emit()
            return
        text = ("x" if any(m.is_capture for m in legal) else "-").join(str(s) for s in squares)
        if len(squares) == 2:
            text = f"{start}-{end}"
        try:
            pos.parse_move(text)
            message = f"{text} is not a legal move here"
        except IllegalMoveError as exc:
            message = str(exc)
        self.partial = ()
        self.pending_end = None
        self.statusMessage.emit(f"Refused: {message}")
        self.changed.emit()

    def play_move(self, move: Move | str) -> Move | None:
        """Play a legal move at the current ply (only legal moves are accepted)."""
        if self._mode != "play":
            self.set_mode("play")
        pos = self.position()
        try:
            move = pos.parse_move(move)
        except IllegalMoveError as exc:
            self.partial = ()
            self.pending_end = None
            self.statusMessage.emit(f"Refused: {exc}")
            self.changed.emit()
            return None
        text = pos.move_text(move)
        at = self._ply
        if at < len(self.moves) and self.played_move(at + 1) == move:
            self.partial = ()
            self.pending_end = None
            self.go(at + 1)
            return move
        self._push_undo()
        replaced = len(self.moves) - at
        self.moves = self.moves[:at] + [RecordMove(text)]
        self._record_changed(at + 1)
        msg = f"{self.move_number(at + 1)}{'.' if pos.turn is self.variant.first_player else '...'} {text}"
        if replaced:
            msg += f" — replaced {replaced} later move(s) (Ctrl+Z to undo)"
        after = self.position()
        if after.is_game_over():
            msg += f" — {after.turn.title} has no move: {after.turn.opponent.title} wins"
        self.statusMessage.emit(msg)
        return move

    def take_back(self) -> None:
        """Remove the last move of the record (undoable)."""
        if not self.moves:
            return
        self._push_undo()
        self.moves = self.moves[:-1]
        self._record_changed(len(self.moves))

    # ------------------------------------------------------------------ set-up
    def setup_position(self) -> Position:
        return Position(self.setup_pieces, self.setup_turn, self.variant)

    def set_tool(self, tool: str) -> None:
        if tool not in TOOLS:
            raise ValueError(f"unknown tool {tool!r}")
        self.tool = tool

    def setup_click(self, square: int, erase: bool = False) -> None:
        piece = None if erase else TOOLS[self.tool]
        current = self.setup_pieces.get(square)
        if piece is None or current == piece:
            self.setup_pieces.pop(square, None)
        else:
            self.setup_pieces[square] = piece
        self._setup_changed()

    def setup_clear(self) -> None:
        self.setup_pieces = {}
        self._setup_changed()

    def setup_start(self) -> None:
        start = Position.start(self.variant)
        self.setup_pieces = dict(start.pieces())
        self.setup_turn = start.turn
        self._setup_changed()

    def set_setup_turn(self, turn: Color) -> None:
        self.setup_turn = turn
        self._setup_changed()

    def set_setup_fen(self, text: str) -> bool:
        try:
            pos = Position.from_fen(text, self.variant, check=False)
        except DraughtsError as exc:
            self.statusMessage.emit(f"Cannot read the FEN: {exc}")
            return False
        self.setup_pieces = dict(pos.pieces())
        self.setup_turn = pos.turn
        self._setup_changed()
        return True

    def _setup_changed(self) -> None:
        self.changed.emit()
        self.autosave()

    def check_setup(self) -> tuple[bool, str]:
        """The sanity check of the set-up position: (ok, a readable sentence)."""
        from rulesbook.reconstruct import check_board

        pos = self.setup_position()
        try:
            check_board(pos, "the position set up")
        except DraughtsError as exc:
            return False, _sentence(str(exc))
        return True, "The position is possible" + self._setup_summary(pos)

    def _setup_summary(self, pos: Position) -> str:
        def side(c: Color) -> str:
            men, kings = pos.count(c, king=False), pos.count(c, king=True)
            return (f"{c.title} {men} {'man' if men == 1 else 'men'}, "
                    f"{kings} {'king' if kings == 1 else 'kings'}")
        return f": {side(Color.BLACK)}; {side(Color.WHITE)}; {pos.turn.title} to move."

    def use_setup_as_start(self) -> bool:
        """Start a new record from the set-up position (the old one can be undone)."""
        ok, message = self.check_setup()
        if not ok:
            self.statusMessage.emit(f"Cannot start from this position: {message}")
            return False
        pos = self.setup_position()
        self._push_undo()
        self.start = pos
        self.moves = []
        self.result = "*"
        self.tags = {k: v for k, v in self.tags.items() if k not in ("FEN", "SetUp", "Setup")}
        self._mode = "play"
        self._record_changed(0)
        self.modeChanged.emit("play")
        self.statusMessage.emit(f"New record from {pos.fen()} (Ctrl+Z to undo)")
        return True

    def mark_board_now(self, position: Position | None = None) -> bool:
        """Take the board shown (the set-up position in set-up mode) as "the board now":
        the target of gap filling from the end of the record."""
        from rulesbook.reconstruct import check_board

        pos = position if position is not None else self.position()
        try:
            check_board(pos, "the board now", game_over_ok=True)
        except DraughtsError as exc:
            self.statusMessage.emit(f"Cannot use this board: {_sentence(str(exc))}")
            return False
        self.gap_target = Position(pos.pieces(), pos.turn, self.variant)
        self.gap_result = None
        self._end_preview()
        if self._mode == "setup":
            self._mode = "play"
            self.modeChanged.emit("play")
            self._ply = self.available_plies
            self.plyChanged.emit(self._ply)
        self.statusMessage.emit(f"The board now: {self.gap_target.fen()}")
        self.changed.emit()
        self.autosave()
        return True

    # ------------------------------------------------------------------ checking
    def set_let_stand(self, value: bool) -> None:
        self.let_stand = bool(value)
        if self.checked is not None:
            self.check_record()

    def check_record(self):
        """Replay the record and mark the first illegal move (all of them when
        illegal moves are let stand). Returns the core Replay."""
        from rulesbook.reconstruct import WrittenMove, replay

        written = [WrittenMove(m.text, m.line, m.col) for m in self.moves]
        self.checked = replay(written, start=self.start, variant=self.variant,
                              let_stand=self.let_stand, result=self.result)
        self._mode = "check"
        self.partial = ()
        self.pending_end = None
        first = self.checked.first_illegal
        if first is not None:
            self._ply = first.ply - 1
            count = len(self.checked.illegal)
            more = f" ({count} illegal moves in all)" if self.let_stand and count > 1 else ""
            self.statusMessage.emit(first.message + more)
        else:
            self._ply = self.available_plies
            self.statusMessage.emit(f"Every move is legal ({len(self.moves)} plies)")
        self.modeChanged.emit("check")
        self.checkChanged.emit(self.checked)
        self.plyChanged.emit(self._ply)
        self.changed.emit()
        return self.checked

    def clock_moves(self) -> dict[str, int] | None:
        """The move counts clock pro-rating needs, for the first illegal move: how many
        moves each side played in the record (up to discovery: the end of the record)
        and how many of them are taken back (the illegal move and every move after it).
        Keys ``black_total``, ``white_total``, ``black_since``, ``white_since``."""
        first = self.first_illegal
        if first is None:
            return None
        out = {"black_total": 0, "white_total": 0, "black_since": 0, "white_since": 0}
        turn = self.start.turn
        for ply in range(1, len(self.moves) + 1):
            side = "black" if turn is Color.BLACK else "white"
            out[f"{side}_total"] += 1
            if ply >= first.ply:
                out[f"{side}_since"] += 1
            turn = turn.opponent
        return out

    def clock_advice(self, black_reading: float, white_reading: float,
                     time_control: float | None):
        """The clock times (seconds) to set at the restored position (the one before the
        first illegal move), by :func:`rulesbook.reconstruct.prorate_clocks`. Raises
        ValueError with a readable message for readings that cannot be right."""
        from rulesbook.reconstruct import prorate_clocks

        counts = self.clock_moves()
        if counts is None:
            raise ValueError("no illegal move: check the record first")
        if time_control is not None:
            if time_control <= 0:
                raise ValueError("the time control must be more than 0")
            for side, reading in (("Black", black_reading), ("White", white_reading)):
                if reading > time_control:
                    raise ValueError(f"{side}'s clock reads more than the time control: "
                                     f"check the reading")
        return prorate_clocks(black_reading, white_reading, counts["black_total"],
                              counts["white_total"], counts["black_since"],
                              counts["white_since"], time_control)

    def check_illegal_here(self):
        """In check mode: the illegal move played from the current ply, if any."""
        if self._mode != "check" or self.checked is None:
            return None
        for item in self.checked.illegal:
            if item.ply == self._ply + 1:
                return item
        return None

    def rulings_facts(self) -> dict | None:
        """What "Rulings for This Incident" sends for the first illegal move: the core's
        facts (``discovered``, ``repeated``…) and the record context the rulings panel
        needs, so that it never has to read the board: ``moves`` (the move texts as
        written, space-separated), ``fen`` (the start position), ``ply`` (the disputed
        ply), ``move``, ``reason`` and ``variant``. None before a check finds one."""
        first = self.first_illegal
        if first is None:
            return None
        facts = dict(first.facts)
        facts.setdefault("reason", first.reason.value)
        facts.setdefault("move", first.move)
        facts["ply"] = first.ply
        facts["moves"] = " ".join(m.text for m in self.moves)
        facts["fen"] = self.start.fen()
        facts["variant"] = self.variant.name
        return facts

    def request_rulings(self) -> bool:
        """Emit rulingsRequested(incident, facts) for the first illegal move (facts with
        the record context: see :meth:`rulings_facts`)."""
        facts = self.rulings_facts()
        if facts is None:
            self.statusMessage.emit("No illegal move: check the record first")
            return False
        self.rulingsRequested.emit(self.first_illegal.incident, facts)
        return True

    # ------------------------------------------------------------------ counts
    def set_count_rules(self, rules: CountRules, label: str = "",
                        edition_id: str | None = None) -> None:
        """The count limits of the edition in force (``label``: its title)."""
        self.count_rules = rules
        self.count_label = label
        self.edition_id = edition_id
        self._states = None
        self.changed.emit()

    def counts_at(self, ply: int | None = None):
        """The CountState at ``ply`` (default: the current ply), or None past an
        illegal move (the counts follow legal play only)."""
        ply = self._ply if ply is None else ply
        if self._states is None:
            game = Game(self.start, counts=self.count_rules)
            states = [game.count_state()]
            for move in self._replay.played:
                if move is None:
                    break
                game.push(move)
                states.append(game.count_state())
            self._states = states
        return self._states[ply] if 0 <= ply < len(self._states) else None

    # ------------------------------------------------------------------ gap filling
    @property
    def gap_running(self) -> bool:
        return self._worker is not None and self._worker.isRunning()

    def gap_start_position(self) -> Position:
        """The known position the gap starts from: the end of the replayed record."""
        return self._replay.positions[self.available_plies]

    def start_gap(self, plies: int | None = None, max_plies: int | None = None,
                  known=(), limit: int = 200) -> bool:
        """Search, off the GUI thread, every sequence from the end of the record to
        the board now; results arrive through gapFinished."""
        from .gapworker import GapWorker

        if self.gap_running:
            self.statusMessage.emit("A search is already running")
            return False
        if self.gap_target is None:
            self.statusMessage.emit("Mark the board now first (set it up, then "
                                    "\"This is the board now\")")
            return False
        self.gap_from_ply = self.available_plies
        kwargs = dict(start=self.gap_start_position(), target=self.gap_target, plies=plies,
                      max_plies=max_plies, known=tuple(known), variant=self.variant,
                      limit=limit)
        worker = GapWorker(kwargs, self)
        worker.progressed.connect(self.gapProgress)
        worker.found.connect(self._gap_found)
        worker.failed.connect(self._gap_failed)
        worker.finished.connect(self._gap_thread_done)
        self._worker = worker
        self.gap_result = None
        self._end_preview()
        worker.start()
        self.gapStarted.emit()
        what = f"{plies} plies" if plies is not None else f"up to {max_plies} plies"
        self.statusMessage.emit(f"Searching the missing {what}…")
        return True

    def cancel_gap(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            self.statusMessage.emit("Cancelling the search…")

    def wait_gap(self, ms: int = 30000) -> bool:
        return self._worker.wait(ms) if self._worker is not None else True

    def _gap_found(self, result) -> None:
        self.gap_result = result
        self._end_preview()
        self.statusMessage.emit(result.explanation)
        self.gapFinished.emit(result)
        self.changed.emit()

    def _gap_failed(self, message: str) -> None:
        self.gap_result = None
        self._end_preview()
        self.statusMessage.emit(f"Cannot search: {message}")
        self.gapFailed.emit(message)

    def _gap_thread_done(self) -> None:
        worker = self._worker
        if worker is not None and not worker.isRunning():
            worker.wait()
            self._worker = None
            worker.deleteLater()

    # ------------------------------------------------------------------ gap preview
    @property
    def previewing(self) -> bool:
        """True while a sequence found by the gap search is shown on the board."""
        result = self.gap_result
        return (self.preview_index is not None and result is not None
                and 0 <= self.preview_index < len(result.sequences)
                and self._mode != "setup")

    def preview_moves(self, index: int | None = None) -> tuple[Move, ...]:
        """The moves of gap sequence ``index`` (default: the one previewed)."""
        index = self.preview_index if index is None else index
        result = self.gap_result
        if result is None or index is None or not 0 <= index < len(result.sequences):
            return ()
        return tuple(result.sequences[index])

    def preview_texts(self, index: int | None = None) -> tuple[str, ...]:
        index = self.preview_index if index is None else index
        result = self.gap_result
        if result is None or index is None or not 0 <= index < len(result.texts):
            return ()
        return tuple(result.texts[index])

    def gap_base_ply(self) -> int:
        """The ply of the record the gap sequences start from."""
        at = self.gap_from_ply if self.gap_from_ply is not None else self.available_plies
        return max(0, min(at, self.available_plies))

    def preview_position(self, ply: int | None = None) -> Position:
        """The board after ``ply`` plies (default: the preview's) of the previewed sequence."""
        ply = self.preview_ply if ply is None else ply
        position = self._replay.positions[self.gap_base_ply()]
        for move in self.preview_moves()[:ply]:
            position = position.play(move)
        return position

    def branch_plies(self, index: int | None = None) -> tuple[int, ...]:
        """The plies (1 = the first missing ply) where sequence ``index`` parts from
        another sequence found: the same moves before, another move there."""
        moves = self.preview_moves(index)
        result = self.gap_result
        if not moves or result is None:
            return ()
        out = []
        for k in range(len(moves)):
            if any(len(seq) > k and tuple(seq[:k]) == moves[:k] and seq[k] != moves[k]
                   for seq in result.sequences):
                out.append(k + 1)
        return tuple(out)

    def preview_alternatives(self) -> tuple[Move, ...]:
        """While previewing at ply k: the other sequences' moves at ply k + 1 (those that
        agree with the previewed one up to k); empty where the sequences do not part."""
        moves = self.preview_moves()
        k = self.preview_ply
        if not moves or k >= len(moves) or self.gap_result is None:
            return ()
        out: list[Move] = []
        for seq in self.gap_result.sequences:
            if len(seq) > k and tuple(seq[:k]) == moves[:k] and seq[k] != moves[k] \
                    and seq[k] not in out:
                out.append(seq[k])
        return tuple(out)

    def preview_sequence(self, index: int, ply: int | None = None) -> bool:
        """Show gap sequence ``index`` on the board at ``ply`` (default: the ply shown
        now, so that sequences can be compared at the same ply)."""
        result = self.gap_result
        if result is None or not 0 <= index < len(result.sequences):
            self.stop_preview()
            return False
        if self._mode == "setup":
            self._mode = "play"
            self.modeChanged.emit("play")
        self.partial = ()
        self.pending_end = None
        self.preview_index = index
        target = self.preview_ply if ply is None else ply
        self.preview_ply = max(0, min(int(target), len(result.sequences[index])))
        self.previewChanged.emit(index, self.preview_ply)
        self.changed.emit()
        return True

    def preview_go(self, ply: int) -> None:
        """Step the previewed sequence to ``ply`` (0 = the end of the record)."""
        if not self.previewing:
            return
        ply = max(0, min(int(ply), len(self.preview_moves())))
        if ply != self.preview_ply:
            self.preview_ply = ply
            self.previewChanged.emit(self.preview_index, ply)
        self.changed.emit()

    def stop_preview(self) -> None:
        """Show the record again."""
        if self.preview_index is None:
            return
        self._end_preview()
        self.changed.emit()

    def _end_preview(self) -> None:
        if self.preview_index is not None:
            self.preview_index = None
            self.preview_ply = 0
            self.previewChanged.emit(-1, 0)

    def adopt_sequence(self, index: int) -> bool:
        """Append sequence ``index`` of the gap result to the record."""
        result = self.gap_result
        if result is None or not 0 <= index < len(result.texts):
            self.statusMessage.emit("No sequence to adopt")
            return False
        at = self.gap_base_ply()
        texts = result.texts[index]
        self._push_undo()
        dropped = len(self.moves) - at
        self.moves = self.moves[:at] + [RecordMove(t) for t in texts]
        self.gap_target = None
        self._record_changed(at + len(texts))
        msg = f"Adopted {len(texts)} plies: {' '.join(texts)}"
        if dropped:
            msg += f" (replacing {dropped} unplayable move(s); Ctrl+Z to undo)"
        self.statusMessage.emit(msg)
        return True

    def shutdown(self) -> None:
        """Stop a running search (window closing)."""
        if self._worker is not None:
            self._worker.cancel()
            self._worker.wait(5000)

    # ------------------------------------------------------------------ session, autosave
    def to_session(self) -> dict:
        data = self._snapshot()
        data.update({
            "version": SESSION_VERSION,
            "pid": os.getpid(),
            "saved_at": time.strftime("%Y-%m-%d %H:%M:%S"),
            "dirty": self._dirty,
            "case_path": str(self.case_path) if self.case_path else None,
            "mode": self._mode if self._mode != "check" else "play",
            "setup": Position(self.setup_pieces, self.setup_turn, self.variant).fen(),
            "tool": self.tool,
            "gap_target": self.gap_target.fen() if self.gap_target is not None else None,
            "let_stand": self.let_stand,
            "notes": self.notes,
        })
        return data

    def load_session(self, data: dict) -> None:
        self._apply_record(data)
        setup = data.get("setup")
        if setup:
            pos = Position.from_fen(setup, self.variant, check=False)
            self.setup_pieces, self.setup_turn = dict(pos.pieces()), pos.turn
        target = data.get("gap_target")
        self.gap_target = Position.from_fen(target, self.variant, check=False) if target \
            else None
        self.tool = data.get("tool", self.tool) if data.get("tool") in TOOLS else self.tool
        self.let_stand = bool(data.get("let_stand", False))
        self.notes = str(data.get("notes", "") or "")
        path = data.get("case_path")
        self.case_path = Path(path) if path else None
        self._mode = data.get("mode", "play") if data.get("mode") in ("play", "setup") \
            else "play"
        self.checked = None
        self.partial = ()
        self.pending_end = None
        self._recompute()
        self._ply = max(0, min(int(data.get("ply", 0)), self.available_plies))
        self._dirty = bool(data.get("dirty", True))
        self.modeChanged.emit(self._mode)
        self.recordChanged.emit()
        self.dirtyChanged.emit(self._dirty)
        self.plyChanged.emit(self._ply)
        self.changed.emit()

    def autosave(self) -> bool:
        """Write the session to the autosave file at once (atomic); never raises.

        The autosave is owned through an OS lock (:func:`ui.autosave.claim`): if
        another running app owns the same file, this session takes a file of its
        own (``board-autosave-<pid>.json``): neither overwrites the other."""
        if not self.autosave_enabled:
            return False
        if not self._owns_autosave and not claim(self.autosave_path):
            self.autosave_path = self.autosave_path.with_name(
                f"{self.autosave_path.stem}-{os.getpid()}{self.autosave_path.suffix}")
            claim(self.autosave_path)
        try:
            self.autosave_path.parent.mkdir(parents=True, exist_ok=True)
            with durability_notes():  # an autosave is best effort: the next one follows
                atomic_write_text(self.autosave_path,
                                  json.dumps(self.to_session(), indent=1, ensure_ascii=False),
                                  private=True)
        except (OSError, SaveError) as exc:
            if str(exc) != self.last_autosave_error:
                self.last_autosave_error = str(exc)
                self.statusMessage.emit(f"Autosave failed: {exc}")
            return False
        self.last_autosave_error = ""
        self._owns_autosave = True
        return True

    def recoverable(self) -> dict | None:
        """The newest autosaved session of a run that ended with unsaved changes, if
        any. A session owned by an app still running (it holds the file's OS lock) is
        not offered, and a status message says so. This session then owns and
        autosaves to the file it recovers."""
        stem, suffix = self.autosave_path.stem, self.autosave_path.suffix
        base = "board-autosave" if stem.startswith("board-autosave") else stem
        try:
            files = sorted(self.autosave_path.parent.glob(f"{base}*{suffix}"),
                           key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            return None
        for file in files:
            data = _read_session(file)
            if data is None or not data.get("dirty"):
                continue
            if in_use_by_another_app(file) or not claim(file):
                self.statusMessage.emit(in_use_notice(file, "Unsaved board work"))
                continue
            self.autosave_path = file
            return data
        return None

    def recover(self) -> bool:
        """Load the autosave of a previous run (if it had unsaved changes)."""
        data = self.recoverable()
        if data is None:
            return False
        try:
            self.load_session(data)
        except (DraughtsError, KeyError, TypeError, ValueError) as exc:
            self.statusMessage.emit(f"The autosave could not be restored: {exc}")
            return False
        self._owns_autosave = True
        self.statusMessage.emit(f"Restored unsaved work from {data.get('saved_at', 'the last run')}")
        return True

    def discard_autosave(self) -> None:
        """Delete the autosave this session wrote or restored (never another's)."""
        if not self._owns_autosave:
            return
        try:
            self.autosave_path.unlink()
        except OSError:
            pass
        release(self.autosave_path)
        self._owns_autosave = False

    # ------------------------------------------------------------------ case files
    def save_case(self, path: str | Path) -> Path | None:
        """Save the case file (the core's dispute case format) atomically."""
        from rulesbook.errors import RulesbookError

        from .casefile import write_case

        try:
            with durability_notes() as notes:
                written = write_case(self, Path(path))
        except (RulesbookError, DraughtsError, OSError) as exc:
            self.statusMessage.emit(f"Cannot save the case: {exc}")
            return None
        self.case_path = written
        self._set_dirty(False)
        self.autosave()
        # written, but the folder could not be flushed: the note says the data is saved
        self.statusMessage.emit(notes[0] if notes else f"Saved the case to {written}")
        return written

    def open_case(self, path: str | Path) -> bool:
        """Open a dispute case file (the current record can be had back with Undo)."""
        from rulesbook.errors import RulesbookError

        from .casefile import read_case

        try:
            data, record = read_case(Path(path))
        except (RulesbookError, DraughtsError, OSError, ValueError) as exc:
            self.statusMessage.emit(f"Cannot open the case: {exc}")
            return False
        self._push_undo()
        data["dirty"] = False
        data["case_path"] = str(path)
        self.load_session(data)
        if record.strip():
            undo = list(self._undo)
            if not self.load_text(record, 0, self.variant, source=Path(path).name):
                return False
            self._undo = undo
            self.tags.update(data["tags"])
            self.case_path = Path(path)
            target = data.get("gap_target")
            self.gap_target = Position.from_fen(target, self.variant, check=False) \
                if target else None
        self._set_dirty(False)
        self.autosave()
        self.recordChanged.emit()
        self.statusMessage.emit(f"Opened the case {path}: {len(self.moves)} plies")
        return True


def _read_session(path: Path) -> dict | None:
    """An autosaved board session, or None (missing, unreadable, another version)."""
    data = read_json(path)
    if data is None or data.get("version") != SESSION_VERSION:
        return None
    return data
