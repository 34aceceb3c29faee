"""Issue #28's 10,000-commit figure: a ballot rewritten at every vote is sent as
deltas (a push, a clone from a folder, a clone from ``rulesbook serve``), stored as a
pack where it lands, and a pack of deltas whose files add up to far more than the
inflated bound is accepted while a delta bomb is refused."""
from __future__ import annotations

import base64
import random
import subprocess
from pathlib import Path

import pytest
from dulwich.objects import Blob
from dulwich.pack import UnpackedObject, apply_delta, write_pack_data
from dulwich.repo import Repo
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.rulesfolder.delta import create_delta
from rulesbook.rulesfolder.pack_guard import PackGuard, PackRefused
from rulesbook.rulesfolder.repo import Identity, build_tree, make_commit

from .servers import git, git_program

MiB = 1024 * 1024


def ballot(rnd: random.Random, entries: int, shift: int = 0) -> bytes:
    """A ballot-like file: entries numbered from ``shift`` (a vote renumbers all
    that follow), each with a signature that does not compress."""
    return b"".join(
        b"- member: M%03d\n  question: '%d'\n  signed: %d\n  signature: %s\n"
        % (i % 100, i // 100, i + shift, base64.b64encode(rnd.randbytes(48)))
        for i in range(entries))


def versions(count: int, entries: int, seed: int = 1) -> list[bytes]:
    """``count`` versions, each one vote (one entry's signature) and a renumbering
    from the last; seeded, so every run makes the same files."""
    rnd = random.Random(seed)
    lines = ballot(rnd, entries).split(b"\n")
    out = []
    for k in range(count):
        at = rnd.randrange(entries) * 4 + 3
        lines[at] = b"  signature: " + base64.b64encode(rnd.randbytes(48))
        for i in range(2, len(lines), 4):
            if i > at - 1:
                lines[i] = b"  signed: %d" % (int(lines[i].split()[1]) + (k % 2 or -1))
        out.append(b"\n".join(lines))
    return out


def test_the_delta_rebuilds_the_new_version_and_is_small():
    rnd = random.Random(7)
    for _ in range(200):  # random edits of repetitive text
        old = bytes(rnd.choice(b"ab\n") for _ in range(rnd.randrange(0, 3000)))
        new = bytearray(old)
        for _ in range(rnd.randrange(0, 6)):
            at = rnd.randrange(len(new) + 1)
            if rnd.random() < 0.5:
                new[at:at] = bytes(rnd.choice(b"abc\n") for _ in range(rnd.randrange(1, 200)))
            else:
                del new[at:at + rnd.randrange(1, 200)]
        assert b"".join(apply_delta(old, create_delta(old, bytes(new)))) == new
    chain = versions(3, 2000)
    for old, new in zip(chain, chain[1:], strict=False):
        delta = create_delta(new, old)  # as sent: the older against the newer
        assert b"".join(apply_delta(new, delta)) == old
        assert len(delta) < len(old) // 10, (len(delta), len(old))


def _history(path: Path, chain: list[bytes]) -> tuple[Repo, list[bytes]]:
    """A repository whose main has one commit per version of ``ballot.yaml``."""
    repo = Repo.init(str(path), mkdir=True)
    head, ids = None, []
    for i, data in enumerate(chain):
        blob = Blob.from_string(data)
        repo.object_store.add_object(blob)
        ids.append(blob.id)
        tree = build_tree(repo, {"apca/ballots/ballot.yaml": blob.id, "README": _readme(repo)})
        head = make_commit(repo, tree, [head] if head else [], f"vote {i}",
                           Identity("m", "m@apca.invalid"))
    repo.refs[b"refs/heads/main"] = head
    return repo, ids


def _readme(repo: Repo) -> bytes:
    blob = Blob.from_string(b"a rules folder\n")
    repo.object_store.add_object(blob)
    return blob.id


def _packs(objects: Path) -> int:
    """The size of the packs under ``objects``; no loose object may be there."""
    loose = [p for p in objects.glob("??/*")]
    assert not loose, f"objects stored loose: {loose[:3]}"
    return sum(p.stat().st_size for p in objects.glob("pack/*.pack"))


def _same(repo: Repo, ids: list[bytes], chain: list[bytes]) -> None:
    for oid, data in zip(ids, chain, strict=True):
        assert repo.object_store[oid].as_raw_string() == data


def test_a_push_and_clones_send_each_version_as_a_delta(tmp_path):
    from rulesbook.rulesfolder.serve import serving
    from rulesbook.rulesfolder.transport import guarded_fetch, push_main, transport

    chain = versions(30, 1500)  # 30 versions of ~150 KB that do not compress
    whole = sum(map(len, chain))
    source, ids = _history(tmp_path / "secretary", chain)
    bare = tmp_path / "shared.git"
    Repo.init_bare(str(bare), mkdir=True).close()
    push_main(source, str(bare), None, source.refs[b"refs/heads/main"])
    pushed = _packs(bare / "objects")
    assert pushed < whole // 8, (pushed, whole)  # whole versions: ~whole * 0.75

    for name, url in (("local", str(bare)), ("served", None)):
        target = Repo.init(str(tmp_path / name), mkdir=True)
        if url is None:
            with serving(bare, open_access=True) as served:
                client, path = transport(served)
                head = guarded_fetch(client, path, target, "served")
        else:
            client, path = transport(url)
            head = guarded_fetch(client, path, target, name)
        assert head == source.refs[b"refs/heads/main"]
        received = _packs(tmp_path / name / ".git" / "objects")
        assert received < whole // 8, (name, received, whole)
        _same(target, ids, chain)
        target.refs[b"refs/heads/main"] = head
        fsck = subprocess.run([git_program(), "-C", str(tmp_path / name), "fsck", "--full",
                               "--no-dangling"], capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stderr
        target.close()
    source.close()


def test_a_pack_of_deltas_past_the_inflated_bound_is_taken(tmp_path):
    """Made by git itself: 24 versions of a 1 MB file, one delta each. Its files add
    up to 24 MB; what it inflates to, ~1 MB. A guard bounding the inflated total at
    4 MiB takes it (one counting the deltas' targets would refuse it); bounding
    the targets at 8 MiB refuses it."""
    repo = tmp_path / "r"
    git("init", "-q", repo)
    for data in versions(24, 10_000, seed=3):  # ~1 MB each
        (repo / "ballot.yaml").write_bytes(data)
        git("add", ".", cwd=repo)
        git("commit", "-q", "-m", "vote", cwd=repo)
    pack = subprocess.run([git_program(), "pack-objects", "--stdout", "--revs"],
                          input=b"HEAD\n", cwd=repo, capture_output=True, check=True).stdout
    guard = PackGuard("test", max_inflated=4 * MiB)
    guard.feed(pack)
    guard.finish()
    assert guard.targets > 20 * MiB > 4 * MiB > guard.inflated
    with pytest.raises(PackRefused, match="deltas that make files adding up to more than"):
        PackGuard("test", max_targets=8 * MiB).feed(pack)


def test_a_delta_bomb_is_refused_as_it_arrives():
    """One 1 MiB blob, then 2,000 deltas of ~100 bytes, each making 1 MiB from it:
    2 GiB of files from a pack of ~250 KB. Refused at the target bound, before the
    pack is through."""
    base = random.Random(5).randbytes(MiB)
    copy = create_delta(base, base)  # copy the whole base
    assert len(copy) < 200
    base_sha = bytes(20)
    records = [UnpackedObject(Blob.type_num, sha=base_sha, decomp_chunks=[base])]
    records += [UnpackedObject(Blob.type_num, sha=i.to_bytes(20, "big"), delta_base=base_sha,
                               decomp_chunks=[copy]) for i in range(1, 2001)]
    chunks: list[bytes] = []
    write_pack_data(chunks.append, iter(records), num_records=len(records),
                    object_format=_sha1())
    pack = b"".join(chunks)
    assert len(pack) < 2 * MiB
    guard = PackGuard("test", max_targets=64 * MiB)
    with pytest.raises(PackRefused, match="deltas that make files adding up to more than 64 MiB"):
        for at in range(0, len(pack), 4096):
            guard.feed(pack[at:at + 4096])
    assert guard.objects < 80  # stopped at the bound, not at the end
    accepted = PackGuard("test")  # the real bound (32 GiB) takes 2 GiB of files
    accepted.feed(pack)
    accepted.finish()
    assert accepted.targets > 2000 * MiB and accepted.inflated < 2 * MiB


def _sha1():
    from dulwich.object_format import SHA1

    return SHA1


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000), st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 200),
                                                    st.binary(max_size=300)), max_size=8))
def test_any_edit_of_any_file_is_rebuilt_exactly(base, edits):
    """Whatever the two versions (binary, shifted, repeated, cut, grown), the delta
    rebuilds the new one byte for byte."""
    target = bytearray(base)
    for at, cut, inserted in edits:
        at = min(at, len(target))
        target[at:at + cut] = inserted
    repeated = bytes(target) * 3  # long equal runs at shifted places
    for old, new in ((base, bytes(target)), (bytes(target), base), (base, repeated)):
        assert b"".join(apply_delta(old, create_delta(old, new))) == new


def test_an_honest_history_is_taken_by_the_bounds_of_what_commits_bring(tmp_path):
    """A pack of a committee's history (git's own): a first commit of 60 files,
    votes each rewriting a ~1 MB ballot, a commit renaming a file and one removing
    one (folders, no new file): taken with the real bounds of a fetch or push (a
    first commit's folder, then 8 MiB and 100 files a commit on average). A guard
    allowing a first commit 2 MiB and each other 512 KiB of new files refuses it,
    naming the bound."""
    from rulesbook.rulesfolder.tree_bounds import (
        MAX_CHANGE_BYTES,
        MAX_CHANGE_FILES,
        MAX_TREE_BYTES,
        MAX_TREE_FILES,
    )

    repo = tmp_path / "r"
    git("init", "-q", repo)
    (repo / "cases").mkdir()
    for i in range(60):
        (repo / "cases" / f"c{i}.yaml").write_text(f"case: {i}\n")
    for data in versions(12, 10_000, seed=4):  # ~1 MB each
        (repo / "ballot.yaml").write_bytes(data)
        git("add", ".", cwd=repo)
        git("commit", "-q", "-m", "vote", cwd=repo)
    git("mv", "cases/c1.yaml", "cases/one.yaml", cwd=repo)
    git("commit", "-q", "-m", "rename", cwd=repo)
    git("rm", "-q", "cases/c2.yaml", cwd=repo)
    git("commit", "-q", "-m", "remove", cwd=repo)
    pack = subprocess.run([git_program(), "pack-objects", "--stdout", "--revs"],
                          input=b"HEAD\n", cwd=repo, capture_output=True, check=True).stdout

    def guard(per_commit: int, per_change: int) -> PackGuard:
        return PackGuard("test", per_commit=per_commit, files_per_commit=MAX_TREE_FILES,
                         per_change=per_change, files_per_change=MAX_CHANGE_FILES)
    taken = guard(MAX_TREE_BYTES, MAX_CHANGE_BYTES)
    taken.feed(pack)
    taken.finish()
    assert taken.files > 12 * MiB and taken.blobs >= 60 + 12
    with pytest.raises(PackRefused, match=r"more than its commits may hold \(\d+ MiB of new "
                                          r"files.*at most 524,288 bytes of new files"):
        refusing = guard(2 * MiB, MiB // 2)  # 2 MiB a commit (14 of them) would take it
        refusing.feed(pack)
        refusing.finish()
