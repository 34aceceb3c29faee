"""The gap search with its forward count compiled (:mod:`.kernel`, numba).

:class:`CompiledGapSearch` is a :class:`~.search.GapSearch`: the backward
layers, the listing of the sequences and everything the caller sees are the
Python search's; only the count over the forward tree runs compiled, off
the GIL, in a thread of its own while the calling thread reports progress,
passes on a cancel and asks for the next backward layer as the Python search
does (:data:`~.search.GROW`).

numba is installed from wheels with the app (no compiler is needed).  The
self-contained bundle ships no numba: it ships the same kernel functions
compiled ahead of time (:data:`AOT_MODULE`, built by ``bundle/aot.py``; then
:data:`KIND` is ``"aot"``).  Where neither can be imported (:data:`AVAILABLE`
is False) the Python search is used, and it stays the reference the compiled
one is tested against.  The kernel is compiled once and cached on disk, in the user's cache folder
(:func:`rulesbook.datapath.user_cache_dir`, ``$RULESBOOK_CACHE``), one folder
per version of the kernel: ``make run`` and ``make test`` compile it
(:func:`warm_up`), the app loads it in the background at start, and a search
never waits for a compilation (:func:`worth_it`).  Known moves are kept by
their start and end squares (:func:`supports`: one through given squares is
left to the Python search).
"""
from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from rulesbook.datapath import user_cache_dir
from rulesbook.draughts import Variant
from rulesbook.reconstruct.gap.kernel_keys import pos_key as _pos_key
from rulesbook.reconstruct.gap.kernel_keys import side_key as _side_key
from rulesbook.reconstruct.gap.known import KnownMove
from rulesbook.reconstruct.gap.retro import CaptureCounts, Key, can_unmove
from rulesbook.reconstruct.gap.search import GapSearch, SearchCancelled

__all__ = ["AOT_MODULE", "AVAILABLE", "KIND", "CompiledGapSearch", "KernelFailed",
           "digest_stamp", "kernel_digest", "supports", "warm_up", "why_unavailable", "worth_it"]

_log = logging.getLogger(__name__)

#: the modules compiled by numba: its cache knows when one of them changed,
#: not when a module whose functions it inlines did, so the cache folder is
#: named by all of them together
KERNEL_MODULES = ("kernel_moves.py", "kernel_table.py", "kernel_bounds.py", "kernel.py",
                  "kernel_retro.py", "kernel_unmove.py")


def kernel_digest() -> str:
    """The kernel modules' sources, hashed together (hex): names numba's cache
    folder, and the module compiled ahead of time is stamped with it
    (``bundle/aot.py``) so that one built from other sources is never used."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in KERNEL_MODULES:
        try:
            digest.update((here / name).read_bytes())
        except OSError:  # not shipped as source (a frozen app): numba cannot cache it
            digest.update(b"missing " + name.encode())
    return digest.hexdigest()


def digest_stamp(hexdigest: str) -> int:
    """The digest as the int64 the ahead-of-time module returns (``stamp()``)."""
    return int(hexdigest[:15], 16)


def _cache_folder() -> Path:
    return user_cache_dir() / "gap-kernel" / kernel_digest()[:16]


if TYPE_CHECKING:  # bound by _load() at run time, on the first search that may use them
    import numpy as np

    from rulesbook.reconstruct.gap import compiled_layers as layers
    from rulesbook.reconstruct.gap import kernel
    from rulesbook.reconstruct.gap import kernel_table as table
    from rulesbook.reconstruct.gap.compiled_layers import rows_of as _rows

    #: whether numba can be used (read it to find out: it is imported then; see _load)
    AVAILABLE: bool
CACHE_FOLDER = _cache_folder()
#: why numba cannot be used ("" when it can; None until the first search asks)
_WHY: str | None = None
_LOADING = threading.Lock()

#: the module the bundle ships instead of numba: the kernel's entry points
#: compiled ahead of time (``bundle/aot.py`` builds it from the same modules)
AOT_MODULE = "rulesbook_gap_kernel"
#: how the kernel runs: "jit" (numba, compiled at run time and cached), "aot"
#: (compiled ahead of time, :data:`AOT_MODULE`), "" (not available or not loaded)
KIND = ""
#: the compiled functions gap.compiled calls (count, put_many, grown, get):
#: numba's dispatchers or the ahead-of-time module (bound by _load)
fast: Any = None


def _load() -> bool:
    """Import numba, numpy and the kernel modules, once (about a second of
    CPU: only a search that may run compiled pays for it, never a command
    that does not search), or, without numba, the kernel compiled ahead of
    time; whether either could be imported."""
    global _WHY
    with _LOADING:
        if _WHY is None:
            _WHY = _import()
        return _WHY == ""


def _import() -> str:
    """Bind the kernel (see :func:`_load`): why it could not be ("" when it was)."""
    global KIND
    try:  # numba (and numpy) come from wheels; without them the Python search runs
        import numba
        import numpy

        # set before the kernel modules are imported: numba reads it as it
        # decorates each function
        setattr(numba.config, "CACHE_DIR", str(CACHE_FOLDER))  # noqa: B010 - not in its stubs
        from rulesbook.reconstruct.gap import kernel as gap_kernel
        from rulesbook.reconstruct.gap import kernel_retro as gap_kernel_retro
        from rulesbook.reconstruct.gap import kernel_table as gap_kernel_table
        from rulesbook.reconstruct.gap import kernel_unmove as gap_kernel_unmove
    except Exception as exc:  # noqa: BLE001 - any import failure means "not available"
        why = f"{type(exc).__name__}: {exc}"
    else:
        entry = SimpleNamespace(count=gap_kernel.count, put_many=gap_kernel_table.put_many,
                                grown=gap_kernel_table.grown, get=gap_kernel_table.get,
                                capture_counts=gap_kernel_retro.capture_counts,
                                reachable=gap_kernel_retro.reachable,
                                quiet_ok=gap_kernel_retro.quiet_ok,
                                quiet_layer=gap_kernel_unmove.quiet_layer,
                                capture_layer=gap_kernel_unmove.capture_layer,
                                quiet_check=gap_kernel_unmove.quiet_check)
        globals().update(np=numpy, kernel=gap_kernel, table=gap_kernel_table, fast=entry)
        _bind_layers()
        KIND = "jit"
        return ""
    try:  # the bundle: the same functions compiled ahead of time, numpy beside them
        import numpy

        # AOT_MODULE, imported by its fixed name (bundle/aot.py writes it)
        import rulesbook_gap_kernel as aot  # type: ignore[import-not-found,unused-ignore]
        if aot.stamp() != digest_stamp(kernel_digest()):
            raise ImportError(f"{AOT_MODULE} was compiled from other sources of the kernel")
        # without numba these are plain Python: read for their constants only
        from rulesbook.reconstruct.gap import kernel as gap_kernel
        from rulesbook.reconstruct.gap import kernel_table as gap_kernel_table
    except Exception as exc:  # noqa: BLE001 - any import failure means "not available"
        return f"{why} (and no kernel compiled ahead of time: {type(exc).__name__}: {exc})"
    globals().update(np=numpy, kernel=gap_kernel, table=gap_kernel_table, fast=aot)
    _bind_layers()
    KIND = "aot"
    return ""


def _bind_layers() -> None:
    from rulesbook.reconstruct.gap import compiled_layers
    globals().update(layers=compiled_layers, _rows=compiled_layers.rows_of)


def __getattr__(name: str) -> Any:
    if name == "AVAILABLE":  # whether numba can be used: imports it (see _load)
        return _load()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_CANCEL, _DEEPER = 1, 2
_POLL = 0.05  # seconds between progress reports


def supports(known: Mapping[int, Sequence[KnownMove]]) -> bool:
    """Whether the compiled search can keep these known moves (their start
    and end squares; not the squares a capture goes through)."""
    return all(not c.via for constraints in known.values() for c in constraints)


def why_unavailable() -> str:
    """Why the compiled search is not used ("" when it is)."""
    _load()
    return _WHY or ""


#: the rows of a layer put into the kernel's tables at a time (a cancel is
#: looked for between them)
_CHUNK = 1 << 14


class CompiledGapSearch(GapSearch):
    """A :class:`GapSearch` whose forward count runs compiled (see the module)."""

    #: the count of the last :meth:`count` (-1: none finished)
    _root_count = -1

    def _setup(self) -> None:
        t = self.target
        rules = self.rules
        values = {"bm": t.bm, "bk": t.bk, "wm": t.wm, "wk": t.wk, "black": int(t.black),
                  "nb": t.nb, "nw": t.nw, "b_goals": t.b_goals, "w_goals": t.w_goals,
                  "b_ahead": t.b_ahead, "w_ahead": t.w_ahead, "men_back": int(t.men_back),
                  "flying": int(t.flying), "crown_ends": int(t.crown_ends),
                  "most": int(rules.most_captures), "mode": rules.crowning}
        fields = [values[name] for name in kernel.T_FIELDS]
        # the known moves, ply by ply (1 = the first): start, end (bit indices)
        known = [-1, -1] * (self.plies + 2)
        for ply, constraints in self.known.items():
            if not 1 <= ply <= self.plies:
                continue
            for constraint in constraints:
                for at, square in ((2 * ply, getattr(constraint, "start", None)),
                                   (2 * ply + 1, getattr(constraint, "end", None))):
                    if square is None:
                        continue
                    if known[at] == -1:
                        known[at] = square - 1
                    elif known[at] != square - 1:
                        known[at] = -2  # two known moves that disagree: none fits
        self._t = np.array(fields + known, dtype=np.int64)
        # the kernel's tables (kernel_table), by their row of ``metas``
        self._metas = np.zeros((5, 2), dtype=np.int64)
        self._tables: dict[int, Any] = {}
        for which, rows in ((kernel.M_MEMO, 1 << 16), (kernel.M_PARTIAL, 1 << 10),
                            (kernel.M_BACK, 1 << 10), (kernel.M_SIDES, 1 << 10),
                            (kernel.M_SIDE_OK, 1 << 14)):
            self._tables[which], self._metas[which] = table.new_table(rows)
        self._move_rows = np.zeros((self.plies + 2, kernel.MAX_MOVES, 6), dtype=np.int64)
        self._state = np.zeros(kernel.S_SIZE, dtype=np.int64)
        self._done = np.zeros(1, dtype=np.float64)
        self._loaded = -1  # the deepest backward layer copied into the kernel's table
        self._sides()

    def _put_all(self, which: int, keys: list[tuple[int, int, int]], values: list[int]) -> None:
        """Put rows into a kernel table (growing it until they fit)."""
        if keys:
            self._put_rows(which, np.array(keys, dtype=np.int64),
                           np.array(values, dtype=np.int64))

    def _sides(self) -> None:
        """The kernel's copy of the deepest layer's sides (see ``_layers_added``)."""
        keys = [(_side_key(men, kings), 0, which)
                for which, boards in ((kernel.SIDE_TOP_B, self._top_black),
                                      (kernel.SIDE_TOP_W, self._top_white),
                                      (kernel.SIDE_NEAR_B, self._near_black),
                                      (kernel.SIDE_NEAR_W, self._near_white))
                for men, kings in boards]
        self._tables[kernel.M_SIDES], self._metas[kernel.M_SIDES] = table.new_table(len(keys))
        self._put_all(kernel.M_SIDES, keys, [1] * len(keys))

    def _layers_added(self) -> None:
        """The kernel's copy of the deepest layer's sides (the Python search's
        sets, :meth:`GapSearch._layers_added`, are not needed here): worked
        out with numpy, a chunk of the layer at a time, looking for a cancel
        between chunks (a layer of 300,000 positions takes a good part of a
        second in Python)."""
        if not hasattr(self, "_tables"):
            super()._layers_added()
            return
        kinds = layers.sides(self.back[self.depth], self.tick)
        size = sum(len(keys) for _, keys in kinds)
        self._tables[kernel.M_SIDES], self._metas[kernel.M_SIDES] = table.new_table(size)
        for which, keys in kinds:
            for at in range(0, len(keys), _CHUNK):
                part = keys[at:at + _CHUNK].view(np.int64)
                rows = np.zeros((len(part), 3), dtype=np.int64)
                rows[:, 0] = part
                rows[:, 2] = which
                self._put_rows(kernel.M_SIDES, rows, np.ones(len(part), dtype=np.int64))
                self.tick()

    def _next_layer(self, k: int, variant: Variant, key: Key) -> Mapping[Key, int]:
        """Layer ``k`` built compiled (:func:`.compiled_layers.build_layer`), or
        in Python where it cannot be (the same layer)."""
        if hasattr(self, "_tables"):
            layer = layers.build_layer(self, fast, k, variant, key, self._layer_tick)
            if layer is not None:
                return layer
        return super()._next_layer(k, variant, key)

    def _capture_counts(self) -> CaptureCounts | None:
        # (the kernel compiled ahead of time has no layer checks: bundle/aot.py)
        return self if hasattr(self, "_tables") and hasattr(fast, "capture_counts") else None

    def quiet(self, keys: list[Key], k: int) -> Sequence[bool]:
        """A backward layer's quiet candidates checked by the kernel
        (:func:`.kernel_retro.quiet_ok`: no capture, reachable)."""
        assert self._reachable is not None  # (made by _grow for the start)
        rows = _rows(keys, np.int64)
        ok = np.empty(len(keys), dtype=np.int64)
        fast.quiet_ok(rows, np.array(self._reachable.start, dtype=np.int64), self.plies - k,
                      self.plies - k, self._t, self._move_rows, self._state, ok)
        if self._state[kernel.S_OVERFLOW]:
            raise KernelFailed(f"a position has more than {kernel.MAX_MOVES} legal moves")
        return (ok != 0).tolist()  # type: ignore[no-any-return]

    def captures(self, keys: list[Key], k: int) -> Sequence[int]:
        """A backward layer's capture candidates checked by the kernel
        (:func:`.kernel_retro.capture_counts`) against layer ``k - 1``."""
        self._load_layers()  # (layer k - 1 is the deepest)
        assert self._reachable is not None  # (made by _grow for the start)
        rows = _rows(keys, np.int64)
        out = np.empty(len(keys), dtype=np.int64)
        fast.capture_counts(rows, k - 1, self.plies - k, self._t, self._tables[kernel.M_BACK],
                            self._move_rows, self._state, out)
        if self._state[kernel.S_OVERFLOW]:
            raise KernelFailed(f"a position has more than {kernel.MAX_MOVES} legal moves")
        ok = np.empty(len(keys), dtype=np.int64)
        fast.reachable(rows, np.array(self._reachable.start, dtype=np.int64), self.plies - k,
                       self._t, ok)
        return np.where((out > 0) & (ok == 0), 0, out).tolist()  # type: ignore[no-any-return]

    def _chunks(self, layer: Mapping[Key, int]) -> Iterator[Any]:
        """The layer's keys as uint64 rows, a chunk at a time (:func:`.compiled_layers.chunks`)."""
        return layers.chunks(layer, self.tick)

    def _put_rows(self, which: int, keys: Any, values: Any) -> None:
        """Put rows (int64 arrays) into a kernel table, growing it until they fit."""
        while True:
            tab = self._tables[which]
            fast.put_many(tab, self._metas[which], keys, values)
            if not self._metas[which, 1]:
                return
            self._tables[which], self._metas[which] = fast.grown(tab, np.zeros(1, dtype=np.int64))

    def _load_layers(self, ticking: bool = True) -> None:
        """Copy the backward layers not yet there into the kernel's table
        (``ticking``: looking for a cancel between chunks of them)."""
        while self._loaded < self.depth:
            k = self._loaded + 1
            layer = self.back[k]
            values = layers.values_of(layer)
            for rows in layers.chunks(layer, self.tick if ticking else None):
                self._put_rows(kernel.M_BACK, layers.back_keys(rows, k),
                               np.fromiter(islice(values, len(rows)), dtype=np.int64,
                                           count=len(rows)))
            self._loaded = k

    def _grow_full(self) -> bool:
        """Double the kernel's tables that asked for it; whether one did (False
        too when a cancel came meanwhile: the tables are then left as they
        were, every count in them kept)."""
        full = False
        stop = self._state[kernel.S_CANCEL:kernel.S_CANCEL + 1]
        for which in range(len(self._metas)):
            if self._metas[which, 1]:
                bigger, meta = fast.grown(self._tables[which], stop)
                if meta[1] < 0:
                    return False  # cancelled while copying
                full = True
                self._tables[which], self._metas[which] = bigger, meta
        return full

    # ------------------------------------------------------------------ counting
    def count(self, key: Key, variant: Variant | None = None) -> int:
        """As :meth:`GapSearch.count`, the forward count compiled."""
        self._setup()
        self._root_count = -1
        self._began = time.perf_counter()
        if variant is not None and can_unmove(variant) and self.plies >= 2:
            self._grow(variant, key)
        while True:
            try:
                self._root_count = self._run(key, self.plies, 1.0, grow=variant is not None,
                                             root=True)
                return self._root_count
            except _DeeperWanted:
                assert variant is not None
                self._grow(variant, key)
                self._done[0] = 0.0

    def _count(self, bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int,
               weight: float) -> int:
        # what first_difference asks (one child, cap 1): the same kernel
        return self._run((bm, bk, wm, wk, black), remaining, weight, grow=False)

    _counting_root = False

    def found_now(self) -> int:  # the kernel's sum along its path, never going back
        if self._counting_root:
            self._found = max(self._found, min(int(self._state[kernel.S_FOUND]), self.cap))
        return self._found

    def _run(self, key: Key, remaining: int, weight: float, grow: bool,
             root: bool = False) -> int:
        """Run the kernel in a thread (:meth:`_run_kernel`); a CancelToken sets
        its cancel flag from the thread that cancels (no wait for a poll)."""
        if self.cancel is not None and self.cancel.is_set():
            raise SearchCancelled  # (not a poll's wait: cancelled before it started)
        self._load_layers()
        state = self._state
        state[kernel.S_CANCEL] = 0
        state[kernel.S_CANCELLED] = 0
        state[kernel.S_CAP] = self.cap
        state[kernel.S_DEPTH] = self.depth
        state[kernel.S_FOUND] = 0
        out: list[Any] = []

        hook = getattr(self.cancel, "on_cancel", None)
        unhook = hook(lambda: state.__setitem__(kernel.S_CANCEL, _CANCEL)) \
            if callable(hook) else None
        self._counting_root = root
        try:
            return self._run_kernel(key, remaining, weight, grow, out)
        finally:
            self.found_now()  # (the last sum the kernel had, when it counted the root)
            self._counting_root = False
            if unhook is not None:
                unhook()

    def _run_kernel(self, key: Key, remaining: int, weight: float, grow: bool,
                    out: list[Any]) -> int:
        state, tables = self._state, self._tables

        def work() -> None:
            try:
                while True:
                    got = fast.count(
                        *key, remaining, weight, self.plies, self._t, tables[kernel.M_MEMO],
                        tables[kernel.M_PARTIAL], tables[kernel.M_BACK], tables[kernel.M_SIDES],
                        tables[kernel.M_SIDE_OK], self._metas, self._move_rows, state,
                        self._done)
                    # stopped because a table was full: double it and go on
                    # (what was counted stays counted)
                    if got >= 0 or state[kernel.S_CANCEL] or not self._grow_full():
                        break
                    state[kernel.S_CANCELLED] = 0
                    self._done[0] = 0.0  # counted again from the top (the table knows)
                    # (the partial counts stay: each is sequences found, a
                    # lower bound however long ago it was written)
                out.append(got)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the caller
                out.append(exc)

        thread = threading.Thread(target=work, name="gap-kernel", daemon=True)
        before = int(state[kernel.S_NODES])
        thread.start()
        try:
            while True:
                thread.join(_POLL)
                self.nodes = int(state[kernel.S_NODES])
                self.done = float(self._done[0])
                if not thread.is_alive():
                    break
                if self._wants_stop():
                    state[kernel.S_CANCEL] = _CANCEL
                elif grow and self._grow_at >= 0 and time.perf_counter() >= self._grow_at \
                        and self.nodes > before:
                    state[kernel.S_CANCEL] = _DEEPER
                    if self.cancel is not None and self.cancel.is_set():
                        state[kernel.S_CANCEL] = _CANCEL  # (a cancel meanwhile wins)
        except BaseException:
            state[kernel.S_CANCEL] = _CANCEL  # KeyboardInterrupt: stop the kernel too
            thread.join()
            raise
        result = out[0]
        if isinstance(result, BaseException):
            raise KernelFailed(f"the compiled gap search failed: {result!r}") from result
        if state[kernel.S_OVERFLOW]:
            raise KernelFailed(f"a position has more than {kernel.MAX_MOVES} legal moves")
        _READY.set()
        if result < 0:
            if state[kernel.S_CANCEL] == _DEEPER:
                # the partial counts stay: a cancel while the layer is built
                # gives what was found before it (found_so_far)
                raise _DeeperWanted
            raise SearchCancelled
        return int(result)

    def _wants_stop(self) -> bool:
        """The progress report (False stops) and the cancel token."""
        if self.cancel is not None and self.cancel.is_set():
            return True
        if self.progress is not None:
            self._shown = max(self._shown, min(self.done, 1.0))
            if self.counted is not None:
                self.counted(self.found_now())
            if self.progress(self._shown, self.searched) is False:
                return True
        return False

    # ------------------------------------------------------------------ listing
    def _known_count(self, key: Key, remaining: int, partial: bool = False) -> int:
        if remaining <= self.depth:
            return self.back[remaining].get(key, 0)
        a, b, c = _pos_key(*key, remaining)
        count = fast.get(self._tables[kernel.M_MEMO], a, b, c, -1)
        if count < 0:
            if partial:
                return max(int(fast.get(self._tables[kernel.M_PARTIAL], a, b, c, 0)), 0)
            if self.cap > self._root_count >= 0:
                # an exact count (the root's below the cap, so every position's
                # is): a position it does not hold was ruled out, no sequence
                return 0
            # not in the table: the kernel searches moves in an order of its
            # own and stops a position at the cap, so the listing (in the
            # engine's order) can reach a position it never searched, which
            # is not one without sequences: search it now
            return self._count(*key, remaining, 0.0)
        return int(count)

    def _exists(self, key: Key, remaining: int) -> bool:
        if remaining <= self.depth:
            return self.back[remaining].get(key, 0) > 0
        hit = fast.get(self._tables[kernel.M_MEMO], *_pos_key(*key, remaining), -1)
        if hit >= 0:
            return bool(hit > 0)
        return self._count(*key, remaining, 0.0) > 0


class KernelFailed(Exception):
    """The compiled search could not answer (numba failed, or a position had
    more moves than it has room for): the caller asks the Python search."""


class _DeeperWanted(Exception):
    """The kernel stopped so that one more backward layer can be built."""


def warm_up() -> float:
    """Compile the kernel now (or load it from the cache): seconds taken (0
    when it is not available or failed: the searches then fall back)."""
    if not _load():
        return 0.0
    try:
        return _warm_up()
    except Exception:  # noqa: BLE001 - logged; a search then falls back to Python
        _log.exception("the compiled gap search could not be prepared")
        return 0.0


#: set once the kernel has run in this process (compiled or loaded)
_READY = threading.Event()
_WARMING = threading.Lock()
#: a gap at least this long is worth loading the kernel for (about 1 s in a
#: fresh process, once); a shorter one is quicker in Python until it is loaded
WORTH_LOADING = 10


def worth_it(plies: int) -> bool:
    """Whether a search of ``plies`` should run compiled now: the kernel is
    ready in this process, or the gap is long and the kernel is compiled on
    disk (loading it takes about a second).  Never waits for a compilation
    (tens of seconds): when the kernel is not on disk it is compiled in the
    background and this search runs in Python (the same answer)."""
    if _READY.is_set():
        return True
    if plies < WORTH_LOADING or not _load():  # a short gap never waits for numba's import
        return False
    if KIND == "aot" or any(CACHE_FOLDER.rglob("kernel.count-*.nbi")):
        return True
    threading.Thread(target=warm_up, name="gap-compile", daemon=True).start()
    return False


def _warm_up() -> float:
    began = time.perf_counter()
    with _WARMING:  # one compilation at a time (the app's and a search's)
        if not _READY.is_set():
            _compile()
    return time.perf_counter() - began


def _compile() -> None:
    from rulesbook.draughts import Position
    from rulesbook.draughts.movegen import compile_rules
    from rulesbook.reconstruct.gap.bounds import Reachable, Target, VariantFlags

    variant = Variant.named("pool")
    start = Position.start(variant)
    board = start.play(start.legal_moves()[0])
    search = CompiledGapSearch(Target(*board.bitboards(), *VariantFlags.of(variant)),
                               compile_rules(variant), {}, 1, 2)
    search.count(start.bitboards(), None)
    search._grow(variant, start.bitboards())  # and what the backward layers call
    if search._capture_counts() is not None:
        search._reachable = Reachable(start.bitboards(), *VariantFlags.of(variant))
        search.captures([(*board.bitboards(),)], 1)
        search.quiet([(*board.bitboards(),)], 1)
