"""The search of the gap filler: how many legal sequences of moves lead from a
position to the board, and the first of them.

A depth-first search over the engine's raw bitboards that counts instead of
listing: below every (position, plies left) it remembers the number of
sequences that reach the board (a transposition table keyed by the position),
so a position reached by many move orders is searched once and no list of
sequences is ever built during the search.  Counts stop at ``cap``: once a
node has that many below it, its later moves are not searched (a count that
reached ``cap`` means "at least ``cap``", and it stays so wherever it is
reused).  :mod:`rulesbook.reconstruct.gap_bounds` prunes the positions that
cannot reach the board in the plies left; with a backward frontier
(:mod:`rulesbook.reconstruct.gap_retro`) the last ply is looked up instead of
searched (the search meets the positions one ply before the board).

The first sequences are then read off the table in move-generation order
(:meth:`GapSearch.sequences`): only positions with a count above zero are
entered, so listing costs no search.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

from rulesbook.draughts.movegen import apply, legal_raw_moves
from rulesbook.reconstruct.gap_bounds import Target, feasible

__all__ = ["CancelToken", "GapSearch", "SearchCancelled", "MAX_PLIES"]

#: The longest gap searched (a deeper search could not finish anyway).
MAX_PLIES = 200

Key = tuple[int, int, int, int, bool]


class SearchCancelled(Exception):
    """Raised inside the search when it is cancelled (caught by ``fill_gap``)."""


class CancelToken:
    """A flag the app sets to stop a running search (thread-safe enough: one bool)."""

    def __init__(self) -> None:
        self._set = False

    def cancel(self) -> None:
        self._set = True

    def is_set(self) -> bool:
        return self._set


class _Constraint(Protocol):
    def matches(self, path: tuple[int, ...]) -> bool: ...


class GapSearch:
    """Counts the sequences of ``plies`` moves from a position to ``target``.

    ``known[p]``: constraints on ply ``p`` (1 = the first ply searched), each
    with ``matches(path in square numbers)``; ``frontier``: the positions one
    ply before the target with the raw moves that lead to it (or None);
    ``cap``: counts stop there.  ``progress(fraction, nodes)`` is called now
    and then (returning False cancels, as does ``cancel.is_set()``).
    """

    def __init__(self, target: Target, rules: tuple, known: dict[int, Sequence[_Constraint]],
                 frontier: dict[Key, list[tuple]] | None, plies: int, cap: int,
                 progress: Callable[[float, int], bool | None] | None = None,
                 cancel: object | None = None) -> None:
        self.target = target
        self.rules = rules
        self.known = known
        self.frontier = frontier if not known.get(plies) else None
        self.plies = plies
        self.cap = max(cap, 1)
        self.progress = progress
        self.cancel = cancel
        self.memo: dict[tuple[int, int, int, int, bool, int], int] = {}
        self.nodes = 0
        self.done = 0.0
        self._last_report = 0.0

    # ------------------------------------------------------------------ progress
    def _tick(self) -> None:
        cancel = self.cancel
        if cancel is not None and cancel.is_set():  # type: ignore[attr-defined]
            raise SearchCancelled
        if self.progress is not None:
            now = time.perf_counter()
            if now - self._last_report >= 0.05:
                self._last_report = now
                if self.progress(min(self.done, 1.0), self.nodes) is False:
                    raise SearchCancelled

    # ------------------------------------------------------------------ moves
    def _moves(self, bm: int, bk: int, wm: int, wk: int, black: bool, ply: int) -> list[tuple]:
        """The legal raw moves at ``ply`` (1-based) that the constraints allow."""
        moves = legal_raw_moves(bm, bk, wm, wk, black, self.rules)
        constraints = self.known.get(ply)
        if constraints:
            moves = [mv for mv in moves
                     if all(k.matches(tuple(i + 1 for i in mv[0])) for k in constraints)]
        return moves

    # ------------------------------------------------------------------ counting
    def count(self, key: Key) -> int:
        """The number of sequences from ``key`` (at most ``cap``)."""
        return self._count(*key, self.plies, 1.0)

    def _count(self, bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int,
               weight: float) -> int:
        memo_key = (bm, bk, wm, wk, black, remaining)
        hit = self.memo.get(memo_key)
        if hit is not None:
            self.done += weight
            return hit
        self.nodes += 1
        if self.nodes == 1 or not self.nodes & 1023:
            self._tick()
        t = self.target
        if remaining == 0 or not feasible(bm, bk, wm, wk, black, remaining, t):
            found = int(remaining == 0 and (bm, bk, wm, wk, black) == t.key)
            self.memo[memo_key] = found
            self.done += weight
            return found
        if remaining == 1 and self.frontier is not None:
            found = min(len(self.frontier.get((bm, bk, wm, wk, black), ())), self.cap)
            self.memo[memo_key] = found
            self.done += weight
            return found
        moves = self._moves(bm, bk, wm, wk, black, self.plies - remaining + 1)
        if not moves:
            self.memo[memo_key] = 0
            self.done += weight
            return 0
        share = weight / len(moves)
        cap = self.cap
        nxt = not black
        below = remaining - 1
        total = 0
        for n, mv in enumerate(moves):
            nbm, nbk, nwm, nwk = apply(bm, bk, wm, wk, black, mv)
            total += self._count(nbm, nbk, nwm, nwk, nxt, below, share)
            if total >= cap:
                total = cap
                self.done += share * (len(moves) - n - 1)  # the moves not searched
                break
        self.memo[memo_key] = total
        return total

    # ------------------------------------------------------------------ listing
    def sequences(self, key: Key, limit: int) -> list[tuple[tuple, ...]]:
        """The first ``limit`` sequences (tuples of raw moves) from ``key``, in
        move-generation order; call after :meth:`count`."""
        out: list[tuple[tuple, ...]] = []
        if limit > 0 and self.memo.get((*key, self.plies)):
            self._walk(*key, self.plies, (), out, limit)
        return out

    def _walk(self, bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int,
              prefix: tuple, out: list, limit: int) -> None:
        if remaining == 0:
            out.append(prefix)
            return
        if remaining == 1 and self.frontier is not None:
            for mv in self.frontier.get((bm, bk, wm, wk, black), ()):
                out.append((*prefix, mv))
                if len(out) >= limit:
                    return
            return
        memo = self.memo
        nxt = not black
        below = remaining - 1
        for mv in self._moves(bm, bk, wm, wk, black, self.plies - remaining + 1):
            nbm, nbk, nwm, nwk = apply(bm, bk, wm, wk, black, mv)
            if memo.get((nbm, nbk, nwm, nwk, nxt, below)):
                self._walk(nbm, nbk, nwm, nwk, nxt, below, (*prefix, mv), out, limit)
                if len(out) >= limit:
                    return
