"""The compiled search's backward layers built in the kernel (issue 30):
:func:`build_layer` is :func:`~rulesbook.reconstruct.gap.retro.next_layer`
with the un-moves (:mod:`.kernel_unmove`) and their checks
(:mod:`.kernel_retro`) compiled, the layers held as arrays
(:class:`ArrayLayer`), never as a dict of Python tuples (a layer of
millions of positions took seconds to build as one, and again to read back
into arrays for the kernel).

The Python layers stay the reference (``tests/reconstruct/test_gap_kernel_unmove.py``
holds these to them) and the way back: :func:`build_layer` answers None
where it cannot build the layer exactly (a count that could overflow int64,
a walk longer than its stack, a kernel without these functions: the one
compiled ahead of time for the bundle), and the caller builds it in Python.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from itertools import chain, islice
from typing import TYPE_CHECKING, Any

import numpy as np

from rulesbook.draughts import Variant
from rulesbook.draughts.variant import MidCaptureCrowning
from rulesbook.reconstruct.gap.kernel import (
    M_BACK,
    S_OVERFLOW,
    SIDE_NEAR_B,
    SIDE_NEAR_W,
    SIDE_TOP_B,
    SIDE_TOP_W,
    T_KNOWN,
)
from rulesbook.reconstruct.gap.kernel_keys import pos_key
from rulesbook.reconstruct.gap.kernel_moves import MAX_MOVES
from rulesbook.reconstruct.gap.kernel_table import EMPTY, new_table
from rulesbook.reconstruct.gap.kernel_unmove import P_FIELDS, STACK
from rulesbook.reconstruct.gap.retro import Key

if TYPE_CHECKING:
    from rulesbook.reconstruct.gap.compiled import CompiledGapSearch

__all__ = ["ArrayLayer", "FUNCTIONS", "back_keys", "build_layer", "chunks", "joined", "less_one",
           "rows_of", "sides", "values_of"]

#: the kernel functions :func:`build_layer` calls (the bundle's has none of
#: them: bundle/aot.py)
FUNCTIONS = ("quiet_layer", "capture_layer", "quiet_check", "capture_counts", "reachable")
#: the rows of the layer below un-moved, or candidates checked, at a time
#: (progress reported and a cancel looked for between them)
CHUNK = 1 << 14
#: a layer below with a count this big is built in Python (a count of the
#: layer is a sum of at most MAX_MOVES of them: int64 must hold it exactly)
_BIG = (1 << 62) // MAX_MOVES
_LOW = np.uint64(0xFFFFFFFF)


def joined(men: Any, kings: Any) -> Any:
    """``men | kings << 32`` of uint64 arrays."""
    return men | kings << np.uint64(32)


def rows_of(keys: Any, dtype: Any) -> Any:
    """Positions' keys (Python tuples) as array rows (a third quicker than ``np.array``)."""
    return np.fromiter(chain.from_iterable(keys), dtype, 5 * len(keys)).reshape(-1, 5)


def unique(keys: Any) -> Any:
    """The keys (a 1-d array) sorted, each once: ``np.unique`` by a sort
    (numpy 2's ``np.unique`` hashes, some ten times slower on millions)."""
    if len(keys) == 0:
        return keys
    s = np.sort(keys)
    first = np.empty(len(s), dtype=bool)
    first[0] = True
    np.not_equal(s[1:], s[:-1], out=first[1:])
    return s[first]


def less_one(keys: Any) -> Any:
    """Every side's pieces of ``keys`` (uint64 ``men | kings << 32``, unique)
    with one piece taken off (GapSearch's ``_less_one``), unique."""
    out = []
    for bit in range(64):
        b = np.uint64(1 << bit)
        have = keys[(keys & b) != 0]
        if len(have):
            out.append(have ^ b)
    return unique(np.concatenate(out)) if out else keys[:0]


class ArrayLayer(Mapping[Key, int]):
    """A backward layer as arrays: ``rows`` (int64 ``bm, bk, wm, wk, black``)
    and their ``counts``; looked up in the kernel's table of the layers
    (``lookup``), where the search holds it."""

    def __init__(self, rows: Any, counts: Any, lookup: Callable[[Key], int]) -> None:
        self.rows = rows
        self.counts = counts
        self._lookup = lookup

    def __len__(self) -> int:
        return len(self.counts)

    def __iter__(self) -> Iterator[Key]:
        r = self.rows
        return zip(r[:, 0].tolist(), r[:, 1].tolist(), r[:, 2].tolist(), r[:, 3].tolist(),
                   (r[:, 4] != 0).tolist(), strict=True)

    def __getitem__(self, key: Key) -> int:
        n = self._lookup(key)
        if n <= 0:
            raise KeyError(key)
        return n

    def get(self, key: Key, default: Any = None) -> Any:
        n = self._lookup(key)
        return n if n > 0 else default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and len(key) == 5 and self._lookup(key) > 0


def chunks(layer: Mapping[Key, int], tick: Callable[[], None] | None) -> Iterator[Any]:
    """The layer's keys as uint64 rows ``(bm, bk, wm, wk, black)``, a chunk
    at a time, calling ``tick`` after each (it may raise to cancel)."""
    if isinstance(layer, ArrayLayer):
        for at in range(0, len(layer), CHUNK):
            yield layer.rows[at:at + CHUNK].view(np.uint64)
            if tick is not None:
                tick()
        return
    items = iter(layer)
    while part := list(islice(items, CHUNK)):
        yield rows_of(part, np.uint64)
        if tick is not None:
            tick()


def values_of(layer: Mapping[Key, int]) -> Iterator[int]:
    """The layer's counts, in the order of :func:`chunks`."""
    return iter(layer.counts.tolist() if isinstance(layer, ArrayLayer) else layer.values())


def back_keys(rows: Any, k: int) -> Any:
    """The kernel's keys (int64 rows of three) of positions of layer ``k`` (uint64 rows)."""
    keys = np.empty((len(rows), 3), dtype=np.int64)
    keys[:, 0] = joined(rows[:, 0], rows[:, 1]).view(np.int64)
    keys[:, 1] = joined(rows[:, 2], rows[:, 3]).view(np.int64)
    keys[:, 2] = (rows[:, 4] | np.uint64(k << 1)).view(np.int64)
    return keys


def sides(layer: Mapping[Key, int], tick: Callable[[], None]) -> list[tuple[int, Any]]:
    """The sides of a layer's positions as the kernel files them (its
    ``SIDE_*`` kinds: each side's pieces, and those less any one), uint64."""
    none = np.zeros(0, dtype=np.uint64)
    black, white = [none], [none]
    for rows in chunks(layer, tick):
        black.append(joined(rows[:, 0], rows[:, 1]))
        white.append(joined(rows[:, 2], rows[:, 3]))
    tops = (unique(np.concatenate(black)), unique(np.concatenate(white)))
    tick()
    return [(SIDE_TOP_B, tops[0]), (SIDE_TOP_W, tops[1]),
            (SIDE_NEAR_B, less_one(tops[0])), (SIDE_NEAR_W, less_one(tops[1]))]


def arrays(layer: Mapping[Key, int]) -> tuple[Any, Any] | None:
    """A layer's rows (int64) and counts; None when a count is too big for int64."""
    if isinstance(layer, ArrayLayer):
        return layer.rows, layer.counts
    if any(n >= _BIG for n in layer.values()):
        return None
    return (rows_of(list(layer), np.int64),
            np.fromiter(layer.values(), dtype=np.int64, count=len(layer)))


def _table_rows(tab: Any) -> tuple[Any, Any]:
    """A kernel table's keys as rows (int64 ``bm, bk, wm, wk, black``), and its values."""
    used = tab[tab[:, 2] != EMPTY]
    a, b = used[:, 0].view(np.uint64), used[:, 1].view(np.uint64)
    rows = np.empty((len(used), 5), dtype=np.int64)
    rows[:, 0] = (a & _LOW).view(np.int64)
    rows[:, 1] = (a >> np.uint64(32)).view(np.int64)
    rows[:, 2] = (b & _LOW).view(np.int64)
    rows[:, 3] = (b >> np.uint64(32)).view(np.int64)
    rows[:, 4] = used[:, 2]
    return rows, used[:, 3].copy()


def _params(search: CompiledGapSearch, k: int, variant: Variant, start: Key) -> Any:
    sb, sbk, sw, swk, start_turn = start
    left = search.plies - k
    black_moves = (left + 1) // 2 if start_turn else left // 2
    ply = search.plies - k + 1  # of the move from this layer to the one below
    values = {"flying": int(variant.flying_kings), "men_back": int(variant.men_capture_backward),
              "continues": int(variant.mid_capture_crowning is MidCaptureCrowning.CONTINUES),
              "nb": (sb | sbk).bit_count(), "nw": (sw | swk).bit_count(),
              "nbmen": sb.bit_count(), "nwmen": sw.bit_count(), "sbm": sb, "swm": sw,
              "black_moves": black_moves, "white_moves": left - black_moves,
              "need_start": int(search._t[T_KNOWN + 2 * ply]),
              "need_end": int(search._t[T_KNOWN + 2 * ply + 1])}
    return np.array([values[name] for name in P_FIELDS], dtype=np.int64)


def build_layer(search: CompiledGapSearch, fast: Any, k: int, variant: Variant, start: Key,
                tick: Callable[[float, int], None]) -> ArrayLayer | None:
    """The backward layer ``k`` of ``search`` (its layer ``k - 1`` the deepest
    it has, loaded in its kernel table), as ``next_layer`` builds it; None
    where it cannot be built here exactly (see the module)."""
    if not all(hasattr(fast, name) for name in FUNCTIONS):
        return None
    got = arrays(search.back[k - 1])
    if got is None:
        return None
    rows, counts = got
    p = _params(search, k, variant, start)
    n = len(rows)
    stop = np.zeros(1, dtype=np.int64)
    quiet, qmeta = new_table(max(2 * n, CHUNK))
    at = 0
    while at < n:
        at += fast.quiet_layer(rows[at:at + CHUNK], counts[at:at + CHUNK], p, quiet, qmeta)
        if qmeta[1] == 2:
            return None  # (a position's quiet un-moves never fill a quarter of a table)
        if qmeta[1]:
            quiet, qmeta = fast.grown(quiet, stop)
        tick(0.25 * at / max(n, 1), CHUNK // 2)
    capture, cmeta = new_table(max(2 * n, CHUNK))
    stack = np.zeros((2 * STACK, 2), dtype=np.int64)
    state = np.zeros(1, dtype=np.int64)
    at = 0
    while at < n:
        at += fast.capture_layer(rows[at:at + CHUNK], p, capture, cmeta, stack, state)
        if state[0]:
            return None
        if cmeta[1]:
            capture, cmeta = fast.grown(capture, stop)
        tick(0.25 + 0.25 * at / max(n, 1), CHUNK // 2)
    qrows, qcounts = _table_rows(quiet)
    del quiet
    crows, _ = _table_rows(capture)
    del capture
    assert search._reachable is not None  # (made by _grow for the start)
    first = np.array(search._reachable.start, dtype=np.int64)
    left = search.plies - k
    # the second half of the layer's progress: the candidates checked (a
    # capture candidate's reach a quarter of the work of its captures)
    total = max(len(qrows) + 2 * len(crows), 1)
    done = 0

    def ticked(positions: int, work: int) -> None:
        nonlocal done
        done += work
        tick(0.5 + 0.5 * min(done / total, 1.0), positions)

    ok = np.empty(len(qrows), dtype=np.int64)
    for at in range(0, len(qrows), CHUNK):
        fast.quiet_check(qrows[at:at + CHUNK], first, left, search._t, ok[at:at + CHUNK])
        ticked(len(ok[at:at + CHUNK]), len(ok[at:at + CHUNK]))
    keep = ok != 0
    qrows, qcounts = qrows[keep], qcounts[keep]
    search._load_layers()  # (layer k - 1 is the deepest)
    # the ones the start can reach first (quicker than playing their captures)
    reach = np.empty(len(crows), dtype=np.int64)
    for at in range(0, len(crows), CHUNK):
        fast.reachable(crows[at:at + CHUNK], first, left, search._t, reach[at:at + CHUNK])
        ticked(0, len(reach[at:at + CHUNK]) // 2)
    unreached = len(crows)
    crows = crows[reach != 0]
    unreached -= len(crows)
    out = np.empty(len(crows), dtype=np.int64)
    for at in range(0, len(crows), CHUNK):
        fast.capture_counts(crows[at:at + CHUNK], k - 1, left, search._t, search._tables[M_BACK],
                            search._move_rows, search._state, out[at:at + CHUNK])
        if search._state[S_OVERFLOW]:
            return None
        m = len(out[at:at + CHUNK])
        ticked(m, m * 3 // 2 + (unreached * m * 3 // 2) // max(len(crows), 1))
    ticked(unreached, 0)
    keep = out > 0
    layer_rows = np.concatenate((qrows, crows[keep]))
    layer_counts = np.concatenate((qcounts, out[keep]))
    # into the kernel's table now (a look-up never waits for it, nor is cancelled)
    for at in range(0, len(layer_rows), CHUNK):
        part = layer_rows[at:at + CHUNK].view(np.uint64)
        search._put_rows(M_BACK, back_keys(part, k), layer_counts[at:at + CHUNK])
    search._loaded = k
    return ArrayLayer(layer_rows, layer_counts, _lookup(search, fast, k))


def _lookup(search: CompiledGapSearch, fast: Any, k: int) -> Callable[[Key], int]:
    """``key -> count`` of layer ``k``, read from the search's kernel table of
    the layers (loaded into it first when it is not yet)."""
    def look(key: Key) -> int:
        if search._loaded < k:  # (the tables made again for another count)
            search._load_layers(ticking=False)
        a, b, c = pos_key(*key, k)
        return int(fast.get(search._tables[M_BACK], a, b, c, 0))
    return look
