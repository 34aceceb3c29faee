"""Sharing one rules folder, tested as the committee uses it: a bare repository,
members A and B and the secretary each with a clone, voting and syncing in
different orders; a real conflict; a sync killed with SIGKILL; a network remote
served on 127.0.0.1 by dulwich's own smart-HTTP server."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from dulwich.repo import Repo

from rulesbook.ballots import load_ballot, load_registry
from rulesbook.loading import load_library
from rulesbook.rulesfolder import open_repo
from tests.datapaths import REPO

from .conftest import bare_repo, file_bytes, log

BALLOT = "apca/ballots/2026-committee.yaml"


#: who works in which folder: the chair A, members B and C, and the secretary E
OWNER = {"member-a": "A", "member-b": "B", "member-c": "C", "secretary": "E"}


def votes(folder: Path) -> set[tuple[str, str, tuple[str, ...]]]:
    return {(v.member, v.question, v.ranking) for v in load_ballot(folder / BALLOT).votes}


def as_owner(rb, folder: Path, *argv):
    """Run a command as the member who works in ``folder``, on their computer (their
    own configuration folder, so their own private key)."""
    return rb("--data", folder, *argv, owner=folder)


def vote(rb, folder: Path, member: str, question: str, ranking: str) -> None:
    """``member`` votes in ``folder``: their own vote when it is their folder, else a
    postal or telephone vote the folder's owner (the chair or secretary) enters."""
    owner = OWNER.get(folder.name, member)
    proxy = () if owner == member else ("--proxy-by", owner)
    result = as_owner(rb, folder, "ballot", "vote", folder / BALLOT, "--member", member,
                      "--question", question, "--ranking", ranking, *proxy)
    assert result.code == 0, result.err


def sync(rb, folder: Path, *extra):
    return rb("--data", folder, "sync", "--quiet", *extra)


def ok(result):
    assert result.code == 0, result.err
    return result


def join(rb, remote: str, folder: Path, member: str) -> None:
    """A member clones the shared folder, makes their key and sends it (the chair
    confirms it with a role: :func:`confirm`)."""
    ok(rb("clone", remote, folder, "--quiet"))
    assert OWNER[folder.name] == member
    ok(as_owner(rb, folder, "member", "keygen", "--member", member))
    ok(sync(rb, folder))


def confirm(rb, chair: Path, roles: dict[str, str]) -> None:
    """The chair receives the new keys, signs each member's role, and sends them."""
    ok(sync(rb, chair))
    for member, role in roles.items():
        ok(as_owner(rb, chair, "member", "role", member, role))
    ok(sync(rb, chair))


def committee(rb, tmp_path, remote: str | None = None):
    """As a committee sets up (docs/rules-folder.md): the secretary E makes the folder,
    her key, and shares it; the chair A clones it, makes his key and names himself
    chair; B clones it and makes his key; the chair confirms B and makes E secretary;
    the chair signs the settings of the seed's ballot; everyone syncs. Each on their own
    computer (their own keys)."""
    if remote is None:
        remote = str(bare_repo(tmp_path / "shared.git"))
    secretary, a, b = tmp_path / "secretary", tmp_path / "member-a", tmp_path / "member-b"
    ok(rb("init", secretary))
    ok(as_owner(rb, secretary, "member", "keygen", "--member", "E"))
    ok(sync(rb, secretary, "--remote", remote))
    join(rb, remote, a, "A")
    ok(as_owner(rb, a, "member", "role", "A", "chair"))  # the first chair names himself
    ok(sync(rb, a))
    join(rb, remote, b, "B")
    confirm(rb, a, {"B": "member", "E": "secretary"})
    # the chair opens the seed's ballot: he signs its settings, and it takes votes
    ok(as_owner(rb, a, "ballot", "sign", a / BALLOT, "--as", "A"))
    ok(sync(rb, a))
    for folder in (secretary, b):
        ok(sync(rb, folder))
    for folder in (secretary, a, b):
        registry = load_registry(folder)
        assert registry.chair == "A" and registry.role_at("E") == "secretary"
        assert all(registry.key_problem(m, registry.key_of(m)) is None for m in "ABE")
    return remote, secretary, a, b


class CommitClock:
    """The clock the rules folder's commits read: ``step`` seconds between commits
    (0: all in one second, as a vote and the sync after it often are; negative: a
    clock going back, as members' machines whose clocks disagree make it)."""

    def __init__(self, step: int) -> None:
        self.now, self.step = 1_790_000_000, step

    def time(self) -> float:
        self.now += self.step
        return float(self.now)


@pytest.mark.parametrize("clock", [None, 0, -60], ids=["real-clock", "one-second",
                                                      "clock-going-back"])
def test_three_clones_vote_and_sync_in_different_orders(rb, tmp_path, monkeypatch, clock):
    if clock is not None:  # the walks of the history must not depend on commit times
        import rulesbook.rulesfolder.repo as repo_module

        monkeypatch.setattr(repo_module, "time", CommitClock(clock))
    remote, secretary, a, b = committee(rb, tmp_path)
    c = tmp_path / "member-c"  # C has a key too, but sends his votes by e-mail
    join(rb, remote, c, "C")
    confirm(rb, a, {"C": "member"})
    for folder in (secretary, b, c):
        ok(sync(rb, folder))
    expected = {("A", "10", ("apca:10B", "apca:10A")), ("B", "28", ("apca:28A",)),
                ("A", "28", ("apca:24B",)), ("B", "10", ("apca:10C",))}
    vote(rb, a, "A", "10", "10B,10A")
    vote(rb, b, "B", "28", "28A")
    assert sync(rb, b).code == 0  # B first: a plain push
    merged = sync(rb, a)  # A second: merges B's vote with its own, then pushes
    assert merged.code == 0, merged.err
    assert log(a)[0].parents == 2 and "merge" in log(a)[0].message.lower()
    vote(rb, a, "A", "28", "24B")
    vote(rb, b, "B", "10", "10C")
    # the secretary enters member C's own signed copy, received by e-mail, without
    # syncing first
    vote(rb, c, "C", "10", "10A")
    copy = tmp_path / "c.yaml"
    ok(as_owner(rb, c, "ballot", "export", c / BALLOT, "--member", "C", "-o", copy))
    assert yaml.safe_load(copy.read_text())["signature"]
    assert rb("--data", secretary, "ballot", "import", secretary / BALLOT, copy).code == 0
    expected.add(("C", "10", ("apca:10A",)))
    c = next(m for m in yaml.safe_load((secretary / "members.yaml").read_text())["members"]
             if m["id"] == "C")
    assert log(secretary)[0].author.startswith(f"{c['full_name']} (member C)")
    for folder in (secretary, b, a, secretary, b):
        result = sync(rb, folder)
        assert result.code == 0, result.err
    for folder in (secretary, a, b):
        assert votes(folder) == expected
        load_library(folder)  # valid
    assert len({log(f)[0].id for f in (secretary, a, b)}) == 1  # all three on one commit
    again = json.loads(rb("--data", a, "sync", "--json").out)
    assert again["up_to_date"] is True and again["pushed"] == 0


def test_a_real_conflict_stops_the_sync_and_keeps_both_sides(rb, tmp_path):
    remote, secretary, a, b = committee(rb, tmp_path)
    vote(rb, secretary, "D", "10", "10C")  # D phoned the secretary...
    vote(rb, a, "D", "10", "10A")  # ...and wrote to the chair A, differently
    assert sync(rb, secretary).code == 0
    before_files, before_head = file_bytes(a), log(a)[0].id
    result = sync(rb, a)
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err
    assert BALLOT in result.err and "member=D, question=10" in result.err
    assert "origin/main" in result.err
    assert file_bytes(a) == before_files and log(a)[0].id == before_head  # ours intact
    assert ("D", "10", ("apca:10A",)) in votes(a)
    load_library(a)
    with open_repo(a) as repo:  # theirs intact, as fetched
        theirs = repo.refs[b"refs/remotes/origin/main"]
        assert theirs.decode() == log(secretary)[0].id
    as_json = json.loads(rb("--data", a, "sync", "--json").out)
    assert as_json["conflict"][0]["file"] == BALLOT
    assert as_json["conflict"][0]["record"].startswith("votes[member=D, question=10]")
    assert log(secretary)[0].id == log(tmp_path / "shared.git")[0].id  # nothing pushed by A


def test_a_conflict_with_another_remote_keeps_nothing_of_it(rb, tmp_path):
    """A conflict is kept as origin/main only for the folder's own remote: a conflict
    with `--remote OTHER` leaves origin/main, the origin and the objects as they were,
    and says the remote's version is not kept."""
    import shutil

    _remote, secretary, a, _b = committee(rb, tmp_path)
    vote(rb, secretary, "D", "10", "10C")
    vote(rb, a, "D", "10", "10A")
    assert sync(rb, secretary).code == 0
    other = tmp_path / "other.git"
    shutil.copytree(tmp_path / "shared.git", other)
    objects = a / ".git" / "objects"

    def state():
        with open_repo(a) as repo:
            tracking = repo.refs[b"refs/remotes/origin/main"]
            url = repo.get_config().get((b"remote", b"origin"), b"url")
        return (tracking, url, sorted(p.relative_to(objects).as_posix()
                                      for p in objects.rglob("*")), file_bytes(a))

    before = state()
    result = sync(rb, a, "--remote", other)
    assert result.code == 2, result.err
    assert "member=D, question=10" in result.err and "not kept here" in result.err, result.err
    assert "origin/main" not in result.err, result.err
    assert state() == before


def test_another_committees_folder_is_refused_as_unrelated(rb, tmp_path):
    """#28 re-test C: ``sync --remote OTHER`` where OTHER is a rules folder made by
    another ``init`` (no commit in common) was reported as a conflict over the whole
    of members.yaml with a ``--take theirs`` hint. It is refused as another folder,
    saying how to get it (clone), and this folder, its origin and objects are kept."""
    _remote, _secretary, a, _b = committee(rb, tmp_path)
    strangers = tmp_path / "strangers"
    assert rb("init", strangers).code == 0
    other = bare_repo(tmp_path / "other.git")
    assert sync(rb, strangers, "--remote", other).code == 0
    objects = a / ".git" / "objects"

    def state():
        with open_repo(a) as repo:
            url = repo.get_config().get((b"remote", b"origin"), b"url")
            main = repo.refs[b"refs/heads/main"]
        return main, url, sorted(p.name for p in objects.rglob("*")), file_bytes(a)

    before = state()
    result = sync(rb, a, "--remote", other)
    assert result.code == 2, result.err
    assert f"{other} holds a rules folder with no commit in common with this one" \
        in result.err, result.err
    assert "rulesbook clone" in result.err and "nothing was merged or pushed" in result.err
    assert "--take" not in result.err and "members.yaml" not in result.err, result.err
    assert state() == before
    assert sync(rb, a).code == 0  # its own remote as before


def test_an_invalid_merge_is_not_pushed(rb, tmp_path):
    remote, secretary, a, b = committee(rb, tmp_path)
    vote(rb, b, "B", "10", "10A")
    ok(sync(rb, b))
    ok(sync(rb, secretary))
    # the secretary closes and seals
    ok(as_owner(rb, secretary, "ballot", "close", secretary / BALLOT, "--as", "E"))
    assert sync(rb, secretary).code == 0
    vote(rb, a, "E", "10", "10B")  # the chair records E's vote on the ballot just sealed
    head = log(a)[0].id
    result = sync(rb, a)
    assert result.code == 2 and "would not be valid" in result.err
    assert "seal" in result.err
    assert log(a)[0].id == head
    assert log(tmp_path / "shared.git")[0].id == log(secretary)[0].id


def test_hand_edits_are_committed_by_sync_when_valid(rb, tmp_path):
    remote, secretary, a, b = committee(rb, tmp_path)
    members = secretary / "members.yaml"
    members.write_text(members.read_text().replace("name: Moochie", "name: Moochie Jr."))
    assert sync(rb, secretary).code == 0
    assert log(secretary)[0].message == "Edit by hand: members.yaml"
    assert sync(rb, a).code == 0
    assert "Moochie Jr." in (a / "members.yaml").read_text()
    (a / "members.yaml").write_text("kind: nonsense\n")
    result = sync(rb, a)
    assert result.code == 2 and "does not validate" in result.err.splitlines()[0]


def test_sync_over_smart_http_on_localhost(rb, tmp_path, http_remote):
    url, bare = http_remote
    remote, secretary, a, b = committee(rb, tmp_path, remote=url)
    vote(rb, a, "A", "27", "27A")
    vote(rb, b, "B", "27", "23B")
    assert sync(rb, a).code == 0
    result = sync(rb, b)
    assert result.code == 0, result.err
    assert sync(rb, a).code == 0
    assert votes(a) == votes(b) == {("A", "27", ("apca:27A",)), ("B", "27", ("apca:23B",))}
    assert log(bare)[0].id == log(a)[0].id == log(b)[0].id
    status = json.loads(rb("--data", a, "where", "--json").out)
    assert status["versioned"] is True


SYNC_SCRIPT = """
import os, signal, sys
from rulesbook.rulesfolder import repo as repo_module, sync
phase = sys.argv[2]
real = repo_module.atomic_write_bytes
def write_then_die(path, data, backup=False):
    result = real(path, data, backup)
    if phase == "checkout" and not str(path).endswith("rulesbook-checkout"):
        os.kill(os.getpid(), signal.SIGKILL)  # half of the working folder written
    return result
repo_module.atomic_write_bytes = write_then_die
def progress(message):
    if phase != "checkout" and message.startswith(phase):
        os.kill(os.getpid(), signal.SIGKILL)
sync(sys.argv[1], None, progress)
"""


def test_a_sync_killed_with_sigkill_leaves_a_valid_folder(rb, tmp_path):
    remote, secretary, a, b = committee(rb, tmp_path)
    expected = set()
    for i, (member, question) in enumerate([(m, q) for m in "BCDE" for q in ("10", "28")]):
        ranking = ["10A", "10B", "10C"][i % 3] if question == "10" else ["28A", "24B"][i % 2]
        vote(rb, secretary, member, question, ranking)  # B, C, D by post, and E
        expected.add((member, question, (f"apca:{ranking}",)))
    assert sync(rb, secretary).code == 0
    vote(rb, a, "A", "10", "10B")
    expected.add(("A", "10", ("apca:10B",)))
    env = dict(os.environ, PYTHONPATH=str(REPO))
    # killed while fetching, before merging, while validating the merge, in the middle
    # of writing the merge into the folder, and before pushing it
    for phase in ("Fetching", "Merging", "Validating", "checkout", "Pushing"):
        proc = subprocess.run([sys.executable, "-c", SYNC_SCRIPT, str(a), phase], env=env,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == -signal.SIGKILL, (phase, proc.stderr)
        check = rb("--data", a, "validate")  # reading the folder finishes a checkout
        assert check.code == 0, (phase, check.out, check.err)
        assert votes(a) in (expected, {("A", "10", ("apca:10B",))}), phase
    result = sync(rb, a)
    assert result.code == 0, result.err
    assert votes(a) == expected
    assert sync(rb, secretary).code == 0 and votes(secretary) == expected
    assert log(a)[0].id == log(secretary)[0].id == log(tmp_path / "shared.git")[0].id


def test_rulesbook_serve_shares_a_repository_over_http(rb, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    bare = tmp_path / "srv" / "apca-rules.git"
    made = subprocess.run([sys.executable, "-m", "rulesbook", "serve", str(bare), "--create",
                           "--add-member", "committee", "--json"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    token = json.loads(made.stdout)["token"]
    proc = subprocess.Popen([sys.executable, "-m", "rulesbook", "serve", str(bare),
                             "--port", "0"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving "), proc.stderr.read() if proc.poll() else line
        url = line.split(" at ")[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        with_token = url.replace("http://", f"http://committee:{token}@")
        remote, secretary, a, b = committee(rb, tmp_path, remote=with_token)
        vote(rb, a, "A", "1", "1B")
        assert sync(rb, a).code == 0 and sync(rb, secretary).code == 0
        assert ("A", "1", ("apca:1B",)) in votes(secretary)
        for folder in (secretary, a, b):  # the token is kept by git's credential helper
            assert token not in (folder / ".git" / "config").read_text()
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
        proc.stdout.close()
        proc.stderr.close()
    taken = rb("serve", bare, "--create")
    assert taken.code == 2 and "not empty" in taken.err


def test_a_hostile_commit_is_not_taken(rb, tmp_path):
    """A commit pushed by someone else naming ``..`` (a path outside the folder) or
    holding a symbolic link: the sync refuses it and writes nothing."""
    from dulwich.objects import Blob, Tree

    from rulesbook.rulesfolder.repo import Identity, make_commit

    remote, secretary, a, b = committee(rb, tmp_path)
    outside = tmp_path / "outside.txt"
    for name, mode in ((b"..", 0o040000), (b"link.yaml", 0o120000)):
        with Repo(str(tmp_path / "shared.git")) as shared:
            head = shared.refs[b"refs/heads/main"]
            tree = shared[shared[head].tree]
            evil = Blob.from_string(b"pwned\n")
            shared.object_store.add_object(evil)
            if mode == 0o040000:
                inner = Tree()
                inner.add(b"outside.txt", 0o100644, evil.id)
                shared.object_store.add_object(inner)
                tree.add(name, mode, inner.id)
            else:
                tree.add(name, mode, evil.id)
            shared.object_store.add_object(tree)
            shared.refs[b"refs/heads/main"] = make_commit(
                shared, tree.id, [head], "evil", Identity("Mallory", "m@x"))
        before = file_bytes(a)
        result = sync(rb, a)
        assert result.code == 2 and "not taken" in result.err, result.err
        assert file_bytes(a) == before and not outside.exists()
        with Repo(str(tmp_path / "shared.git")) as shared:  # undo for the next case
            shared.refs[b"refs/heads/main"] = head


def test_sync_refuses_to_push_into_a_members_working_folder(rb, tmp_path):
    remote, secretary, a, b = committee(rb, tmp_path)
    result = rb("--data", a, "sync", "--remote", b)
    assert result.code == 2 and "working rules folder" in result.err


def test_a_password_in_the_remote_address_is_never_shown_or_committed(rb, tmp_path,
                                                                       http_remote):
    url, bare = http_remote
    secret = url.replace("http://", "http://member:hunter2@")
    remote, secretary, a, b = committee(rb, tmp_path, remote=url)
    vote(rb, a, "A", "10", "10A")
    vote(rb, b, "B", "10", "10B")
    assert sync(rb, b).code == 0
    result = rb("--data", a, "sync", "--remote", secret, "--json")
    assert result.code == 0, result.err
    assert "hunter2" not in result.out + result.err
    assert all("hunter2" not in e.message for e in log(a))
    failed = rb("--data", a, "sync", "--remote", "http://member:hunter2@127.0.0.1:1/x")
    assert failed.code == 2 and "hunter2" not in failed.err


@pytest.mark.parametrize("huge", ["1" + ":00" * 300_000, "7" * 5_000],
                         ids=["sexagesimal-900KB", "int-5000-digits"])
def test_a_clone_of_a_remote_holding_a_huge_number_is_refused_at_its_line(rb, tmp_path, huge):
    # issue #34: a 900 KB `1:00:00:…` made the clone convert a 300,000-part base-60
    # number (49 s) before refusing it, now it stays text and the schema refuses it;
    # a 5,000-digit integer was "internal error (ValueError: Exceeds the limit …)"
    from dulwich import porcelain

    source = tmp_path / "remote-work"
    assert rb("init", source).code == 0
    topics = source / "topics.yaml"
    text = topics.read_text(encoding="utf-8")
    topics.write_text(text.replace("schema_version: 1", f"schema_version: {huge}", 1),
                      encoding="utf-8")
    porcelain.add(str(source), [str(topics)])
    porcelain.commit(str(source), message=b"hand edit", author=b"X <x@example.org>",
                     committer=b"X <x@example.org>")
    cloned = rb("clone", source, tmp_path / "mine")
    assert cloned.code != 0
    assert "topics.yaml:" in cloned.err and "Traceback" not in cloned.err
    assert "internal error" not in cloned.err
    assert len(cloned.err.splitlines()) <= 5


def test_what_a_killed_sync_had_fetched_is_removed_by_the_next(rb, tmp_path):
    """A sync keeps what it fetches apart (a quarantine in the folder's objects) until
    it is settled; one killed meanwhile leaves it, and the next sync removes it."""
    folder, remote = tmp_path / "folder", bare_repo(tmp_path / "shared.git")
    ok(rb("init", folder))
    ok(sync(rb, folder, "--remote", remote))
    left = folder / ".git" / "objects" / "rulesbook-incoming-killed"
    (left / "pack").mkdir(parents=True)
    (left / "pack" / "tmp_pack_x").write_bytes(b"PACK" + b"\0" * 1000)
    ok(sync(rb, folder))
    assert not left.exists()
