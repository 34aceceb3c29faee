"""What the board is doing: playing through the record, setting up a position, or
showing the result of Check Record."""
from __future__ import annotations

import enum

__all__ = ["BoardMode", "MODES"]


class BoardMode(str, enum.Enum):
    """A str enum: signals carry the plain word ("play"), and comparing with it works."""

    PLAY = "play"
    SETUP = "setup"
    CHECK = "check"

    def __str__(self) -> str:
        return self.value


MODES = tuple(BoardMode)
