"""A received pack indexed with each chain of deltas bounded as dulwich resolves it.

:class:`.pack_guard.PackGuard` follows a chain as the pack streams only through OFS
deltas (a base named by its offset). A REF delta names its base by id: when the
receiver has that object, the guard counts the chain from it (the base and the file
the delta makes); when it does not, the base may be an object of the same pack (or
nowhere: the pack is refused here, naming it). dulwich resolves a base the pack itself holds from the pack,
going on down a chain the pack re-sends as deltas, every base of it held while a
delta made from it waits (pack_guard.MAX_CHAIN_BYTES). :class:`ChainBoundIndexer`
is dulwich's indexer adding up the bytes of each chain as it resolves it (the
object, its base, its base's base...) and refusing the pack once they are more than
:data:`.pack_guard.MAX_CHAIN_BYTES`, before the next base is made;
:func:`add_bounded_thin_pack` stores a fetched pack with it, and
:class:`BoundedStore` (``rulesbook serve``'s quarantine) a pushed one.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from itertools import chain as chained
from typing import Any

from dulwich.object_store import PACK_MODE, DiskObjectStore, _bound_read_callables
from dulwich.pack import (
    Pack,
    PackData,
    PackIndexEntry,
    PackIndexer,
    PackStreamCopier,
    UnresolvedDeltas,
    chunks_length,
)

from .pack_guard import MAX_CHAIN_BYTES, PackRefused, mib


class ChainBoundIndexer(PackIndexer):
    """dulwich's :class:`PackIndexer`, refusing a chain of deltas whose files add up
    to more than ``max_chain`` bytes as it resolves it."""

    def __init__(self, *args: Any, where: str, max_chain: int = MAX_CHAIN_BYTES,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.where, self.max_chain = where, max_chain
        self.longest_chain = 0  # the most bytes of files one chain made

    def _follow_chain(self, offset: int, obj_type_num: int,
                      base_chunks: bytes | list[bytes] | None) -> Iterator[PackIndexEntry]:
        # dulwich's own walk (pack.DeltaChainIterator._follow_chain), each object
        # carrying the bytes of its chain: it and every base it was made from
        held = 0 if base_chunks is None else chunks_length(base_chunks)
        todo: list[tuple[int, int, bytes | list[bytes] | None, int]] = [
            (offset, obj_type_num, base_chunks, held)]
        while todo:
            offset, obj_type_num, base_chunks, held = todo.pop()
            unpacked = self._resolve_object(offset, obj_type_num, base_chunks)
            chunks, kind = unpacked.obj_chunks, unpacked.obj_type_num
            assert chunks is not None and kind is not None
            made = held + chunks_length(chunks)
            if made > self.max_chain:
                raise PackRefused(
                    f"{self.where} sent a chain of deltas making {mib(made)} of files, "
                    f"each kept in memory until the last is made (at most "
                    f"{mib(self.max_chain)}); nothing was taken")
            self.longest_chain = max(self.longest_chain, made)
            yield self._result(unpacked)
            assert unpacked.offset is not None
            unblocked = chained(self._pending_ofs.pop(unpacked.offset, []),
                                self._pending_ref.pop(unpacked.sha(), []))
            todo.extend((at, kind, chunks, made) for at in unblocked)


def add_bounded_thin_pack(store: DiskObjectStore, read_all: Callable[[int], bytes],
                          read_some: Callable[[int], bytes] | None, where: str, *,
                          max_chain: int = MAX_CHAIN_BYTES,
                          max_input_size: int | None = None) -> Pack:
    """``store.add_thin_pack`` (dulwich's, line for line) with a
    :class:`ChainBoundIndexer`: raises :class:`.pack_guard.PackRefused` (nothing
    stored) when a chain makes more than ``max_chain`` bytes of files."""
    import os
    import tempfile

    if max_input_size:
        read_all, read_some = _bound_read_callables(read_all, read_some, max_input_size)
    fd, path = tempfile.mkstemp(dir=store.path, prefix="tmp_pack_")
    try:
        with os.fdopen(fd, "w+b") as f:
            os.chmod(path, PACK_MODE)
            indexer = ChainBoundIndexer(f, store.object_format.hash_func,
                                        resolve_ext_ref=store.get_raw, where=where,
                                        max_chain=max_chain)
            copier = PackStreamCopier(store.object_format.hash_func, read_all, read_some, f,
                                      delta_iter=indexer)  # type: ignore[arg-type]
            copier.verify()
            f.flush()
            f.seek(0)
            with PackData(path, file=f, object_format=store.object_format) as data:
                indexer.set_pack_data(data)
                try:
                    entries, ext_refs = store._index_pack(indexer, len(copier))
                except UnresolvedDeltas as exc:  # a REF delta's base is nowhere
                    missing = ", ".join(sha.decode("ascii", "replace") for sha in exc.shas[:3])
                    raise PackRefused(
                        f"{where} sent a delta against {missing}, an object this folder "
                        f"does not have and the pack does not hold; nothing was taken") from None
            return store._complete_pack(f, path, entries, ext_refs)
    finally:
        if os.path.exists(path):  # refused or broken off: the temporary pack goes
            with contextlib.suppress(OSError):
                os.chmod(path, 0o644)
                os.remove(path)


class BoundedStore(DiskObjectStore):
    """A store whose received packs are indexed with :class:`ChainBoundIndexer`; a
    refusal is an :class:`OSError`, which dulwich's receive-pack reports as the
    push's unpack status (moving no ref)."""

    where = "the push"

    def add_thin_pack(self, read_all: Callable[[int], bytes],
                      read_some: Callable[[int], bytes] | None,
                      progress: Callable[..., None] | None = None, *,
                      max_input_size: int | None = None) -> Pack:
        try:
            return add_bounded_thin_pack(self, read_all, read_some, self.where,
                                         max_input_size=max_input_size)
        except PackRefused as exc:
            raise OSError(str(exc)) from None
