"""Move generation of the compiled gap kernel (numba): the engine's moves
(:func:`rulesbook.draughts.movegen.legal_raw_moves`: one per distinct start,
end and ordered captures) over flat int64 arrays, and the flags, the target
and the state the kernel (:mod:`.kernel`) reads by index.  Tested against
the engine in ``tests/reconstruct/test_gap_kernel.py``.
"""
from __future__ import annotations

import numpy as np

from rulesbook.draughts.geometry import NB, RAYS_BY_DIR
from rulesbook.draughts.movegen import CROWN_BLACK, CROWN_WHITE
from rulesbook.reconstruct.gap.kernel_njit import njit

__all__ = ["FULL", "MAX_MOVES", "RAYLEN", "RAYS", "T_FIELDS", "apply_move", "can_jump", "legal_moves",
           "lsb", "msb", "popcount"]

#: room for the moves of one position (more is reported, never overrun)
MAX_MOVES = 512
FULL = (1 << 32) - 1
MODE_NO, MODE_ENDS, MODE_CONTINUES = 0, 1, 2

# ----------------------------------------------------------------- geometry tables
_NB = np.array(NB, dtype=np.int64)
RAYS = np.full((32, 4, 8), -1, dtype=np.int64)
RAYLEN = np.zeros((32, 4), dtype=np.int64)
_RAYMASK = np.zeros((32, 4), dtype=np.int64)
_RAYIDX = np.full((32, 4, 32), -1, dtype=np.int64)
for _i in range(32):
    for _d in range(4):
        for _n, _j in enumerate(RAYS_BY_DIR[_i][_d]):
            RAYS[_i, _d, _n] = _j
            _RAYIDX[_i, _d, _j] = _n
            _RAYMASK[_i, _d] |= 1 << _j
        RAYLEN[_i, _d] = len(RAYS_BY_DIR[_i][_d])


#: the target as the kernel reads it (an int64 array, by these indices)
T_FIELDS = ("bm", "bk", "wm", "wk", "black", "nb", "nw", "b_goals", "w_goals", "b_ahead",
            "w_ahead", "men_back", "flying", "crown_ends", "most", "mode")
(T_BM, T_BK, T_WM, T_WK, T_BLACK, T_NB, T_NW, T_BGOALS, T_WGOALS, T_BAHEAD, T_WAHEAD,
 T_MENBACK, T_FLYING, T_CROWNENDS, T_MOST, T_MODE) = range(len(T_FIELDS))

# the search's state (an int64 array): nodes, the cancel flag (set by the caller),
# the cap, the depth of the backward layers, overflow (a position with more
# moves than MAX_MOVES), cancelled (seen by the search), found (the sequences
# counted so far by the positions being searched: a proven lower bound, read
# by the caller while the search runs)
S_NODES, S_CANCEL, S_CAP, S_DEPTH, S_OVERFLOW, S_CANCELLED, S_FOUND = range(7)
#: the length of the state array
S_SIZE = S_FOUND + 1


# ----------------------------------------------------------------- bits
@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                      31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


@njit(cache=True, inline="always")
def lsb(x: int) -> int:
    """The index of the lowest set bit of a nonzero 32-bit ``x``."""
    b = x & -x
    return _DEBRUIJN[((b * 0x077CB531) & 0xFFFFFFFF) >> 27]


@njit(cache=True, inline="always")
def msb(x: int) -> int:
    """The index of the highest set bit of a nonzero 32-bit ``x``."""
    n = 0
    if x >= 1 << 16:
        n += 16
        x >>= 16
    if x >= 1 << 8:
        n += 8
        x >>= 8
    if x >= 1 << 4:
        n += 4
        x >>= 4
    if x >= 1 << 2:
        n += 2
        x >>= 2
    if x >= 2:
        n += 1
    return n


# ----------------------------------------------------------------- move generation
# A move is a row of ``moves[slot, n]``: start bit index, end bit index, mask of
# the pieces taken, crowns (0/1), number of pieces taken; for a capture also
# the squares taken in order, 5 bits each (``moves[slot, n, 5]``).  No
# function here calls itself (numba's cache cannot keep recursive functions):
# the captures are searched with a stack of their own.

@njit(cache=True)
def _push(moves: np.ndarray, slot: int, n: int, start: int, end: int, capmask: int,
          crowns: int, ncaps: int, order: int, state: np.ndarray) -> int:
    """Add a move (a capture only when no move with the same start, end and
    ordered captures is there yet: one move per distinct one)."""
    if ncaps:
        for k in range(n):
            if (moves[slot, k, 5] == order and moves[slot, k, 0] == start
                    and moves[slot, k, 1] == end and moves[slot, k, 4] == ncaps):
                return n
    if n >= MAX_MOVES:
        state[S_OVERFLOW] = 1
        return n
    moves[slot, n, 0] = start
    moves[slot, n, 1] = end
    moves[slot, n, 2] = capmask
    moves[slot, n, 3] = crowns
    moves[slot, n, 4] = ncaps
    moves[slot, n, 5] = order
    return n + 1


@njit(cache=True, inline="always")
def _ray_victim(i: int, d: int, capmask: int, opp: int, empty: int) -> int:
    """The square of the piece a flying king on ``i`` takes in direction
    ``d`` (the nearest piece on the ray, an opponent's not taken yet), or -1;
    its landing squares are the empty ones right behind it."""
    o = _RAYMASK[i, d] & (FULL ^ empty)  # every piece blocks, the ones taken too
    if not o:
        return -1
    near = msb(o) if d < 2 else lsb(o)
    nb = 1 << near
    if not opp & nb or capmask & nb:
        return -1
    return near


@njit(cache=True, inline="always")
def _short_landing(i: int, d: int, capmask: int, opp: int, empty: int, king: bool,
                   black: bool, back: bool) -> int:
    """Where a short jump from ``i`` in direction ``d`` lands (a man's, or a
    king's that does not fly), or -1: a direction the man does not jump in,
    the edge, nothing to take, no room behind it."""
    if not king and not back and (d >= 2) != black:
        return -1  # Black's men jump down the board (directions 2, 3), White's up
    o = _NB[i, d]
    if o < 0:
        return -1
    land = _NB[o, d]
    if land < 0:
        return -1
    ob = 1 << o
    if opp & ob and not capmask & ob and empty & (1 << land):
        return land
    return -1


@njit(cache=True)
def can_jump(i: int, capmask: int, opp: int, empty: int, king: bool, flying: bool,
              black: bool, back: bool) -> bool:
    """Whether the piece on ``i`` (a king or a man) can take one more piece."""
    for d in range(4):
        if king and flying:
            near = _ray_victim(i, d, capmask, opp, empty)
            if near >= 0:
                after = _RAYIDX[i, d, near] + 1
                if after < RAYLEN[i, d] and empty & (1 << RAYS[i, d, after]):
                    return True
        elif _short_landing(i, d, capmask, opp, empty, king, black, back) >= 0:
            return True
    return False


@njit(cache=True, inline="always")
def _push_frame(stack: np.ndarray, sp: int, square: int, capmask: int, ncaps: int, order: int,
                king: bool, crowned: int, state: np.ndarray) -> int:
    """Put a capture that goes on onto ``stack``; the new height (-1: full)."""
    if sp >= stack.shape[0]:
        state[S_OVERFLOW] = 1
        return -1
    stack[sp, 0] = square
    stack[sp, 1] = capmask
    stack[sp, 2] = ncaps
    stack[sp, 3] = order
    stack[sp, 4] = 1 if king else 0
    stack[sp, 5] = crowned
    return sp + 1


@njit(cache=True)
def _captures(start: int, king: bool, opp: int, empty: int, black: bool, back: bool,
              flying: bool, mode: int, crown: int, moves: np.ndarray, slot: int, n: int,
              stack: np.ndarray, state: np.ndarray) -> int:
    """Every capture of the piece on ``start`` into ``moves[slot]`` from ``n``
    on; the new number of moves.  A capture goes on while it can; a flying
    king that can go on from some landing square must land on one of those.
    ``stack`` rows: square, pieces taken (mask), number taken, order, king,
    crowned."""
    sp = _push_frame(stack, 0, start, 0, 0, 0, king, 0, state)
    while sp:
        sp -= 1
        i = stack[sp, 0]
        capmask = stack[sp, 1]
        ncaps = stack[sp, 2]
        order = stack[sp, 3]
        is_king = stack[sp, 4] == 1
        crowned = stack[sp, 5]
        if is_king and flying:
            for d in range(4):
                near = _ray_victim(i, d, capmask, opp, empty)
                if near < 0:
                    continue
                first = _RAYIDX[i, d, near] + 1
                length = RAYLEN[i, d]
                nm = capmask | (1 << near)
                norder = order | (near << (5 * ncaps))
                # the landing squares: empty ones behind the piece taken
                going_on = False
                k = first
                while k < length and empty & (1 << RAYS[i, d, k]):
                    if can_jump(RAYS[i, d, k], nm, opp, empty, True, True, black, back):
                        going_on = True
                    k += 1
                for m in range(first, k):
                    land = RAYS[i, d, m]
                    if going_on:
                        if can_jump(land, nm, opp, empty, True, True, black, back):
                            sp = _push_frame(stack, sp, land, nm, ncaps + 1, norder, True,
                                             crowned, state)
                            if sp < 0:
                                return n
                    else:
                        n = _push(moves, slot, n, start, land, nm, crowned, ncaps + 1, norder,
                                  state)
            continue
        for d in range(4):
            land = _short_landing(i, d, capmask, opp, empty, is_king, black, back)
            if land < 0:
                continue
            o = _NB[i, d]
            lb = 1 << land
            nm = capmask | (1 << o)
            norder = order | (o << (5 * ncaps))
            next_king = is_king
            next_crowned = crowned  # a king crowned during this capture stays one
            if not is_king:
                # a man is crowned where it ends on the king row (or, in
                # Russian, as it reaches it, going on as a king)
                next_crowned = 1 if crown & lb else 0
                if next_crowned:
                    if mode == MODE_ENDS:
                        n = _push(moves, slot, n, start, land, nm, 1, ncaps + 1, norder, state)
                        continue
                    if mode == MODE_CONTINUES:
                        next_king = True
            if can_jump(land, nm, opp, empty, next_king, flying, black, back):
                sp = _push_frame(stack, sp, land, nm, ncaps + 1, norder, next_king,
                                 next_crowned, state)
                if sp < 0:
                    return n
            else:
                n = _push(moves, slot, n, start, land, nm, next_crowned, ncaps + 1, norder,
                          state)
    return n


@njit(cache=True)
def legal_moves(bm: int, bk: int, wm: int, wk: int, black: bool, t: np.ndarray,
                moves: np.ndarray, slot: int, state: np.ndarray) -> int:
    """Every legal move of the side to move into ``moves[slot]``; the number of
    them.  Captures are compulsory (the most pieces when ``t[T_MOST]``)."""
    if black:
        men, kings, opp = bm, bk, wm | wk
        crown = CROWN_BLACK
    else:
        men, kings, opp = wm, wk, bm | bk
        crown = CROWN_WHITE
    occ = bm | bk | wm | wk
    free = FULL ^ occ
    back = t[T_MENBACK] != 0
    flying = t[T_FLYING] != 0
    mode = t[T_MODE]
    stack = np.empty((256, 6), dtype=np.int64)
    count = 0
    x = men | kings
    while x:
        i = lsb(x)
        x &= x - 1
        king = (kings >> i) & 1 == 1
        empty = free | (1 << i)
        if can_jump(i, 0, opp, empty, king, flying, black, back):
            count = _captures(i, king, opp, empty, black, back, flying, mode, crown, moves, slot,
                              count, stack, state)
    if count:
        if t[T_MOST]:
            best = 0
            for k in range(count):
                best = max(best, moves[slot, k, 4])
            kept = 0
            for k in range(count):
                if moves[slot, k, 4] == best:
                    for f in range(6):
                        moves[slot, kept, f] = moves[slot, k, f]
                    kept += 1
            count = kept
        return count
    # quiet moves
    x = men
    while x:
        i = lsb(x)
        x &= x - 1
        for d in range(4):
            if (d >= 2) != black:
                continue
            j = _NB[i, d]
            if j >= 0 and free & (1 << j):
                count = _push(moves, slot, count, i, j, 0, 1 if crown & (1 << j) else 0, 0, 0,
                              state)
    x = kings
    while x:
        i = lsb(x)
        x &= x - 1
        for d in range(4):
            if flying:
                for k in range(RAYLEN[i, d]):
                    j = RAYS[i, d, k]
                    if not free & (1 << j):
                        break
                    count = _push(moves, slot, count, i, j, 0, 0, 0, 0, state)
            else:
                j = _NB[i, d]
                if j >= 0 and free & (1 << j):
                    count = _push(moves, slot, count, i, j, 0, 0, 0, 0, state)
    return count


@njit(cache=True, inline="always")
def apply_move(bm: int, bk: int, wm: int, wk: int, black: bool, s: int, e: int, capmask: int,
           crowns: int) -> tuple[int, int, int, int]:
    sb = 1 << s
    eb = 1 << e
    keep = FULL ^ capmask
    if black:
        if bk & sb:
            bk = (bk ^ sb) | eb
        else:
            bm ^= sb
            if crowns:
                bk |= eb
            else:
                bm |= eb
        wm &= keep
        wk &= keep
    else:
        if wk & sb:
            wk = (wk ^ sb) | eb
        else:
            wm ^= sb
            if crowns:
                wk |= eb
            else:
                wm |= eb
        bm &= keep
        bk &= keep
    return bm, bk, wm, wk
