"""Setting up a position on the board: the palette's tool and the edits.

The position set up is part of the session (:class:`rulesbook.reconstruct.BoardSession`);
every edit makes a new session through the board controller, which autosaves it.
"""
from __future__ import annotations

import re
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


#: longer than any FEN of 32 squares with every separator and a long variant prefix
MAX_FEN_CHARS = 400
#: a PDN tag such as ``[FEN "B:W21-32:B1-12"]`` copied from a game file
_FEN_TAG = re.compile(r'^\[\s*FEN\s+"([^"]*)"\s*\]$', re.IGNORECASE)


def other_colour(piece: Piece) -> Piece:
    """The same kind of piece of the other side (right-click or Shift in set-up)."""
    return Piece(piece.color.opponent, piece.king)


def fen_text(text: str) -> str:
    """The FEN in what the user pasted or typed (a PDN FEN tag is unwrapped)."""
    text = text.strip()
    tag = _FEN_TAG.match(text)
    return tag.group(1).strip() if tag else text


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
        self._last_placed: int | None = None

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

    @property
    def last_placed(self) -> int | None:
        """The square a piece was last put on (the king key's square when the mouse
        is off the board)."""
        return self._last_placed

    def click(self, square: int, erase: bool = False, other: bool = False) -> None:
        """A click on ``square``: place the tool's piece (``other``: the same kind of
        the other colour, as CheckerBoard's right button); the same piece again, the
        eraser or ``erase`` takes it off."""
        pos = self.position()
        pieces = dict(pos.pieces())
        piece = None if erase else TOOLS[self._tool]
        if piece is not None and other:
            piece = other_colour(piece)
        if piece is None or pieces.get(square) == piece:
            pieces.pop(square, None)
            if self._last_placed == square:
                self._last_placed = None
        else:
            pieces[square] = piece
            self._last_placed = square
        self._set(pieces, pos.turn)

    def place(self, square: int, piece: Piece) -> None:
        """Put ``piece`` on ``square`` (a piece dragged in from the palette)."""
        pos = self.position()
        pieces = dict(pos.pieces())
        pieces[square] = piece
        self._last_placed = square
        self._set(pieces, pos.turn)

    def remove(self, square: int) -> None:
        """Take the piece on ``square`` off (a piece dragged off the board)."""
        pos = self.position()
        pieces = dict(pos.pieces())
        if pieces.pop(square, None) is not None:
            if self._last_placed == square:
                self._last_placed = None
            self._set(pieces, pos.turn)

    def move_piece(self, start: int, end: int) -> None:
        pos = self.position()
        pieces = dict(pos.pieces())
        piece = pieces.pop(start, None)
        if piece is not None:
            pieces[end] = piece
            self._last_placed = end
            self._set(pieces, pos.turn)

    def toggle_king(self, square: int | None = None) -> bool:
        """Crown the man on ``square`` or uncrown the king there (default: the square
        last placed on); False, with a status sentence, when there is no piece."""
        target = square if square is not None else self._last_placed
        pos = self.position()
        pieces = dict(pos.pieces())
        piece = pieces.get(target) if target is not None else None
        if target is None or piece is None:
            where = f"square {target} is empty" if target is not None else \
                "point at a piece first"
            self.statusMessage.emit(f"No piece to crown or uncrown: {where}")
            return False
        pieces[target] = Piece(piece.color, not piece.king)
        self._last_placed = target
        self._set(pieces, pos.turn)
        return True

    def clear(self) -> None:
        self._last_placed = None
        self._set({}, self.turn)

    def start_position(self) -> None:
        start = Position.start(self._board.variant)
        self._last_placed = None
        self._set(dict(start.pieces()), start.turn)

    def set_turn(self, turn: Color) -> None:
        self._set(dict(self.position().pieces()), turn)

    def set_fen(self, text: str) -> bool:
        """Set up the whole position from a FEN (or a PDN ``[FEN "…"]`` tag)."""
        fen = fen_text(text)
        if not fen:
            self.statusMessage.emit("Cannot read the FEN: there is no text to read")
            return False
        if len(fen) > MAX_FEN_CHARS or "\n" in fen:
            self.statusMessage.emit(
                f"Cannot read the FEN: this is not one FEN ({len(fen):,} characters"
                f"{', several lines' if chr(10) in fen else ''}); a FEN looks like "
                f"B:W21-32:B1-12")
            return False
        try:
            pos = Position.from_fen(fen, self._board.variant, check=False)
        except DraughtsError as exc:
            self.statusMessage.emit(f"Cannot read the FEN {fen!r}: {exc}")
            return False
        self._last_placed = None
        self._set(dict(pos.pieces()), pos.turn)
        self.statusMessage.emit(f"Set up {pos.fen()}")
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
        # replacing the record: the same Save / Discard / Cancel as an import or New
        if not self._board.files.may_replace("a new record from the position set up"):
            return False
        self._board.editing.start_from(self.position())
        return True

    def mark_board_now(self) -> bool:
        """The position set up is the board now (the target of gap filling)."""
        return self._board.gap.mark_board_now(self.position())


def board_check_message(position: Position) -> str | None:
    """Why ``position`` cannot be the board now (a sentence), or None when it can."""
    try:
        check_board(position, "the board now", game_over_ok=True)
    except DraughtsError as exc:
        return _sentence(str(exc))
    return None
