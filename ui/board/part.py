"""The base of the board's small controllers that only act and speak: each is
given the board controller and says what it did on its own status signal."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from .controller import BoardController

__all__ = ["BoardPart"]


class BoardPart(QObject):
    """A part of the board (the controller relays ``statusMessage``).

    Signals:
      statusMessage(str)   a sentence for the status line
    """

    statusMessage = Signal(str)

    def __init__(self, board: BoardController):
        super().__init__(board)
        self._board = board
