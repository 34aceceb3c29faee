"""Two members who each make a key before syncing (issue #28, re-test): both key
statements fork off the last statement both clones had; the sync merges them in
time order, so one of them lands above a statement the other clone already shared.
Every clone then syncs, through a bare path and through ``rulesbook serve`` (which
checks every push as ``validate`` and the sync do), whichever member syncs first and
whichever key is older. A statement slipped into the past without such a fork in the
history stays refused (test_who_signed.py), and so does one signed with a key whose
revocation was already shared, even when it comes on a forked branch of the history."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml
from dulwich.repo import Repo

import rulesbook.ballots.registry as registry_module
import rulesbook.cli.member_cmds as member_cmds
from rulesbook.ballots import load_registry
from rulesbook.ballots.registry import last_digest, sign_statement, statement_digest

from .conftest import bare_repo
from .servers import rulesbook_serve
from .test_sync import as_owner, committee, ok, sync
from .test_who_signed import signer_of

#: the dates of the two keys, seconds from now: the one who syncs second made the
#: older, or the newer
DATES = {"second-is-older": (5, 1), "second-is-newer": (1, 5)}


def set_clock(monkeypatch, at: str) -> None:
    """The date the member commands sign their statements with."""
    for module in (registry_module, member_cmds):
        monkeypatch.setattr(module, "now_utc", lambda: at)


def later(seconds: int) -> str:
    when = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=seconds)
    return when.isoformat().replace("+00:00", "Z")


@contextlib.contextmanager
def shared_remote(via: str, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """(the URL members sync with, the bare repository behind it)."""
    if via == "bare":
        bare = bare_repo(tmp_path / "shared.git")
        yield str(bare), bare
        return
    with rulesbook_serve(tmp_path / "srv.git", ("committee",)) as served:
        yield served.with_token("committee"), served.bare


def heads(*repos: Path) -> set[bytes]:
    found = set()
    for path in repos:
        with Repo(str(path)) as repo:
            found.add(repo.refs[b"refs/heads/main"])
    return found


def statements(folder: Path) -> list[dict]:
    return yaml.safe_load((folder / "members.yaml").read_text())["registry"]


@pytest.mark.parametrize("dates", sorted(DATES))
@pytest.mark.parametrize("first", ["A", "B"])
@pytest.mark.parametrize("via", ["bare", "serve"])
def test_two_members_make_keys_before_syncing(rb, tmp_path, monkeypatch, via, first, dates):
    with shared_remote(via, tmp_path) as (url, bare):
        secretary = tmp_path / "secretary"
        ok(rb("init", secretary))
        ok(as_owner(rb, secretary, "member", "keygen", "--member", "E"))
        ok(sync(rb, secretary, "--remote", url))
        folders = {m: tmp_path / f"member-{m.lower()}" for m in "AB"}
        for folder in folders.values():  # both clone before either makes a key
            ok(rb("clone", url, folder, "--quiet"))
        second = "B" if first == "A" else "A"
        for member, at in zip((first, second), map(later, DATES[dates]), strict=True):
            set_clock(monkeypatch, at)
            ok(as_owner(rb, folders[member], "member", "keygen", "--member", member))
        monkeypatch.undo()
        ok(sync(rb, folders[first]))
        ok(sync(rb, folders[second]))  # merges the first's key, pushes both
        ok(sync(rb, folders[first]))  # receives the second's key above or below its own
        ok(sync(rb, secretary))
        everyone = (secretary, folders["A"], folders["B"])
        assert len(heads(bare, *everyone)) == 1
        for folder in everyone:
            assert rb("--data", folder, "validate").code == 0
            assert {k.member for k in load_registry(folder).keys} == {"A", "B", "E"}
        merged = statements(secretary)
        assert [s["at"] for s in merged] == sorted(s["at"] for s in merged)  # time order
        assert all(statements(f) == merged for f in everyone)
        # and the folder goes on: the first member's next statement is shared by all
        set_clock(monkeypatch, later(60))
        ok(as_owner(rb, folders[first], "member", "role", first, "chair"))
        monkeypatch.undo()
        ok(sync(rb, folders[first]))
        for folder in (folders[second], secretary):
            ok(sync(rb, folder))
            assert load_registry(folder).chair == first
        assert len(heads(bare, *everyone)) == 1


def _write_statements(folder: Path, listed: list[dict]) -> None:
    data = yaml.safe_load((folder / "members.yaml").read_text())
    data["registry"] = listed
    (folder / "members.yaml").write_text(yaml.safe_dump(data, sort_keys=False, width=1000))


@pytest.mark.parametrize("via", ["bare", "serve"])
def test_a_revoked_key_signs_nothing_new_even_on_a_forked_branch(rb, tmp_path, monkeypatch,
                                                                 via):
    """The chair's key is stolen; the secretary revokes it and shares the revocation.
    The thief, on a clone made before the revocation, writes a role statement signed
    with the stolen key and dated before the revocation, chained to the last statement
    of that clone, and syncs: the history holds a fork as two clones at once make, and
    the merge puts the statement above the revocation, where the key still counted.
    The server refuses the push; through a bare path the members' syncs refuse it, and
    their folders keep the registry as it was shared."""
    with shared_remote(via, tmp_path) as (url, bare):
        remote, secretary, a, b = committee(rb, tmp_path, remote=url)
        thief = tmp_path / "thief"
        ok(rb("clone", url, thief, "--quiet"))
        stolen = signer_of(a, "A")
        set_clock(monkeypatch, later(3600))
        ok(as_owner(rb, secretary, "member", "revoke", "A", "--as", "E"))
        monkeypatch.undo()
        ok(sync(rb, secretary))
        ok(sync(rb, a))
        shared, shared_statements = heads(bare), statements(a)
        listed = statements(thief)
        forged = sign_statement({"op": "role", "member": "B", "role": "secretary",
                                 "key": load_registry(thief).key_of("B"),
                                 "at": listed[-1]["at"], "by": "A"}, stolen,
                                last_digest(listed))
        _write_statements(thief, listed + [forged])
        assert rb("--data", thief, "validate").code == 0  # a well-made statement, as such
        pushed = sync(rb, thief)
        if via == "serve":
            assert pushed.code == 2, pushed.out + pushed.err
            assert "revoked" in pushed.err and "role statement for member B" in pushed.err
            assert heads(bare) == shared
        else:
            assert pushed.code == 0, pushed.err  # a bare path checks nothing
            assert heads(bare) != shared
            for folder in (a, secretary):
                refused = sync(rb, folder)
                assert refused.code == 2, refused.out + refused.err
                assert "revoked" in refused.err and "role statement for member B" in refused.err
                assert statements(folder) == shared_statements
                assert load_registry(folder).role_at("B") == "member"


@pytest.mark.parametrize("via", ["bare", "serve"])
def test_keys_made_on_clones_of_an_empty_registry_merge_below_a_chained_statement(
        rb, tmp_path, via, monkeypatch):
    """The re-test's order: E, A and B hold clones of a folder with no statement; E's
    key reaches the shared folder after A and B cloned; A makes his key and names
    himself chair (chained to his key); B makes a newer key and syncs first. A's sync
    merges B's key (no ``prev``: appended to an empty registry) below A's chained
    role statement, and was refused for good ("does not name the statement before
    it"), with --take mine and theirs too. Each statement without ``prev`` is shown
    by the history as appended to an empty registry: every clone syncs, validates and
    reads the three keys and the chair."""
    with shared_remote(via, tmp_path) as (url, bare):
        secretary = tmp_path / "secretary"
        ok(rb("init", secretary))
        ok(sync(rb, secretary, "--remote", url))
        folders = {m: tmp_path / f"member-{m.lower()}" for m in "AB"}
        for folder in folders.values():
            ok(rb("clone", url, folder, "--quiet"))
        set_clock(monkeypatch, later(1))
        ok(as_owner(rb, secretary, "member", "keygen", "--member", "E"))
        ok(sync(rb, secretary))
        set_clock(monkeypatch, later(2))
        ok(as_owner(rb, folders["A"], "member", "keygen", "--member", "A"))
        set_clock(monkeypatch, later(3))
        ok(as_owner(rb, folders["A"], "member", "role", "A", "chair"))
        set_clock(monkeypatch, later(5))
        ok(as_owner(rb, folders["B"], "member", "keygen", "--member", "B"))
        monkeypatch.undo()
        ok(sync(rb, folders["B"]))
        ok(sync(rb, folders["A"]))
        everyone = (secretary, folders["A"], folders["B"])
        for folder in everyone:
            ok(sync(rb, folder))
        assert len(heads(bare, *everyone)) == 1
        for folder in everyone:
            assert rb("--data", folder, "validate").code == 0
            registry = load_registry(folder)
            assert {k.member for k in registry.keys} == {"A", "B", "E"}
            assert registry.chair == "A"
        merged = statements(secretary)
        assert [s["at"] for s in merged] == sorted(s["at"] for s in merged)
        assert [s["member"] for s in merged] == ["E", "A", "A", "B"]
        assert "prev" not in merged[3] and merged[2]["prev"]  # B's below A's chained role


def earlier(seconds: int) -> str:
    return later(-seconds)


def secretary_and_chair(rb, tmp_path: Path, url: str) -> tuple[Path, Path]:
    """E makes the folder and her key and shares it; A clones it, makes his key,
    names himself chair (the first: his statement lists E's key) and syncs."""
    secretary = tmp_path / "secretary"
    ok(rb("init", secretary))
    ok(as_owner(rb, secretary, "member", "keygen", "--member", "E"))
    ok(sync(rb, secretary, "--remote", url))
    chair = tmp_path / "member-a"
    ok(rb("clone", url, chair, "--quiet"))
    ok(as_owner(rb, chair, "member", "keygen", "--member", "A"))
    ok(as_owner(rb, chair, "member", "role", "A", "chair"))
    ok(sync(rb, chair))
    return secretary, chair


@pytest.mark.parametrize("via", ["bare", "serve"])
@pytest.mark.parametrize("role", [None, "secretary"])
def test_a_key_dated_back_on_a_clone_rewound_to_an_empty_registry_waits_for_the_chair(
        rb, tmp_path, monkeypatch, via, role):
    """The third #28 re-test: a member who may push clones the folder, sets it back to
    its first commit (no statement yet), makes a key for D (who has none) dated a day
    before the chair was named, and syncs. The history shows a clone made before any
    key (the fork is real), the time order put the key above the chair's statement,
    and it counted as confirmed without the chair; a role D named himself so, too.
    The first chair's statement lists the statements the chair had: D's key waits
    for the chair on every clone; the role, dated before the chair's role statement
    already shared, is refused."""
    import subprocess

    with shared_remote(via, tmp_path) as (url, bare):
        secretary, chair = secretary_and_chair(rb, tmp_path, url)
        ok(sync(rb, secretary))
        mallory = tmp_path / "mallory"
        ok(rb("clone", url, mallory, "--quiet"))
        root = subprocess.run(["git", "-C", mallory, "rev-list", "--max-parents=0", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        subprocess.run(["git", "-C", mallory, "reset", "-q", "--hard", root], check=True)
        set_clock(monkeypatch, earlier(86_400))
        ok(as_owner(rb, mallory, "member", "keygen", "--member", "D"))
        if role:
            ok(as_owner(rb, mallory, "member", "role", "D", role))
        monkeypatch.undo()
        if role:  # a role dated before the chair's, already shared: refused
            refused = sync(rb, mallory)
            assert refused.code == 2 and "never dated before them" in refused.err, refused.err
            subprocess.run(["git", "-C", mallory, "reset", "-q", "--hard", "HEAD~1"],
                           check=True)  # the key alone, then
        ok(sync(rb, mallory))  # a fork the history shows: taken, but it counts for nothing
        for folder in (chair, secretary):
            ok(sync(rb, folder))
        for folder in (chair, secretary, mallory):
            assert rb("--data", folder, "validate").code == 0
            registry = load_registry(folder)
            dated = [s for s in statements(folder) if s["member"] == "D"][0]["at"]
            assert dated < [s for s in statements(folder) if s.get("role") == "chair"][0]["at"]
            problem = registry.key_problem("D", registry.registered_key("D"))
            assert problem and "never confirmed by the chair" in problem, problem
            assert registry.role_at("D") != role
            assert registry.key_problem("E", registry.key_of("E")) is None  # the chair saw it
            assert registry.chair == "A"


@pytest.mark.parametrize("via", ["bare", "serve"])
def test_a_chair_named_first_by_dating_back_and_handing_over_is_refused(
        rb, tmp_path, monkeypatch, via):
    """The fourth #28 re-test: on a clone rewound to the empty registry, D makes a key
    and names himself chair a month back, names a sock C secretary, then writes the
    merge by hand: D hands the chair to A just after A's key, so that A's own chair
    statement (its ``seen:``) is no longer the first, and D's key and C's role count.
    Every statement chains and the fork is real; but D's roles come before A's role
    statement already shared: refused by serve at the push, by every member's sync
    from a plain git host, nothing merged."""
    import subprocess

    with shared_remote(via, tmp_path) as (url, bare):
        secretary, chair = secretary_and_chair(rb, tmp_path, url)
        shared = statements(chair)
        mallory = tmp_path / "mallory"
        ok(rb("clone", url, mallory, "--quiet"))
        git = ["git", "-C", str(mallory), "-c", "user.name=Mallory", "-c", "user.email=m@x"]
        tip = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()
        root = subprocess.run([*git, "rev-list", "--max-parents=0", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        subprocess.run([*git, "reset", "-q", "--hard", root], check=True)
        set_clock(monkeypatch, earlier(30 * 86_400))
        ok(as_owner(rb, mallory, "member", "keygen", "--member", "D"))
        ok(as_owner(rb, mallory, "member", "role", "D", "chair"))
        ok(as_owner(rb, mallory, "member", "keygen", "--member", "C"))
        ok(as_owner(rb, mallory, "member", "role", "C", "secretary"))
        monkeypatch.undo()
        subprocess.run([*git, "commit", "-qam", "ghost"], check=False)
        ghost = statements(mallory)
        d = signer_of(mallory, "D")
        merged = list(ghost)
        for st in shared:  # the hand-written merge: D hands the chair to A first
            merged.append(st)
            if st["op"] == "key" and st["member"] == "A":
                merged.append(sign_statement({"op": "role", "member": "A", "role": "chair",
                                              "key": st["key"], "at": st["at"]}, d,
                                             last_digest(merged)))
        subprocess.run([*git, "merge", "-q", "-s", "ours", "--no-commit", tip], check=True)
        _write_statements(mallory, merged)
        subprocess.run([*git, "commit", "-qam", "Merge"], check=True)
        registry = load_registry(mallory)
        assert not registry.problems and registry.chair == "A"  # the file alone holds
        assert registry.role_at("C") == "secretary"
        before = heads(bare)
        pushed = subprocess.run([*git, "push", url, "HEAD:main"], capture_output=True,
                                text=True)
        if via == "serve":
            assert pushed.returncode != 0 and "never dated before them" in pushed.stderr, \
                pushed.stderr
            assert heads(bare) == before
        else:
            assert pushed.returncode == 0, pushed.stderr  # a plain host takes anything
        for folder in (chair, secretary):
            result = sync(rb, folder)
            if via == "bare":
                assert result.code == 2 and "never dated before them" in result.err, result.err
            assert load_registry(folder).role_at("C") != "secretary"
            assert all(s["member"] not in "CD" for s in statements(folder))
        if via == "bare":  # a member who never held the chair's commit refuses it too
            fresh = rb("clone", url, tmp_path / "fresh", "--quiet")
            assert fresh.code == 2 and "never dated before them" in fresh.err, fresh.err


def test_the_chair_confirming_members_on_two_computers_still_syncs(rb, tmp_path, monkeypatch):
    """Roles may not be dated before a role statement already shared, except the
    shared chair's own: A confirms B on his laptop (not synced), then C on his
    desktop, which syncs first; the laptop's sync merges B's confirmation, dated
    before C's, and everyone reads both confirmed."""
    import shutil

    from .computers import config_of

    url = str(bare_repo(tmp_path / "shared.git"))
    secretary, laptop = secretary_and_chair(rb, tmp_path, url)
    members = {m: tmp_path / f"member-{m.lower()}" for m in "BC"}
    for member, folder in members.items():
        ok(rb("clone", url, folder, "--quiet"))
        ok(as_owner(rb, folder, "member", "keygen", "--member", member))
        ok(sync(rb, folder))
    ok(sync(rb, laptop))
    desktop = tmp_path / "desktop"
    ok(rb("clone", url, desktop, "--quiet"))
    shutil.copytree(config_of(laptop), config_of(desktop), dirs_exist_ok=True)  # A's key
    set_clock(monkeypatch, later(5))
    ok(as_owner(rb, laptop, "member", "role", "B", "member"))
    set_clock(monkeypatch, later(10))
    ok(as_owner(rb, desktop, "member", "role", "C", "member"))
    monkeypatch.undo()
    ok(sync(rb, desktop))
    ok(sync(rb, laptop))
    for folder in (secretary, members["B"], members["C"], desktop):
        ok(sync(rb, folder))
    for folder in (secretary, laptop, desktop, *members.values()):
        registry = load_registry(folder)
        assert all(registry.key_problem(m, registry.registered_key(m)) is None
                   for m in "ABCE"), folder


@pytest.mark.parametrize("edit", ["add D's key", "drop the list"])
def test_the_first_chairs_seen_list_edited_by_hand_is_refused(rb, tmp_path, monkeypatch,
                                                             edit):
    """``seen:`` is under the chair's signature: a member who adds a key to it (so that
    the key counts without the chair) or removes it (so that the older rule, time
    order alone, applies) breaks that signature; validate and sync refuse it."""
    url = str(bare_repo(tmp_path / "shared.git"))
    _secretary, chair = secretary_and_chair(rb, tmp_path, url)
    mallory = tmp_path / "mallory"
    ok(rb("clone", url, mallory, "--quiet"))
    ok(as_owner(rb, mallory, "member", "keygen", "--member", "D"))
    listed = statements(mallory)
    first_chair = next(s for s in listed if s.get("role") == "chair")
    assert first_chair["seen"]  # E's key and A's, as A had them
    if edit == "add D's key":
        d_key = next(s for s in listed if s["member"] == "D")
        first_chair["seen"] = [*first_chair["seen"], statement_digest(d_key)]
    else:
        del first_chair["seen"]
    _write_statements(mallory, listed)
    checked = rb("--data", mallory, "validate")
    assert checked.code == 1 and "does not verify" in checked.out, checked.out
    synced = sync(rb, mallory)
    assert synced.code == 2, synced.err
    assert heads(tmp_path / "shared.git") == heads(chair)  # nothing was pushed
