"""Exceptions raised by the draughts engine.

Every error is a :class:`ValueError` so callers that only care about "bad
input" can catch that; the message is written for a referee to read.
"""
from __future__ import annotations

__all__ = [
    "DraughtsError",
    "FenError",
    "PositionError",
    "IllegalMoveError",
    "AmbiguousMoveError",
]


class DraughtsError(ValueError):
    """Base class for every error of the draughts engine."""


class FenError(DraughtsError):
    """A FEN string that cannot be read."""


class PositionError(DraughtsError):
    """A position that cannot occur in a game (too many pieces, ...)."""


class IllegalMoveError(DraughtsError):
    """A move that is not legal in the position (or cannot be read)."""


class AmbiguousMoveError(IllegalMoveError):
    """A move text that matches more than one legal move."""
