"""A backward layer's un-moves, compiled (numba): what
:func:`~rulesbook.reconstruct.gap.retro.next_layer` does in Python before it
checks its candidates, for a layer held as arrays.

:func:`quiet_layer` un-makes the quiet moves into each position of the layer
below (:func:`~.retro.quiet_unmoves`, the known move of the ply kept to) and
adds its count to each position one ply before, in a kernel table
(:mod:`.kernel_table`, keys ``(bm | bk << 32, wm | wk << 32, black)``);
:func:`capture_layer` puts there every capture candidate
(:func:`~.retro.capture_unmoves`, the same limits: the pieces the side to move
has lost since the start, where men can be by then), its walks over the
squares the capturing piece passed made with an explicit stack, not by
recursion.  Both stop once their table is half full and say how far they got
(the caller doubles the table, :func:`~.kernel_table.grown`, and goes on):
a quiet un-move is added once (the position is finished before it stops), a
capture candidate is only put (one position done again puts nothing twice).
The candidates are then checked by :mod:`.kernel_retro` as the Python layers'
are; the differential tests (``tests/reconstruct/test_gap_kernel_unmove.py``)
hold these layers to the Python ones.

``p`` (:data:`P_FIELDS`) gives the variant and the start: the pieces it has,
and each side's moves in the plies from it to the layer built.
"""
from __future__ import annotations

import numpy as np

from rulesbook.reconstruct.gap.bounds import (
    CONE_BLACK,
    CONE_WHITE,
    CROWN_ROW_BLACK,
    CROWN_ROW_WHITE,
)
from rulesbook.reconstruct.gap.kernel_moves import (
    RAYLEN,
    RAYS,
    T_FLYING,
    T_MENBACK,
    can_jump,
    popcount,
)
from rulesbook.reconstruct.gap.kernel_njit import njit
from rulesbook.reconstruct.gap.kernel_retro import reachable
from rulesbook.reconstruct.gap.kernel_table import EMPTY, find

__all__ = ["P_FIELDS", "STACK", "capture_layer", "has_capture", "quiet_check", "quiet_layer"]

#: the fields of ``p``, in order
P_FIELDS = ("flying", "men_back", "continues", "nb", "nw", "nbmen", "nwmen", "sbm", "swm",
            "black_moves", "white_moves", "need_start", "need_end")
(P_FLYING, P_MENBACK, P_CONTINUES, P_NB, P_NW, P_NBMEN, P_NWMEN, P_SBM, P_SWM, P_BMOVES,
 P_WMOVES, P_START, P_END) = range(len(P_FIELDS))
#: rows of the explicit stacks (``stack`` has ``2 * STACK`` rows of two)
STACK = 4096
_FULL = (1 << 32) - 1

_CROWN_B = sum(1 << i for i in CROWN_ROW_BLACK)
_CROWN_W = sum(1 << i for i in CROWN_ROW_WHITE)
# the squares a man on c reaches in at most b steps forward (retro._reach_table)
_REACH = np.zeros((2, 32, 8), dtype=np.int64)  # [0]: White's men, [1]: Black's
for _side, _cone in ((1, CONE_BLACK), (0, CONE_WHITE)):
    for _c in range(32):
        for _b in range(8):
            _REACH[_side, _c, _b] = sum(1 << _t for _t in range(32) if _cone[_c][_t] <= _b)


@njit(cache=True, inline="always")
def _reach(black: bool, men: int, steps: int) -> int:
    if steps < 0:
        return 0
    b = min(steps, 7)
    side = 1 if black else 0
    out = 0
    x = men
    while x:
        low = x & -x
        x ^= low
        out |= _REACH[side, popcount(low - 1), b]
    return out


@njit(cache=True, inline="always")
def _add(tab: np.ndarray, meta: np.ndarray, a: int, b: int, c: int, n: int) -> None:
    """Add ``n`` to the key's value (a new key starts at 0); asks to grow at
    half full (``meta[1]`` 1), and past three quarters puts no new key
    (``meta[1]`` 2: the position is not done)."""
    i = find(tab, a, b, c)
    if tab[i, 2] == EMPTY:
        if meta[0] * 4 >= tab.shape[0] * 3:
            meta[1] = 2
            return
        tab[i, 0] = a
        tab[i, 1] = b
        tab[i, 2] = c
        tab[i, 3] = 0
        meta[0] += 1
        if meta[0] * 2 >= tab.shape[0]:
            meta[1] = 1
    tab[i, 3] += n


@njit(cache=True, inline="always")
def _put_quiet(tab: np.ndarray, meta: np.ndarray, black: bool, m: int, k: int, om: int,
               ok: int, n: int) -> None:
    """Add ``n`` to the position before, ``not black`` to move, whose mover
    has men ``m`` and kings ``k``, the other side ``om``, ``ok``."""
    if black:  # White moved
        _add(tab, meta, om | (ok << 32), m | (k << 32), 0, n)
    else:
        _add(tab, meta, m | (k << 32), om | (ok << 32), 1, n)


@njit(cache=True, nogil=True)
def quiet_layer(rows: np.ndarray, counts: np.ndarray, p: np.ndarray, tab: np.ndarray,
                meta: np.ndarray) -> int:
    """Add each position's count (``rows[i] = (bm, bk, wm, wk, black)``,
    ``counts[i]``) to the positions its quiet un-moves lead to; the positions
    done (all of them, or fewer once ``tab`` asks to grow)."""
    flying = p[P_FLYING] != 0
    need_start, need_end = p[P_START], p[P_END]
    for i in range(rows.shape[0]):
        if meta[1]:
            return i
        bm, bk, wm, wk = rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3]
        black = rows[i, 4] != 0
        n = counts[i]
        men_from = _FULL
        if p[P_MENBACK] == 0:
            if black:  # White moved: its men stand where the start's can have gone
                room = max(p[P_NB] - popcount(bm | bk), 0)
                men_from = _reach(False, p[P_SWM], p[P_WMOVES] + 2 * room)
            else:
                room = max(p[P_NW] - popcount(wm | wk), 0)
                men_from = _reach(True, p[P_SBM], p[P_BMOVES] + 2 * room)
        free = _FULL ^ (bm | bk | wm | wk)
        men_free = free & men_from
        if black:
            men, kings, om, ok, crown, lo = wm, wk, bm, bk, _CROWN_W, 2
        else:
            men, kings, om, ok, crown, lo = bm, bk, wm, wk, _CROWN_B, 0
        x = men & ~crown
        while x:
            low = x & -x
            x ^= low
            end = popcount(low - 1)
            if need_end != -1 and end != need_end:
                continue
            for d in range(lo, lo + 2):
                if RAYLEN[end, d] and men_free >> RAYS[end, d, 0] & 1:
                    sq = RAYS[end, d, 0]
                    if need_start == -1 or sq == need_start:
                        _put_quiet(tab, meta, black, (men ^ low) | (1 << sq), kings, om, ok, n)
        x = kings
        while x:
            low = x & -x
            x ^= low
            end = popcount(low - 1)
            if need_end != -1 and end != need_end:
                continue
            rest = kings ^ low
            for d in range(4):
                for j in range(RAYLEN[end, d] if flying else min(RAYLEN[end, d], 1)):
                    sq = RAYS[end, d, j]
                    if not free >> sq & 1:
                        break
                    if need_start == -1 or sq == need_start:
                        _put_quiet(tab, meta, black, men, rest | (1 << sq), om, ok, n)
            if crown & low:  # a man stepped onto its crowning row and was crowned
                for d in range(lo, lo + 2):
                    if RAYLEN[end, d] and men_free >> RAYS[end, d, 0] & 1:
                        sq = RAYS[end, d, 0]
                        if need_start == -1 or sq == need_start:
                            _put_quiet(tab, meta, black, men | (1 << sq), rest, om, ok, n)
    return int(rows.shape[0])


@njit(cache=True, inline="always")
def _emit(tab: np.ndarray, meta: np.ndarray, mover_black: bool, nmen: int, nkings: int,
          restored: int, omen: int, okings: int, men_ok: int, men_room: int) -> None:
    """Put the boards with the pieces ``restored`` given back to the side to
    move, each that may be a man (``men_ok``) a man or a king, at most
    ``men_room`` of them men (retro.capture_unmoves's ``emit``)."""
    either = restored & men_ok
    kings_only = okings | (restored & ~men_ok)
    sub = either  # the ones given back as kings
    while True:
        as_men = either ^ sub
        if popcount(as_men) <= men_room:
            if mover_black:
                _add(tab, meta, nmen | (nkings << 32), (omen | as_men) | ((kings_only | sub) << 32),
                     1, 0)
            else:
                _add(tab, meta, (omen | as_men) | ((kings_only | sub) << 32), nmen | (nkings << 32),
                     0, 0)
        if sub == 0:
            return
        sub = (sub - 1) & either


@njit(cache=True, inline="always")
def _men_walk(start: int, restored: int, lo: int, hi: int, empty: int, path_free: int,
              room: int, stack: np.ndarray, base: int, mover_men: np.ndarray, tab: np.ndarray,
              meta: np.ndarray, mover_black: bool, bmen: int, bkings: int, omen: int,
              okings: int, men_ok: int, men_room: int, state: np.ndarray) -> None:
    """A man's short un-jumps into ``start`` (directions ``lo`` to ``hi - 1``),
    each square it may have set out from put with the men ``bmen`` (retro's
    ``_retro_short`` with a man's ``start_at``); the stack's rows from ``base``."""
    sp = base
    stack[sp, 0], stack[sp, 1] = start, restored
    sp += 1
    while sp > base:
        sp -= 1
        here, rest = stack[sp, 0], stack[sp, 1]
        for d in range(lo, hi):
            if RAYLEN[here, d] < 2:
                continue
            cap, prev = RAYS[here, d, 0], RAYS[here, d, 1]
            if (empty >> cap & 1 and not rest >> cap & 1 and path_free >> prev & 1
                    and not rest >> prev & 1):
                nrest = rest | (1 << cap)
                taken = popcount(nrest)
                if mover_men[taken] >> prev & 1:
                    _emit(tab, meta, mover_black, bmen | (1 << prev), bkings, nrest, omen, okings,
                          men_ok, men_room)
                if taken < room:
                    if sp >= base + STACK:
                        state[0] = 1  # out of stack: the caller builds the layer in Python
                        return
                    stack[sp, 0], stack[sp, 1] = prev, nrest
                    sp += 1


@njit(cache=True, nogil=True)
def capture_layer(rows: np.ndarray, p: np.ndarray, tab: np.ndarray, meta: np.ndarray,
                  stack: np.ndarray, state: np.ndarray) -> int:
    """Put the boards one ply before each position (``rows[i]``) from which
    its side not to move may have captured (value 0: only the keys count);
    the positions done (fewer once ``tab`` asks to grow; one it had no room
    for is not done: it is done again from its start).  ``state[0]`` is set when a walk ran out of
    ``stack`` (``2 * STACK`` rows of two)."""
    flying = p[P_FLYING] != 0
    men_back = p[P_MENBACK] != 0
    continues = p[P_CONTINUES] != 0
    mover_men = np.empty(33, dtype=np.int64)
    for i in range(rows.shape[0]):
        if meta[1] == 1:
            return i
        bm, bk, wm, wk = rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3]
        black = rows[i, 4] != 0
        mover_black = not black
        if black:
            room = max(p[P_NB] - popcount(bm | bk), 0)
            men_room = p[P_NBMEN] - popcount(bm)
            lost = p[P_NW] - popcount(wm | wk)
            men, kings, omen, okings = wm, wk, bm, bk
            opp_crown, own_crown = _CROWN_B, _CROWN_W
            lo = 2  # a White man captured from below: it un-jumps down (directions 2, 3)
        else:
            room = max(p[P_NW] - popcount(wm | wk), 0)
            men_room = p[P_NWMEN] - popcount(wm)
            lost = p[P_NB] - popcount(bm | bk)
            men, kings, omen, okings = bm, bk, wm, wk
            opp_crown, own_crown = _CROWN_W, _CROWN_B
            lo = 0
        if room <= 0:
            continue
        men_room = min(max(men_room, 0), room)
        victim_men = _FULL
        for taken in range(room + 1):
            mover_men[taken] = _FULL
        if not men_back:
            mover_moves = p[P_WMOVES] if black else p[P_BMOVES]
            victim_moves = p[P_BMOVES] if black else p[P_WMOVES]
            start_mover = p[P_SWM] if black else p[P_SBM]
            for taken in range(room + 1):
                mover_men[taken] = _reach(mover_black, start_mover,
                                          mover_moves + 2 * (room - taken))
            victim_men = _reach(black, p[P_SWM] if mover_black else p[P_SBM],
                                victim_moves + 2 * max(lost, 0))
        man_lo, man_hi = (0, 4) if men_back else (lo, lo + 2)
        empty = _FULL ^ (bm | bk | wm | wk)
        men_ok = victim_men & ~opp_crown
        # the men that captured, ending where they stand
        x = men & ~own_crown
        while x:
            low = x & -x
            x ^= low
            end = popcount(low - 1)
            _men_walk(end, 0, man_lo, man_hi, empty, empty | low, room, stack, 0, mover_men, tab,
                      meta, mover_black, men ^ low, kings, omen, okings, men_ok, men_room, state)
        x = kings
        while x:
            low = x & -x
            x ^= low
            end = popcount(low - 1)
            bkings = kings ^ low
            path_free = empty | low
            if own_crown & low:  # a man crowned by this capture, ending it there
                _men_walk(end, 0, man_lo, man_hi, empty, path_free, room, stack, 0, mover_men,
                          tab, meta, mover_black, men, bkings, omen, okings, men_ok, men_room,
                          state)
            # a king that captured (the rows from STACK: a man's walk from
            # where a crowned man's king segment began uses those below)
            sp = STACK
            stack[sp, 0], stack[sp, 1] = end, 0
            sp += 1
            while sp > STACK:
                sp -= 1
                here, rest = stack[sp, 0], stack[sp, 1]
                for d in range(4):
                    length = RAYLEN[here, d]
                    for a in range(length if flying else min(length, 1)):
                        cap = RAYS[here, d, a]
                        if rest >> cap & 1 or not path_free >> cap & 1:
                            break
                        if not empty >> cap & 1:
                            continue  # the square the piece ends on: passed over, never taken
                        nrest = rest | (1 << cap)
                        taken = popcount(nrest)
                        for b in range(a + 1, length if flying else min(length, 2)):
                            prev = RAYS[here, d, b]
                            if rest >> prev & 1 or not path_free >> prev & 1:
                                break
                            _emit(tab, meta, mover_black, men, bkings | (1 << prev), nrest,
                                  omen, okings, men_ok, men_room)
                            if continues and own_crown >> prev & 1 and taken < room:
                                # a man crowned on prev: a man's un-jumps before it
                                _men_walk(prev, nrest, man_lo, man_hi, empty, path_free, room,
                                          stack, 0, mover_men, tab, meta, mover_black,
                                          men, bkings, omen, okings, men_ok, men_room, state)
                            if taken < room:
                                if sp >= 2 * STACK:
                                    state[0] = 1
                                    return i
                                stack[sp, 0], stack[sp, 1] = prev, nrest
                                sp += 1
        if state[0] or meta[1] == 2:
            return i
    return int(rows.shape[0])


@njit(cache=True, inline="always")
def has_capture(bm: int, bk: int, wm: int, wk: int, black: bool, t: np.ndarray) -> bool:
    """Whether the side to move has a capture (what ``legal_moves`` finds
    first, without generating the moves)."""
    if black:
        own, kings, opp = bm | bk, bk, wm | wk
    else:
        own, kings, opp = wm | wk, wk, bm | bk
    free = _FULL ^ (bm | bk | wm | wk)
    flying = t[T_FLYING] != 0
    back = t[T_MENBACK] != 0
    x = own
    while x:
        low = x & -x
        x ^= low
        i = popcount(low - 1)
        if can_jump(i, 0, opp, free | low, kings & low != 0, flying, black, back):
            return True
    return False


@njit(cache=True, nogil=True)
def quiet_check(keys: np.ndarray, start: np.ndarray, remaining: int, t: np.ndarray,
                out: np.ndarray) -> None:
    """:func:`.kernel_retro.quiet_ok` without generating the moves: ``out[i]``
    1 when ``start`` may reach ``keys[i]`` in ``remaining`` plies and its side
    to move has no capture, else 0."""
    reachable(keys, start, remaining, t, out)
    for i in range(keys.shape[0]):
        if out[i] and has_capture(keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3],
                                  keys[i, 4] != 0, t):
            out[i] = 0
