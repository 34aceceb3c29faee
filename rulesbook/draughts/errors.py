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
    "NotationError",
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


class NotationError(DraughtsError):
    """A move text that cannot be read as a move, whatever the position (raised by
    :mod:`rulesbook.draughts.notation`).

    ``text`` is the text as written, ``shown`` the same cut short when long;
    ``explanation`` says what is wrong with it in a referee's words, without the
    text (``"there is no square after the dash"``); the message gives both
    (``"'11-' cannot be read as a move: there is no square after the dash"``)."""

    def __init__(self, text: str, explanation: str) -> None:
        shown = text if len(text) <= 40 else text[:40] + "\u2026"
        super().__init__(f"{shown!r} cannot be read as a move: {explanation}")
        self.text = text
        self.shown = shown
        self.explanation = explanation
