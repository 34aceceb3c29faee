"""The backward layers' check of capture candidates, compiled (numba).

:func:`~rulesbook.reconstruct.gap.retro.next_layer` un-captures: the boards
one ply before a layer from which the side that moved may have captured are
over-generated, and each is played forward to see which of its moves lead
into the layer below, and how many sequences follow (most of a big layer's
time in Python: the captures of some 300,000 candidates generated).
:func:`capture_counts` does that for a batch of candidates with the kernel's
moves (:mod:`.kernel_moves`, the same moves as the engine's: the
differential tests of ``tests/reconstruct/test_gap_kernel.py``) and the
layer below as the kernel holds it (:mod:`.kernel_table`).
"""
from __future__ import annotations

import numpy as np

from rulesbook.reconstruct.gap.kernel_moves import T_FIELDS, apply_move, legal_moves
from rulesbook.reconstruct.gap.kernel_njit import njit
from rulesbook.reconstruct.gap.kernel_table import get

__all__ = ["NO_CAPTURE", "capture_counts"]

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
