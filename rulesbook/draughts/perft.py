"""Perft: count the leaf nodes of the legal move tree (move generator test).

One move per distinct start, end and ordered captures (as dctl and Aart Bik
count: see tests/draughts/test_engine_perft.py).  The last ply is bulk-counted
(quiet moves are counted with shifts, not generated).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Literal, overload

from rulesbook.draughts.errors import DraughtsError
from rulesbook.draughts.movegen import (
    CompiledRules,
    apply,
    captures,
    compile_rules,
    count_quiet,
    has_capture,
    quiet_moves,
)

if TYPE_CHECKING:
    from rulesbook.draughts.position import Position

__all__ = ["perft", "perft_raw"]


def perft_raw(bm: int, bk: int, wm: int, wk: int, black: bool, rules: CompiledRules, depth: int) -> int:
    """Perft on raw bitboards (bit i = square i + 1)."""
    if depth <= 0:
        return 1
    if black:
        men, kings, opp = bm, bk, wm | wk
    else:
        men, kings, opp = wm, wk, bm | bk
    occ = bm | bk | wm | wk
    # The cheap capture-existence test first: most positions have no capture.
    must = has_capture(men, kings, opp, occ, black, rules)
    if depth == 1:
        if must:
            return len(captures(men, kings, opp, occ, black, rules))
        return count_quiet(men, kings, occ, black, rules)
    total = 0
    nxt = not black
    d1 = depth - 1
    moves = (captures(men, kings, opp, occ, black, rules) if must
             else quiet_moves(men, kings, occ, black, rules))
    for move in moves:
        nbm, nbk, nwm, nwk = apply(bm, bk, wm, wk, black, move)
        total += perft_raw(nbm, nbk, nwm, nwk, nxt, rules, d1)
    return total


@overload
def perft(position: Position, depth: int, divide: Literal[False] = False) -> int: ...
@overload
def perft(position: Position, depth: int, divide: Literal[True]) -> dict[str, int]: ...
@overload
def perft(position: Position, depth: int, divide: bool) -> int | dict[str, int]: ...


def perft(position: Position, depth: int, divide: bool = False) -> int | dict[str, int]:
    """Leaf count at ``depth`` plies from ``position``.

    With ``divide=True`` returns ``{move_text: count}`` for every legal move
    (full-path texts, so each key is unique); the total is the sum.
    """
    if not isinstance(depth, int) or depth < 0:
        raise DraughtsError(f"perft depth must be a whole number >= 0, not {depth!r}")
    bm, bk, wm, wk, black = position.bitboards()
    rules = compile_rules(position.variant)
    if not divide:
        return perft_raw(bm, bk, wm, wk, black, rules, depth)
    result: dict[str, int] = {}
    for move in position.legal_moves():
        child = position.play(move)
        cbm, cbk, cwm, cwk, _ = child.bitboards()
        result[move.full_text()] = perft_raw(cbm, cbk, cwm, cwk, not black, rules,
                                              max(depth - 1, 0))
    return result
