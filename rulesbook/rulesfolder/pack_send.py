"""The packs Rulesbook sends (every push; a fetch or clone from a folder on this
computer; ``rulesbook serve``'s upload-pack), with each version of a file sent as
a delta against the next newer version of the same file, as git sends them.

dulwich sends every object whole unless a delta is already stored (its own
deltification is off by default, and would keep every object of the pack in
memory to sort them). A ballot of a 100-member committee is ~1 MB, rewritten at
every vote: 10,000 votes were ~10 GB of blobs, a pack of more than 256 MiB that
a clone refused. Sent as deltas, each version costs about what the vote changed.

Versions are walked newest first (the newest is whole, so reading the folder as
it is now never resolves a delta); a chain is at most :data:`MAX_DEPTH` deltas
long (git's ``pack.depth``), so reading any old version resolves at most that
many. Only two versions are held in memory at a time.
"""
from __future__ import annotations

import stat
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set

from dulwich.object_store import BaseObjectStore, MissingObjectFinder
from dulwich.objects import S_ISGITLINK, Commit, ObjectID, Tree
from dulwich.pack import (
    OFS_DELTA,
    REF_DELTA,
    UnpackedObject,
    full_unpacked_object,
    write_pack_data,
)
from dulwich.refs import Ref
from dulwich.repo import Repo
from dulwich.server import CAPABILITY_NO_DONE, UploadPackHandler, _ProtocolGraphWalker

from .delta import create_delta
from .object_sizes import DAMAGED
from .pack_guard import PackRefused

#: the longest chain of deltas sent (git's default ``pack.depth``)
MAX_DEPTH = 50
#: objects smaller than this are sent whole (a delta would save nothing)
MIN_DELTA_BYTES = 64

PackHint = tuple[int, bytes | None] | None


def missing_objects(store: BaseObjectStore, have: Iterable[ObjectID],
                    want: Iterable[ObjectID], shallow: Set[ObjectID] | None = None
                    ) -> list[tuple[ObjectID, PackHint]]:
    """The objects reachable from ``want`` and not from ``have`` (dulwich's finder)."""
    return list(MissingObjectFinder(store, haves=have, wants=want, shallow=shallow))


def deltified(store: BaseObjectStore, object_ids: Sequence[tuple[ObjectID, PackHint]]
              ) -> tuple[int, Iterator[UnpackedObject]]:
    """Pack records for ``object_ids`` (as dulwich's ``generate_pack_data`` returns
    them: the count, then the records), files and folders as delta chains."""
    todo = {oid for oid, _hint in object_ids}
    commits = [oid for oid, hint in object_ids if hint and hint[0] == Commit.type_num]
    return len(todo), _records(store, [oid for oid, _hint in object_ids], commits, todo)


def _sha(oid: ObjectID) -> bytes:
    return bytes.fromhex(oid.decode("ascii"))


def _newest_first(store: BaseObjectStore, ids: list[ObjectID]) -> list[Commit]:
    """The commits ``ids``, each before its parents (children first)."""
    commits: dict[ObjectID, Commit] = {}
    for oid in ids:
        obj = store[oid]
        if isinstance(obj, Commit):
            commits[oid] = obj
    children: dict[ObjectID, int] = dict.fromkeys(commits, 0)
    for commit in commits.values():
        for parent in commit.parents:
            if parent in children:
                children[parent] += 1
    ready = [oid for oid, n in children.items() if n == 0]
    ready.sort(key=lambda oid: commits[oid].commit_time)
    order: list[Commit] = []
    while ready:
        oid = ready.pop()
        commit = commits[oid]
        order.append(commit)
        for parent in reversed(commit.parents):
            if parent in children:
                children[parent] -= 1
                if children[parent] == 0:
                    ready.append(parent)
    return order


def _walk_tree(store: BaseObjectStore, tree_id: ObjectID, path: bytes,
               todo: set[ObjectID], placed: set[ObjectID],
               versions: dict[bytes, list[ObjectID]]) -> None:
    """Record each tree and file under ``tree_id`` still to send, under its path (a
    tree already placed or not sent: the receiver gets or has all it holds)."""
    stack = [(tree_id, path)]
    while stack:
        oid, where = stack.pop()
        if oid not in todo or oid in placed:
            continue
        placed.add(oid)
        versions.setdefault(b"/" + where, []).append(oid)
        tree = store[oid]
        if not isinstance(tree, Tree):
            continue
        for name, mode, sha in tree.iteritems():
            if mode is None or name is None or sha is None or S_ISGITLINK(mode):
                continue
            sub = where + b"/" + name if where else name
            if stat.S_ISDIR(mode):
                stack.append((sha, sub))
            elif sha in todo and sha not in placed:
                placed.add(sha)
                versions.setdefault(sub, []).append(sha)


def _records(store: BaseObjectStore, ids: list[ObjectID], commits: list[ObjectID],
             todo: set[ObjectID]) -> Iterator[UnpackedObject]:
    placed: set[ObjectID] = set()
    versions: dict[bytes, list[ObjectID]] = {}
    for commit in _newest_first(store, commits):
        placed.add(commit.id)
        yield full_unpacked_object(commit)
        _walk_tree(store, commit.tree, b"", todo, placed, versions)
    sent: set[bytes] = set()
    stored_as = _Stored(store)
    for chain in versions.values():
        yield from _chain(store, chain, sent, stored_as)
    for oid in ids:  # anything else (a tag, an object wanted by itself): whole
        if oid not in placed:
            placed.add(oid)
            yield full_unpacked_object(store[oid])


class _Stored:
    """How the store keeps an object: a delta (its base's id and payload) or whole;
    None: loose. dulwich's own lookup of a delta's base id scans the pack's whole
    index (a clone of 1,200 commits spent 43 s in it); the offsets are read once."""

    def __init__(self, store: BaseObjectStore) -> None:
        self.packs = list(getattr(store, "packs", ()))
        self.ids: dict[int, dict[int, bytes]] = {}

    def __call__(self, sha: bytes) -> UnpackedObject | None:
        for pack in self.packs:
            try:
                offset = pack.index.object_offset(sha)
            except KeyError:
                continue
            unpacked: UnpackedObject = pack.data.get_unpacked_object_at(offset)
            if unpacked.pack_type_num == OFS_DELTA:
                ids = self.ids.get(id(pack))
                if ids is None:
                    ids = self.ids[id(pack)] = {
                        off: name for name, off, _crc in pack.index.iterentries()}
                base = ids.get(offset - unpacked.delta_base)
                if base is None:
                    return None
                unpacked.delta_base, unpacked.pack_type_num = base, REF_DELTA
            return unpacked
        return None


def _chain(store: BaseObjectStore, chain: list[ObjectID], sent: set[bytes],
           stored_as: _Stored) -> Iterator[UnpackedObject]:
    """The versions of one path, newest first. A version the store keeps as a delta
    against one already in this pack is sent as it is stored (nothing inflated or
    computed: a clone of a clone); any other is a delta against the one before it
    when that is less than half its size, chains at most MAX_DEPTH deep."""
    base: bytes | None = None
    base_oid: ObjectID | None = None
    depth = 0
    for oid in chain:
        sha = _sha(oid)
        stored = stored_as(sha)
        if stored is not None and stored.pack_type_num == REF_DELTA and \
                stored.delta_base in sent and depth < MAX_DEPTH:
            depth += 1
            sent.add(sha)
            yield UnpackedObject(REF_DELTA, sha=sha, delta_base=stored.delta_base,
                                 decomp_chunks=stored.decomp_chunks)
            base, base_oid = None, oid
            continue
        if stored is not None and stored.pack_type_num not in (REF_DELTA, OFS_DELTA):
            type_num, raw = stored.pack_type_num, b"".join(stored.decomp_chunks)
        else:
            type_num, raw = store.get_raw(oid)
        delta = None
        if base_oid is not None and depth < MAX_DEPTH and len(raw) >= MIN_DELTA_BYTES:
            if base is None:
                base = store.get_raw(base_oid)[1]
            delta = create_delta(base, raw)
            if len(delta) >= len(raw) // 2:
                delta = None
        sent.add(sha)
        if delta is None:
            depth = 0
            yield UnpackedObject(type_num, sha=sha, decomp_chunks=[raw])
        else:
            depth += 1
            yield UnpackedObject(type_num, sha=sha, delta_base=_sha(base_oid),  # type: ignore[arg-type]
                                 decomp_len=len(delta), decomp_chunks=[delta])
        base, base_oid = raw, oid


def local_fetch_pack(path: str, determine_wants: Callable[..., list[ObjectID]],
                     graph_walker: object, write: Callable[[bytes], object],
                     check: Callable[[BaseObjectStore, list[tuple[ObjectID, PackHint]]],
                                     None] | None = None,
                     where: str = "the source folder") -> Mapping[Ref, ObjectID | None]:
    """dulwich's ``LocalGitClient.fetch_pack`` (a fetch from a folder on this
    computer), the pack made by :func:`deltified`; the source's refs. ``check`` sees
    the source's store and the objects to send, each with its type, before any is
    read (:func:`.object_sizes.check_source`, :func:`.pack_guard.check_counts`)."""
    with Repo(path) as source:
        missing = source.find_missing_objects(determine_wants, graph_walker,  # type: ignore[arg-type]
                                              None)
        ids = list(missing) if missing is not None else []
        damaged = None
        try:
            if check is not None:
                check(source.object_store, ids)
            count, records = deltified(source.object_store, ids)
            write_pack_data(write, records, num_records=count,  # type: ignore[arg-type]
                            object_format=source.object_format)
        except PackRefused:
            raise
        except DAMAGED as exc:  # the traceback (holding the pack's memory map) let go
            damaged = str(exc) or type(exc).__name__
        if damaged is not None:
            raise PackRefused(f"{where} holds a damaged object, one that cannot be read "
                              f"back as it says ({damaged}); nothing was taken")
        return dict(source.get_refs())


class DeltaUploadPack(UploadPackHandler):
    """dulwich's upload-pack (a clone or fetch from ``rulesbook serve``), the pack
    made by :func:`deltified`. ``handle`` is dulwich's (1.2), less partial clones
    (a filter is left to dulwich's own, whole-object, pack)."""

    def handle(self) -> None:
        if self.filter_spec is not None:
            super().handle()
            return
        self._processing_have_lines = True
        graph_walker = _ProtocolGraphWalker(self, self.repo.object_store,
                                            self.repo.get_peeled,
                                            self.repo.refs.get_symrefs)
        wants: list[ObjectID] = []

        def wants_wrapper(refs: Mapping[Ref, ObjectID], depth: int | None = None
                          ) -> list[ObjectID]:
            wants.extend(graph_walker.determine_wants(refs, depth))
            return wants

        missing = self.repo.find_missing_objects(wants_wrapper, graph_walker,
                                                 self.progress, get_tagged=self.get_tagged)
        if not wants or missing is None:
            return
        ids = list(missing)
        if not graph_walker.handle_done(not self.has_capability(CAPABILITY_NO_DONE),
                                        self._done_received):
            return
        self._start_pack_send_phase()
        count, records = deltified(self.repo.object_store, ids)
        write_pack_data(self.write_pack_data, records, num_records=count,
                        object_format=self.repo.object_format)
        self.proto.write_pkt_line(None)
