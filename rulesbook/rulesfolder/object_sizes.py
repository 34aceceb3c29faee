"""Objects' sizes read from their headers, never inflating them whole, and a folder
on this computer (a local-path remote) checked before anything of it is read.

A stored object says its size before its data: a loose object in the first bytes
it inflates to (``blob 1234\\0``), a packed one in its pack header (a delta: the
size of the file it makes, in the first bytes its payload inflates to). A commit's
files can be added up from these (:func:`stored_size`) before any is written out.

A fetch from a folder on this computer builds the pack it takes from the source's
own objects (:func:`.pack_send.local_fetch_pack`): dulwich inflates each whole
before :class:`.pack_guard.PackGuard` sees it, so a 1 GiB loose file took 1 GB of
memory before it was refused, and an object that inflates to more than its header
says stopped dulwich mid-read. :func:`check_source` reads every loose object the
fetch wants by its header (refusing one over the data-file limit, and one that
inflates to more than it says), and streams every pack of the source holding one
through a :class:`PackGuard` (as a network fetch is), before the pack is built.
"""
from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Iterable

from dulwich.errors import ApplyDeltaError, ChecksumMismatch, ObjectFormatException
from dulwich.object_store import BaseObjectStore
from dulwich.objects import ObjectID

from .pack_guard import MAX_OBJECT_BYTES, PackGuard, PackRefused, delta_sizes, mib

#: what dulwich raises on a pack (or a source folder's objects) it cannot read back
DAMAGED = (zlib.error, ApplyDeltaError, ChecksumMismatch, ObjectFormatException, ValueError,
           AssertionError, IndexError)
_OFS_DELTA, _REF_DELTA = 6, 7
_HEAD = 4096  # bytes read of an object to know its size
_STEP = 64 * 1024


def _packed_head(path: str, offset: int, sha_length: int = 20
                 ) -> tuple[int, int, int | bytes | None, bytes]:
    """The object at ``offset`` of pack ``path``: its pack type, its size as its header
    gives it, its base (a delta: the base's offset, or its binary id) and the bytes
    read after its header."""
    with open(path, "rb") as f:
        f.seek(offset)
        head = f.read(_HEAD)
    pos = 0
    byte = head[pos]
    kind, size, shift = (byte >> 4) & 7, byte & 0x0F, 4
    while byte & 0x80:
        pos += 1
        byte = head[pos]
        size |= (byte & 0x7F) << shift
        shift += 7
    pos += 1
    base: int | bytes | None = None
    if kind == _REF_DELTA:
        base = head[pos:pos + sha_length]
        pos += sha_length
    elif kind == _OFS_DELTA:
        ofs = head[pos] & 0x7F  # git's offset encoding (each byte after: +1)
        while head[pos] & 0x80:
            pos += 1
            ofs = ((ofs + 1) << 7) | (head[pos] & 0x7F)
        pos += 1
        base = offset - ofs
    return kind, size, base, head[pos:]


def _packed_size(path: str, offset: int, sha_length: int = 20) -> int:
    """The size of the file the object at ``offset`` of pack ``path`` makes."""
    kind, size, _base, rest = _packed_head(path, offset, sha_length)
    if kind not in (_OFS_DELTA, _REF_DELTA):
        return size
    sizes = delta_sizes(zlib.decompressobj().decompress(rest, 32))
    if sizes is None:
        raise ValueError("a delta whose sizes cannot be read")
    return sizes[1]


def _loose_header(path: str) -> tuple[str, int]:
    """A loose object's kind and size (its first inflated bytes)."""
    with open(path, "rb") as f:
        head = zlib.decompressobj().decompress(f.read(_HEAD), 64)
    kind, _, rest = head.partition(b" ")
    size = rest.partition(b"\0")[0]
    if not size.isdigit():
        raise ValueError("a loose object whose header cannot be read")
    return kind.decode("ascii", "replace"), int(size)


def _loose_path(store: BaseObjectStore, oid: ObjectID) -> str | None:
    find = getattr(store, "_get_shafile_path", None)
    if find is None:
        return None
    path: str = find(oid)
    return path if os.path.isfile(path) else None


def stored_size(store: BaseObjectStore, oid: ObjectID) -> int | None:
    """The size of the file object ``oid`` is (a delta: the file it makes), from its
    header; None when the store does not have it (or keeps it elsewhere)."""
    sha = bytes.fromhex(oid.decode("ascii"))
    for pack in getattr(store, "packs", ()):
        try:
            offset = pack.index.object_offset(sha)
        except KeyError:
            continue
        return _packed_size(pack._data_path, offset, len(sha))
    loose = _loose_path(store, oid)
    if loose:
        return _loose_header(loose)[1]
    for alternate in getattr(store, "alternates", ()):
        size = stored_size(alternate, oid)
        if size is not None:
            return size
    return None


_KINDS = {"commit": 1, "tree": 2, "blob": 3, "tag": 4}
#: the longest chain of deltas followed to find an object's type
_MAX_HOPS = 10_000


def _packed_kind(store: BaseObjectStore, sha: bytes) -> int | bytes | None:
    """The type of packed object ``sha`` (its OFS chain followed), or the id of the
    base its chain ends on by id (a REF delta); None: not in a pack of ``store``."""
    for pack in getattr(store, "packs", ()):
        try:
            offset = pack.index.object_offset(sha)
        except KeyError:
            continue
        for _ in range(_MAX_HOPS):
            kind, _size, base, _rest = _packed_head(pack._data_path, offset, len(sha))
            if base is None:
                return kind
            if isinstance(base, bytes):
                return base
            offset = base
        raise ValueError(f"a chain of more than {_MAX_HOPS:,} deltas")
    return None


def stored_kind(store: BaseObjectStore, oid: ObjectID) -> int | None:
    """The type number of object ``oid`` (a delta: of the object its chain ends on),
    read from the headers only; None when the store does not have it."""
    sha = bytes.fromhex(oid.decode("ascii"))
    for _ in range(_MAX_HOPS):
        found = _packed_kind(store, sha)
        if isinstance(found, int):
            return found
        if found is None:
            hex_id = ObjectID(sha.hex().encode("ascii"))
            loose = _loose_path(store, hex_id)
            if loose:
                return _KINDS.get(_loose_header(loose)[0])
            for alternate in getattr(store, "alternates", ()):
                kind = stored_kind(alternate, hex_id)
                if kind is not None:
                    return kind
            return None
        sha = found  # a REF delta: its base, wherever it is stored
    raise ValueError(f"a chain of more than {_MAX_HOPS:,} deltas")


def kinds_in(store: BaseObjectStore) -> Callable[[bytes], int | None]:
    """What :class:`.pack_guard.PackGuard` asks of a receiver (``kind_of``): the type
    of an object ``store`` has, by its binary id (None: it does not have it)."""
    known: dict[bytes, int | None] = {}

    def kind(sha: bytes) -> int | None:
        if sha not in known:
            oid = ObjectID(sha.hex().encode("ascii"))
            found = stored_kind(store, oid)
            if found is None and oid in store:  # kept elsewhere than a pack or a file
                found = store[oid].type_num
            known[sha] = found
        return known[sha]
    return kind


def _check_loose(path: str, where: str, max_object: int) -> None:
    kind, size = _loose_header(path)
    if size > max_object:
        raise PackRefused(f"{where} holds a {kind} of {mib(size)}; nothing was taken (a "
                          f"rules folder holds data files of at most {mib(max_object)})")
    z = zlib.decompressobj()
    out = 0
    with open(path, "rb") as f:
        while not z.eof:
            data = z.unconsumed_tail or f.read(_STEP)
            if not data:
                break
            out += len(z.decompress(data, _STEP))
            if out > size + 64:  # the header itself is a few bytes more
                raise PackRefused(f"{where} holds an object that inflates to more than "
                                  f"its header says ({size:,} bytes); nothing was taken")


def _holds(pack: object, sha: bytes) -> bool:
    try:
        pack.index.object_offset(sha)  # type: ignore[attr-defined]
    except KeyError:
        return False
    return True


def check_source(store: BaseObjectStore, oids: Iterable[ObjectID], where: str,
                 max_object: int = MAX_OBJECT_BYTES) -> None:
    """Raise :class:`PackRefused` (naming ``where``) when an object ``oids`` names, as
    the source folder stores it, breaks the limits a fetched pack is held to."""
    packs = list(getattr(store, "packs", ()))
    needed: dict[int, object] = {}
    for oid in oids:
        sha = bytes.fromhex(oid.decode("ascii"))
        for pack in packs:
            if _holds(pack, sha):  # (``in`` scans the whole index: 10,000 ids, 2 min)
                needed.setdefault(id(pack), pack)
                break
        else:
            loose = _loose_path(store, oid)
            if loose is not None:
                _check_loose(loose, where, max_object)
    for pack in needed.values():
        guard = PackGuard(where, max_object=max_object)  # has=None: a pack on disk is whole
        with open(pack._data_path, "rb") as f:  # type: ignore[attr-defined]
            while chunk := f.read(1024 * 1024):
                guard.feed(chunk)
        guard.finish()
