"""The forward count of the gap search compiled to machine code (numba).

The same search as :meth:`rulesbook.reconstruct.gap.search.GapSearch._count`
— the same moves (:mod:`rulesbook.draughts.movegen`: one per distinct start,
end and ordered captures), the same bounds (:mod:`.bounds`: ``feasible``
and ``useful_moves``), the same tables (a count per position and plies left,
capped; backward layers; the sides' pieces of the deepest layer) — written
over flat integers so that numba compiles it.  The pure-Python search stays
the reference: ``tests/reconstruct/test_gap_kernel.py`` checks the moves and
the counts of this one against it.

Everything here is data in, data out: :mod:`.compiled` builds the
tables from the Python ones, runs :func:`count` off the GIL and reads the
tables back.  Keys: a position is ``(bm | bk << 32, wm | wk << 32, black |
remaining << 1)`` as three int64 (the bit pattern of the first two may be
negative); a side's pieces ``men | kings << 32``.
"""
from __future__ import annotations

import numpy as np

from rulesbook.reconstruct.gap.kernel_bounds import side_live, side_within_bounds
from rulesbook.reconstruct.gap.kernel_njit import njit

__all__ = ["MAX_MOVES", "S_CANCEL", "S_CANCELLED", "S_CAP", "S_DEPTH", "S_FOUND", "S_NODES",
           "S_OVERFLOW", "S_SIZE",
           "T_BLACK", "T_FIELDS", "T_KNOWN", "T_FLYING", "T_MENBACK", "T_MODE", "T_MOST", "count",
           "feasible", "legal_moves", "M_MEMO", "M_PARTIAL", "M_BACK", "M_SIDES", "M_SIDE_OK",
           "SIDE_TOP_B", "SIDE_TOP_W", "SIDE_NEAR_B", "SIDE_NEAR_W"]

from rulesbook.reconstruct.gap.kernel_moves import (  # noqa: F401 - re-exported
    MAX_MOVES,
    S_CANCEL,
    S_CANCELLED,
    S_CAP,
    S_DEPTH,
    S_FOUND,
    S_NODES,
    S_OVERFLOW,
    S_SIZE,
    T_BAHEAD,
    T_BGOALS,
    T_BK,
    T_BLACK,
    T_BM,
    T_CROWNENDS,
    T_FIELDS,
    T_FLYING,
    T_MENBACK,
    T_MODE,
    T_MOST,
    T_NB,
    T_NW,
    T_WAHEAD,
    T_WGOALS,
    T_WK,
    T_WM,
    apply_move,
    legal_moves,
    lsb,
    msb,
    popcount,
)
from rulesbook.reconstruct.gap.kernel_table import contains, get, put

#: where the known moves start in the target array (see _enter)
T_KNOWN = len(T_FIELDS)

#: the tables' rows of ``metas`` (see :mod:`.kernel_table`)
M_MEMO, M_PARTIAL, M_BACK, M_SIDES, M_SIDE_OK = range(5)
#: the kinds of keys of the ``sides`` table (``c``): the deepest layer's sides
#: (GapSearch._top_black ...), less one piece for ``near``
SIDE_TOP_B, SIDE_TOP_W, SIDE_NEAR_B, SIDE_NEAR_W = range(4)

@njit(cache=True)
def feasible(bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int, t: np.ndarray,
             side_ok: np.ndarray, metas: np.ndarray) -> bool:
    nb = popcount(bm | bk)
    nw = popcount(wm | wk)
    if nb < t[T_NB] or nw < t[T_NW]:
        return False
    if remaining == 0:
        return (bm == t[T_BM] and bk == t[T_BK] and wm == t[T_WM] and wk == t[T_WK]
                and black == (t[T_BLACK] != 0))
    black_moves = (remaining + 1) // 2 if black else remaining // 2
    white_moves = remaining - black_moves
    ka = bm | (bk << 32)
    kb = black_moves | (nw << 8) | (1 << 16)
    ok = get(side_ok, ka, kb, 0, -1)
    if ok < 0:
        ok = 1 if (side_within_bounds(bm, bk, black_moves, nb - t[T_NB], nw - t[T_NW], True, t)
                   and side_live(bm, bk, black_moves, nw - t[T_NW], True, t, side_ok,
                                 metas[M_SIDE_OK])) else 0
        put(side_ok, metas[M_SIDE_OK], ka, kb, 0, ok)
    if not ok:
        return False
    ka = wm | (wk << 32)
    kb = white_moves | (nb << 8)
    ok = get(side_ok, ka, kb, 0, -1)
    if ok < 0:
        ok = 1 if (side_within_bounds(wm, wk, white_moves, nw - t[T_NW], nb - t[T_NB], False, t)
                   and side_live(wm, wk, white_moves, nb - t[T_NB], False, t, side_ok,
                                 metas[M_SIDE_OK])) else 0
        put(side_ok, metas[M_SIDE_OK], ka, kb, 0, ok)
    return ok == 1


@njit(cache=True)
def _useful(moves: np.ndarray, slot: int, count: int, bm: int, bk: int, wm: int, wk: int,
            black: bool, remaining: int, t: np.ndarray) -> int:
    """``useful_moves``: keeps in place the moves after which the side can
    still fill and leave its squares in time; the number kept."""
    after = (remaining + 1) // 2 - 1
    if black:
        men, kings, tmen, tkings = bm, bk, t[T_BM], t[T_BK]
        lost = popcount(bm | bk) - t[T_NB]
    else:
        men, kings, tmen, tkings = wm, wk, t[T_WM], t[T_WK]
        lost = popcount(wm | wk) - t[T_NW]
    fill = (tmen & ~men) | (tkings & ~kings)
    held = (men & tmen) | (kings & tkings)
    vacate = (men & ~tmen) | (kings & ~tkings)
    kept_sq = tmen | tkings
    fill_slack = after - popcount(fill)
    vacate_slack = after - (popcount(vacate) - lost)
    if fill_slack >= 1 and vacate_slack >= 1:
        return count
    kept = 0
    for k in range(count):
        s = 1 << moves[slot, k, 0]
        e = 1 << moves[slot, k, 1]
        opens = 1 if (s & held) and s != e else 0
        if opens - (1 if e & fill else 0) <= fill_slack and \
                (0 if e & kept_sq else 1) - (1 if s & vacate else 0) <= vacate_slack:
            if kept != k:
                for f in range(6):
                    moves[slot, kept, f] = moves[slot, k, f]
            kept += 1
    return kept


@njit(cache=True, inline="always")
def _one_move_from(men: int, kings: int, sides: np.ndarray, which: int) -> bool:
    x = men
    while x:
        b = x & -x
        x ^= b
        if contains(sides, (men ^ b) | (kings << 32), 0, which):
            return True
    x = kings
    while x:
        b = x & -x
        x ^= b
        if contains(sides, men | ((kings ^ b) << 32), 0, which):
            return True
    return False


# ----------------------------------------------------------------- the count (GapSearch._count)
# Frames of the count, one per ply (``slot = plies - remaining``), in int64
# arrays: F_* columns of ``frames``; ``shares[slot]`` the progress weight of
# each child of the frame's position.
(F_BM, F_BK, F_WM, F_WK, F_BLACK, F_N, F_K, F_TOTAL, F_TOP, F_LOSE, F_KEYA, F_KEYB,
 F_KEYC, F_CHA, F_CHB, F_CHC) = range(16)
F_SIZE = 16
RESOLVED_LATER = -2  # _enter: the position's children are to be searched
CANCELLED = -1


@njit(cache=True, inline="always")
def _enter(bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int, weight: float,
           plies: int, t: np.ndarray, memo: np.ndarray, back: np.ndarray, sides: np.ndarray,
           side_ok: np.ndarray, metas: np.ndarray, moves: np.ndarray, state: np.ndarray,
           done: np.ndarray, frames: np.ndarray, shares: np.ndarray) -> int:
    """A position's count when it needs no search below it (a table, a bound,
    no useful move, children in a backward layer); else its frame is set up
    and RESOLVED_LATER returned; CANCELLED when the search is to stop."""
    depth = state[S_DEPTH]
    cap = state[S_CAP]
    a = bm | (bk << 32)
    b = wm | (wk << 32)
    c = int(black) | (remaining << 1)
    if remaining <= depth:
        done[0] += weight
        return min(get(back, a, b, c, 0), cap)
    # what the deepest backward layer says of the sides, checked before the
    # table (the sides table is small, the table of counts is not): a
    # position ruled out here is not remembered, only ruled out again
    must_take = False
    if remaining == depth + 1 or remaining == depth + 2:
        if black:
            mover, mover_k, other, other_k = bm, bk, wm, wk
            mover_lose, other_lose = popcount(bm | bk) - t[T_NB], popcount(wm | wk) - t[T_NW]
            near_mover, top_other, near_other = SIDE_NEAR_B, SIDE_TOP_W, SIDE_NEAR_W
        else:
            mover, mover_k, other, other_k = wm, wk, bm, bk
            mover_lose, other_lose = popcount(wm | wk) - t[T_NW], popcount(bm | bk) - t[T_NB]
            near_mover, top_other, near_other = SIDE_NEAR_W, SIDE_TOP_B, SIDE_NEAR_B
        # the side to move moves once more before the layer (and, one ply
        # above it, loses nothing before): its pieces less the one it moves
        # are a layer's less the one that moved there (GapSearch does not
        # test this: it generates the moves)
        if (remaining == depth + 1 or mover_lose == 0) and not _one_move_from(
                mover, mover_k, sides, near_mover):
            done[0] += weight
            return 0
        # the side not to move: one ply above the layer it stands there as
        # now, two plies above one move away, unless the side to move takes
        # a piece of it now (GapSearch._layers_added)
        if remaining == depth + 1:
            must_take = not contains(sides, other | (other_k << 32), 0, top_other)
        else:
            must_take = not _one_move_from(other, other_k, sides, near_other)
        if must_take and (other_lose <= 0 or (
                remaining == depth + 1 and other_lose == 1
                and not _one_move_from(other, other_k, sides, top_other))):
            # it cannot lose a piece; or, one ply above the layer, it can
            # lose just one, and no board of it less one piece is there
            done[0] += weight
            return 0
    hit = get(memo, a, b, c, -1)
    if hit >= 0:
        done[0] += weight
        return hit
    state[S_NODES] += 1
    if state[S_CANCEL] or metas[M_MEMO, 1] or metas[M_SIDE_OK, 1] or metas[M_PARTIAL, 1]:
        state[S_CANCELLED] = 1
        return CANCELLED
    memo_meta = metas[M_MEMO]
    if not feasible(bm, bk, wm, wk, black, remaining, t, side_ok, metas):
        put(memo, memo_meta, a, b, c, 0)
        done[0] += weight
        return 0
    slot = plies - remaining
    n = legal_moves(bm, bk, wm, wk, black, t, moves, slot, state)
    if must_take and n and moves[slot, 0, 4] == 0:
        n = 0  # captures are compulsory: quiet moves mean there is none
    # a move the players agree on at this ply: its start and end square
    # (after the target's fields, two per ply; -1 any, -2 no move fits)
    need_start = t[T_KNOWN + 2 * (slot + 1)]
    need_end = t[T_KNOWN + 2 * (slot + 1) + 1]
    if n and (need_start != -1 or need_end != -1):
        kept = 0
        for k in range(n):
            if (need_start == -1 or moves[slot, k, 0] == need_start) and \
                    (need_end == -1 or moves[slot, k, 1] == need_end):
                if kept != k:
                    for f in range(6):
                        moves[slot, kept, f] = moves[slot, k, f]
                kept += 1
        n = kept
    if n:
        n = _useful(moves, slot, n, bm, bk, wm, wk, black, remaining, t)
    if not n:
        put(memo, memo_meta, a, b, c, 0)
        done[0] += weight
        return 0
    below = remaining - 1
    if below <= depth:
        # the children are in a backward layer: look them up
        total = 0
        nc = int(not black) | (below << 1)
        for k in range(n):
            nbm, nbk, nwm, nwk = apply_move(bm, bk, wm, wk, black, moves[slot, k, 0],
                                        moves[slot, k, 1], moves[slot, k, 2], moves[slot, k, 3])
            total += get(back, nbm | (nbk << 32), nwm | (nwk << 32), nc, 0)
        done[0] += weight
        total = min(total, cap)
        put(memo, memo_meta, a, b, c, total)
        return total
    f = frames[slot]
    f[F_BM] = bm
    f[F_BK] = bk
    f[F_WM] = wm
    f[F_WK] = wk
    f[F_BLACK] = int(black)
    f[F_N] = n
    f[F_K] = 0
    f[F_TOTAL] = 0
    f[F_TOP] = 1 if below == depth + 1 else 0
    # the pieces the side to move can still lose
    f[F_LOSE] = popcount(bm | bk) - t[T_NB] if black else popcount(wm | wk) - t[T_NW]
    f[F_KEYA] = a
    f[F_KEYB] = b
    f[F_KEYC] = c
    shares[slot] = weight / n
    return RESOLVED_LATER


@njit(cache=True, nogil=True)
def count(bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int, weight: float,
          plies: int, t: np.ndarray, memo: np.ndarray, partial: np.ndarray, back: np.ndarray,
          sides: np.ndarray, side_ok: np.ndarray, metas: np.ndarray, moves: np.ndarray,
          state: np.ndarray, done: np.ndarray) -> int:
    """The sequences from the position to the target in ``remaining`` plies
    (at most the cap); CANCELLED when the search was stopped
    (``state[S_CANCEL]``), with ``partial`` holding what the positions being
    searched had found below them (GapSearch.partial).

    ``state[S_FOUND]`` is kept equal to the sum of the counts found so far by
    the positions on the path being searched (their frames' totals): each
    counts sequences through another move somewhere along the path, so the
    sum is a proven lower bound of the count, which the caller reads while
    the search runs (the bound a cancel shows at once)."""
    frames = np.zeros((plies + 2, F_SIZE), dtype=np.int64)
    shares = np.zeros(plies + 2, dtype=np.float64)
    state[S_FOUND] = 0
    got = _enter(bm, bk, wm, wk, black, remaining, weight, plies, t, memo, back, sides, side_ok,
                 metas, moves, state, done, frames, shares)
    if got != RESOLVED_LATER:
        if got > 0:
            state[S_FOUND] = got
        return got
    cap = state[S_CAP]
    root = plies - remaining
    sp = root
    while True:
        f = frames[sp]
        share = shares[sp]
        fbm, fbk, fwm, fwk = f[F_BM], f[F_BK], f[F_WM], f[F_WK]
        fblack = f[F_BLACK] == 1
        nxt = not fblack
        below = plies - sp - 1
        descended = False
        while f[F_K] < f[F_N]:
            k = f[F_K]
            f[F_K] = k + 1
            nbm, nbk, nwm, nwk = apply_move(fbm, fbk, fwm, fwk, fblack, moves[sp, k, 0],
                                        moves[sp, k, 1], moves[sp, k, 2], moves[sp, k, 3])
            if f[F_TOP] and f[F_LOSE] <= 1:
                # the side moving now does not move again before the layer:
                # it stands there as after this move, less the one piece it
                # can still lose (GapSearch._count does the first test only)
                if fblack:
                    if not contains(sides, nbm | (nbk << 32), 0, SIDE_TOP_B) and (
                            f[F_LOSE] == 0 or not _one_move_from(nbm, nbk, sides, SIDE_TOP_B)):
                        done[0] += share
                        continue
                elif not contains(sides, nwm | (nwk << 32), 0, SIDE_TOP_W) and (
                        f[F_LOSE] == 0 or not _one_move_from(nwm, nwk, sides, SIDE_TOP_W)):
                    done[0] += share
                    continue
            # the child (its count from the table when it is there)
            f[F_CHA] = nbm | (nbk << 32)
            f[F_CHB] = nwm | (nwk << 32)
            f[F_CHC] = int(nxt) | (below << 1)
            got = _enter(nbm, nbk, nwm, nwk, nxt, below, share, plies, t, memo, back, sides,
                         side_ok, metas, moves, state, done, frames, shares)
            if got == RESOLVED_LATER:
                descended = True
                break
            if got == CANCELLED:
                # every frame records what it found so far, with what the
                # child it was in had found (innermost first)
                for s in range(sp, root - 1, -1):
                    g = frames[s]
                    put(partial, metas[M_PARTIAL], g[F_KEYA], g[F_KEYB], g[F_KEYC],
                        g[F_TOTAL] + get(partial, g[F_CHA], g[F_CHB], g[F_CHC], 0))
                return CANCELLED
            f[F_TOTAL] += got
            state[S_FOUND] += got
            if f[F_TOTAL] >= cap:
                state[S_FOUND] -= f[F_TOTAL] - cap
                f[F_TOTAL] = cap
                done[0] += share * (f[F_N] - f[F_K])  # the moves not searched
                f[F_K] = f[F_N]
        if descended:
            sp += 1
            continue
        value = f[F_TOTAL]
        put(memo, metas[M_MEMO], f[F_KEYA], f[F_KEYB], f[F_KEYC], value)
        if sp == root:
            return value
        sp -= 1
        g = frames[sp]
        g[F_TOTAL] += value  # (its count moves from its frame to this one: S_FOUND stays)
        if g[F_TOTAL] >= cap:
            state[S_FOUND] -= g[F_TOTAL] - cap
            g[F_TOTAL] = cap
            done[0] += shares[sp] * (g[F_N] - g[F_K])
            g[F_K] = g[F_N]


