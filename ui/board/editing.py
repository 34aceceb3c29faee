"""Editing the record: moves typed or played on the board, comments, a gap
sequence adopted, a new record (New, an import, a set-up start, another variant).

Every edit makes a new frozen record through the core's record API
(:class:`rulesbook.reconstruct.GameRecord`) and hands it to the board controller
as one undo step (:meth:`~ui.board.controller.BoardController.commit`).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rulesbook.draughts import DraughtsError, IllegalMoveError, Move, Position, Variant
from rulesbook.draughts.notation import count_text
from rulesbook.reconstruct import GameRecord, RecordMove, Replay
from rulesbook.reconstruct.typed import TypedEntry, typed_entry

from .mode import BoardMode
from .part import BoardPart

if TYPE_CHECKING:
    from .controller import BoardController

__all__ = ["RecordEditing", "SPLICE_ANSWERS"]

#: the tags a record started from a set-up position keeps: the variant's, no other
#: (the players, event, date of the game set up from are another game's)
KEPT_ON_SETUP = ("GameType",)
#: what :attr:`RecordEditing.confirm_splice` answers: the later moves replaced, the
#: new moves kept as a variation of the move they would replace, or nothing done
SPLICE_ANSWERS = ("replace", "variation", "cancel")


class RecordEditing(BoardPart):
    """The record's edits, each one undo step of the board."""

    def __init__(self, board: BoardController) -> None:
        super().__init__(board)
        #: asked before moves entered at ply ``at`` replace ``later`` moves of a
        #: record that was opened (a file, a paste, a case): returns one of
        #: :data:`SPLICE_ANSWERS` (the workspace asks Replace / Insert as a
        #: variation / Cancel; a record typed from scratch is not asked about)
        self.confirm_splice: Callable[[int, int], str] = lambda _at, _later: "replace"

    def _splice_answer(self, at: int) -> str:
        """How moves entered at ply ``at`` go in: "replace" (nothing later, a record
        typed from scratch, or the user said so), "variation" or "cancel"."""
        board = self._board
        later = len(board.moves) - at
        if later <= 0 or not board.opened:
            return "replace"
        answer = self.confirm_splice(at, later)
        return answer if answer in SPLICE_ANSWERS else "cancel"

    def _as_variation(self, at: int, moves: Iterable[RecordMove], before: str = "") -> int:
        """``moves`` entered at ply ``at`` kept as a variation of move ``at + 1`` (the
        later moves stand), with the comments typed (``before``: the one typed before
        the first move); one undo step; returns how many moves it has."""
        board = self._board
        moves = tuple(moves)
        texts = [m.text for m in moves]
        line = " ".join(([f"{{{before}}}"] if before else []) + [
            m.text + (f" {{{m.comment}}}" if m.comment else "") for m in moves])
        old = board.moves[at]
        moves_now = list(board.moves)
        moves_now[at] = dataclasses.replace(old, variations=old.variations + (line,))
        self._commit(board.record.with_moves(moves_now), at)
        self.statusMessage.emit(
            f"Kept the {count_text(len(board.moves) - at, 'later move')}; "
            f"{' '.join(texts)} is a variation of ply {at + 1} "
            f"({board.record.ply_prefix(at + 1, dots='...')} {old.text}) (Ctrl+Z to undo)")
        return len(texts)

    # ------------------------------------------------------------------ moves
    def type_moves(self, text: str) -> int:
        """Append moves typed as written (a scoresheet: ``11-15 23-19 ...``); illegal
        ones are kept as written for "Check record". Returns how many were added
        (see :meth:`enter_moves`: none from a word that cannot be read as a move on)."""
        return len(self.enter_moves(text).moves)

    def enter_moves(self, text: str) -> TypedEntry:
        """Append the moves typed up to the first word that cannot be read as a move
        (:func:`~rulesbook.reconstruct.typed.typed_entry`); the status names that
        word and why. Returns what was added and the text not read (``rest``)."""
        board = self._board
        entry = typed_entry(text)
        written, before = entry.moves, entry.before
        if not written:
            self.statusMessage.emit(
                f"No move added: {entry.unreadable}" if entry.unreadable is not None
                else "No move to add: write moves as 11-15 or 15x24")
            return entry
        at = board.ply
        if not before and self._steps_on(at, written):
            board.go(at + len(written))
            self.statusMessage.emit(
                f"The record's next {count_text(len(written), 'move')}: ply {board.ply} "
                f"of {len(board.moves)}")
            return entry
        answer = self._splice_answer(at)
        if answer == "cancel":
            self.statusMessage.emit(self._kept_text(at))
            return dataclasses.replace(entry, moves=())  # the text stays in the entry
        if answer == "variation":
            self._as_variation(at, written, before)
            return entry
        replaced = len(board.moves) - at
        record = board.record.spliced(at, written)
        if before:  # a comment typed before the first move: the move before's, or the game's
            if at:
                earlier = record.moves[at - 1].comment
                record = record.with_comment(at, f"{earlier} {before}" if earlier else before)
            else:
                record = record.replace(comment=f"{record.comment} {before}".strip())
        self._commit(record, at)
        board.go(min(at + len(written), board.available_plies))
        msg = f"Added {count_text(len(written), 'move')}"
        if replaced > 0:
            msg += f", replacing {count_text(replaced, 'later move')} (Ctrl+Z to undo)"
        if board.available_plies < len(board.moves):
            msg += f"; ply {board.available_plies + 1} is not legal, the board stops before it"
        # say at once what is wrong with a move just typed (not only after Check Record)
        wrong = [m for m in board.replay.illegal if at < m.ply <= at + len(written)]
        if wrong:
            msg += f". {wrong[0].message.rstrip('.')}"
            if len(wrong) > 1:
                msg += (f" ({count_text(len(wrong) - 1, 'more illegal move')}: "
                        f"Check Record lists them)")
        if entry.unreadable is not None:
            msg += (f". Not added: {entry.unreadable}; it and what follows are left in "
                    f"the entry to correct")
        self.statusMessage.emit(self._with_claims(msg, at + 1, at + len(written)))
        return entry

    def play_move(self, move: Move | str) -> Move | None:
        """Play a legal move at the current ply (only legal moves are accepted)."""
        board = self._board
        if board.mode is not BoardMode.PLAY:
            board.set_mode(BoardMode.PLAY)
        pos = board.position()
        try:
            move = move if isinstance(move, Move) and pos.is_legal(move) else \
                pos.parse_move(move if isinstance(move, str) else move.full_text())
        except IllegalMoveError as exc:
            board.input.cancel_input()  # the squares clicked go, the board redraws
            self.statusMessage.emit(f"Refused: {exc}")
            return None
        text = pos.move_text(move)
        at = board.ply
        if at < len(board.moves) and board.played_move(at + 1) == move:
            board.go(at + 1)
            return move
        answer = self._splice_answer(at)
        if answer != "replace":
            board.input.cancel_input()
            if answer == "variation":
                self._as_variation(at, [RecordMove(text)])
            else:
                self.statusMessage.emit(self._kept_text(at))
            return None
        replaced = len(board.moves) - at
        self._commit(board.record.spliced(at, [RecordMove(text)]), at + 1)
        msg = f"{board.record.ply_prefix(at + 1, dots='...')} {text}"
        if replaced:
            msg += f" — replaced {count_text(replaced, 'later move')} (Ctrl+Z to undo)"
        after = board.position()
        if after.is_game_over():
            msg += f" — {after.turn.title} has no move: {after.turn.opponent.title} wins"
        self.statusMessage.emit(self._with_claims(msg, at + 1, at + 1))
        return move

    def _steps_on(self, at: int, written: tuple[RecordMove, ...]) -> bool:
        """The moves typed at ply ``at`` are the record's next ones (the same legal
        moves, no comment typed): nothing to change, the board steps on."""
        board = self._board
        if at + len(written) > board.available_plies:
            return False
        for k, typed in enumerate(written):
            if typed.annotated:
                return False
            try:
                move = board.positions[at + k].parse_move(typed.text)
            except DraughtsError:
                return False
            if move != board.played_move(at + k + 1):
                return False
        return True

    def _kept_text(self, at: int) -> str:
        later = len(self._board.moves) - at
        return f"Nothing added: the {count_text(later, 'later move')} of the record stand"

    def _with_claims(self, msg: str, first: int, last: int) -> str:
        """``msg`` about the plies ``first``..``last`` just added, with the draw claim
        decided among them or the flag of moves played after a count was reached."""
        counts = self._board.counts
        here = [a for ply in range(first, last + 1)
                if (a := counts.announced_at(ply)) is not None]
        if here:  # a draw reached under the rules in force says most, then the first
            said = next((a for a in here if a.reached), here[0])
            later = last - said.ply if said.reached else 0
            return f"{msg} — {said.text}" + (
                f"; {count_text(later, 'later move')} played after the draw" if later > 0 else "")
        flag = counts.after_draw_text(first)
        return f"{msg} — {flag}" if flag else msg

    def set_comment(self, ply: int, text: str) -> None:
        """The comment of move ``ply`` (1-based); the moves stand, so does the check."""
        board = self._board
        if not 1 <= ply <= len(board.moves) or board.moves[ply - 1].comment == text:
            return
        board.annotate(board.record.with_comment(ply, text))

    def adopt(self, at: int, moves: Iterable[RecordMove]) -> str:
        """The record up to ply ``at`` followed by ``moves`` (a gap sequence adopted);
        the board now is reached, so it is no longer marked. Later moves of an opened
        record are replaced only when the user says so (:attr:`confirm_splice`);
        returns the answer: "replace" (adopted), "variation" or "cancel"."""
        board = self._board
        moves = tuple(moves)
        answer = self._splice_answer(at)
        if answer == "variation":
            self._as_variation(at, moves)
        elif answer == "cancel":
            self.statusMessage.emit(self._kept_text(at))
        else:
            spliced = board.record.spliced(at, moves)
            board.commit(board.session.replace(record=spliced, target=None),
                         len(spliced.moves))
        return answer

    # ------------------------------------------------------------------ new records
    def new_record(self, record: GameRecord, fresh: bool = False,
                   prepared: Replay | None = None, origin: str = "new") -> None:
        """Start over with ``record`` in play mode, no board now marked; ``fresh``: as
        imported or started, not unsaved work of the user's; ``prepared``: its replay,
        worked out off the GUI thread; ``origin``: "opened" when read from a file or a
        paste (its later moves are not replaced without asking)."""
        board = self._board
        board.commit(board.session.replace(record=record, target=None), 0, to_play=True,
                     fresh=fresh, prepared=prepared, origin=origin)

    def new_game(self, variant: str | Variant | None = None,
                 start: Position | None = None) -> None:
        """New: an empty record (no tags: players, event, round and the game's comment
        go) from the standard start, no notes, no case file."""
        board = self._board
        chosen = Variant.named(variant) if variant is not None else board.variant
        board.case_path = None
        board.commit(board.session.replace(record=GameRecord.empty(chosen, start), target=None,
                                           notes=""), 0, to_play=True, fresh=True,
                     origin="new")

    def start_from(self, position: Position) -> None:
        """A new record from ``position`` (set up), in the same variant: none of the
        previous record's players, event, site, date, round, result or game comment
        (issue 33: the referee saw and exported the old game's names). Its GameType
        tag, if it had one, is the variant's and stays; Ctrl+Z brings the rest back."""
        board = self._board
        old = board.record
        tags = {k: v for k, v in old.tags.items() if k in KEPT_ON_SETUP}
        record = old.replace(start=position, moves=(), result="*", tags=tags, comment="")
        board.commit(board.session.replace(record=record), 0, to_play=True, origin="setup")
        dropped = [k for k in ("White", "Black", "Event") if (old.tags.get(k) or "").strip()]
        said = f"; the {', '.join(dropped)} of the previous record not kept" if dropped else ""
        self.statusMessage.emit(f"New record from {position.fen()}{said} (Ctrl+Z to undo)")

    def set_variant(self, variant: str | Variant) -> None:
        """Read the record under another variant (the standard start follows it)."""
        board = self._board
        new = Variant.named(variant)
        if new == board.variant:
            return
        board.commit(board.session.in_variant(new), board.ply)
        self.statusMessage.emit(f"Variant: {new.name}")

    def _commit(self, record: GameRecord, ply: int, to_play: bool = False) -> None:
        board = self._board
        board.commit(board.session.replace(record=record), ply, to_play=to_play)
