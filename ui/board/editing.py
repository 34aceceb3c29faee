"""Editing the record: moves typed or played on the board, comments, a gap
sequence adopted, a new record (New, an import, a set-up start, another variant).

Every edit makes a new frozen record through the core's record API
(:class:`rulesbook.reconstruct.GameRecord`) and hands it to the board controller
as one undo step (:meth:`~ui.board.controller.BoardController.commit`).
"""
from __future__ import annotations

from collections.abc import Iterable

from rulesbook.draughts import IllegalMoveError, Move, Position, Variant
from rulesbook.draughts.notation import count_text
from rulesbook.reconstruct import GameRecord, RecordMove, Replay
from rulesbook.reconstruct.typed import TypedEntry, typed_entry

from .mode import BoardMode
from .part import BoardPart

__all__ = ["RecordEditing"]

#: the tags that say where a record starts (a new start drops them)
SETUP_TAGS = ("FEN", "SetUp", "Setup")


class RecordEditing(BoardPart):
    """The record's edits, each one undo step of the board."""

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
        replaced = len(board.moves) - at
        self._commit(board.record.spliced(at, [RecordMove(text)]), at + 1)
        msg = f"{board.record.ply_prefix(at + 1, dots='...')} {text}"
        if replaced:
            msg += f" — replaced {replaced} later move(s) (Ctrl+Z to undo)"
        after = board.position()
        if after.is_game_over():
            msg += f" — {after.turn.title} has no move: {after.turn.opponent.title} wins"
        self.statusMessage.emit(self._with_claims(msg, at + 1, at + 1))
        return move

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
                f"; {later} later move(s) played after the draw" if later > 0 else "")
        flag = counts.after_draw_text(first)
        return f"{msg} — {flag}" if flag else msg

    def set_comment(self, ply: int, text: str) -> None:
        """The comment of move ``ply`` (1-based); the moves stand, so does the check."""
        board = self._board
        if not 1 <= ply <= len(board.moves) or board.moves[ply - 1].comment == text:
            return
        board.annotate(board.record.with_comment(ply, text))

    def adopt(self, at: int, moves: Iterable[RecordMove]) -> None:
        """The record up to ply ``at`` followed by ``moves`` (a gap sequence adopted);
        the board now is reached, so it is no longer marked."""
        board = self._board
        spliced = board.record.spliced(at, moves)
        board.commit(board.session.replace(record=spliced, target=None), len(spliced.moves))

    # ------------------------------------------------------------------ new records
    def new_record(self, record: GameRecord, fresh: bool = False,
                   prepared: Replay | None = None) -> None:
        """Start over with ``record`` in play mode, no board now marked; ``fresh``: as
        imported or started, not unsaved work of the user's; ``prepared``: its replay,
        worked out off the GUI thread."""
        board = self._board
        board.commit(board.session.replace(record=record, target=None), 0, to_play=True,
                     fresh=fresh, prepared=prepared)

    def new_game(self, variant: str | Variant | None = None,
                 start: Position | None = None) -> None:
        """New: an empty record (no tags: players, event, round and the game's comment
        go) from the standard start, no notes, no case file."""
        board = self._board
        chosen = Variant.named(variant) if variant is not None else board.variant
        board.case_path = None
        board.commit(board.session.replace(record=GameRecord.empty(chosen, start), target=None,
                                           notes=""), 0, to_play=True, fresh=True)

    def start_from(self, position: Position) -> None:
        """A new record from ``position`` (set up), keeping the tags but a set-up's."""
        board = self._board
        tags = {k: v for k, v in board.record.tags.items() if k not in SETUP_TAGS}
        record = board.record.replace(start=position, moves=(), result="*", tags=tags)
        self._commit(record, 0, to_play=True)
        self.statusMessage.emit(f"New record from {position.fen()} (Ctrl+Z to undo)")

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
