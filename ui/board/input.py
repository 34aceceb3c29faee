"""Input on the board: clicks and drags become moves (play mode) or set-up edits.

The state machine itself is the core's (:mod:`rulesbook.reconstruct.entry`);
this controller keeps the squares clicked so far and hands a legal move to
the board controller to play.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from rulesbook.reconstruct.entry import Entry, Step, click, drag, hints

if TYPE_CHECKING:
    from .controller import BoardController

__all__ = ["InputController"]


class InputController(QObject):
    """The click-input state of the board.

    Signals:
      changed()            the squares selected changed (redraw the highlights)
      statusMessage(str)   a sentence for the status line
    """

    changed = Signal()
    statusMessage = Signal(str)

    def __init__(self, board: BoardController):
        super().__init__(board)
        self._board = board
        self._entry = Entry()

    @property
    def partial(self) -> tuple[int, ...]:
        """The squares of the move being entered, clicked so far."""
        return self._entry.squares

    @property
    def pending_end(self) -> int | None:
        """An ambiguous capture's end, waiting for a square the piece stops on."""
        return self._entry.pending_end

    @property
    def selected(self) -> tuple[int, ...]:
        return self._entry.selected

    def reset(self) -> None:
        """Forget the squares clicked so far (without a signal: the caller redraws)."""
        self._entry = Entry()

    def hint_squares(self) -> tuple[int, ...]:
        """Where the selected piece can go next (play mode)."""
        if self._board.mode != "play":
            return ()
        return hints(self._board.position(), self._entry)

    def _blocked(self) -> bool:
        board = self._board
        if board.gap.previewing:
            self.statusMessage.emit(
                f"Previewing sequence {(board.gap.preview_index or 0) + 1}: adopt it, or press "
                f"Esc to go back to the record")
            return True
        if board.mode != "play":
            self.statusMessage.emit("Checking the record: choose Play to make moves")
            return True
        return False

    def click_square(self, square: int, erase: bool = False) -> None:
        """A click on the board: a set-up edit, or a step of a move in play mode
        (``erase``: the right button, which forgets the squares clicked)."""
        board = self._board
        if board.mode == "setup":
            board.setup.click(square, erase=erase)
            return
        if self._blocked():
            return
        if erase:
            self.cancel_input()
            return
        self._apply(click(board.position(), self._entry, square))

    def drop_piece(self, start: int, end: int) -> None:
        """A piece dragged from ``start`` to ``end``."""
        board = self._board
        if board.mode == "setup":
            board.setup.move_piece(start, end)
            return
        if board.mode != "play" or board.gap.previewing:
            return
        self._apply(drag(board.position(), start, end))

    def cancel_input(self) -> None:
        """Forget the squares clicked so far (Escape); ends a gap preview."""
        if self._board.gap.previewing:
            self._board.gap.stop_preview()
            return
        self._entry = Entry()
        self.changed.emit()

    def _apply(self, step: Step) -> None:
        self._entry = step.entry
        if step.message:
            self.statusMessage.emit(step.message)
        if step.move is not None:
            self._board.editing.play_move(step.move)
            return
        self.changed.emit()
