"""A bound of the gap search for a side whose men capture backward and that
still has pieces to take (:func:`~rulesbook.reconstruct.gap.bounds.feasible`).

Such a man goes anywhere in the end (a jump two squares in any direction
for each piece taken), but not at once: :func:`jump_steps` gives the fewest
quiet steps forward (one a move) a man needs between two squares with at
most so many jumps, so a target man not there yet needs a man of the side
that many moves away, and (when the side loses no more pieces) a man that
leaves its square needs its way to a target man's square or the king row.
"""
from __future__ import annotations

from functools import cache

from rulesbook.draughts.movegen import JUMPS_ALL, STEPS_BLACK, STEPS_WHITE

__all__ = ["MOST_JUMPS", "jump_need", "jump_steps", "men_back_ok"]


def bits(x: int) -> list[int]:
    """The bit indices of ``x``, lowest first."""
    out = []
    while x:
        b = x & -x
        out.append(b.bit_length() - 1)
        x ^= b
    return out


#: the most pieces a side takes that :func:`jump_steps` knows of (a side has 12)
MOST_JUMPS = 12


def _jump_steps(black: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    steps = STEPS_BLACK if black else STEPS_WHITE
    order = range(32) if black else range(31, -1, -1)  # forward: a step goes on in it
    out = []
    for y in range(32):
        per_j = []
        best = [99] * 32
        best[y] = 0
        for j in range(MOST_JUMPS + 1):
            if j:
                was = best[:]
                for sq in range(32):
                    if was[sq] < 99:
                        for jump in JUMPS_ALL[sq]:
                            if was[sq] < best[jump[3]]:
                                best[jump[3]] = was[sq]
            for sq in order:
                if best[sq] < 99:
                    for nxt in steps[sq]:
                        if best[sq] + 1 < best[nxt]:
                            best[nxt] = best[sq] + 1
            per_j.append(tuple(best))
        out.append(tuple(per_j))
    # [j][y][x]
    return tuple(tuple(tuple(out[y][j]) for y in range(32)) for j in range(MOST_JUMPS + 1))


@cache
def jump_steps(black: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``jump_steps(black)[j][y][x]``: the fewest quiet steps forward a man of
    the side needs from bit ``y`` to bit ``x`` when it may also jump (two
    squares, in any direction, as men that capture backward do) at most ``j``
    times; 99 = never.  Crowning on the way is ignored (a bound: the man may
    only go fewer ways)."""
    return _jump_steps(black)


def jump_need(d: tuple[tuple[int, ...], ...], froms: int, tos: int) -> int:
    """The sum over the bits of ``tos`` of the fewest steps (``d[y][x]``)
    from any bit ``y`` of ``froms``."""
    need = 0
    for x in bits(tos):
        need += min((d[y][x] for y in bits(froms)), default=99)
    return need


def men_back_ok(men: int, tmen: int, goals: int, moves: int, lost_left: int,
                 takes_left: int, black: bool) -> bool:
    """A side whose men capture backward and that still takes ``takes_left``
    pieces: a target man not there yet needs a man to come there, by quiet
    steps forward (one a move) and at most ``takes_left`` jumps (moves that
    take: at least one of its moves, so not a quiet step); and, when none of
    its men is taken, every man that leaves its square reaches a target man's
    square or the king row so (``goals``)."""
    if takes_left > MOST_JUMPS:
        return moves >= 1
    d = jump_steps(black)[takes_left]
    quiet = moves - 1
    missing = tmen & ~men
    if missing and jump_need(d, men, missing) > quiet:
        return False
    leaving = men & ~tmen
    if lost_left or not leaving:
        return True
    total = 0
    for y in bits(leaving):
        total += min((d[y][g] for g in bits(goals)), default=99)
    return total <= quiet
