"""Which commit descends from which, exactly, whatever the commits' clocks say.

dulwich's ``can_fast_forward`` and ``find_merge_base`` order their walk by commit
time and assume a commit is never visited before its descendants. Commits made in
the same second (a member's vote and the sync that follows it) or on machines whose
clocks differ break that assumption, and both functions then answer wrongly: a sync
took a remote that had only moved forward for one rewritten by a force push, and a
merge base can be missed (checked against every pair of commits of random histories
in ``tests/rulesfolder/test_ancestry.py``). These walks use the commit time only to
choose what to visit first; the answer never depends on it.
"""
from __future__ import annotations

import heapq
from collections.abc import Iterable

from dulwich.objects import Commit, ObjectID
from dulwich.repo import BaseRepo


class _Commits:
    """The parents and commit times of the commits a walk reads, each read once."""

    def __init__(self, repo: BaseRepo) -> None:
        self._store = repo.object_store
        self._parents = repo.parents_provider()
        self._time: dict[ObjectID, int] = {}
        self._parent_ids: dict[ObjectID, list[ObjectID]] = {}

    def _read(self, commit: ObjectID) -> None:
        obj = self._store[commit]
        if not isinstance(obj, Commit):
            raise KeyError(commit)
        self._time[commit] = obj.commit_time
        self._parent_ids[commit] = list(self._parents.get_parents(commit, commit=obj))

    def time(self, commit: ObjectID) -> int:
        if commit not in self._time:
            self._read(commit)
        return self._time[commit]

    def parents(self, commit: ObjectID) -> list[ObjectID]:
        """The commit's parents that this repository holds (a shallow clone's
        boundary has none)."""
        if commit not in self._parent_ids:
            self._read(commit)
        return [p for p in self._parent_ids[commit] if p in self._store]


def is_ancestor(repo: BaseRepo, ancestor: ObjectID, head: ObjectID) -> bool:
    """True when ``ancestor`` is ``head`` or one of its ancestors; False too when
    either commit is not in the repository."""
    if ancestor == head:
        return True
    commits = _Commits(repo)
    try:
        commits.time(ancestor)
        queue = [(-commits.time(head), head)]
    except KeyError:
        return False
    seen = {head}
    while queue:
        _stamp, commit = heapq.heappop(queue)
        for parent in commits.parents(commit):
            if parent == ancestor:
                return True
            if parent not in seen:
                seen.add(parent)
                heapq.heappush(queue, (-commits.time(parent), parent))
    return False


_ONE, _TWO, _STALE = 1, 2, 4


def merge_bases(repo: BaseRepo, one: ObjectID, two: ObjectID) -> list[ObjectID]:
    """The best common ancestors of ``one`` and ``two`` (those that are not an
    ancestor of another common ancestor), newest first; ``[one]`` when ``one`` is an
    ancestor of ``two`` (and the other way round); empty when they share none."""
    if one == two:
        return [one]
    commits = _Commits(repo)
    flags = {one: _ONE, two: _TWO}
    queue = [(-commits.time(one), one), (-commits.time(two), two)]
    found: list[ObjectID] = []
    # git's paint-down-to-common: a commit reached from both sides is common, and what
    # lies below it is stale; a commit is queued again whenever it gains a flag, so
    # the order of the walk changes only how long it takes
    while any(not flags[c] & _STALE for _stamp, c in queue):
        _stamp, commit = heapq.heappop(queue)
        mark = flags[commit] & (_ONE | _TWO | _STALE)
        if mark == _ONE | _TWO:
            if commit not in found:
                found.append(commit)
            mark |= _STALE
        for parent in commits.parents(commit):
            have = flags.get(parent, 0)
            if have & mark == mark:
                continue
            flags[parent] = have | mark
            heapq.heappush(queue, (-commits.time(parent), parent))
    # a result found stale later lies below another result; the walk's order can
    # still leave one result an ancestor of another, which the last step removes
    bases = [c for c in found if not flags[c] & _STALE]
    return _newest_first(commits, _without_ancestors(repo, bases))


def _without_ancestors(repo: BaseRepo, candidates: Iterable[ObjectID]) -> list[ObjectID]:
    """The candidates none of the others descends from (git's remove_redundant)."""
    unique = list(dict.fromkeys(candidates))
    return [c for c in unique
            if not any(other != c and is_ancestor(repo, c, other) for other in unique)]


def _newest_first(commits: _Commits, found: list[ObjectID]) -> list[ObjectID]:
    return sorted(found, key=lambda c: (-commits.time(c), c))
