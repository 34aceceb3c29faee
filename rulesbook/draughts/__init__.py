"""Draughts rules engine: positions, moves, variants, FEN (pure Python).

>>> from rulesbook.draughts import Position
>>> Position.start("pool").parse_move("11-15")
Move(path=(11, 15), captures=(), crowns=False)
"""
from rulesbook.draughts.counts import CountRules, CountState
from rulesbook.draughts.errors import (
    AmbiguousMoveError,
    DraughtsError,
    FenError,
    IllegalMoveError,
    NotationError,
    PositionError,
)
from rulesbook.draughts.game import Game
from rulesbook.draughts.move import Move
from rulesbook.draughts.movegen import Bitboards
from rulesbook.draughts.perft import perft
from rulesbook.draughts.position import Position
from rulesbook.draughts.squares import algebraic_to_square, parse_square, square_to_algebraic
from rulesbook.draughts.variant import (
    VARIANTS,
    CapturePrecedence,
    Color,
    MidCaptureCrowning,
    Piece,
    Variant,
)

__all__ = [
    "Color",
    "Piece",
    "Variant",
    "VARIANTS",
    "Move",
    "Position",
    "Bitboards",
    "Game",
    "CapturePrecedence",
    "CountRules",
    "MidCaptureCrowning",
    "CountState",
    "DraughtsError",
    "FenError",
    "PositionError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "NotationError",
    "square_to_algebraic",
    "algebraic_to_square",
    "parse_square",
    "perft",
]
