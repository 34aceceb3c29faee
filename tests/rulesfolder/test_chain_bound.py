"""REF-delta chains re-sent by a pack (issue #28 Must 4): the receiver has every
base, so the guard counts each REF delta's chain from a stored base (two files),
yet dulwich resolves a base the pack holds from the pack, on down the chain, each
base held while the leaf made from it waits. The indexer bounds the chain as it
resolves it (:mod:`rulesbook.rulesfolder.chain_bound`)."""
from __future__ import annotations

import hashlib
import io
import os
import struct
import zlib

import pytest
from dulwich.objects import Blob
from dulwich.repo import Repo

from rulesbook.rulesfolder.chain_bound import add_bounded_thin_pack
from rulesbook.rulesfolder.object_sizes import kinds_in
from rulesbook.rulesfolder.pack_guard import PackGuard, PackRefused

from .hostile import _pack_header
from .test_delta_chains import copy_delta

SIZE = 64 * 1024
DEPTH = 12


def _versions(seed: int) -> list[bytes]:
    """A base and DEPTH versions of it, each its last 8 bytes changed."""
    base = hashlib.sha256(b"%d" % seed).digest() * (SIZE // 32)
    return [base] + [base[:-8] + b"node%04d" % i for i in range(1, DEPTH + 1)]


def _sha(data: bytes) -> bytes:
    return Blob.from_string(data).sha().digest()


def _caterpillar() -> tuple[list[bytes], bytes]:
    """(the versions the receiver has, a thin pack re-sending every version but the
    base as a REF delta against the one before, each version also the base of a
    leaf sent before the next version). The base's id is the least of the bases',
    so dulwich starts there and resolves the whole chain from the pack."""
    seed = 0
    while True:
        versions = _versions(seed)
        ids = [_sha(v) for v in versions]
        if ids[0] == min(ids[:-1]):
            break
        seed += 1
    body = bytearray()
    count = 0
    for i in range(1, DEPTH + 1):
        for base, tag in ((i, b"leaf%04d" % i), (i - 1, b"node%04d" % i)):
            delta = copy_delta(SIZE, tag)
            body += _pack_header(7, len(delta)) + ids[base] + zlib.compress(delta)
            count += 1
    data = b"PACK" + struct.pack(">II", 2, count) + bytes(body)
    return versions, data + hashlib.sha1(data).digest()


@pytest.fixture
def receiver(tmp_path):
    versions, pack = _caterpillar()
    with Repo.init_bare(str(tmp_path / "member.git"), mkdir=True) as repo:
        repo.object_store.add_objects([(Blob.from_string(v), None) for v in versions])
        yield repo, pack, versions


def _packs(repo: Repo) -> list[str]:
    return sorted(os.listdir(os.path.join(repo.object_store.path, "pack")))


def test_the_stream_guard_takes_the_chain_for_two_files_each(receiver):
    repo, pack, versions = receiver
    guard = PackGuard("x", kind_of=kinds_in(repo.object_store), max_chain=3 * SIZE)
    guard.feed(pack)
    guard.finish()
    assert guard.longest_chain == 2 * SIZE  # each delta from a stored base


def test_dulwich_resolves_the_whole_chain_from_the_pack(receiver):
    """The chain dulwich makes runs from the stored base through every version: one byte less
    of bound refuses it, the exact bound takes it."""
    repo, pack, versions = receiver
    made = (DEPTH + 2) * SIZE  # the stored base, every version, the last leaf
    with pytest.raises(PackRefused, match=f"making {made:,} bytes of files"):
        add_bounded_thin_pack(repo.object_store, io.BytesIO(pack).read, None, "x",
                              max_chain=made - 1)
    add_bounded_thin_pack(repo.object_store, io.BytesIO(pack).read, None, "x",
                          max_chain=made)


def test_a_chain_over_the_bound_is_refused_as_it_resolves(receiver):
    repo, pack, versions = receiver
    before = _packs(repo)
    with pytest.raises(PackRefused, match="a chain of deltas making .* of files"):
        add_bounded_thin_pack(repo.object_store, io.BytesIO(pack).read, None, "the remote",
                              max_chain=3 * SIZE)
    assert _packs(repo) == before  # nothing was stored, no temporary pack left
    assert not [n for n in os.listdir(repo.object_store.path) if n.startswith("tmp_pack")]


def test_a_chain_within_the_bound_is_stored(receiver):
    repo, pack, versions = receiver
    add_bounded_thin_pack(repo.object_store, io.BytesIO(pack).read, None, "the remote")
    assert len(_packs(repo)) == 2 + 2  # the receiver's pack and the new one (.pack, .idx)
    leaf = versions[DEPTH][:-8] + b"leaf%04d" % DEPTH
    assert repo[Blob.from_string(leaf).id].as_raw_string() == leaf
