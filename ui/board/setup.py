"""Setting up a position on the board: the palette's tool and the edits.

The position set up is part of the session (:class:`rulesbook.reconstruct.BoardSession`);
every edit makes a new session through the board controller, which autosaves it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from rulesbook.draughts import Color, DraughtsError, Piece, Position
from rulesbook.reconstruct import check_board

if TYPE_CHECKING:
    from .controller import BoardController

__all__ = ["SetupController", "TOOLS"]

#: the set-up palette: tool id -> piece (None = eraser)
TOOLS: dict[str, Piece | None] = {
    "black-man": Piece(Color.BLACK, False),
    "black-king": Piece(Color.BLACK, True),
    "white-man": Piece(Color.WHITE, False),
    "white-king": Piece(Color.WHITE, True),
    "eraser": None,
}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


class SetupController(QObject):
    """The set-up palette and the position being set up.

    Signals:
      toolChanged(str)     the palette's tool
      statusMessage(str)   a sentence for the status line
    """

    toolChanged = Signal(str)
    statusMessage = Signal(str)

    def __init__(self, board: BoardController):
        super().__init__(board)
        self._board = board
        self._tool = "black-man"

    @property
    def tool(self) -> str:
        return self._tool

    def set_tool(self, tool: str) -> None:
        if tool not in TOOLS:
            raise ValueError(f"unknown tool {tool!r}")
        if tool != self._tool:
            self._tool = tool
            self.toolChanged.emit(tool)

    def position(self) -> Position:
        return self._board.session.setup_position()

    @property
    def turn(self) -> Color:
        return self.position().turn

    def _set(self, pieces: dict[int, Piece], turn: Color) -> None:
        self._board.set_setup(Position(pieces, turn, self._board.variant))

    def click(self, square: int, erase: bool = False) -> None:
        """Place the tool's piece on ``square`` (the same piece again, the eraser or
        ``erase`` removes it)."""
        pos = self.position()
        pieces = dict(pos.pieces())
        piece = None if erase else TOOLS[self._tool]
        if piece is None or pieces.get(square) == piece:
            pieces.pop(square, None)
        else:
            pieces[square] = piece
        self._set(pieces, pos.turn)

    def move_piece(self, start: int, end: int) -> None:
        pos = self.position()
        pieces = dict(pos.pieces())
        piece = pieces.pop(start, None)
        if piece is not None:
            pieces[end] = piece
            self._set(pieces, pos.turn)

    def clear(self) -> None:
        self._set({}, self.turn)

    def start_position(self) -> None:
        start = Position.start(self._board.variant)
        self._set(dict(start.pieces()), start.turn)

    def set_turn(self, turn: Color) -> None:
        self._set(dict(self.position().pieces()), turn)

    def set_fen(self, text: str) -> bool:
        try:
            pos = Position.from_fen(text, self._board.variant, check=False)
        except DraughtsError as exc:
            self.statusMessage.emit(f"Cannot read the FEN: {exc}")
            return False
        self._set(dict(pos.pieces()), pos.turn)
        return True

    def check(self) -> tuple[bool, str]:
        """The sanity check of the position set up: (ok, a readable sentence)."""
        pos = self.position()
        try:
            check_board(pos, "the position set up")
        except DraughtsError as exc:
            return False, _sentence(str(exc))

        def side(c: Color) -> str:
            men, kings = pos.count(c, king=False), pos.count(c, king=True)
            return (f"{c.title} {men} {'man' if men == 1 else 'men'}, "
                    f"{kings} {'king' if kings == 1 else 'kings'}")

        return True, (f"The position is possible: {side(Color.BLACK)}; {side(Color.WHITE)}; "
                      f"{pos.turn.title} to move.")

    def use_as_start(self) -> bool:
        """Start a new record from the position set up (the old one can be undone)."""
        ok, message = self.check()
        if not ok:
            self.statusMessage.emit(f"Cannot start from this position: {message}")
            return False
        self._board.start_record_from(self.position())
        return True

    def mark_board_now(self) -> bool:
        """The position set up is the board now (the target of gap filling)."""
        return self._board.mark_board_now(self.position())


def board_check_message(position: Position) -> str | None:
    """Why ``position`` cannot be the board now (a sentence), or None when it can."""
    try:
        check_board(position, "the board now", game_over_ok=True)
    except DraughtsError as exc:
        return _sentence(str(exc))
    return None
