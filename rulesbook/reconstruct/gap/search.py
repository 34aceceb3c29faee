"""The search of the gap filler: how many legal sequences of moves lead from a
position to the board, and the first of them.

A depth-first search over the engine's raw bitboards that counts instead of
listing: below every (position, plies left) it remembers the number of
sequences that reach the board (a transposition table keyed by the position),
so a position reached by many move orders is searched once and no list of
sequences is ever built during the search.  Counts stop at ``cap``: once a
node has that many below it, its later moves are not searched (a count that
reached ``cap`` means "at least ``cap``", and it stays so wherever it is
reused).  :mod:`rulesbook.reconstruct.gap.bounds` prunes the positions that
cannot reach the board in the plies left; the last plies are not searched but
looked up in backward layers built by retro moves from the board
(:mod:`rulesbook.reconstruct.gap.retro`): the search meets them in the middle.
One ply above the deepest layer, the side not to move must stand as it stands
in some position of that layer (unless it loses a piece in that ply), and two
plies above it one move away from one: set lookups rule out most such
positions before their moves are generated (:meth:`GapSearch._layers_added`).

The first sequences are then read off the table in move-generation order
(:meth:`GapSearch.sequences`): only positions with a count above zero are
entered, so listing costs no search.
"""
from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from rulesbook.draughts import Variant
from rulesbook.draughts.movegen import apply, legal_raw_moves
from rulesbook.reconstruct.gap.bounds import (
    Reachable,
    Target,
    VariantFlags,
    feasible,
    useful_moves,
)
from rulesbook.reconstruct.gap.retro import (
    CaptureCounts,
    Key,
    MoveConstraint,
    RawMove,
    Rules,
    can_unmove,
    next_layer,
)

__all__ = ["Cancellable", "CancelToken", "GapSearch", "SearchCancelled", "MAX_PLIES",
           "COUNT_CAP"]

#: The longest gap searched (a deeper search could not finish anyway).
MAX_PLIES = 200

#: The count stops here (the compiled count keeps int64: a sum of two counts
#: below it cannot overflow); a count that reached it is "at least COUNT_CAP".
COUNT_CAP = 1 << 62



#: The forward search builds the next backward layer once it has searched
#: for GROW times as long as that layer is expected to take.
GROW = 1.0


def _less_one(boards: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Every (men, kings) of ``boards`` with one of its pieces taken off."""
    out = set()
    for men, kings in boards:
        x = men
        while x:
            b = x & -x
            x ^= b
            out.add((men ^ b, kings))
        x = kings
        while x:
            b = x & -x
            x ^= b
            out.add((men, kings ^ b))
    return out


def _one_move_from(men: int, kings: int, near: set[tuple[int, int]]) -> bool:
    """Whether the side's pieces less one of them are in ``near``
    (:func:`_less_one` of the boards it must reach in one move)."""
    x = men
    while x:
        b = x & -x
        x ^= b
        if (men ^ b, kings) in near:
            return True
    x = kings
    while x:
        b = x & -x
        x ^= b
        if (men, kings ^ b) in near:
            return True
    return False


class _Deeper(Exception):
    """Unwinds the forward search to build one more backward layer."""


class SearchCancelled(Exception):
    """Raised inside the search when it is cancelled (caught by ``fill_gap``)."""


class CancelToken:
    """A flag the app sets to stop a running search (thread-safe enough: one bool).

    A search may also ask to be told at once (:meth:`on_cancel`): the compiled
    count then stops within a position of the cancel, from the thread that
    cancels (a signal handler, the GUI thread), instead of when the thread
    that waits for it next looks (on a loaded machine that wait is what a
    cancel took)."""

    def __init__(self) -> None:
        self._set = False
        self._hooks: list[Callable[[], None]] = []

    def cancel(self) -> None:
        self._set = True
        for hook in list(self._hooks):
            hook()

    def is_set(self) -> bool:
        return self._set

    def on_cancel(self, hook: Callable[[], None]) -> Callable[[], None]:
        """Call ``hook()`` when :meth:`cancel` is called (at once if it was);
        returns the function that takes the hook off again."""
        self._hooks.append(hook)
        if self._set:
            hook()

        def remove() -> None:
            with contextlib.suppress(ValueError):
                self._hooks.remove(hook)

        return remove


class Cancellable(Protocol):
    """What cancels a search: a :class:`CancelToken`, a ``threading.Event``."""

    def is_set(self) -> bool: ...


class GapSearch:
    """Counts the sequences of ``plies`` moves from a position to ``target``.

    ``known[p]``: constraints on ply ``p`` (1 = the first ply searched), each
    with ``matches(path in square numbers)``; ``cap``: counts stop there.  ``progress(fraction, nodes)`` is called now
    and then (returning False cancels, as does ``cancel.is_set()``).
    """

    def __init__(self, target: Target, rules: Rules,
                 known: Mapping[int, Sequence[MoveConstraint]],
                 plies: int, cap: int,
                 progress: Callable[[float, int], bool | None] | None = None,
                 cancel: Cancellable | None = None) -> None:
        self.target = target
        self.rules = rules
        self.known = known
        # back[k]: {position: sequences to the target in exactly k plies}, k <= depth
        self.back: list[Mapping[Key, int]] = [{target.key: 1}]
        self._reachable: Reachable | None = None
        self.depth = 0
        # the men and kings of each side in the deepest backward layer: see _layers_added
        self._top_black: set[tuple[int, int]] = {(target.bm, target.bk)}
        self._top_white: set[tuple[int, int]] = {(target.wm, target.wk)}
        self._near_black: set[tuple[int, int]] = _less_one(self._top_black)
        self._near_white: set[tuple[int, int]] = _less_one(self._top_white)
        self._grow_at = -1.0  # when (perf_counter) to build the next backward layer
        self.plies = plies
        self.cap = max(cap, 1)
        self.progress = progress
        self.cancel = cancel
        self.memo: dict[tuple[int, int, int, int, bool, int], int] = {}
        # the nodes the search was in when it was cancelled: {memo key: the
        # sequences found below it so far} (their moves not yet searched are
        # in neither table)
        self.partial: dict[tuple[int, int, int, int, bool, int], int] = {}
        self.nodes = 0
        #: the positions the backward layers examined (un-moved or checked)
        self.retro_nodes = 0
        self.done = 0.0
        self._began = 0.0  # when (perf_counter) count() began
        # the fractions a layer being built is reported between (see _layer_tick)
        self._layer_span = (0.0, 0.0)
        self._expect = 0.0  # the seconds the next backward layer should take
        self._last_report = 0.0
        self._shown = 0.0  # the progress reported so far (it never goes back)
        #: told the sequences counted so far (:meth:`found_now`) with each progress report
        self.counted: Callable[[int], None] | None = None
        self._found = 0  # the root's count so far (the Python search: its finished moves)

    # ------------------------------------------------------------------ progress
    @property
    def searched(self) -> int:
        """The positions searched: forward, and examined by the backward layers."""
        return self.nodes + self.retro_nodes

    @property
    def fraction(self) -> float:
        """The share of the search done, as reported (it never goes back)."""
        return min(max(self.done, self._shown), 1.0)

    def tick(self) -> None:
        """Raise SearchCancelled when cancelled; report progress now and then."""
        cancel = self.cancel
        if cancel is not None and cancel.is_set():
            raise SearchCancelled
        if self.progress is not None:
            now = time.perf_counter()
            if now - self._last_report >= 0.05:
                self._last_report = now
                self._shown = max(self._shown, min(self.done, 1.0))
                if self.counted is not None:
                    self.counted(self.found_now())
                if self.progress(self._shown, self.searched) is False:
                    raise SearchCancelled

    def found_now(self) -> int:
        """While :meth:`count` runs: sequences counted so far (a proven lower
        bound of the count; it never goes back).  The Python search knows
        those of the first moves it has finished; the compiled one those of
        every position on the path it searches (:mod:`.kernel`)."""
        return self._found

    def _layer_tick(self, share: float, positions: int) -> None:
        """What a backward layer being built reports (``share`` of it built,
        ``positions`` examined since): the positions are counted as searched,
        and the fraction moves across the layer's span (:meth:`_grow`)."""
        self.retro_nodes += positions
        low, high = self._layer_span
        self._shown = max(self._shown, low + (high - low) * share)
        self.tick()

    # ------------------------------------------------------------------ moves
    def _moves(self, bm: int, bk: int, wm: int, wk: int, black: bool, ply: int) -> list[RawMove]:
        """The legal raw moves at ``ply`` (1-based) that the constraints allow."""
        moves = legal_raw_moves(bm, bk, wm, wk, black, self.rules)
        constraints = self.known.get(ply)
        if constraints:
            moves = [mv for mv in moves
                     if all(k.matches(tuple(i + 1 for i in mv[0])) for k in constraints)]
        return moves

    # ------------------------------------------------------------------ counting
    def count(self, key: Key, variant: Variant | None = None) -> int:
        """The number of sequences from ``key`` (at most ``cap``).

        With the ``variant`` the search also goes backward from the target
        (:func:`~rulesbook.reconstruct.gap.retro.next_layer`) and the forward
        search stops where it meets the backward layers.  The next backward
        layer is built once the forward search has run :data:`GROW` times as
        long as that layer should take (the last one's time times its
        growth), so a gap that is quick forward never pays for it; the
        search then goes on with the table it has (counts already known stay
        valid).  Whichever layers are built, the count is the same."""
        self._began = time.perf_counter()
        if variant is not None and can_unmove(variant) and self.plies >= 2:
            self._grow(variant, key)
        while True:
            try:
                return self._count(*key, self.plies, 1.0)
            except _Deeper:  # raised only once a layer was built, with the variant
                assert variant is not None
                self._grow(variant, key)
                self.done = 0.0

    def _grow(self, variant: Variant, key: Key) -> None:
        k = self.depth + 1
        began = time.perf_counter()
        if self._reachable is None or self._reachable.start != key:
            # what the bounds say of positions reached from ``key``, for every layer
            self._reachable = Reachable(key, *VariantFlags.of(variant))
        self._layer_span = self._span(began)
        layer = self._next_layer(k, variant, key)
        self.tick()  # cancelled as it ended: the layer is dropped
        now = time.perf_counter()
        self.back.append(layer)
        self.depth = k
        self._layers_added()
        if layer and k < self.plies // 2:
            # the next layer will cost about this one's time times its growth
            growth = len(layer) / max(len(self.back[-2]), 1)
            self._expect = (now - began) * max(growth, 1.0)
            self._grow_at = now + GROW * self._expect
        else:
            self._grow_at = -1.0  # no deeper layer

    def _next_layer(self, k: int, variant: Variant, key: Key) -> Mapping[Key, int]:
        """The backward layer ``k`` from the deepest (``next_layer``)."""
        return next_layer(self.back[-1], k, variant, self.rules, key, self.plies, self.known,
                          self._layer_tick, self._reachable, self._capture_counts())

    def _capture_counts(self) -> CaptureCounts | None:
        """How the layers check their capture candidates: None, in Python
        (:func:`~rulesbook.reconstruct.gap.retro.next_layer`)."""
        return None

    def _span(self, now: float) -> tuple[float, float]:
        """The fractions a layer built from ``now`` is reported between: from
        the fraction shown to what the forward search would have covered, at
        its rate so far, in the time the layer should take.  A layer is built
        only once the forward search has run about as long as the layer
        should take (:data:`GROW`), for the time it saves the forward search
        below it, so a second spent on it counts as a second of the forward
        search; never more than half of what is left (the first layers, built
        before any forward search, do not move the fraction)."""
        low = self._shown
        elapsed = now - self._began
        if elapsed <= 0 or low <= 0:
            return low, low
        return low, low + min(low * self._expect / elapsed, (1.0 - low) / 2)

    def _layers_added(self) -> None:
        """Read the sides' pieces off the deepest backward layer.

        A position one ply above it (``remaining == depth + 1``) reaches a
        position of it in one move; the side not to move does not move in
        that ply, so unless it loses a piece in it its men and kings stand in
        the layer as they stand now (:meth:`_count` looks them up there).

        Two plies above it, the side not to move makes one move before the
        layer: unless the move now takes a piece of it, its pieces now less
        the one it moves are a layer's pieces of that side less the one that
        moved there (whatever the move: a step, a capture, a crowning), so
        they are in ``_near_*``, the layer's pieces of a side less any one."""
        top = self.back[self.depth]
        self._top_black = {(x[0], x[1]) for x in top}
        self._top_white = {(x[2], x[3]) for x in top}
        self._near_black = _less_one(self._top_black)
        self._near_white = _less_one(self._top_white)

    def _count(self, bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int,
               weight: float) -> int:
        if remaining <= self.depth:
            self.done += weight
            return min(self.back[remaining].get((bm, bk, wm, wk, black), 0), self.cap)
        memo_key = (bm, bk, wm, wk, black, remaining)
        hit = self.memo.get(memo_key)
        if hit is not None:
            self.done += weight
            return hit
        self.nodes += 1
        if self.nodes == 1 or not self.nodes & 1023:
            self.tick()
            if self._grow_at >= 0 and time.perf_counter() >= self._grow_at:
                raise _Deeper
        t = self.target
        if not feasible(bm, bk, wm, wk, black, remaining, t):
            self.memo[memo_key] = 0
            self.done += weight
            return 0
        # one ply above the deepest backward layer the side not to move must
        # stand there as it stands now, unless the move takes a piece of it
        must_take = False
        if remaining == self.depth + 1:
            if black:
                must_take = (wm, wk) not in self._top_white
                can_take = (wm | wk).bit_count() > t.nw
            else:
                must_take = (bm, bk) not in self._top_black
                can_take = (bm | bk).bit_count() > t.nb
            if must_take and not can_take:
                self.memo[memo_key] = 0
                self.done += weight
                return 0
        elif remaining == self.depth + 2:
            if black:
                must_take = not _one_move_from(wm, wk, self._near_white)
                can_take = (wm | wk).bit_count() > t.nw
            else:
                must_take = not _one_move_from(bm, bk, self._near_black)
                can_take = (bm | bk).bit_count() > t.nb
            if must_take and not can_take:
                self.memo[memo_key] = 0
                self.done += weight
                return 0
        moves = self._moves(bm, bk, wm, wk, black, self.plies - remaining + 1)
        if must_take and moves and not moves[0][1]:
            # captures are compulsory: quiet moves mean there is none
            moves = []
        # moves after which the side could not fill or leave its squares in time
        moves = useful_moves(moves, bm, bk, wm, wk, black, remaining, t)
        if not moves:
            self.memo[memo_key] = 0
            self.done += weight
            return 0
        share = weight / len(moves)
        cap = self.cap
        nxt = not black
        below = remaining - 1
        total = 0
        if below <= self.depth:
            # the children are in a backward layer: look them up
            layer = self.back[below]
            for mv in moves:
                nbm, nbk, nwm, nwk = apply(bm, bk, wm, wk, black, mv)
                total += layer.get((nbm, nbk, nwm, nwk, nxt), 0)
            self.done += weight
            total = min(total, cap)
            self.memo[memo_key] = total
            return total
        memo = self.memo
        # the children one ply above the deepest layer: the side moving now is
        # the one not to move there (see above), checked before the call
        top = (None if below != self.depth + 1 else
               self._top_black if black else self._top_white)
        lose = (bm | bk).bit_count() > t.nb if black else (wm | wk).bit_count() > t.nw
        root = remaining == self.plies and weight == 1.0  # the count's own call
        try:
            for n, mv in enumerate(moves):
                nbm, nbk, nwm, nwk = apply(bm, bk, wm, wk, black, mv)
                if top is not None and not lose and \
                        ((nbm, nbk) if black else (nwm, nwk)) not in top:
                    self.done += share
                    continue
                child = (nbm, nbk, nwm, nwk, nxt, below)
                hit = memo.get(child)
                if hit is None:
                    total += self._count(nbm, nbk, nwm, nwk, nxt, below, share)
                else:
                    total += hit
                    self.done += share
                if root:
                    self._found = max(self._found, min(total, cap))
                if total >= cap:
                    total = cap
                    self.done += share * (len(moves) - n - 1)  # the moves not searched
                    break
        except (SearchCancelled, _Deeper):
            # remember how far this node got (also when it unwinds for a
            # deeper layer: a cancel while that is built lists them): the sequences found below it
            # stay listable (:meth:`sequences_so_far`)
            # (with what the move being searched had found below it)
            self.partial[memo_key] = total + self.partial.get(child, 0)
            raise
        self.memo[memo_key] = total
        return total

    # ------------------------------------------------------------------ listing
    def live_moves(self, key: Key, remaining: int, partial: bool = False
                   ) -> list[tuple[RawMove, Key, int]]:
        """After :meth:`count`: the moves from ``key`` (``remaining`` plies
        before the board) that lead to it, each with the position after it
        and its number of sequences (in move-generation order)."""
        bm, bk, wm, wk, black = key
        out = []
        for mv in self._moves(bm, bk, wm, wk, black, self.plies - remaining + 1):
            child: Key = (*apply(bm, bk, wm, wk, black, mv), not black)
            count = self._known_count(child, remaining - 1, partial)
            if count:
                out.append((mv, child, count))
        return out

    def found_so_far(self, key: Key) -> int:
        """After a cancelled :meth:`count`: the sequences from ``key`` found
        before it stopped (a proven lower bound of the count; never less
        than :meth:`found_now` said)."""
        return max(self._known_count(key, self.plies, partial=True), self.found_now())

    def first_difference(self, key: Key, path: Sequence[RawMove]) -> int | None:
        """After :meth:`count`: the first ply (1-based) along ``path`` (the moves
        the sequences listed agree on) where another move leads to the board
        too — where the sequences that exist really first differ, when the
        listing was cut by the limit (the moves not listed may leave the path
        early).  None when no other move does along ``path``.  Each other move
        is asked only whether one sequence follows it (a search that stops at
        the first); cancelling works as in :meth:`count`."""
        saved_cap, saved_grow = self.cap, self._grow_at
        self.cap, self._grow_at = 1, -1.0  # one sequence is enough; no new layer
        try:
            bm, bk, wm, wk, black = key
            remaining = self.plies
            for index, chosen in enumerate(path):
                for mv in self._moves(bm, bk, wm, wk, black, index + 1):
                    if mv == chosen:
                        continue
                    nbm, nbk, nwm, nwk = apply(bm, bk, wm, wk, black, mv)
                    if self._exists((nbm, nbk, nwm, nwk, not black), remaining - 1):
                        return index + 1
                bm, bk, wm, wk = apply(bm, bk, wm, wk, black, chosen)
                black = not black
                remaining -= 1
            return None
        finally:
            self.cap, self._grow_at = saved_cap, saved_grow

    def _exists(self, key: Key, remaining: int) -> bool:
        if remaining <= self.depth:
            return self.back[remaining].get(key, 0) > 0
        hit = self.memo.get((*key, remaining))
        if hit is not None:
            return hit > 0  # a count in the table is exact at zero, a lower bound above
        return self._count(*key, remaining, 0.0) > 0

    def sequences(self, key: Key, limit: int) -> list[tuple[RawMove, ...]]:
        """The first ``limit`` sequences (tuples of raw moves) from ``key``, in
        move-generation order; call after :meth:`count`."""
        out: list[tuple[RawMove, ...]] = []
        if limit > 0 and self._known_count(key, self.plies):
            self._walk(*key, self.plies, (), out, limit)
        return out

    def sequences_so_far(self, key: Key, limit: int) -> list[tuple[RawMove, ...]]:
        """After a cancelled :meth:`count`: the first ``limit`` sequences found
        before it stopped (every one replays to the target; more may exist)."""
        out: list[tuple[RawMove, ...]] = []
        if limit > 0 and self._known_count(key, self.plies, partial=True):
            self._walk(*key, self.plies, (), out, limit, partial=True)
        return out

    def _known_count(self, key: Key, remaining: int, partial: bool = False) -> int:
        if remaining <= self.depth:
            return self.back[remaining].get(key, 0)
        count = self.memo.get((*key, remaining))
        if count is None and partial:
            count = self.partial.get((*key, remaining))
        return count or 0

    def _walk(self, bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int,
              prefix: tuple[RawMove, ...], out: list[tuple[RawMove, ...]], limit: int,
              partial: bool = False) -> None:
        if remaining == 0:
            out.append(prefix)
            return
        nxt = not black
        below = remaining - 1
        for mv in self._moves(bm, bk, wm, wk, black, self.plies - remaining + 1):
            nbm, nbk, nwm, nwk = apply(bm, bk, wm, wk, black, mv)
            if self._known_count((nbm, nbk, nwm, nwk, nxt), below, partial):
                self._walk(nbm, nbk, nwm, nwk, nxt, below, (*prefix, mv), out, limit, partial)
                if len(out) >= limit:
                    return
