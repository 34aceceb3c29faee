"""Thin packs from a hostile side (issue #28 Must 3 and 4): deltas against bases
the pack does not hold. Against an object the receiver lacks, the pack is refused
as it streams (nothing is stored); against one it has, the delta is resolved from
the receiver's store within the bounds, and a pack that then lacks what it was
asked for is refused with a readable message, never "internal error". Through
``rulesbook sync``/``clone`` against a hostile ``git://`` server, and a push to
``rulesbook serve``."""
from __future__ import annotations

import hashlib
import struct
import zlib

import pytest
from dulwich.client import get_transport_and_path
from dulwich.objects import Blob
from dulwich.pack import UnpackedObject
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
        pack, said = thin_pack(MISSING, copy_delta(100, b"x", source=100)), "does not have"
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
        client, path = get_transport_and_path(served.with_token("bob"))
        made = Blob.from_string(b"x" * 99 + b"y")

        def update_refs(refs):
            return {**refs, b"refs/heads/main": made.id}

        def pack_data(have, want, *, ofs_delta=False, progress=None):
            delta = UnpackedObject(Blob.type_num, sha=made.sha().digest(), delta_base=MISSING,
                                   decomp_chunks=[copy_delta(100, b"y", source=100)])
            return 1, iter([delta])

        try:
            result = client.send_pack(path.encode(), update_refs, pack_data)
            status = str(dict(result.ref_status or {}))
        except Exception as exc:  # dulwich reports the unpack status as an error
            status = str(exc)
        assert "does not have" in status, status
        assert head(served.bare) == before
