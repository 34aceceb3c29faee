"""The bounds of one side for the compiled gap kernel (numba): what
:func:`rulesbook.reconstruct.gap.bounds._side_ok` says (the differential
tests of ``tests/reconstruct/test_gap_kernel.py`` keep them equal), and
:func:`side_live`, which the kernel alone asks (see there).
"""
from __future__ import annotations

import numpy as np

from rulesbook.draughts.geometry import NB
from rulesbook.draughts.movegen import CROWN_BLACK, CROWN_WHITE
from rulesbook.reconstruct.gap.bounds import (
    AHEAD_BLACK,
    AHEAD_WHITE,
    BEHIND_BLACK,
    BEHIND_WHITE,
    EDGE,
    KING_RINGS,
    ROWS_BLACK,
    ROWS_WHITE,
    ROWSUM_HI,
    ROWSUM_LO,
)
from rulesbook.reconstruct.gap.bounds_jumps import MOST_JUMPS, jump_steps
from rulesbook.reconstruct.gap.kernel_moves import (
    T_BAHEAD,
    T_BGOALS,
    T_BK,
    T_BM,
    T_CROWNENDS,
    T_FLYING,
    T_MENBACK,
    T_WAHEAD,
    T_WGOALS,
    T_WK,
    T_WM,
    lsb,
    msb,
    popcount,
)
from rulesbook.reconstruct.gap.kernel_njit import njit
from rulesbook.reconstruct.gap.kernel_table import get, put

__all__ = ["NEVER", "men_advance", "men_back_ok", "side_live", "side_within_bounds"]

NEVER = 1 << 30
# the neighbouring bit in each direction (-1 off the board), as geometry.NB
_NB = np.array(NB, dtype=np.int64)
# [side (0 Black), jumps, from, to]: bounds_jumps.jump_steps
_JUMP_STEPS = np.array([jump_steps(True), jump_steps(False)], dtype=np.int64)


def _ring_arrays(rings: tuple[tuple[tuple[int, int], ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Rings (see :mod:`.bounds`) as ``(steps, masks)`` arrays [32, 16]
    (steps -1 past the last ring)."""
    steps = np.full((32, 16), -1, dtype=np.int64)
    masks = np.zeros((32, 16), dtype=np.int64)
    for a, ring in enumerate(rings):
        for n, (d, mask) in enumerate(ring):
            steps[a, n] = d
            masks[a, n] = mask
    return steps, masks


_AHEAD_B = _ring_arrays(AHEAD_BLACK)
_AHEAD_W = _ring_arrays(AHEAD_WHITE)
_BEHIND_B = _ring_arrays(BEHIND_BLACK)
_BEHIND_W = _ring_arrays(BEHIND_WHITE)
# [black, flying, kind (0 from kings, 1 from men)]
_KING_STEPS = np.full((2, 2, 2, 32, 16), -1, dtype=np.int64)
_KING_MASKS = np.zeros((2, 2, 2, 32, 16), dtype=np.int64)
for (_black, _flying), _pair in KING_RINGS.items():
    for _kind, _rings in enumerate(_pair):
        _s, _m = _ring_arrays(_rings)
        _KING_STEPS[int(_black), int(_flying), _kind] = _s
        _KING_MASKS[int(_black), int(_flying), _kind] = _m
_ROWSUM_LO = np.array(ROWSUM_LO, dtype=np.int64)
_ROWSUM_HI = np.array(ROWSUM_HI, dtype=np.int64)
_ROWS_B = np.array(ROWS_BLACK, dtype=np.int64)
_ROWS_W = np.array(ROWS_WHITE, dtype=np.int64)

# ----------------------------------------------------------------- bounds (gap_bounds)
@njit(cache=True)
def _steps_needed(steps: np.ndarray, masks: np.ndarray, froms: int, tos: int) -> int:
    need = 0
    while froms:
        a = lsb(froms)
        froms &= froms - 1
        k = 0
        while True:
            d = steps[a, k]
            if d < 0:
                return NEVER
            if masks[a, k] & tos:
                need += d
                break
            k += 1
    return need


@njit(cache=True, inline="always")
def men_advance(men: int, black: bool) -> int:
    rows = _ROWSUM_LO[men & 0xFFFF] + _ROWSUM_HI[men >> 16]
    return rows if black else 7 * popcount(men) - rows


@njit(cache=True)
def _rearmost(men: int, black: bool, n: int) -> int:
    total = 0
    rows = _ROWS_B if black else _ROWS_W
    for ahead in range(8):
        if n <= 0:
            break
        k = min(popcount(men & rows[ahead]), n)
        total += k * ahead
        n -= k
    return total


@njit(cache=True, inline="always")
def _foremost(men: int, black: bool) -> int:
    if not men:
        return -1
    if black:
        return msb(men) >> 2
    return 7 - (lsb(men) >> 2)


@njit(cache=True)
def _row_balance(men: int, kings: int, tmen: int, tkings: int, t_ahead: int, moves: int,
                 takes_left: int, black: bool, back_jumps: bool = False) -> bool:
    gone = popcount(men) - popcount(tmen)
    base = t_ahead - men_advance(men, black)
    extra = 2 * takes_left - 1 if takes_left else 0
    if base + _rearmost(men, black, gone) > moves + extra:
        return False
    if back_jumps:
        return True
    if kings or tkings or (gone and _foremost(men, black) + moves + extra >= 7):
        return True
    least = moves + 2 * takes_left - min(takes_left, moves) if takes_left else moves
    return base + 6 * gone >= least


@njit(cache=True)
def side_within_bounds(men: int, kings: int, moves: int, lost_left: int, takes_left: int, black: bool,
             t: np.ndarray) -> bool:
    if black:
        tmen, tkings, goals, t_ahead = t[T_BM], t[T_BK], t[T_BGOALS], t[T_BAHEAD]
        ahead, behind = _AHEAD_B, _BEHIND_B
        crown_row = CROWN_BLACK
    else:
        tmen, tkings, goals, t_ahead = t[T_WM], t[T_WK], t[T_WGOALS], t[T_WAHEAD]
        ahead, behind = _AHEAD_W, _BEHIND_W
        crown_row = CROWN_WHITE
    men_back = t[T_MENBACK] != 0
    flying = t[T_FLYING] != 0
    nm = popcount(men)
    if nm < popcount(tmen):
        return False
    if popcount(tkings) > popcount(kings) + nm - popcount(tmen):
        return False
    if takes_left and not moves:
        return False
    if not _row_balance(men, kings, tmen, tkings, t_ahead, moves, takes_left, black,
                        takes_left > 0 and men_back):
        return False
    fill = popcount((tmen & ~men) | (tkings & ~kings))
    if fill > moves:
        return False
    if t[T_CROWNENDS]:
        crowns = popcount(tkings) - popcount(kings)
        if crowns > 0:
            on_row = popcount(tkings & ~kings & crown_row)
            if crowns > on_row and fill + crowns - on_row > moves:
                return False
    vacating = (men & ~tmen) | (kings & ~tkings)
    if popcount(vacating & EDGE) + max(popcount(vacating & ~EDGE) - lost_left, 0) > moves:
        return False
    crowned = tkings & ~kings
    if crowned and (not takes_left or not (men_back or flying)):
        ks = _KING_STEPS[int(black), int(flying), 0]
        km = _KING_MASKS[int(black), int(flying), 0]
        ms = _KING_STEPS[int(black), int(flying), 1]
        mm = _KING_MASKS[int(black), int(flying), 1]
        need = 0
        while crowned:
            sq = lsb(crowned)
            crowned &= crowned - 1
            best = NEVER
            k = 0
            while ks[sq, k] >= 0:
                if km[sq, k] & kings:
                    best = ks[sq, k]
                    break
                k += 1
            k = 0
            while ms[sq, k] >= 0:
                d = ms[sq, k]
                if d >= best:
                    break
                if mm[sq, k] & men:
                    best = d
                    break
                k += 1
            need += best
        if need - 2 * takes_left > moves:
            return False
    if takes_left and moves < 1:
        return False
    if takes_left and men_back:
        return men_back_ok(men, tmen, goals, moves, lost_left, takes_left, black)
    spare = 2 * takes_left
    missing = tmen & ~men
    if missing and _steps_needed(behind[0], behind[1], missing, men) - spare > moves:
        return False
    leaving = men & ~tmen
    if lost_left or not leaving:
        return True
    return _steps_needed(ahead[0], ahead[1], leaving, goals) - spare <= moves


@njit(cache=True)
def men_back_ok(men: int, tmen: int, goals: int, moves: int, lost_left: int, takes_left: int,
                 black: bool) -> bool:
    """:func:`.bounds_jumps.men_back_ok`."""
    if takes_left > MOST_JUMPS:
        return moves >= 1
    side = 0 if black else 1
    quiet = moves - 1
    missing = tmen & ~men
    need = 0
    while missing:
        x = lsb(missing)
        missing &= missing - 1
        best = 99
        f = men
        while f:
            y = lsb(f)
            f &= f - 1
            best = min(best, _JUMP_STEPS[side, takes_left, y, x])
        need += best
        if need > quiet:
            return False
    leaving = men & ~tmen
    if lost_left or not leaving:
        return True
    total = 0
    while leaving:
        y = lsb(leaving)
        leaving &= leaving - 1
        best = 99
        g = goals
        while g:
            x = lsb(g)
            g &= g - 1
            best = min(best, _JUMP_STEPS[side, takes_left, y, x])
        total += best
        if total > quiet:
            return False
    return True


@njit(cache=True)
def side_live(men: int, kings: int, moves: int, takes_left: int, black: bool, t: np.ndarray,
              side_ok: np.ndarray, meta: np.ndarray) -> bool:
    """Whether a side of men only (and of men only on the board) can go to
    its men of the target in ``moves`` moves of its own, taking
    ``takes_left`` pieces and losing the pieces it has over the target's,
    when the other side is left out: a man steps forward onto any square
    the side does not hold, jumps (two squares, backward too where men
    capture backward, ``takes_left`` jumps in all) over and onto squares it
    does not hold, and any of its pieces off the edge may be taken at any
    time.  Every line of the real game is such a line of the side's own, so
    False means the side cannot.  True as soon as a king would appear (not
    followed), and where men never capture backward (English: the bounds
    alone come close there, and this was measured slower).

    The kernel's alone (:func:`.kernel.feasible`): the sides of a position
    are searched each on its own, a few moves ahead, and what they find is
    remembered in ``side_ok`` (``c == 1``); the Python search has the bounds
    only (the counts are the same: the differential tests)."""
    if kings or not t[T_MENBACK]:
        return True  # (where men only go forward the bounds are close: not worth it)
    if black:
        tmen, tkings = t[T_BM], t[T_BK]
    else:
        tmen, tkings = t[T_WM], t[T_WK]
    if tkings:
        return True
    return _live(men, moves, takes_left, black, tmen, t, side_ok, meta)


@njit(cache=True)
def _live(men: int, moves: int, takes: int, black: bool, tmen: int, t: np.ndarray,
          side_ok: np.ndarray, meta: np.ndarray) -> bool:
    lost = popcount(men) - popcount(tmen)
    if lost < 0:
        return False
    if moves == 0:
        return takes == 0 and (men & tmen) == tmen
    if not side_within_bounds(men, 0, moves, lost, takes, black, t):
        return False
    kb = moves | (takes << 8) | ((1 if black else 0) << 16)
    hit = get(side_ok, men, kb, 1, -1)
    if hit >= 0:
        return hit == 1
    ok = False
    crown = CROWN_BLACK if black else CROWN_WHITE
    first = 2 if black else 0  # the forward directions: first, first + 1
    # taken now (before the side's next move): not on the edge (nothing
    # behind it to land on)
    x = men & ~EDGE if lost > 0 else 0
    while x and not ok:
        b = x & -x
        x ^= b
        ok = _live(men ^ b, moves, takes, black, tmen, t, side_ok, meta)
    x = men
    while x and not ok:
        s = lsb(x)
        x &= x - 1
        rest = men ^ (1 << s)
        for d in range(first, first + 2):
            e = _NB[s, d]
            if e < 0 or (men >> e) & 1:
                continue
            if (crown >> e) & 1:
                return _keep(side_ok, meta, men, kb, True)  # crowned: not followed
            if _live(rest | (1 << e), moves - 1, takes, black, tmen, t, side_ok, meta):
                ok = True
                break
        if ok or not takes:
            continue
        # captures by this man: the squares it lands on after c jumps
        stack_sq = np.empty(32 * MOST_JUMPS + 4, dtype=np.int64)
        stack_c = np.empty(32 * MOST_JUMPS + 4, dtype=np.int64)
        seen = np.zeros(MOST_JUMPS + 1, dtype=np.int64)
        top = 0
        stack_sq[0] = s
        stack_c[0] = 0
        top = 1
        lo, hi = (0, 4) if t[T_MENBACK] else (first, first + 2)
        while top and not ok:
            top -= 1
            p = stack_sq[top]
            c = stack_c[top] + 1
            for d in range(lo, hi):
                o = _NB[p, d]
                if o < 0 or (rest >> o) & 1:
                    continue
                land = _NB[o, d]
                if land < 0 or (rest >> land) & 1 or (seen[c] >> land) & 1:
                    continue
                seen[c] |= 1 << land
                if (crown >> land) & 1:
                    return _keep(side_ok, meta, men, kb, True)  # crowned: not followed
                if _live(rest | (1 << land), moves - 1, takes - c, black, tmen, t, side_ok,
                         meta):
                    ok = True
                    break
                if c < takes and c < MOST_JUMPS:
                    stack_sq[top] = land
                    stack_c[top] = c
                    top += 1
    return _keep(side_ok, meta, men, kb, ok)


@njit(cache=True, inline="always")
def _keep(side_ok: np.ndarray, meta: np.ndarray, men: int, kb: int, ok: bool) -> bool:
    """Remember ``ok`` for the side (while the table has room: past half full
    the kernel grows it at its next position, and nothing is put meanwhile)."""
    if not meta[1]:
        put(side_ok, meta, men, kb, 1, 1 if ok else 0)
    return ok
