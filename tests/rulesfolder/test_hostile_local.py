"""A member's folder against a hostile remote (issue #28 Must 4, re-test): a delta
bomb under the pack bounds (a commit whose files add up to gigabytes, or are tens of
thousands), and a remote that is a folder on this computer holding a 1 GiB file
(loose or packed), an object that inflates to more than its header says, a delta
that makes more than it says. Each refused at once with a message naming the
remote, never "internal error"; the member's folder as it was."""
from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path

import pytest
from dulwich.pack import write_pack_index
from dulwich.repo import Repo

from rulesbook.rulesfolder import commit_check
from rulesbook.rulesfolder.object_sizes import stored_size

from .conftest import file_bytes
from .hostile import _pack_header, add_bomb_blob, add_file, commit_on_main
from .test_hostile_remote import measured, shared

MIB = 1024 * 1024
#: the most memory a refused attack may cost a process (Python and dulwich: ~45 MB)
MAX_RSS_MB = 100
MAX_SECONDS = 10


def _varint(v: int) -> bytes:
    out = bytearray()
    while True:
        if v >> 7:
            out.append(0x80 | (v & 0x7F))
            v >>= 7
        else:
            out.append(v)
            return bytes(out)


def _ofs(d: int) -> bytes:
    out = bytearray([d & 0x7F])
    d >>= 7
    while d:
        d -= 1
        out.insert(0, 0x80 | (d & 0x7F))
        d >>= 7
    return bytes(out)


def _copy(size: int) -> bytes:
    """Delta ops copying ``size`` bytes from offset 0 of the base."""
    ops = bytearray()
    off = 0
    while size:
        s = min(size, 0xFFFF)
        cmd, args = 0x80, bytearray()
        for i in range(4):
            if (off >> (8 * i)) & 0xFF:
                cmd |= 1 << i
                args.append((off >> (8 * i)) & 0xFF)
        for i in range(2):
            if (s >> (8 * i)) & 0xFF:
                cmd |= 1 << (4 + i)
                args.append((s >> (8 * i)) & 0xFF)
        ops += bytes([cmd]) + args
        off += s
        size -= s
    return bytes(ops)


def _write_pack(bare: Path, entries: list[tuple[bytes, int, int | None, bytes]],
                said: int | None = None) -> list[bytes]:
    """A pack of (id, type, base index or None, payload to compress) into ``bare``,
    resolved by nothing (``said``: the size the last object's header gives); the ids
    (hex)."""
    body, offsets, index = bytearray(), [], []
    for n, (sha, kind, base, payload) in enumerate(entries):
        off = 12 + len(body)
        last = n == len(entries) - 1
        rec = _pack_header(kind, said if said is not None and last else len(payload))
        if base is not None:
            rec += _ofs(off - offsets[base])
        rec += zlib.compress(payload)
        body += rec
        offsets.append(off)
        index.append((sha, off, zlib.crc32(rec)))
    data = b"PACK" + struct.pack(">II", 2, len(entries)) + bytes(body)
    pack = data + hashlib.sha1(data).digest()
    name = f"pack-{hashlib.sha1(data).hexdigest()}"
    folder = bare / "objects" / "pack"
    (folder / f"{name}.pack").write_bytes(pack)
    with open(folder / f"{name}.idx", "wb") as idx:
        write_pack_index(idx, sorted(index), pack[-20:])
    return [sha.hex().encode() for sha, _kind, _base, _payload in entries]


def _blob_sha(data: bytes) -> bytes:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).digest()


def add_delta_bomb(bare: Path, count: int, size: int = 4 * MIB) -> list[bytes]:
    """A base blob of ``size`` bytes and ``count`` OFS deltas of a few bytes each
    making another file of that size; the blobs' ids."""
    base = b"#" * size
    entries = [(_blob_sha(base), 3, None, base)]
    for i in range(count):
        tail = b"%08d" % i
        delta = _varint(size) + _varint(size) + _copy(size - 8) + bytes([8]) + tail
        entries.append((_blob_sha(base[:-8] + tail), 6, 0, delta))
    return _write_pack(bare, entries)


def commit_files_of(bare: Path, ids: list[bytes], folder: bytes = b"junk") -> None:
    def change(repo: Repo, tree) -> None:
        for i, blob in enumerate(ids):
            add_file(repo, tree, [folder, b"f%05d.txt" % i], blob_id=blob)
    commit_on_main(bare, change, "notes")


def test_sizes_come_from_the_headers_and_bound_the_tree(tmp_path):
    bare = tmp_path / "shared.git"
    Repo.init_bare(str(bare), mkdir=True)
    ids = add_delta_bomb(bare, 3, size=1 * MIB)
    with Repo(str(bare)) as repo:
        assert [stored_size(repo.object_store, i) for i in ids] == [MIB] * 4
        files = {f"junk/{i}.txt": sha for i, sha in enumerate(ids)}
        assert commit_check.tree_bound_problem(repo, files, max_bytes=4 * MIB) is None
        problem = commit_check.tree_bound_problem(repo, files, max_bytes=4 * MIB - 1)
        assert problem is not None and "4 MiB" not in problem.message
        assert "more than 3 MiB" in problem.message and problem.file == "junk/3.txt"
        assert commit_check.tree_bound_problem(repo, files, max_files=4) is None
        assert "holds 4 files" in commit_check.tree_bound_problem(repo, files, max_files=3).message


def test_a_delta_bomb_under_the_pack_bounds_is_refused_before_checkout(rb, tmp_path):
    """The re-test: 100 deltas of 20 MiB each in a 27 KB pack wrote 2 GB into the
    member's folder; here 20 of 4 MiB (80 MiB, over the 64 MiB bound)."""
    bare, _secretary, member = shared(rb, tmp_path)
    commit_files_of(bare, add_delta_bomb(bare, 20))
    before = file_bytes(member)
    run = rb("--data", member, "sync")
    assert run.code == 2, run.err
    assert str(bare) in run.err and "64 MiB" in run.err, run.err
    # refused by the commit-size bound, or earlier by the pack's (#28 re-test, i28m)
    assert "this folder is as it was" in run.err or "nothing was taken" in run.err, run.err
    assert file_bytes(member) == before
    assert not (member / "junk").exists()
    run = rb("clone", bare, tmp_path / "new")
    assert run.code == 2 and str(bare) in run.err and "64 MiB" in run.err, run.err
    assert not (tmp_path / "new").exists()


def test_too_many_files_are_refused_before_checkout(rb, tmp_path, monkeypatch):
    bare, _secretary, member = shared(rb, tmp_path)
    ok_files = 60
    monkeypatch.setattr(commit_check, "MAX_TREE_FILES", ok_files)
    blobs = []
    with Repo(str(bare)) as repo:
        from dulwich.objects import Blob
        for i in range(ok_files):
            blob = Blob.from_string(b"note %d\n" % i)
            repo.object_store.add_object(blob)
            blobs.append(blob.id)
    commit_files_of(bare, blobs)
    before = file_bytes(member)
    run = rb("--data", member, "sync")
    assert run.code == 2 and f"at most {ok_files:,}" in run.err, run.err
    assert file_bytes(member) == before
    monkeypatch.setattr(commit_check, "MAX_TREE_FILES", 10_000)
    assert rb("--data", member, "sync").code == 0  # the same commit, within the bound


def _loose_bomb(bare: Path, size: int = 1 << 30) -> bytes:
    """A loose blob of ``size`` bytes of '#' (about 1 MB compressed); its id."""
    chunk = b"#" * (16 * MIB)
    header = b"blob %d\0" % size
    sha = hashlib.sha1(header)
    z = zlib.compressobj(1)
    parts = [z.compress(header)]
    for _ in range(size // len(chunk)):
        sha.update(chunk)
        parts.append(z.compress(chunk))
    parts.append(z.flush())
    hexid = sha.hexdigest()
    path = bare / "objects" / hexid[:2] / hexid[2:]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(parts))
    return hexid.encode()


def _lie(bare: Path) -> list[bytes]:
    real = b"#" * (50 * MIB)
    return _write_pack(bare, [(_blob_sha(real[:10]), 3, None, real)], said=10)


def _hidden_lie(bare: Path) -> list[bytes]:
    base = b"#" * MIB
    made = base * 21
    delta = _varint(MIB) + _varint(100) + b"".join(_copy(MIB) for _ in range(21))
    return _write_pack(bare, [(_blob_sha(base), 3, None, base),
                              (_blob_sha(made), 6, 0, delta)])


ATTACKS = {
    "1 GiB loose": (lambda bare: [_loose_bomb(bare)], "1,024 MiB"),
    "1 GiB packed": (lambda bare: [add_bomb_blob(bare)], "1,024 MiB"),
    "header says 10 bytes": (_lie, "more than its header says"),
    "delta makes more than it says": (_hidden_lie, "damaged"),
}


@pytest.mark.parametrize("case", ATTACKS)
def test_a_local_path_remote_is_guarded_like_the_network(rb, tmp_path, case):
    make, said = ATTACKS[case]
    bare, _secretary, member = shared(rb, tmp_path)
    commit_files_of(bare, make(bare), b"notes")
    before = file_bytes(member)
    for argv in (("--data", member, "sync"), ("clone", bare, tmp_path / "new")):
        code, seconds, rss, err = measured(*argv)
        assert code == 2, err
        assert said in err and str(bare) in err and "internal error" not in err, err
        assert seconds < MAX_SECONDS and rss < MAX_RSS_MB, (seconds, rss, err)
    assert file_bytes(member) == before
    assert not (tmp_path / "new").exists()
