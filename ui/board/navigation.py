"""Stepping through the record (←/→/Home/End, the toolbar's and the preview's
buttons): through the record, or through the gap sequence previewed."""
from __future__ import annotations

from .part import BoardPart

__all__ = ["Navigation"]


class Navigation(BoardPart):
    """First, last, next and previous ply of what the board shows."""

    def first(self) -> None:
        """The first ply (of the previewed gap sequence while previewing)."""
        board = self._board
        if board.gap.previewing:
            board.gap.preview_go(0)
            return
        board.go(0)

    def last(self) -> None:
        board = self._board
        if board.gap.previewing:
            board.gap.preview_go(len(board.gap.preview_moves()))
            return
        board.go(board.available_plies)

    def next(self) -> None:
        board = self._board
        if board.gap.previewing:
            board.gap.step(1)
            return
        ply, moves = board.ply, board.moves
        if ply >= board.available_plies and moves and ply < len(moves):
            self.statusMessage.emit(
                f"The record cannot be replayed past ply {ply}: "
                f"{moves[ply].text} cannot be put on the board")
        board.go(ply + 1)

    def previous(self) -> None:
        board = self._board
        if board.gap.previewing:
            board.gap.step(-1)
            return
        board.go(board.ply - 1)
