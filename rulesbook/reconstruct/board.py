"""Checking a position set up on a board, and pro-rating the clocks.

Clock pro-rating (the ACF guide: "the position should be recreated back to
the point where the illegal move was made, pro-rating the time shown on time
clocks, as appropriate").  The formula used by :func:`prorate_clocks`:

The time a side spent on the moves being taken back is not known (nobody
read the clocks then), so :func:`prorate_clocks` estimates it as that
side's average time per own move so far, and gives it back:

* for a side with time control ``T`` (seconds on its clock at the start),
  clock reading ``r`` at discovery and ``n`` own moves played in all, of
  which ``k`` come after the restored position, the time used is ``T - r``,
  ``(T - r) / n`` per move, and the clock is set to
  ``r + k * (T - r) / n`` (never above ``T``);
* without ``T`` (no time control known), the readings are returned as they
  are (nothing can be given back fairly) and the note says so.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from rulesbook.draughts import Color, Position, PositionError

__all__ = ["check_board", "BoardError", "ClockAdvice", "ClockMoves", "moves_taken_back",
           "prorate_clocks"]


class BoardError(PositionError):
    """A position set up on the board that cannot be used (with the context)."""


def check_board(position: Position, context: str = "the position on the board",
                to_move: Color | None = None, game_over_ok: bool = False) -> Position:
    """Check a position set up on a board before it is used; return it (with
    ``to_move`` to move when given).  Raises :class:`BoardError` naming
    ``context`` and saying what is wrong: too many pieces, a man on the row
    where it would have been crowned, no piece at all, or a side to move
    that has no move while the players say the game goes on."""
    if to_move is not None:
        position = position.with_turn(to_move)
    try:
        position.check_sane()
    except PositionError as exc:
        raise BoardError(f"{context} cannot be right: {exc}; check how it was set up") from None
    if not position.pieces():
        raise BoardError(f"{context} cannot be right: the board is empty")
    for color in (Color.BLACK, Color.WHITE):
        if not game_over_ok and position.count(color) == 0:
            raise BoardError(f"{context}: {color.title} has no piece left, so the game is "
                             f"already over; check how it was set up")
    if not game_over_ok and position.is_game_over():
        raise BoardError(f"{context}: {position.turn.title} is to move but has no legal move, "
                         f"so the game is already over; check the side to move")
    return position


@dataclass(frozen=True)
class ClockAdvice:
    """Suggested clock times (seconds) to set at the restored position."""

    black: float
    white: float
    black_given_back: float
    white_given_back: float
    note: str

    def to_dict(self) -> dict[str, float | str]:
        return {"black": round(self.black, 1), "white": round(self.white, 1),
                "black_given_back": round(self.black_given_back, 1),
                "white_given_back": round(self.white_given_back, 1), "note": self.note}


class ClockMoves(NamedTuple):
    """The move counts :func:`prorate_clocks` needs: the moves each side played up
    to discovery, and how many of them are taken back."""

    black_total: int
    white_total: int
    black_since: int
    white_since: int


def moves_taken_back(first_turn: Color, plies: int, first_taken_back: int) -> ClockMoves:
    """The moves of a record of ``plies`` plies (``first_turn`` to move first) when
    ply ``first_taken_back`` (1-based) and every later one are taken back."""
    counts = {Color.BLACK: [0, 0], Color.WHITE: [0, 0]}
    turn = first_turn
    for ply in range(1, plies + 1):
        counts[turn][0] += 1
        if ply >= first_taken_back:
            counts[turn][1] += 1
        turn = turn.opponent
    black, white = counts[Color.BLACK], counts[Color.WHITE]
    return ClockMoves(black[0], white[0], black[1], white[1])


def prorate_clocks(black_reading: float, white_reading: float, black_moves_total: int,
                   white_moves_total: int, black_moves_since: int, white_moves_since: int,
                   time_control: float | None = None) -> ClockAdvice:
    """The clock times to set at the restored position (see the module docstring).

    ``*_reading``: seconds left on each clock at discovery; ``*_moves_total``:
    moves each side played in the game up to discovery; ``*_moves_since``:
    of those, how many come after the restored position (they are taken back).
    """
    for name, value in (("black_moves_total", black_moves_total),
                        ("white_moves_total", white_moves_total),
                        ("black_moves_since", black_moves_since),
                        ("white_moves_since", white_moves_since)):
        if value < 0:
            raise ValueError(f"{name} must be 0 or more, not {value}")
    if black_moves_since > black_moves_total or white_moves_since > white_moves_total:
        raise ValueError("more moves taken back than were played")
    if black_reading < 0 or white_reading < 0:
        raise ValueError("clock readings must be 0 or more")
    if time_control is None:
        return ClockAdvice(black_reading, white_reading, 0.0, 0.0,
                           "no time control given: the clocks stay as they read")
    out = []
    for reading, total, since in ((black_reading, black_moves_total, black_moves_since),
                                  (white_reading, white_moves_total, white_moves_since)):
        used = max(time_control - reading, 0.0)
        back = used * since / total if total else 0.0
        out.append((min(reading + back, time_control), back))
    note = ("each side's time used so far is shared evenly over its moves; "
            "the moves taken back give their share back")
    return ClockAdvice(out[0][0], out[1][0], out[0][1], out[1][1], note)
