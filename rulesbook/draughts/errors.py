"""Exceptions raised by the draughts engine.

Every error is a :class:`ValueError` so callers that only care about "bad
input" can catch that; the message is written for a referee to read.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesbook.draughts.move import Move

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
    """A move that is not legal in the position (or cannot be read).

    Besides the message, for callers that word their own sentence:
    ``move`` is the move as written (None when not known) and
    ``explanation`` why it is not legal, without the ``"move 11-16: "`` the
    message starts with (the whole message when there is nothing to strip).
    """

    def __init__(self, message: str = "", *, move: str | None = None,
                 explanation: str | None = None) -> None:
        super().__init__(message)
        self.move = move
        self.explanation = message if explanation is None else explanation


class AmbiguousMoveError(IllegalMoveError):
    """A move text that matches more than one legal move.

    ``candidates`` is the list of the legal :class:`~rulesbook.draughts.Move`
    objects the text could stand for (in ``legal_moves()`` order); empty only
    when the error was raised without them.
    """

    def __init__(self, message: str = "", candidates: Iterable[Move] = (), *, move: str | None = None,
                 explanation: str | None = None) -> None:
        super().__init__(message, move=move, explanation=explanation)
        self.candidates = list(candidates)
