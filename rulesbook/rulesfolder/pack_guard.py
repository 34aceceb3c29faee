"""A git pack checked as it arrives, before anything inflates it whole.

A pack stores each object compressed, its inflated size written in the object's
header. A 1 GiB file of one repeated byte is about 1.3 MB packed; dulwich inflates
every object in memory while it indexes a pack, so a fetch of such a pack took a
minute and gigabytes before the data-file limit refused the file. :class:`PackGuard`
reads each header as the bytes stream in (a delta's target size from its first
inflated bytes) and stops the transfer at once when an object (a delta: the file it
makes) is larger than a data file may be, when what the pack inflates to (whole
objects, and deltas as sent) adds up to more than :data:`MAX_INFLATED_BYTES`, when
the files its deltas make add up to more than :data:`MAX_TARGET_BYTES`, when the
pack itself is over :data:`MAX_PACK_BYTES`, or when an object inflates to more than
its header said. It inflates at most 64 KiB at a time and keeps none of it.
Both ends use it: the client on every fetch, ``rulesbook serve`` on every push.
"""
from __future__ import annotations

import zlib

from ..yamlio import MAX_FILE_BYTES
from .errors import RulesFolderError

#: the largest object a pack may hold: a data file at its limit (rulesbook/limits.py)
MAX_OBJECT_BYTES = MAX_FILE_BYTES
#: the largest pack received, as sent (compressed)
MAX_PACK_BYTES = 256 * 1024 * 1024
#: the most all objects of one pack may inflate to, as sent (a delta: its payload,
#: not the file it makes): a rules folder's whole history sent with deltas is tens
#: of MB (10,000 votes of a 100-member committee: ~1 MB of ballot each, ~10 KB each
#: as deltas)
MAX_INFLATED_BYTES = 2 * 1024 * 1024 * 1024
#: the most the files a pack makes may add up to, each delta resolved to its target
#: (whole objects count too). Every version of the ballot is a whole file once
#: resolved: 10,000 votes of a 100-member committee are 10,000 versions of a ~1 MB
#: ballot, ~10 GB. Resolving costs CPU: dulwich applies each delta and hashes what it
#: makes (measured here: SHA-1 1.4 s/GB, applying 1.5 s/GB; twice, as dulwich indexes
#: a pack and then checks every object: ~6 s/GB), holding the bases of one chain at
#: a time, each at most a data file (the per-object bound). 32 GiB is three times the
#: 10,000-vote history and bounds a delta bomb at about three minutes of CPU.
MAX_TARGET_BYTES = 32 * 1024 * 1024 * 1024
#: the most objects one pack may hold
MAX_OBJECTS = 5_000_000

_OFS_DELTA, _REF_DELTA = 6, 7
_TYPES = {1: "commit", 2: "tree", 3: "blob", 4: "tag", 6: "delta", 7: "delta"}
_STEP = 64 * 1024


class PackRefused(RulesFolderError):
    """A pack (fetched or pushed) holds an object over the limits: nothing was taken."""


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):,.0f} MiB" if n >= 1024 * 1024 else f"{n:,} bytes"


class PackGuard:
    """Feed it a pack's bytes in order (:meth:`feed`); it raises :class:`PackRefused`
    as soon as what has arrived breaks a limit. ``where`` names the other side."""

    def __init__(self, where: str, *, max_object: int = MAX_OBJECT_BYTES,
                 max_pack: int = MAX_PACK_BYTES, max_inflated: int = MAX_INFLATED_BYTES,
                 max_targets: int = MAX_TARGET_BYTES, sha_length: int = 20) -> None:
        self.where = where
        self.max_object, self.max_pack, self.max_inflated = max_object, max_pack, max_inflated
        self.max_targets = max_targets
        self.sha_length = sha_length
        self.received = 0  # pack bytes seen
        self.inflated = 0  # the sum of the objects' sizes as their headers give them
        self.targets = 0  # the sum of the files the objects make (a delta: its target)
        self.objects = 0  # objects started
        self._count: int | None = None
        self._buf = bytearray()
        self._state = "pack"
        self._kind = 0
        self._size = 0
        self._out = 0  # bytes the current object inflated to so far
        self._head = bytearray()  # a delta's first inflated bytes (its two sizes)
        self._target_read = False
        self._z: zlib._Decompress | None = None

    def _refuse(self, why: str) -> None:
        raise PackRefused(f"{self.where} sent {why}; nothing was taken (a rules folder "
                          f"holds data files of at most {_mib(self.max_object)})")

    def feed(self, data: bytes) -> None:
        self.received += len(data)
        if self.received > self.max_pack:
            self._refuse(f"a pack of more than {_mib(self.max_pack)}")
        self._buf += data
        while self._step():
            pass

    def finish(self) -> None:
        """The pack ended: refuse one cut short (a later object could not be checked)."""
        if self._state not in ("pack", "done", "trailer") or \
                (self._state == "pack" and self._buf):
            self._refuse("a pack that ended in the middle of an object")

    # -- the states; each returns True when it consumed something ---------------------

    def _step(self) -> bool:
        if self._state == "pack":
            if len(self._buf) < 12:
                return False
            if self._buf[:4] != b"PACK":
                self._refuse("data that is not a git pack")
            self._count = int.from_bytes(self._buf[8:12], "big")
            if self._count > MAX_OBJECTS:
                self._refuse(f"a pack of {self._count:,} objects")
            del self._buf[:12]
            self._state = "object" if self._count else "trailer"
            return True
        if self._state == "object":
            return self._object_header()
        if self._state == "base":
            return self._delta_base()
        if self._state == "data":
            return self._data()
        if self._state == "trailer":
            if len(self._buf) >= self.sha_length:
                del self._buf[:self.sha_length]
                self._state = "done"
            return False
        if self._buf:  # after the trailer
            self._refuse("data after the end of its pack")
        return False

    def _object_header(self) -> bool:
        end = next((i for i, b in enumerate(self._buf[:16]) if not b & 0x80), None)
        if end is None:
            if len(self._buf) >= 16:
                self._refuse("an object header that does not end")
            return False
        first = self._buf[0]
        self._kind = (first >> 4) & 7
        size, shift = first & 0x0F, 4
        for b in self._buf[1:end + 1]:
            size |= (b & 0x7F) << shift
            shift += 7
        del self._buf[:end + 1]
        if self._kind not in _TYPES:
            self._refuse(f"an object of unknown type {self._kind}")
        self.objects += 1
        self._size, self._out = size, 0
        self._head.clear()
        self._target_read = False
        if self._kind in (_OFS_DELTA, _REF_DELTA):
            if size > self.max_object + 64:  # a delta is never much larger than its target
                self._refuse(f"a delta of {_mib(size)}")
        else:
            self._check(size, size, _TYPES[self._kind])
        self._state = "base" if self._kind in (_OFS_DELTA, _REF_DELTA) else "data"
        self._z = zlib.decompressobj()
        return True

    def _check(self, size: int, payload: int, kind: str) -> None:
        """One object making a file of ``size`` bytes from ``payload`` inflated bytes
        (a whole object: the two are one)."""
        if size > self.max_object:
            self._refuse(f"a {kind} of {_mib(size)}")
        self.inflated += payload
        if self.inflated > self.max_inflated:
            self._refuse(f"objects that inflate to more than {_mib(self.max_inflated)}")
        self.targets += size
        if self.targets > self.max_targets:
            self._refuse(f"deltas that make files adding up to more than "
                         f"{_mib(self.max_targets)}")

    def _delta_base(self) -> bool:
        if self._kind == _REF_DELTA:
            if len(self._buf) < self.sha_length:
                return False
            del self._buf[:self.sha_length]
        else:
            end = next((i for i, b in enumerate(self._buf[:16]) if not b & 0x80), None)
            if end is None:
                return False
            del self._buf[:end + 1]
        self._state = "data"
        return True

    def _data(self) -> bool:
        assert self._z is not None
        if not self._buf:
            return False
        out = self._z.decompress(bytes(self._buf), _STEP)
        while True:
            self._inflated(out)
            if self._z.eof or not self._z.unconsumed_tail:
                break
            out = self._z.decompress(self._z.unconsumed_tail, _STEP)
        if self._z.eof:
            rest = self._z.unused_data
            self._buf = bytearray(rest)
            if self._out != self._size:
                self._refuse(f"an object that inflates to {self._out:,} bytes where its "
                             f"header says {self._size:,}")
            self._state = "object" if self.objects < (self._count or 0) else "trailer"
            return True
        self._buf.clear()
        return False

    def _inflated(self, out: bytes) -> None:
        self._out += len(out)
        if self._out > self._size:
            self._refuse(f"an object that inflates to more than its header says "
                         f"({self._size:,} bytes)")
        if self._kind in (_OFS_DELTA, _REF_DELTA) and not self._target_read:
            self._head += out[:20]
            target = _delta_target(bytes(self._head))
            if target is None and (len(self._head) >= 20 or self._out >= self._size):
                self._refuse("a delta whose sizes cannot be read")
            if target is not None:
                self._target_read = True
                self._check(target, self._size, "file (a delta)")


def _delta_target(head: bytes) -> int | None:
    """A delta's target size: its second varint (None until both have arrived)."""
    pos = 0
    sizes = []
    for _ in range(2):
        value = shift = 0
        while True:
            if pos >= len(head):
                return None
            b = head[pos]
            pos += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        sizes.append(value)
    return sizes[1]
