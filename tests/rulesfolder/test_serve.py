"""``rulesbook serve`` as an outsider and a careless member meet it (issue #28,
attacks 1 and 3): only members with a token get in, ``main`` only moves forward to
a commit that validates, one idle connection blocks no one, a working folder is
never served. Every test runs the real commands (``rulesbook``, ``git``) against
the real server on 127.0.0.1."""
from __future__ import annotations

import base64
import http.client
import json
import select
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

from dulwich.repo import Repo

from .servers import Served, git, rulesbook, rulesbook_serve


def ok(run):
    assert run.returncode == 0, run.stderr
    return run


def head(bare: Path) -> bytes:
    with Repo(str(bare)) as repo:
        return repo.refs[b"refs/heads/main"]


def refs(bare: Path) -> dict[bytes, bytes]:
    with Repo(str(bare)) as repo:
        return {k: v for k, v in repo.get_refs().items() if k != b"HEAD"}


def shared_folder(tmp_path: Path, served: Served) -> Path:
    """The secretary makes the folder and pushes it to the server with her token."""
    folder = tmp_path / "secretary"
    ok(rulesbook("init", folder))
    ok(rulesbook("--data", folder, "sync", "--quiet", "--remote", served.with_token("alice")))
    return folder


def get(url: str, auth: tuple[str, str] | None = None) -> int:
    request = urllib.request.Request(url + "info/refs?service=git-upload-pack")
    if auth:
        token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def test_every_request_without_a_valid_token_is_refused(tmp_path):
    with rulesbook_serve(tmp_path / "srv.git") as served:
        assert get(served.url) == 401
        assert get(served.url, ("alice", "not-the-token")) == 401
        assert get(served.url, ("bob", served.tokens["alice"])) == 401  # another's token
        assert get(served.url, ("alice", served.tokens["alice"])) == 200
        access = (served.bare / "rulesbook-access.json").read_text()
        assert served.tokens["alice"] not in access  # kept hashed only
        assert (served.bare / "rulesbook-access.json").stat().st_mode & 0o077 == 0
        ok(rulesbook("serve", served.bare, "--revoke-member", "bob"))
        assert get(served.url, ("bob", served.tokens["bob"])) == 401  # without a restart
        assert get(served.url, ("alice", served.tokens["alice"])) == 200
        # a new token for alice: the old one stops working, and she is told so
        again = ok(rulesbook("serve", served.bare, "--add-member", "alice", "--json"))
        new = json.loads(again.stdout)
        assert new["member"] == "alice" and new["replaced"] is True
        assert "the token alice had before no longer works" in again.stderr
        assert get(served.url, ("alice", served.tokens["alice"])) == 401
        assert get(served.url, ("alice", new["token"])) == 200
        fresh = json.loads(ok(rulesbook("serve", served.bare, "--add-member", "carol",
                                        "--json")).stdout)
        assert fresh["replaced"] is False


def test_a_push_without_a_token_is_refused_even_with_public_read(tmp_path):
    bare = tmp_path / "srv.git"
    with rulesbook_serve(bare) as served:
        folder = shared_folder(tmp_path, served)
    with rulesbook_serve(bare, ("alice",), "--public-read", create=False) as served:
        clone = tmp_path / "reader"
        ok(rulesbook("clone", served.url, clone, "--quiet"))  # reading is open
        before = head(bare)
        git("commit", "-q", "--allow-empty", "-m", "anonymous", cwd=folder)
        pushed = git("push", served.url, "HEAD:main", cwd=folder, check=False)
        assert pushed.returncode != 0
        assert head(bare) == before


def test_force_pushes_deletions_other_branches_and_tags_are_refused(tmp_path):
    """Attack 1: anyone (here even a member with a token) rewriting or deleting main,
    or creating another branch or a tag."""
    with rulesbook_serve(tmp_path / "srv.git") as served:
        folder = shared_folder(tmp_path, served)
        url = served.with_token("bob")
        git("commit", "-q", "--allow-empty", "-m", "a change everyone gets", cwd=folder)
        ok(git("push", url, "HEAD:main", cwd=folder))  # a fast-forward is accepted
        before = refs(served.bare)
        git("reset", "-q", "--hard", "HEAD~1", cwd=folder)
        git("commit", "-q", "--allow-empty", "-m", "history rewritten", cwd=folder)
        forced = git("push", "-f", url, "HEAD:main", cwd=folder, check=False)
        assert forced.returncode != 0 and "append-only" in forced.stderr, forced.stderr
        deleted = git("push", url, ":main", cwd=folder, check=False)
        assert deleted.returncode != 0 and "never deleted" in deleted.stderr, deleted.stderr
        branch = git("push", url, "HEAD:refs/heads/other", cwd=folder, check=False)
        assert branch.returncode != 0 and "one branch, main" in branch.stderr, branch.stderr
        git("tag", "v1", cwd=folder)
        tag = git("push", url, "v1", cwd=folder, check=False)
        assert tag.returncode != 0, tag.stderr
        assert refs(served.bare) == before


def test_a_fast_forward_from_a_machine_whose_clock_is_behind_is_accepted(tmp_path):
    """Commits dated before the server's main (a member's clock set years back) still
    only move main forward: dulwich's can_fast_forward, which stops at commits older
    than the one replaced, called this push a rewrite of history."""
    with rulesbook_serve(tmp_path / "srv.git") as served:
        folder = shared_folder(tmp_path, served)
        for day in ("2001-01-02", "2001-01-01"):  # each one older than the last
            stamp = f"{day}T12:00:00+0000"
            git("commit", "-q", "--allow-empty", "-m", f"written on {day}", cwd=folder,
                GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)
        pushed = git("push", served.with_token("bob"), "HEAD:main", cwd=folder, check=False)
        assert pushed.returncode == 0, pushed.stderr
        assert head(served.bare) == git("rev-parse", "HEAD", cwd=folder).stdout.strip().encode()


def test_an_invalid_push_is_refused_with_the_reason_and_never_reaches_members(tmp_path):
    """Attack 1: one push that breaks the record made every member's sync fail; the
    server now refuses it, so members keep syncing."""
    with rulesbook_serve(tmp_path / "srv.git") as served:
        folder = shared_folder(tmp_path, served)
        member = tmp_path / "member"
        ok(rulesbook("clone", served.with_token("bob"), member, "--quiet"))
        before = head(served.bare)
        editions = folder / "editions.yaml"
        editions.write_text(editions.read_text().replace("schema_version: 1",
                                                         "schema_version: 99"))
        git("commit", "-q", "-am", "break the record", cwd=folder)
        pushed = git("push", served.with_token("bob"), "HEAD:main", cwd=folder, check=False)
        assert pushed.returncode != 0
        assert "does not validate" in pushed.stderr and "editions.yaml" in pushed.stderr, \
            pushed.stderr
        assert head(served.bare) == before
        synced = rulesbook("--data", member, "sync")
        assert synced.returncode == 0 and "up to date" in synced.stdout, synced.stderr


def objects_of(bare: Path) -> dict[str, bytes]:
    """Every file under the repository's objects/, with its bytes."""
    return {str(p.relative_to(bare)): p.read_bytes()
            for p in sorted((bare / "objects").rglob("*")) if p.is_file()}


def test_a_refused_push_leaves_no_object_behind(tmp_path):
    """Found by the #28 tester: a refused push's objects were kept in the served
    repository (dulwich moves the pack in before the refs are checked). They are now
    received into a quarantine folder and moved in only when main moves."""
    with rulesbook_serve(tmp_path / "srv.git") as served:
        folder = shared_folder(tmp_path, served)
        before = objects_of(served.bare)
        editions = folder / "editions.yaml"
        editions.write_text(editions.read_text().replace("schema_version: 1",
                                                         "schema_version: 99"))
        git("commit", "-q", "-am", "break the record", cwd=folder)
        broken = git("rev-parse", "HEAD", cwd=folder).stdout.strip()
        pushed = git("push", served.with_token("bob"), "HEAD:main", cwd=folder, check=False)
        assert pushed.returncode != 0 and "does not validate" in pushed.stderr, pushed.stderr
        assert objects_of(served.bare) == before
        assert git("cat-file", "-e", broken, cwd=served.bare, check=False).returncode != 0
        # an accepted push still lands whole, and a member receives it
        git("reset", "-q", "--hard", "HEAD~1", cwd=folder)
        git("commit", "-q", "--allow-empty", "-m", "a change everyone gets", cwd=folder)
        ok(git("push", served.with_token("bob"), "HEAD:main", cwd=folder))
        assert head(served.bare).decode() == git("rev-parse", "HEAD", cwd=folder).stdout.strip()
        assert not list((served.bare / "objects").glob("rulesbook-incoming-*"))
        member = tmp_path / "member"
        ok(rulesbook("clone", served.with_token("alice"), member, "--quiet"))
        assert git("log", "-1", "--format=%s", cwd=member).stdout.strip() == \
            "a change everyone gets"


def test_a_refused_name_is_reported_with_its_commit_and_author(tmp_path):
    """Found by the #28 tester: a push whose commit names a file git refuses (here
    ``.GIT/hooks/post-checkout``, one file with ``.git/hooks`` where names ignore
    case) was refused without saying which commit, or whose, it was."""
    from .hostile import MALLORY, add_file, commit_on_main

    with rulesbook_serve(tmp_path / "srv.git") as served:
        shared_folder(tmp_path, served)
        before = head(served.bare)
        local = tmp_path / "local.git"
        git("clone", "-q", "--bare", served.bare, local)
        bad = commit_on_main(local, lambda repo, tree: add_file(
            repo, tree, [b".GIT", b"hooks", b"post-checkout"]), "hooks")
        pushed = git("push", served.with_token("bob"), "main", cwd=local, check=False)
        assert pushed.returncode != 0
        assert ".GIT" in pushed.stderr, pushed.stderr
        assert bad.decode()[:10] in pushed.stderr, pushed.stderr
        assert f"{MALLORY.name} <{MALLORY.email}>" in pushed.stderr, pushed.stderr
        assert head(served.bare) == before


def test_an_invalid_commit_repaired_later_in_the_same_push_is_refused(tmp_path):
    """Found by the #28 tester: the server checked only the pushed tip, so a commit that
    broke the record followed by its revert, pushed together, put an invalid commit in
    the append-only history for good."""
    with rulesbook_serve(tmp_path / "srv.git") as served:
        folder = shared_folder(tmp_path, served)
        before = head(served.bare)
        editions = folder / "editions.yaml"
        editions.write_text(editions.read_text().replace("schema_version: 1",
                                                         "schema_version: 99"))
        git("commit", "-q", "-am", "break the record", cwd=folder)
        broken = git("rev-parse", "HEAD", cwd=folder).stdout.strip()
        git("revert", "--no-edit", "HEAD", cwd=folder)
        pushed = git("push", served.with_token("bob"), "HEAD:main", cwd=folder, check=False)
        assert pushed.returncode != 0
        assert "does not validate" in pushed.stderr and broken[:10] in pushed.stderr, \
            pushed.stderr
        assert head(served.bare) == before


def test_a_push_that_drops_the_newest_signed_statement_is_refused(tmp_path):
    """Found by the tester of #27: the append-only rules were checked only by a member's
    own sync, so a plain git push that cut the newest statement of members.yaml (a
    revocation, say) reached every fresh clone through the server."""
    config = str(tmp_path / "config")
    with rulesbook_serve(tmp_path / "srv.git") as served:
        folder = shared_folder(tmp_path, served)
        for words in (("member", "keygen", "--member", "A"), ("member", "role", "A", "chair"),
                      ("sync", "--quiet")):
            ok(rulesbook("--data", folder, *words, RULESBOOK_CONFIG=config))
        before = head(served.bare)
        members = folder / "members.yaml"
        text = members.read_text(encoding="utf-8")
        cut = text.rindex("\n  - ", text.index("registry:"))  # the newest: A named chair
        members.write_text(text[:cut + 1], encoding="utf-8")
        git("commit", "-q", "-am", "tidy the registry", cwd=folder)
        pushed = git("push", served.with_token("alice"), "HEAD:main", cwd=folder, check=False)
        assert pushed.returncode != 0
        assert "append-only" in pushed.stderr or "removed" in pushed.stderr, pushed.stderr
        assert head(served.bare) == before


def test_serve_refuses_a_working_folder(tmp_path):
    """Attack 3: a member's push moved a served working folder's branch but not its
    files, and the owner's next change undid it."""
    folder = tmp_path / "folder"
    ok(rulesbook("init", folder))
    refused = rulesbook("serve", folder, "--port", "0", timeout=60)
    assert refused.returncode == 2
    assert "bare" in refused.stderr and "--create" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr


def test_one_idle_client_never_blocks_another(tmp_path):
    """Attack 1: one TCP connection held open (no bytes, half a header, a short body)
    made every other client's clone time out."""
    with rulesbook_serve(tmp_path / "srv.git") as served:
        shared_folder(tmp_path, served)
        port = int(served.url.rsplit(":", 1)[1].strip("/"))
        holders = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        try:
            holders[1].sendall(b"GET /info/refs?service=git-upload-pack HTTP/1.1\r\nHost: x")
            holders[2].sendall(b"POST /git-upload-pack HTTP/1.1\r\nHost: x\r\n"
                               b"Content-Length: 100000\r\n\r\n0032want ")
            started = time.monotonic()
            cloned = rulesbook("clone", served.with_token("bob"), tmp_path / "other", "--quiet",
                               timeout=50)
            assert cloned.returncode == 0, cloned.stderr
            assert time.monotonic() - started < 50
        finally:
            for s in holders:
                s.close()


def until_closed(sock: socket.socket) -> float:
    """Read until the server closes the connection; how long that took."""
    started = time.monotonic()
    sock.settimeout(20)
    try:
        while sock.recv(4096):
            pass
    except OSError:
        pass
    return time.monotonic() - started


def test_an_idle_or_half_sent_connection_is_closed(tmp_path):
    from rulesbook.rulesfolder.serve import ServeOptions, serving
    from rulesbook.rulesfolder.serve_auth import AccessList

    from .conftest import bare_repo

    bare = bare_repo(tmp_path / "srv.git")
    token = AccessList(bare).add("alice").token
    with serving(bare, options=ServeOptions(idle_seconds=1.0, max_connection_seconds=4.0)) \
            as url:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        idle = socket.create_connection(("127.0.0.1", port))
        drip = socket.create_connection(("127.0.0.1", port))
        try:
            idle.settimeout(20)
            assert until_closed(idle) < 20  # a second of silence: closed by the server
            started = time.monotonic()
            closed = False
            while not closed and time.monotonic() - started < 20:  # a byte every 0.5 s
                try:
                    drip.sendall(b"G")
                except OSError:
                    closed = True
                time.sleep(0.5)
                readable, _, _ = select.select([drip], [], [], 0)
                closed = closed or bool(readable and until_closed(drip) < 20)
            assert closed  # cut at the connection's deadline (4 s), though never idle
        finally:
            idle.close()
            drip.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        auth = base64.b64encode(f"alice:{token}".encode()).decode()
        conn.request("GET", "/info/refs?service=git-upload-pack",
                     headers={"Authorization": f"Basic {auth}"})
        assert conn.getresponse().status == 200  # the server still serves
        conn.close()


def test_a_request_over_the_size_bound_is_refused_before_it_is_read(tmp_path):
    from rulesbook.rulesfolder.serve import MAX_PUSH_BYTES

    with rulesbook_serve(tmp_path / "srv.git") as served:
        port = int(served.url.rsplit(":", 1)[1].strip("/"))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        auth = base64.b64encode(f"alice:{served.tokens['alice']}".encode()).decode()
        conn.putrequest("POST", "/git-receive-pack")
        conn.putheader("Authorization", f"Basic {auth}")
        conn.putheader("Content-Type", "application/x-git-receive-pack-request")
        conn.putheader("Content-Length", str(MAX_PUSH_BYTES + 1))
        conn.endheaders()
        assert conn.getresponse().status == 413
        conn.close()


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A throwaway certificate for 127.0.0.1 and its key (PEM files)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


def test_serve_over_https_with_tokens(tmp_path):
    cert, key = self_signed(tmp_path)
    with rulesbook_serve(tmp_path / "srv.git", ("alice", "bob"), "--cert", str(cert),
                         "--key", str(key)) as served:
        assert served.url.startswith("https://127.0.0.1:")
        trust = {"GIT_SSL_CAINFO": str(cert)}
        secretary, member = tmp_path / "secretary", tmp_path / "member"
        ok(rulesbook("init", secretary))
        ok(rulesbook("--data", secretary, "sync", "--quiet", "--remote",
                     served.with_token("alice"), **trust))
        ok(rulesbook("clone", served.with_token("bob"), member, "--quiet", **trust))
        untrusted = rulesbook("clone", served.with_token("bob"), tmp_path / "x")
        assert untrusted.returncode == 2 and "certificate" in untrusted.stderr.lower(), \
            untrusted.stderr
        assert "Traceback" not in untrusted.stderr
        port = int(served.url.rsplit(":", 1)[1].strip("/"))
        plain = socket.create_connection(("127.0.0.1", port))  # a client that never
        try:                                                    # says hello blocks no one
            ok(rulesbook("clone", served.with_token("bob"), tmp_path / "again", "--quiet",
                         timeout=50, **trust))
        finally:
            plain.close()


def test_a_pushed_blob_bomb_is_refused_as_it_arrives(tmp_path):
    """Attack 2, on the server: the pack is checked as it arrives, before dulwich
    inflates it to index it."""
    from .hostile import add_bomb_blob, add_file, commit_on_main

    with rulesbook_serve(tmp_path / "srv.git") as served:
        folder = shared_folder(tmp_path, served)
        before = head(served.bare)
        local = tmp_path / "local.git"
        git("clone", "-q", "--bare", served.bare, local)
        bomb = add_bomb_blob(local)
        commit_on_main(local, lambda repo, tree: add_file(repo, tree, [b"bomb.yaml"],
                                                          blob_id=bomb), "a big file")
        pushed = git("push", served.with_token("bob"), "main", cwd=local, check=False,
                     timeout=120)
        assert pushed.returncode != 0
        assert "1,024 MiB" in pushed.stderr, pushed.stderr
        assert head(served.bare) == before
        assert (folder / "editions.yaml").exists()


def test_a_tree_listing_one_name_twice_is_refused(tmp_path):
    """Found by the #28 re-test: a push whose tree lists ``apca`` twice (a link to
    /etc/passwd and the real folder) was taken; plain ``git clone`` of the server
    then failed and a member's clone showed ``apca`` deleted."""
    from .hostile import commit_a_name_twice

    with rulesbook_serve(tmp_path / "srv.git") as served:
        shared_folder(tmp_path, served)
        before = head(served.bare)
        local = tmp_path / "local.git"
        git("clone", "-q", "--bare", served.bare, local)
        bad = commit_a_name_twice(local)
        pushed = git("push", served.with_token("bob"), "main", cwd=local, check=False)
        assert pushed.returncode != 0, pushed.stderr
        assert "apca twice" in pushed.stderr or "twice" in pushed.stderr, pushed.stderr
        assert bad.decode()[:10] in pushed.stderr, pushed.stderr
        assert head(served.bare) == before
        ok(git("clone", "-q", served.with_token("bob"), tmp_path / "plain"))
