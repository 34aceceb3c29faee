"""The backward layers' check of capture candidates, compiled (numba).

:func:`~rulesbook.reconstruct.gap.retro.next_layer` un-captures: the boards
one ply before a layer from which the side that moved may have captured are
over-generated, and each is played forward to see which of its moves lead
into the layer below, and how many sequences follow (most of a big layer's
time in Python: the captures of some 300,000 candidates generated), and
:func:`reachable` asks of a batch of them what
:class:`~rulesbook.reconstruct.gap.bounds.Reachable` asks (can the earlier
position reach it in the plies before?), with the kernel's bounds.
:func:`capture_counts` does that for a batch of candidates with the kernel's
moves (:mod:`.kernel_moves`, the same moves as the engine's: the
differential tests of ``tests/reconstruct/test_gap_kernel.py``) and the
layer below as the kernel holds it (:mod:`.kernel_table`).
"""
from __future__ import annotations

import numpy as np

from rulesbook.draughts.movegen import CROWN_BLACK, CROWN_WHITE
from rulesbook.reconstruct.gap.kernel_bounds import men_advance, side_within_bounds
from rulesbook.reconstruct.gap.kernel_moves import (
    T_BAHEAD,
    T_BGOALS,
    T_BK,
    T_BLACK,
    T_BM,
    T_FIELDS,
    T_NB,
    T_NW,
    T_WAHEAD,
    T_WGOALS,
    T_WK,
    T_WM,
    apply_move,
    legal_moves,
    popcount,
)
from rulesbook.reconstruct.gap.kernel_njit import njit
from rulesbook.reconstruct.gap.kernel_table import get

__all__ = ["NO_CAPTURE", "capture_counts", "quiet_ok", "reachable"]

#: :func:`capture_counts` of a candidate whose side to move has no capture
NO_CAPTURE = -1
#: where the known moves start in the target array (as :data:`.kernel.T_KNOWN`)
_T_KNOWN = len(T_FIELDS)


@njit(cache=True, nogil=True)
def capture_counts(keys: np.ndarray, below: int, slot: int, t: np.ndarray, back: np.ndarray,
                   moves: np.ndarray, state: np.ndarray, out: np.ndarray) -> None:
    """For each candidate ``keys[i] = (bm, bk, wm, wk, black)``: NO_CAPTURE
    when its side to move has no capture (its quiet moves are counted
    otherwise), else the sum over its legal moves (the known move of ply
    ``slot + 1`` kept to, as the kernel keeps it) of the sequences the layer
    ``below`` (in ``back``) holds for the position after it."""
    need_start = t[_T_KNOWN + 2 * (slot + 1)]
    need_end = t[_T_KNOWN + 2 * (slot + 1) + 1]
    for i in range(keys.shape[0]):
        bm, bk, wm, wk = keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3]
        black = keys[i, 4] != 0
        n = legal_moves(bm, bk, wm, wk, black, t, moves, slot, state)
        if n == 0 or moves[slot, 0, 4] == 0:
            out[i] = NO_CAPTURE
            continue
        c = (0 if black else 1) | (below << 1)
        total = 0
        for k in range(n):
            if need_start != -1 and moves[slot, k, 0] != need_start:
                continue
            if need_end != -1 and moves[slot, k, 1] != need_end:
                continue
            nbm, nbk, nwm, nwk = apply_move(bm, bk, wm, wk, black, moves[slot, k, 0],
                                            moves[slot, k, 1], moves[slot, k, 2],
                                            moves[slot, k, 3])
            total += get(back, nbm | (nbk << 32), nwm | (nwk << 32), c, 0)
        out[i] = total


@njit(cache=True, nogil=True)
def reachable(keys: np.ndarray, start: np.ndarray, remaining: int, t: np.ndarray,
              out: np.ndarray) -> None:
    """``out[i]`` 1 when the position ``start`` (bm, bk, wm, wk, black) may
    reach ``keys[i]`` in ``remaining`` plies, else 0: the kernel's bounds
    (``feasible``) with ``keys[i]`` as the target, what
    ``Reachable(start, ...)(keys[i], remaining)`` answers; ``t`` gives the
    variant's flags (the search's target array)."""
    bm, bk, wm, wk = start[0], start[1], start[2], start[3]
    nb = popcount(bm | bk)
    nw = popcount(wm | wk)
    black_moves = (remaining + 1) // 2 if start[4] != 0 else remaining // 2
    white_moves = remaining - black_moves
    u = t.copy()
    for i in range(keys.shape[0]):
        tbm, tbk, twm, twk = keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3]
        tnb = popcount(tbm | tbk)
        tnw = popcount(twm | twk)
        if nb < tnb or nw < tnw or popcount(bm) < popcount(tbm) or popcount(wm) < popcount(twm):
            out[i] = 0
            continue
        if remaining == 0:
            same = (bm == tbm and bk == tbk and wm == twm and wk == twk
                    and start[4] == keys[i, 4])
            out[i] = 1 if same else 0
            continue
        u[T_BM], u[T_BK], u[T_WM], u[T_WK], u[T_BLACK] = tbm, tbk, twm, twk, keys[i, 4]
        u[T_NB], u[T_NW] = tnb, tnw
        u[T_BGOALS] = tbm | (CROWN_BLACK if tbk else 0)
        u[T_WGOALS] = twm | (CROWN_WHITE if twk else 0)
        u[T_BAHEAD] = men_advance(tbm, True)
        u[T_WAHEAD] = men_advance(twm, False)
        ok = (side_within_bounds(bm, bk, black_moves, nb - tnb, nw - tnw, True, u)
              and side_within_bounds(wm, wk, white_moves, nw - tnw, nb - tnb, False, u))
        out[i] = 1 if ok else 0


@njit(cache=True, nogil=True)
def quiet_ok(keys: np.ndarray, start: np.ndarray, remaining: int, slot: int, t: np.ndarray,
             moves: np.ndarray, state: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` 1 when the side to move in ``keys[i]`` has no capture (its
    quiet moves are the ones un-made into the layer below) and ``start`` may
    reach it in ``remaining`` plies (:func:`reachable`), else 0."""
    reachable(keys, start, remaining, t, out)
    for i in range(keys.shape[0]):
        if out[i]:
            black = keys[i, 4] != 0
            n = legal_moves(keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3], black, t, moves, slot,
                            state)
            if n and moves[slot, 0, 4] != 0:
                out[i] = 0
