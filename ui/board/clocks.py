"""Clock pro-rating at the board: clock readings as a referee writes them, the
one-line formula of :func:`rulesbook.reconstruct.prorate_clocks` in plain words,
and the controller that works the times out for the first illegal move."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from rulesbook.reconstruct import ClockAdvice, ClockMoves, moves_taken_back, prorate_clocks

if TYPE_CHECKING:
    from .controller import BoardController

__all__ = ["FORMULA", "format_clock", "parse_clock", "ClockController"]

#: :func:`rulesbook.reconstruct.prorate_clocks`, in one line of plain words.
FORMULA = ("Each side gets back its average time per move for each move taken back: "
           "reading + moves taken back × (time control − reading) ÷ moves played.")

_CLOCK = re.compile(r"^\s*(\d+(?:[.,]\d+)?)(?:\s*:\s*(\d{1,2}))?(?:\s*:\s*(\d{1,2}))?\s*$")


def parse_clock(text: str) -> float | None:
    """Seconds from a clock reading: ``m:ss``, ``h:mm:ss`` or whole minutes (``25``).
    None when empty; ValueError with a readable message when it cannot be read."""
    text = (text or "").strip()
    if not text:
        return None
    m = _CLOCK.match(text)
    if m is None:
        raise ValueError(f"cannot read {text!r}: write minutes:seconds, e.g. 12:30")
    first, second, third = m.group(1), m.group(2), m.group(3)
    if third is not None:  # h:mm:ss
        if "." in first or "," in first:
            raise ValueError(f"cannot read {text!r}: write hours:minutes:seconds")
        h, mins, secs = int(first), int(second), int(third)
        if mins > 59 or secs > 59:
            raise ValueError(f"cannot read {text!r}: minutes and seconds go up to 59")
        return float(h * 3600 + mins * 60 + secs)
    if second is not None:  # m:ss
        if "." in first or "," in first:
            raise ValueError(f"cannot read {text!r}: write minutes:seconds, e.g. 12:30")
        secs = int(second)
        if secs > 59:
            raise ValueError(f"cannot read {text!r}: seconds go up to 59")
        return float(int(first) * 60 + secs)
    return float(first.replace(",", ".")) * 60.0


def format_clock(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour), rounded to the second."""
    total = max(0, int(round(seconds)))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class ClockController(QObject):
    """The clock times to set at the restored position (the one before the first
    illegal move found by "Check record")."""

    def __init__(self, board: BoardController):
        super().__init__(board)
        self._board = board

    def moves(self) -> ClockMoves | None:
        """How many moves each side played in the record (up to discovery: the end of
        the record) and how many are taken back (the first illegal move and every move
        after it); None before a check finds an illegal move."""
        first = self._board.check.first_illegal
        if first is None:
            return None
        return moves_taken_back(self._board.start.turn, len(self._board.moves), first.ply)

    def advice(self, black_reading: float, white_reading: float,
               time_control: float | None) -> ClockAdvice:
        """The clock times (seconds) to set at the restored position.  Raises
        ValueError with a readable message for readings that cannot be right."""
        counts = self.moves()
        if counts is None:
            raise ValueError("no illegal move: check the record first")
        if time_control is not None:
            if time_control <= 0:
                raise ValueError("the time control must be more than 0")
            for side, reading in (("Black", black_reading), ("White", white_reading)):
                if reading > time_control:
                    raise ValueError(f"{side}'s clock reads more than the time control: "
                                     f"check the reading")
        return prorate_clocks(black_reading, white_reading, *counts, time_control)
