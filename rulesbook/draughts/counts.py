"""Draw counts: parameters (:class:`CountRules`) and the state at a ply
(:class:`CountState`).

The engine knows no rulebook: every limit is a plain parameter, and the default
:class:`CountRules` counts nothing (every limit off).  The limits of a rulebook
live in its data (a ruling's ``count:``) and are read by
:func:`rulesbook.rulings.count_rules_for`.

What is counted (kept simple on purpose; the rulings engine interprets it):

* **Three kings against one**: active while one side has exactly three kings and
  nothing else and the other exactly one king and nothing else.
  ``three_vs_one_moves`` counts the moves made by the lone-king side while the
  ending is on the board (it restarts when the ending arises).  ``long_line`` is
  True when the lone king stands on the long diagonal 4-8-11-15-18-22-25-29; then
  the limit is ``long_line_limit`` if set, otherwise ``three_vs_one_limit``.
* **Stronger side**: the stronger side is the one with more weighted material
  (``king_weight``, ``man_weight``).  ``strong_side_moves`` counts the moves the
  stronger side has made since the last capture, the last man move (by either
  side), or the last change of who is stronger; ``strong_side_extension`` more
  moves may follow the limit.
* **Repetition**: ``repetitions`` is how many times the current position
  (pieces and side to move) has occurred in the game, this time included.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulesbook.draughts.move import Move
from rulesbook.draughts.movegen import LONG_LINE
from rulesbook.draughts.position import Position
from rulesbook.draughts.variant import Color

__all__ = ["CountRules", "CountState", "next_count_state", "initial_count_state"]


@dataclass(frozen=True)
class CountRules:
    """Parameters of the draw counts.  ``None`` switches a count off.

    The defaults are neutral, not any rulebook's: every count off, no extension,
    a king weighs as much as a man."""

    three_vs_one_limit: int | None = None
    long_line_limit: int | None = None
    strong_side_limit: int | None = None
    strong_side_extension: int = 0
    king_weight: int = 1
    man_weight: int = 1
    repetition_limit: int | None = None


@dataclass(frozen=True)
class CountState:
    """The draw-count state after ``ply`` plies."""

    ply: int
    three_vs_one_active: bool = False
    three_vs_one_moves: int = 0
    long_line: bool = False
    three_vs_one_limit: int | None = None
    three_vs_one_reached: bool = False
    strong_side: Color | None = None
    strong_side_moves: int = 0
    strong_side_limit: int | None = None
    strong_side_extended_limit: int | None = None
    strong_side_reached: bool = False
    strong_side_extended_reached: bool = False
    repetitions: int = 1
    repetition_limit: int | None = None
    repetition_reached: bool = False

    @property
    def limits_reached(self) -> tuple[str, ...]:
        """Names of the limits reached: ``three_vs_one``, ``strong_side``,
        ``strong_side_extended``, ``repetition``."""
        names = []
        if self.three_vs_one_reached:
            names.append("three_vs_one")
        if self.strong_side_reached:
            names.append("strong_side")
        if self.strong_side_extended_reached:
            names.append("strong_side_extended")
        if self.repetition_reached:
            names.append("repetition")
        return tuple(names)


def _lone_king_side(position: Position) -> Color | None:
    """The side with the lone king if the position is three kings against one."""
    for lone in (Color.BLACK, Color.WHITE):
        other = lone.opponent
        if (position.count(lone, king=True) == 1 and position.count(lone, king=False) == 0
                and position.count(other, king=True) == 3
                and position.count(other, king=False) == 0):
            return lone
    return None


def _strong_side(position: Position, rules: CountRules) -> Color | None:
    def weight(c: Color) -> int:
        return (rules.king_weight * position.count(c, king=True)
                + rules.man_weight * position.count(c, king=False))
    b, w = weight(Color.BLACK), weight(Color.WHITE)
    if b == w:
        return None
    return Color.BLACK if b > w else Color.WHITE


def _finish(ply: int, position: Position, rules: CountRules, lone: Color | None, t31: int,
            strong: Color | None, strong_moves: int, repetitions: int) -> CountState:
    long_line = False
    limit31 = None
    if lone is not None:
        boards = position.bitboards()
        king_bits = boards.black_kings if lone is Color.BLACK else boards.white_kings
        long_line = bool(king_bits & LONG_LINE)
        limit31 = rules.three_vs_one_limit
        if long_line and rules.long_line_limit is not None:
            limit31 = rules.long_line_limit
    s_limit = rules.strong_side_limit if strong is not None else None
    s_ext = s_limit + rules.strong_side_extension if s_limit is not None else None
    return CountState(
        ply=ply,
        three_vs_one_active=lone is not None,
        three_vs_one_moves=t31,
        long_line=long_line,
        three_vs_one_limit=limit31,
        three_vs_one_reached=limit31 is not None and t31 >= limit31,
        strong_side=strong,
        strong_side_moves=strong_moves,
        strong_side_limit=s_limit,
        strong_side_extended_limit=s_ext,
        strong_side_reached=s_limit is not None and strong_moves >= s_limit,
        strong_side_extended_reached=(
            s_ext is not None and rules.strong_side_extension > 0 and strong_moves >= s_ext),
        repetitions=repetitions,
        repetition_limit=rules.repetition_limit,
        repetition_reached=(
            rules.repetition_limit is not None and repetitions >= rules.repetition_limit),
    )


def initial_count_state(position: Position, rules: CountRules) -> CountState:
    return _finish(0, position, rules, _lone_king_side(position), 0,
                   _strong_side(position, rules), 0, 1)


def next_count_state(prev: CountState, before: Position, move: Move, after: Position,
                     rules: CountRules, repetitions: int) -> CountState:
    """The state after ``move`` took ``before`` to ``after``."""
    mover = before.turn
    lone = _lone_king_side(after)
    t31 = 0
    if lone is not None and prev.three_vs_one_active and _lone_king_side(before) == lone:
        t31 = prev.three_vs_one_moves + (1 if mover is lone else 0)
    strong = _strong_side(after, rules)
    piece = before.piece_at(move.start)
    irreversible = move.is_capture or (piece is not None and not piece.king)
    if strong is None or irreversible or strong != prev.strong_side:
        strong_moves = 0
    else:
        strong_moves = prev.strong_side_moves + (1 if mover is strong else 0)
    return _finish(prev.ply + 1, after, rules, lone, t31, strong, strong_moves, repetitions)
