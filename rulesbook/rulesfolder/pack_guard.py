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
pack itself is over :data:`MAX_PACK_BYTES`, when one chain of deltas makes more than
:data:`MAX_CHAIN_BYTES` of files (dulwich holds them all at once), when the files its
REF deltas make add up to more than :data:`MAX_REF_TARGET_BYTES`, when an object
inflates to more than its header said, or (given the bounds of one commit, and what
each commit after the first brings on average) when its files, its objects or its
trees' entries are more than its commits may hold: a commit
of 200,000 files (14 MB packed) was refused only once dulwich had indexed it (26 s,
314 MB) and is now as it streams (about 2 s). It inflates at most 64 KiB at a time and
keeps none of it (of a tree: its entries counted; of a commit: its tree's id); of each
object it keeps its offset and the bytes of its chain.
Both ends use it: the client on every fetch, ``rulesbook serve`` on every push.
A REF delta names its base by id, which only resolving the pack can match to a delta
of the same pack: such a chain is not followed here, only the files its deltas make
added up (:data:`MAX_REF_TARGET_BYTES`); :mod:`.chain_bound` bounds every chain by
:data:`MAX_CHAIN_BYTES` as dulwich resolves it.
"""
from __future__ import annotations

import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable

from ..plural import counted
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
#: the most the files of one chain of deltas may add up to (an object, its base, its
#: base's base... to a whole object: each a file). dulwich resolves a pack's deltas
#: depth first and holds every base of the chain it is in while a delta made from it
#: waits: a pack of a chain of deltas each making a 8 MiB file, each also the base of
#: a delta sent before the next, 100 deep, took 871 MiB to store (a plain chain:
#: 71 MiB; bench/bench_delta_chains.py), and within the other bounds such a chain
#: could be 800 deep of 20 MiB files, 16 GiB. git (``pack.depth``) and Rulesbook
#: (pack_send.MAX_DEPTH) make chains of at most 50 deltas: with their base, 51 files
#: at the data-file limit. A ballot of a 100-member committee (~1 MB) makes chains
#: of ~50 MB. A plain chain deeper than 50 of files at the limit is refused too
#: (telling it from a caterpillar needs the objects still to come).
MAX_CHAIN_BYTES = (50 + 1) * MAX_OBJECT_BYTES
#: the most the files REF deltas make may add up to. A REF delta names its base by
#: id, which could be any object of the pack, so its chain cannot be followed as the
#: pack streams. Rulesbook sends a delta against an object of the same pack as an
#: OFS delta (by offset), and so does git to a receiver that asks for it (a fetch
#: asks: transport.guarded_fetch; a push from git is offered it); git sends REF
#: deltas only in a thin pack, against a version the receiver has: one per file
#: changed since the last sync, at most 20 MiB each; 1 GiB is 1,000 ballots of ~1 MB
#: changed at once. A REF delta's chain is counted from the base's size its delta
#: gives (the base, read from the receiver's store, is held too); given ``kind_of``,
#: its base's type is known when the receiver has it. A base the receiver lacks may
#: be an object of the same pack (a sender not asked for OFS deltas, e.g. ``git
#: pack-objects`` without ``--delta-base-offset``): the indexing resolves it, or
#: refuses the pack when it is not there (chain_bound.add_bounded_thin_pack).
MAX_REF_TARGET_BYTES = 1024 * 1024 * 1024
#: the most objects one pack may hold
MAX_OBJECTS = 5_000_000

_COMMIT, _TREE, _BLOB, _TAG, _OFS_DELTA, _REF_DELTA = 1, 2, 3, 4, 6, 7
_TYPES = {1: "commit", 2: "tree", 3: "blob", 4: "tag", 6: "delta", 7: "delta"}
_STEP = 64 * 1024


class PackRefused(RulesFolderError):
    """A pack (fetched or pushed) holds an object over the limits: nothing was taken."""


def mib(n: int) -> str:
    return f"{n / (1024 * 1024):,.0f} MiB" if n >= 1024 * 1024 else f"{n:,} bytes"


class PackGuard:
    """Feed it a pack's bytes in order (:meth:`feed`); it raises :class:`PackRefused`
    as soon as what has arrived breaks a limit. ``where`` names the other side."""

    def __init__(self, where: str, *, max_object: int = MAX_OBJECT_BYTES,
                 max_pack: int = MAX_PACK_BYTES, max_inflated: int = MAX_INFLATED_BYTES,
                 max_targets: int = MAX_TARGET_BYTES, max_chain: int = MAX_CHAIN_BYTES,
                 max_ref_targets: int = MAX_REF_TARGET_BYTES, sha_length: int = 20,
                 kind_of: Callable[[bytes], int | None] | None = None,
                 per_commit: int | None = None, files_per_commit: int | None = None,
                 per_change: int | None = None, files_per_change: int | None = None) -> None:
        self.where = where
        # the type of an object the receiver has (its binary id; None: it lacks it)
        self.kind_of = kind_of
        # the most one commit's files may add up to (None: not bounded, a pack on disk
        # need not hold the commits of its files); a commit counts when no other commit
        # of the pack names its tree (an empty commit adds no room)
        self.per_commit = per_commit
        # the most files one commit may hold (None: not bounded): the pack's trees'
        # entries and its objects must fit in its commits too
        self.files_per_commit = files_per_commit
        # what each commit after the first brings on average (None: as much as a whole
        # commit may hold): new files' bytes and new files (tree_bounds.MAX_CHANGE_*)
        self.per_change = per_commit if per_change is None else per_change
        self.files_per_change = files_per_commit if files_per_change is None \
            else files_per_change
        self.max_object, self.max_pack, self.max_inflated = max_object, max_pack, max_inflated
        self.max_targets, self.max_chain = max_targets, max_chain
        self.max_ref_targets = max_ref_targets
        self.sha_length = sha_length
        self.received = 0  # pack bytes seen
        self.inflated = 0  # the sum of the objects' sizes as their headers give them
        self.targets = 0  # the sum of the files the objects make (a delta: its target)
        self.objects = 0  # objects started
        self.ref_targets = 0  # the sum of the files the REF deltas make
        self.longest_chain = 0  # the most bytes of files one chain makes
        self.commits = 0  # commits (whole, or deltas of a commit)
        self.trees = 0  # distinct trees the pack's commits name (a commit delta: one)
        self.tree_objects = 0  # trees (whole, or deltas of a tree)
        self.others = 0  # objects neither commits nor tags (trees, blobs, their deltas)
        self.entries = 0  # the entries of the pack's whole trees
        self.files = 0  # the sum of the blobs the objects make (a delta: its target)
        self.blobs = 0  # blobs (whole, or deltas of a blob or of an unknown base)
        self.unknown_bases = 0  # REF deltas whose base the receiver lacks
        self.first_unknown = b""  # the first such base's id
        # each object's offset in the pack (ascending) and the bytes of files of the
        # chain it ends (itself, its base, its base's base...): 16 bytes an object
        self._offsets = array("Q")
        self._chains = array("Q")
        self._kinds = bytearray()  # and its type (a delta: its base's; 0: unknown)
        self._base_kind = 0  # the current delta's base's type
        self._start = 0  # the current object's offset
        self._base_chain = 0  # the current delta's base's chain (REF: its size)
        self._count: int | None = None
        self._buf = b""
        self._pos = 0  # where in ``_buf`` the bytes not yet read start
        self._slice = 0  # how much of ``_buf`` goes to zlib at a time
        self._roots: set[bytes] = set()  # the trees the pack's whole commits name
        self._tree_entries = 0  # the current tree's entries so far
        self._tree_skip = 0  # bytes of the current tree entry's id still to come
        self._state = "pack"
        self._kind = 0
        self._size = 0
        self._out = 0  # bytes the current object inflated to so far
        self._head = bytearray()  # a delta's first inflated bytes (its two sizes)
        self._target_read = False
        self._z: zlib._Decompress | None = None

    def _refuse(self, why: str, bound: str | None = None) -> None:
        bound = bound or f"a rules folder holds data files of at most {mib(self.max_object)}"
        raise PackRefused(f"{self.where} sent {why}; nothing was taken ({bound})")

    def feed(self, data: bytes) -> None:
        self.received += len(data)
        if self.received > self.max_pack:
            self._refuse(f"a pack of more than {mib(self.max_pack)}")
        # what is left of the last bytes is at most a header (an object's data goes to
        # zlib whole): ``_buf`` is read by position, never cut at the front
        self._buf = self._buf[self._pos:] + data if self._pos < len(self._buf) else bytes(data)
        self._pos = 0
        while self._step():
            pass

    def _left(self) -> int:
        return len(self._buf) - self._pos

    def finish(self) -> None:
        """The pack ended: refuse one cut short (a later object could not be checked)."""
        if self._state not in ("pack", "done", "trailer") or \
                (self._state == "pack" and self._left()):
            self._refuse("a pack that ended in the middle of an object")
        self._fits()

    # -- the states; each returns True when it consumed something ---------------------

    def _step(self) -> bool:
        if self._state == "object":
            return self._object_header()
        if self._state == "data":
            return self._data()
        if self._state == "base":
            return self._delta_base()
        if self._state == "pack":
            if self._left() < 12:
                return False
            head = self._buf[self._pos:self._pos + 12]
            if head[:4] != b"PACK":
                self._refuse("data that is not a git pack")
            self._count = int.from_bytes(head[8:12], "big")
            if self._count > MAX_OBJECTS:
                self._refuse(f"a pack of {self._count:,} objects")
            self._pos += 12
            self._state = "object" if self._count else "trailer"
            return True
        if self._state == "trailer":
            if self._left() >= self.sha_length:
                self._pos += self.sha_length
                self._state = "done"
            return False
        if self._left():  # after the trailer
            self._refuse("data after the end of its pack")
        return False

    def _varint_end(self, what: str) -> int | None:
        """Where the varint at ``_pos`` ends (its last byte's position; None: not all
        of it arrived)."""
        buf, end = self._buf, self._pos
        limit = min(len(buf), end + 16)
        while end < limit and buf[end] & 0x80:
            end += 1
        if end == limit:
            if limit - self._pos >= 16:
                self._refuse(f"{what} that does not end")
            return None
        return end

    def _object_header(self) -> bool:
        buf, pos = self._buf, self._pos
        end = self._varint_end("an object header")
        if end is None:
            return False
        self._start = self.received - len(buf) + pos
        first = buf[pos]
        self._kind = (first >> 4) & 7
        size, shift = first & 0x0F, 4
        for b in buf[pos + 1:end + 1]:
            size |= (b & 0x7F) << shift
            shift += 7
        self._pos = end + 1
        if self._kind not in _TYPES:
            self._refuse(f"an object of unknown type {self._kind}")
        self.objects += 1
        self._size, self._out = size, 0
        self._head = bytearray()
        self._target_read = False
        self._slice = 512
        if self._kind in (_OFS_DELTA, _REF_DELTA):
            if size > self.max_object + 64:  # a delta is never much larger than its target
                self._refuse(f"a delta of {mib(size)}")
            self._state = "base"
        else:
            self._check(size, size, _TYPES[self._kind])
            self._base_kind = self._kind
            self._typed(size)
            self._chain(size)
            self._tree_entries = self._tree_skip = 0
            self._state = "data"
        self._z = zlib.decompressobj()
        return True

    def _check(self, size: int, payload: int, kind: str) -> None:
        """One object making a file of ``size`` bytes from ``payload`` inflated bytes
        (a whole object: the two are one)."""
        if size > self.max_object:
            self._refuse(f"a {kind} of {mib(size)}")
        self.inflated += payload
        if self.inflated > self.max_inflated:
            self._refuse(f"objects that inflate to more than {mib(self.max_inflated)}")
        self.targets += size
        if self.targets > self.max_targets:
            self._refuse(f"deltas that make files adding up to more than "
                         f"{mib(self.max_targets)}")

    def _typed(self, size: int) -> None:
        """The current object (of type ``_base_kind``) makes a file of ``size`` bytes:
        the pack's blobs must fit in its commits (those still to come may all be
        commits)."""
        if self._base_kind == _COMMIT:
            self.commits += 1
            if self._kind in (_OFS_DELTA, _REF_DELTA):  # its tree cannot be read
                self.trees += 1
            return
        if self._base_kind == _TAG:
            return
        self.others += 1
        if self._base_kind == _TREE:
            self.tree_objects += 1
        if self._base_kind in (_BLOB, 0):  # 0: a delta against an unknown base
            self.files += size
            self.blobs += 1
        self._fits()

    def _fits(self) -> None:
        """Refuse a pack holding more than its commits may: each commit naming a tree
        no other commit of the pack names holds at most ``per_commit`` bytes of files
        and ``files_per_commit`` files (so that many blobs, and as many folders); an
        empty commit (its parent's tree) adds nothing, nor does one naming a tree the
        pack does not hold: a commit adding files adds a tree, so there are never more
        commits of files than trees in the pack (a commit sent as a delta, whose tree
        cannot be read, is counted among them). Of these commits the first may bring
        a whole folder, each other ``per_change`` bytes and ``files_per_change`` new
        files on average (:mod:`.tree_bounds`), and no more of them bring files than
        the pack holds blobs (a commit that renames or removes files brings none).
        The objects still to come may all be such commits."""
        may_come = (self._count or 0) - self.objects
        trees = min(self.trees, self.tree_objects)
        # a commit brings new files only with a blob of its own: no more commits
        # bring files than the pack has blobs (those to come counted among may_come)
        room = min(trees, self.blobs)
        commits = room + may_come
        if self.per_commit is not None and self.per_change is not None and \
                self.files > _first_then(commits, self.per_commit, self.per_change):
            self._refuse(f"a pack whose files add up to more than its commits may hold "
                         f"({mib(self.files)} of new files so far, with "
                         f"room for the files of {counted(room, 'commit')} and "
                         f"{counted(may_come, 'object')} still to come{self._unknown()})",
                         f"a commit's files add up to at most {mib(self.per_commit)}, and "
                         f"each commit after the first brings at most "
                         f"{mib(self.per_change)} of new files on average")
        most = self.files_per_commit
        if most is None:
            return
        change = self.files_per_change
        if change is not None and self.blobs > _first_then(commits, most, change):
            self._refuse(f"a pack of more new files than its commits may bring "
                         f"({self.blobs:,} new files so far, with room for the files of "
                         f"{counted(room, 'commit')} and {counted(may_come, 'object')} "
                         f"still to come{self._unknown()})", _files_bound(most, change))
        # a commit that renames or removes files brings folders (trees) but no blob
        room, commits = trees, trees + may_come
        if self.others > commits * (2 * most + 1) or self.entries > commits * 2 * most:
            self._refuse(f"a pack of more files and folders than its commits may hold "
                         f"({self.others:,} objects and {self.entries:,} folder entries so "
                         f"far, with room for the files of {counted(room, 'commit')} "
                         f"and {counted(may_come, 'object')} still to come)",
                         f"a commit of a rules folder holds at most {most:,} files")

    def _unknown(self) -> str:
        """What a refusal of the files' bounds adds when deltas name bases the receiver
        lacks (counted as new files: a thin pack sent against objects it does not have
        is refused for that when stored, had the files fitted)."""
        if not self.unknown_bases:
            return ""
        return (f"; {counted(self.unknown_bases, 'delta')} against an object this folder "
                f"does not have, the first {self.first_unknown.hex()}")

    def _chain(self, chain: int) -> None:
        """The current object ends a chain making ``chain`` bytes of files."""
        if chain > self.max_chain:
            self._refuse(f"a chain of deltas making {mib(chain)} of files, each kept in "
                         f"memory until the last is made (at most {mib(self.max_chain)})")
        self.longest_chain = max(self.longest_chain, chain)
        self._offsets.append(self._start)
        self._chains.append(chain)
        self._kinds.append(self._base_kind)

    def _delta_base(self) -> bool:
        buf, pos = self._buf, self._pos
        if self._kind == _REF_DELTA:
            if self._left() < self.sha_length:
                return False
            base = buf[pos:pos + self.sha_length]
            # None: the receiver lacks it, yet it may be an object of this pack (a
            # sender not asked for OFS deltas names those by id too): its type is not
            # known, and the indexing refuses the pack when its base is nowhere
            # (chain_bound.add_bounded_thin_pack)
            kind = self.kind_of(base) if self.kind_of is not None else 0
            self._base_kind = kind or 0
            if self.kind_of is not None and kind is None:
                self.unknown_bases += 1
                self.first_unknown = self.first_unknown or base
            self._pos += self.sha_length
            self._base_chain = -1  # the base's size, read with the target's
        else:
            end = self._varint_end("a delta whose base offset")
            if end is None:
                return False
            ofs = buf[pos] & 0x7F  # git's offset encoding (each byte after: +1)
            for b in buf[pos + 1:end + 1]:
                ofs = ((ofs + 1) << 7) | (b & 0x7F)
            self._pos = end + 1
            at = bisect_left(self._offsets, self._start - ofs)
            if ofs == 0 or at == len(self._offsets) or \
                    self._offsets[at] != self._start - ofs:
                self._refuse("a delta whose base is not an object before it")
            self._base_chain = self._chains[at]
            self._base_kind = self._kinds[at]
        self._state = "data"
        return True

    def _data(self) -> bool:
        z = self._z
        assert z is not None
        buf = self._buf
        while True:
            if z.unconsumed_tail:
                out = z.decompress(z.unconsumed_tail, _STEP)
            elif self._pos < len(buf):
                # a few hundred bytes at first: what follows the object's end is copied
                # by zlib (``unused_data``), and most objects are small
                piece = memoryview(buf)[self._pos:self._pos + self._slice]
                self._pos += len(piece)
                self._slice = min(2 * self._slice, _STEP)
                out = z.decompress(piece, _STEP)
            else:
                return False
            self._inflated(out)
            if z.eof:
                self._pos -= len(z.unused_data)
                if self._out != self._size:
                    self._refuse(f"an object that inflates to {self._out:,} bytes where "
                                 f"its header says {self._size:,}")
                if self._kind == _COMMIT:
                    self._commit_tree()
                self._state = "object" if self.objects < (self._count or 0) else "trailer"
                if self._state == "trailer":  # every object counted: none still to come
                    self._fits()
                return True

    def _inflated(self, out: bytes) -> None:
        self._out += len(out)
        if self._out > self._size:
            self._refuse(f"an object that inflates to more than its header says "
                         f"({self._size:,} bytes)")
        if self._kind == _TREE:
            self._count_entries(out)
        elif self._kind == _COMMIT:
            if len(self._head) < 5 + 2 * self.sha_length:
                self._head += out[:5 + 2 * self.sha_length]
        elif self._kind in (_OFS_DELTA, _REF_DELTA) and not self._target_read:
            self._head += out[:20]
            sizes = delta_sizes(bytes(self._head))
            if sizes is None and (len(self._head) >= 20 or self._out >= self._size):
                self._refuse("a delta whose sizes cannot be read")
            if sizes is not None:
                self._target_read = True
                source, target = sizes
                self._check(target, self._size, "file (a delta)")
                if self._kind == _REF_DELTA:
                    self.ref_targets += target
                    if self.ref_targets > self.max_ref_targets:
                        self._refuse(f"deltas against objects named by id (REF deltas) "
                                     f"that make files adding up to more than "
                                     f"{mib(self.max_ref_targets)}")
                    self._base_chain = source
                self._typed(target)
                self._chain(self._base_chain + target)

    def _count_entries(self, out: bytes) -> None:
        """Count the entries of a whole tree as it inflates (``mode name\\0`` then the
        id's bytes, which may hold a 0: skipped)."""
        if self.files_per_commit is None:
            return
        pos, end, found = self._tree_skip, len(out), 0
        while pos < end:
            nul = out.find(b"\0", pos)
            if nul < 0:
                pos = end
                break
            found += 1
            pos = nul + 1 + self.sha_length
        self._tree_skip = pos - end
        if not found:
            return
        self._tree_entries += found
        self.entries += found
        if self._tree_entries > self.files_per_commit:
            self._refuse(f"a folder of more than {self.files_per_commit:,} entries",
                         f"a commit of a rules folder holds at most "
                         f"{self.files_per_commit:,} files")
        self._fits()

    def _commit_tree(self) -> None:
        """A whole commit ended: it holds files of its own unless another commit of the
        pack names its tree (an empty commit on top of one in the pack)."""
        line = bytes(self._head[:5 + 2 * self.sha_length])
        tree = line[5:] if line.startswith(b"tree ") else line
        if tree not in self._roots:
            self._roots.add(tree)
            self.trees += 1


def check_counts(where: str, commits: int, trees: int, blobs: int, most: int,
                 change: int) -> None:
    """Refuse (naming ``where``) a pack to be made of ``commits`` commits, ``trees``
    trees and ``blobs`` blobs, all new, before it is made, when its blobs are more new
    files than its commits may bring (as :meth:`PackGuard._fits` counts them: the
    first commit at most ``most``, each other ``change`` on average, and no more
    commits bring files than there are trees or blobs). A folder on this computer
    names every object it would send, and their types, before one is read: 60
    commits of 10,000 new files each were refused only as the last of them streamed
    (clone 49 s, 538 MB)."""
    room = min(commits, trees, blobs)
    if blobs > _first_then(room, most, change):
        raise PackRefused(f"{where} would send a pack of more new files than its commits "
                          f"may bring ({blobs:,} new files in {counted(commits, 'commit')}); "
                          f"nothing was taken ({_files_bound(most, change)})")


def _files_bound(most: int, change: int) -> str:
    return (f"a commit of a rules folder holds at most {most:,} files, and each commit "
            f"after the first brings at most {change:,} new files on average")


def _first_then(commits: int, first: int, then: int) -> int:
    """What ``commits`` commits may bring: ``first`` for one, ``then`` for each other
    (never more than ``first`` each)."""
    if commits <= 0:
        return 0
    return min(commits * first, first + (commits - 1) * then)


def delta_sizes(head: bytes) -> tuple[int, int] | None:
    """A delta's base and target sizes: its two varints (None until both arrived)."""
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
    return sizes[0], sizes[1]
