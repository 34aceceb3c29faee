"""The chains of deltas a received pack may hold: dulwich holds every base of the
chain it resolves, so a "caterpillar" (a chain whose every node is also the base of
a leaf delta) of files at the data-file limit is refused as it arrives, while the
packs git and Rulesbook send pass (bench/bench_delta_chains.py measures the memory)."""
from __future__ import annotations

import random

import pytest
from dulwich.objects import Blob
from dulwich.pack import UnpackedObject, write_pack_data
from dulwich.repo import Repo

from rulesbook.rulesfolder import transport
from rulesbook.rulesfolder.pack_guard import (
    MAX_CHAIN_BYTES,
    MAX_OBJECT_BYTES,
    MAX_TARGET_BYTES,
    PackGuard,
    PackRefused,
)

from .servers import git, git_daemon
from .test_deltas import versions

MiB = 1024 * 1024


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    return bytes(out + bytes([n]))


def copy_delta(size: int, tag: bytes, source: int | None = None) -> bytes:
    """A delta making ``base[:size - len(tag)] + tag`` from a base of ``source``
    (default ``size``) bytes: copies, one insert."""
    keep, copy = size - len(tag), b""
    for at in range(0, keep, 0xFFFFFF):  # copies of at most 16 MiB
        copy += b"\xff" + at.to_bytes(4, "little") + min(keep - at, 0xFFFFFF).to_bytes(3, "little")
    return _varint(source or size) + _varint(size) + copy + bytes([len(tag)]) + tag


def _sha1():
    from dulwich.object_format import SHA1

    return SHA1


def write(records: list[UnpackedObject]) -> tuple[bytes, dict[bytes, tuple[int, int]]]:
    chunks: list[bytes] = []
    entries, _ = write_pack_data(chunks.append, iter(records), num_records=len(records),
                                 object_format=_sha1())
    return b"".join(chunks), entries


def chain_pack(depth: int, size: int, caterpillar: bool) -> bytes:
    """A blob of ``size`` bytes and ``depth`` deltas in a chain, each making a file of
    ``size`` bytes; a caterpillar's every node is also the base of a leaf delta sent
    before the next node. Every base precedes its deltas: OFS deltas."""
    names = (i.to_bytes(20, "big") for i in range(1, 10**6))
    parent = next(names)
    records = [UnpackedObject(Blob.type_num, sha=parent,
                              decomp_chunks=[random.Random(1).randbytes(size)])]
    for i in range(depth):
        if caterpillar:
            records.append(UnpackedObject(Blob.type_num, sha=next(names), delta_base=parent,
                                          decomp_chunks=[copy_delta(size, b"leaf%06d" % i)]))
        node = next(names)
        records.append(UnpackedObject(Blob.type_num, sha=node, delta_base=parent,
                                      decomp_chunks=[copy_delta(size, b"node%06d" % i)]))
        parent = node
    return write(records)[0]


def _feed(guard: PackGuard, pack: bytes, step: int = 64 * 1024) -> None:
    for at in range(0, len(pack), step):
        guard.feed(pack[at:at + step])
    guard.finish()


def test_the_bound_is_fifty_deltas_of_files_at_the_limit():
    assert MAX_CHAIN_BYTES == 51 * MAX_OBJECT_BYTES < MAX_TARGET_BYTES


def test_a_caterpillar_is_refused_as_it_arrives():
    """60 nodes of 20 MiB files, each with a leaf: a 20 MiB pack making 2.4 GiB of
    files, under every other bound (it passes with the chain bound lifted); dulwich
    would hold 60 x 20 MiB at once. Refused at the 51st node, before the pack ends."""
    pack = chain_pack(60, MAX_OBJECT_BYTES, caterpillar=True)
    assert len(pack) < MAX_OBJECT_BYTES + MiB
    lifted = PackGuard("test", max_chain=MAX_TARGET_BYTES)
    _feed(lifted, pack)
    assert lifted.longest_chain == 61 * MAX_OBJECT_BYTES
    assert 2 * 1024 * MiB < lifted.targets < MAX_TARGET_BYTES

    guard = PackGuard("the remote")
    with pytest.raises(PackRefused, match=r"the remote sent a chain of deltas making "
                                          r"1,040 MiB of files, each kept in memory until "
                                          r"the last is made \(at most 1,020 MiB\)"):
        _feed(guard, pack, step=1024)
    assert guard.objects == 1 + 2 * 50 + 1  # the base, 50 nodes and leaves, the next leaf
    assert guard.received < len(pack)


def test_a_plain_chain_of_fifty_deltas_at_the_limit_passes_and_fifty_one_do_not():
    pack = chain_pack(51, MAX_OBJECT_BYTES, caterpillar=False)
    guard = PackGuard("test")
    with pytest.raises(PackRefused, match="a chain of deltas making 1,040 MiB"):
        _feed(guard, pack)
    assert guard.objects == 52  # the base and 50 deltas were taken, the 51st not
    assert guard.longest_chain == MAX_CHAIN_BYTES


def test_small_files_make_long_chains_within_the_bound():
    """The bound is on bytes: 2,000 deltas of 100 KB files (200 MB) pass."""
    pack = chain_pack(2000, 100_000, caterpillar=True)
    guard = PackGuard("test")
    _feed(guard, pack)
    assert guard.longest_chain == 2001 * 100_000


def test_a_delta_whose_offset_names_no_object_is_refused():
    records = [UnpackedObject(Blob.type_num, sha=b"a" * 20, decomp_chunks=[b"x" * 1000]),
               UnpackedObject(Blob.type_num, sha=b"b" * 20, delta_base=b"a" * 20,
                              decomp_chunks=[copy_delta(1000, b"tag")])]
    pack, entries = write(records)
    at = entries[b"b" * 20][0]
    while pack[at] & 0x80:  # the type and size
        at += 1
    assert pack[at + 1] < 0x7F  # the base's offset, one byte
    broken = pack[:at + 1] + bytes([pack[at + 1] + 1]) + pack[at + 2:]
    PackGuard("test").feed(pack)
    with pytest.raises(PackRefused, match="a delta whose base is not an object before it"):
        PackGuard("test").feed(broken)


def test_ref_deltas_are_counted_from_their_base_and_bounded_in_total():
    """A thin pack's REF deltas name a base the receiver has: a chain starts at the
    size the delta gives its base. 2,000 of them making 1 MiB each (2 GiB) are more
    than the REF bound."""
    outside = bytes(20)  # not in the pack: sent by id (REF_DELTA)
    ref = UnpackedObject(Blob.type_num, sha=b"r" * 20, delta_base=outside,
                         decomp_chunks=[copy_delta(MiB, b"ref", source=2 * MiB)])
    ofs = UnpackedObject(Blob.type_num, sha=b"o" * 20, delta_base=b"r" * 20,
                         decomp_chunks=[copy_delta(MiB, b"ofs")])
    pack, _ = write([ref, ofs])
    guard = PackGuard("test", max_chain=4 * MiB)
    _feed(guard, pack)
    assert guard.longest_chain == 4 * MiB and guard.ref_targets == MiB
    with pytest.raises(PackRefused, match="a chain of deltas making 4 MiB"):
        _feed(PackGuard("test", max_chain=4 * MiB - 1), pack)

    many, _ = write([UnpackedObject(Blob.type_num, sha=i.to_bytes(20, "big"),
                                    delta_base=outside, decomp_chunks=[copy_delta(MiB, b"%d" % i)])
                     for i in range(1, 2001)])
    guard = PackGuard("test")
    with pytest.raises(PackRefused, match=r"REF deltas\) that make files adding up to more "
                                          r"than 1,024 MiB"):
        _feed(guard, many)
    assert guard.objects == 1025


def test_git_daemon_sends_offset_deltas_that_pass(tmp_path, monkeypatch):
    """A clone and a thin fetch from ``git daemon`` of 40 versions of a 1 MB ballot:
    deltas inside the pack by offset (no REF delta in the clone), chains within the
    bound; the thin fetch's REF deltas are against the version the member has."""
    guards: list[PackGuard] = []

    class Spy(PackGuard):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            guards.append(self)

    monkeypatch.setattr(transport, "PackGuard", Spy)
    work = tmp_path / "work"
    git("init", "-q", "-b", "main", work)
    chain = versions(40, 10_000, seed=4)
    for i, data in enumerate(chain):
        (work / "ballot.yaml").write_bytes(data)
        git("add", ".", cwd=work)
        git("commit", "-q", "-m", f"vote {i}", cwd=work)
        if i == 19:
            git("clone", "-q", "--bare", work, tmp_path / "base" / "shared.git")
            git("-C", tmp_path / "base" / "shared.git", "gc", "-q", "--aggressive")
    member = Repo.init(str(tmp_path / "member"), mkdir=True)
    with git_daemon(tmp_path / "base") as daemon:
        url = daemon + "shared.git"
        head = transport.fetch_main(member, url)
        member.refs[b"refs/heads/main"] = head  # type: ignore[assignment]
        git("push", "-q", tmp_path / "base" / "shared.git", "main", cwd=work)
        head = transport.fetch_main(member, url)
    clone, fetch = guards
    assert clone.ref_targets == 0 and clone.longest_chain > 5 * MiB, vars(clone)
    assert fetch.longest_chain > 5 * MiB and fetch.ref_targets <= 2 * MiB, vars(fetch)
    assert member.object_store[head]  # type: ignore[index]
    blob = member.object_store[member.object_store[member.object_store[head].tree]  # type: ignore
                               [b"ballot.yaml"][1]]
    assert blob.as_raw_string() == chain[-1]
    member.close()


def test_a_ref_delta_against_an_object_the_receiver_lacks_is_refused(tmp_path):
    """A base the receiver lacks may be an object of the same pack (a sender not
    asked for OFS deltas names those by id): the guard lets it stream, and storing
    the pack refuses it when the base is nowhere, naming the base."""
    import io

    from rulesbook.rulesfolder.chain_bound import add_bounded_thin_pack

    have = b"h" * 20
    pack, _ = write([UnpackedObject(Blob.type_num, sha=b"r" * 20, delta_base=have,
                                    decomp_chunks=[copy_delta(1000, b"tag")])])
    PackGuard("test", kind_of=lambda sha: 3 if sha == have else None).feed(pack)
    PackGuard("test", kind_of=lambda sha: None).feed(pack)
    repo = Repo.init(str(tmp_path / "r"), mkdir=True)
    with pytest.raises(PackRefused, match=f"test sent a delta against {have.hex()}, an "
                                          f"object this folder does not have"):
        add_bounded_thin_pack(repo.object_store, io.BytesIO(pack).read, None, "test")
    assert not list((tmp_path / "r" / ".git" / "objects" / "pack").iterdir())
    repo.close()


def test_a_thin_push_from_git_passes(tmp_path, monkeypatch):
    """git pushes to ``rulesbook serve`` a thin pack: the changed file a delta against
    the version the shared repository has, named by id (the guard checks it has it)."""
    from rulesbook.rulesfolder import serve_policy
    from rulesbook.rulesfolder.serve import serving

    from .servers import rulesbook

    guards: list[PackGuard] = []

    class Spy(PackGuard):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            guards.append(self)

    monkeypatch.setattr(serve_policy, "PackGuard", Spy)
    bare, folder = tmp_path / "shared.git", tmp_path / "secretary"
    Repo.init_bare(str(bare), mkdir=True).close()
    assert rulesbook("init", folder).returncode == 0
    case = max((folder / "cases").glob("*.yaml"), key=lambda p: p.stat().st_size)
    with serving(bare, open_access=True) as url:
        run = rulesbook("--data", folder, "sync", "--quiet", "--remote", url)
        assert run.returncode == 0, run.stderr
        case.write_bytes(case.read_bytes() + b"# a note\n")
        git("commit", "-q", "-am", "a note", cwd=folder)
        git("push", "-q", url, "HEAD:main", cwd=folder)
    thin = guards[-1]
    # the file and the folders above it, each a delta against the shared version
    assert thin.ref_targets >= case.stat().st_size and thin.kind_of is not None, vars(thin)
    pushed = git("rev-parse", "HEAD", cwd=folder).stdout.strip().encode()
    with Repo(str(bare)) as shared:
        assert shared.refs[b"refs/heads/main"] == pushed
