"""A written move made by hand on the board, whatever the rules say: what a referee
sees when a player moved a piece the rules would not have moved (used by
:mod:`rulesbook.reconstruct.replay` for a move let stand)."""
from __future__ import annotations

from rulesbook.draughts import Color, Piece, Position
from rulesbook.draughts.geometry import between, crown_row, is_diagonal


def played_by_hand(position: Position, squares: tuple[int, ...], slot: Color) -> Position | None:
    """The board after the written move made by hand: the piece goes from the
    first square to the last, every piece it passed over is taken up; a man
    ending on its king row is crowned.  None when that is not possible."""
    pieces = position.pieces()
    piece = pieces.pop(squares[0], None)
    if piece is None:
        return None
    removed: set[int] = set()
    for a, b in zip(squares, squares[1:], strict=False):
        if not is_diagonal(a, b):
            if len(squares) > 2:
                return None
            continue
        passed = [s for s in between(a, b) if s in pieces and s not in removed]
        if len(passed) > 1:
            return None
        removed.update(passed)
        if b in pieces and b not in removed:
            return None
    end = squares[-1]
    if end in pieces and end not in removed:
        return None
    for s in removed:
        del pieces[s]
    if not piece.king and end in crown_row(piece.color):
        piece = Piece(piece.color, True)
    pieces[end] = piece
    return Position(pieces, slot.opponent, position.variant)
