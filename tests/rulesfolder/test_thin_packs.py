"""Thin packs from a hostile side (issue #28 Must 3 and 4): deltas against bases
the pack does not hold. Against an object the receiver lacks, the pack is refused
before anything is stored (the base could have been an object of the same pack, which
is valid: a pack of REF deltas against its own objects is taken); against one it has, the delta is resolved from
the receiver's store within the bounds, and a pack that then lacks what it was
asked for is refused with a readable message, never "internal error". Through
``rulesbook sync``/``clone`` against a hostile ``git://`` server, and a push to
``rulesbook serve``."""
from __future__ import annotations

import hashlib
import struct
import zlib

import pytest
from dulwich.repo import Repo

from .conftest import file_bytes
from .hostile import _pack_header, add_file, commit_on_main
from .servers import hostile_git_server, rulesbook_serve
from .test_delta_chains import copy_delta
from .test_hostile_remote import shared
from .test_serve import head, shared_folder

MISSING = hashlib.sha1(b"an object no one has").digest()


def thin_pack(base: bytes, delta: bytes) -> bytes:
    """A pack of one REF delta against ``base`` (a binary id)."""
    body = _pack_header(7, len(delta)) + base + zlib.compress(delta)
    data = b"PACK" + struct.pack(">II", 2, 1) + body
    return data + hashlib.sha1(data).digest()


def thin_commit_pack(base: bytes, delta: bytes) -> tuple[bytes, bytes]:
    """A commit, its tree, and its one file a REF delta against ``base``: a pack
    within every bound as it streams (its file fits in its commit), whose base only
    resolving it can find missing (it could have been an object of the pack); and the commit's id."""
    from dulwich.objects import Commit, Tree

    made = hashlib.sha1(b"the file the delta would make").hexdigest().encode()
    tree = Tree()
    tree.add(b"note.txt", 0o100644, made)
    commit = Commit()
    commit.tree, commit.message = tree.id, b"a note\n"
    commit.author = commit.committer = b"Mallory <m@x>"
    commit.author_time = commit.commit_time = 0
    commit.author_timezone = commit.commit_timezone = 0
    body = b""
    for obj in (commit, tree):
        raw = obj.as_raw_string()
        body += _pack_header(obj.type_num, len(raw)) + zlib.compress(raw)
    body += _pack_header(7, len(delta)) + base + zlib.compress(delta)
    data = b"PACK" + struct.pack(">II", 2, 3) + body
    return data + hashlib.sha1(data).digest(), commit.id


def _member_blob(member) -> tuple[bytes, int]:
    """(the binary id, the size) of a file the member's folder holds."""
    with Repo(str(member)) as repo:
        tree = repo[repo[repo.head()].tree]
        _mode, sha = tree[b"editions.yaml"]
        return bytes.fromhex(sha.decode()), len(repo[sha].as_raw_string())


@pytest.mark.parametrize("against", ["an object the member lacks", "a file the member has"])
def test_a_hostile_thin_pack_is_refused_by_sync_and_clone(rb, tmp_path, against):
    bare, _secretary, member = shared(rb, tmp_path)
    if against == "an object the member lacks":
        pack, _commit = thin_commit_pack(MISSING, copy_delta(100, b"x", source=100))
        said = f"a delta against {MISSING.hex()}, an object this folder does not have"
    else:
        base, size = _member_blob(member)
        pack, said = thin_pack(base, copy_delta(size, b"changed", source=size)), "sent"
    commit_on_main(bare, lambda repo, tree: add_file(repo, tree, [b"note.txt"]))  # wanted
    before = file_bytes(member)
    with hostile_git_server(bare, pack) as url:
        run = rb("--data", member, "sync", "--remote", url)
        assert run.code == 2, run.err
        assert url in run.err and said in run.err, run.err
        assert "internal error" not in run.err, run.err
        assert file_bytes(member) == before
        run = rb("clone", url, tmp_path / "new")
        assert run.code == 2 and url in run.err and "internal error" not in run.err, run.err
        assert not (tmp_path / "new").exists()


def test_a_thin_push_against_an_object_the_server_lacks_is_refused(tmp_path):
    with rulesbook_serve(tmp_path / "srv.git") as served:
        shared_folder(tmp_path, served)
        before = head(served.bare)
        pack, commit = thin_commit_pack(MISSING, copy_delta(100, b"y", source=100))
        status = raw_push(served, "bob", before, commit, pack)
        assert f"a delta against {MISSING.hex()}, an object this folder does not have" \
            in status, status
        assert "unpack ok" not in status, status
        assert head(served.bare) == before


def _ref_deltas(pack: bytes, where) -> int:
    """How many REF deltas ``pack`` holds whose base is an object of the pack itself."""
    from dulwich.object_format import SHA1
    from dulwich.pack import PackData

    (where / "sent.pack").write_bytes(pack)
    with PackData(str(where / "sent.pack"), object_format=SHA1) as data:
        ids = {oid for oid, _offset, _crc in data.iterentries()}
        ids |= {bytes.fromhex(i.decode()) for i in list(ids) if len(i) == 40}
        return sum(1 for u in data.iter_unpacked()
                   if u.pack_type_num == 7 and u.delta_base in ids)


def test_a_pack_of_ref_deltas_against_its_own_objects_is_taken_by_sync_and_clone(rb, tmp_path):
    """A pack naming each delta's base by id (git pack-objects without
    --delta-base-offset) is valid even when the base is an object of the same pack;
    it was refused as "an object this folder does not have"."""
    import subprocess

    from .servers import git_program

    bare, secretary, member = shared(rb, tmp_path)
    assert rb("--data", secretary, "member", "add", "Bob Shared").code == 0
    assert rb("--data", secretary, "sync", "--quiet").code == 0
    pack = subprocess.run([git_program(), "-C", str(bare), "pack-objects", "--stdout", "--revs"],
                          input=b"refs/heads/main\n", capture_output=True, check=True).stdout
    assert _ref_deltas(pack, tmp_path) > 0
    with Repo(str(bare)) as repo:
        main = repo.refs[b"refs/heads/main"]
    with hostile_git_server(bare, pack) as url:
        run = rb("--data", member, "sync", "--remote", url, "--quiet")
        assert run.code == 0, run.err
        assert log_head(member) == main
        run = rb("clone", url, tmp_path / "new", "--quiet")
        assert run.code == 0, run.err
        assert log_head(tmp_path / "new") == main


def log_head(folder) -> bytes:
    with Repo(str(folder)) as repo:
        return repo.refs[b"refs/heads/main"]


def raw_push(served, member: str, old: bytes, new: bytes, pack: bytes) -> str:
    """POST ``pack`` to ``rulesbook serve``'s receive-pack as is (dulwich's client
    would turn a REF delta against an object of the pack into an OFS one): the
    server's report."""
    import base64
    import http.client
    from urllib.parse import urlsplit

    def line(text: bytes) -> bytes:
        return b"%04x" % (len(text) + 4) + text

    body = line(old + b" " + new + b" refs/heads/main\0report-status\n") + b"0000" + pack
    url = urlsplit(served.url)
    auth = base64.b64encode(f"{member}:{served.tokens[member]}".encode()).decode()
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    try:
        conn.request("POST", url.path.rstrip("/") + "/git-receive-pack", body, {
            "Content-Type": "application/x-git-receive-pack-request",
            "Authorization": f"Basic {auth}"})
        return conn.getresponse().read().decode("utf-8", "replace")
    finally:
        conn.close()


def test_a_push_of_ref_deltas_against_its_own_objects_is_taken_by_serve(tmp_path):
    """A push whose folder (a tree) is sent as a REF delta against another tree of the
    same push: valid, and ``rulesbook serve`` takes it."""
    from rulesbook.rulesfolder.delta import create_delta

    from .servers import git

    with rulesbook_serve(tmp_path / "srv.git") as served:
        folder = shared_folder(tmp_path, served)
        before = head(served.bare)
        case = max((folder / "cases").glob("*.yaml"), key=lambda p: p.stat().st_size)
        case.write_bytes(case.read_bytes() + b"# a note\n")
        git("commit", "-q", "-am", "a note", cwd=folder)
        with Repo(str(folder)) as repo:
            commit = repo[repo.head()]
            root = repo[commit.tree]
            sub = repo[root[b"cases"][1]]
            blob = repo[sub[case.name.encode()][1]]

        def whole(obj) -> bytes:
            raw = obj.as_raw_string()
            return _pack_header(obj.type_num, len(raw)) + zlib.compress(raw)

        delta = create_delta(root.as_raw_string(), sub.as_raw_string())
        body = (whole(blob) + whole(root) + _pack_header(7, len(delta)) + root.sha().digest()
                + zlib.compress(delta) + whole(commit))
        data = b"PACK" + struct.pack(">II", 2, 4) + body
        report = raw_push(served, "bob", before, commit.id, data + hashlib.sha1(data).digest())
        assert "unpack ok" in report and "ok refs/heads/main" in report, report
        assert head(served.bare) == commit.id


def test_a_lone_delta_against_a_missing_base_is_refused_naming_the_base(rb, tmp_path):
    """#28 re-test B: a pack of one REF delta whose base is nowhere was refused as "a
    pack whose files add up to more than its commits may hold (... room for the files
    of 0 commits ...)", a size bound, not naming the delta's missing base."""
    bare, _secretary, member = shared(rb, tmp_path)
    commit_on_main(bare, lambda repo, tree: add_file(repo, tree, [b"note.txt"]))  # wanted
    before = file_bytes(member)
    with hostile_git_server(bare, thin_pack(MISSING, copy_delta(100, b"x", source=100))) \
            as url:
        run = rb("--data", member, "sync", "--remote", url)
        assert run.code == 2 and url in run.err, run.err
        assert f"1 delta against an object this folder does not have, the first " \
               f"{MISSING.hex()}" in run.err, run.err
        assert file_bytes(member) == before
