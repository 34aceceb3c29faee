"""What a new user found in the rules folder (issue #16, second round): files that are
not rules data are never shared, pushes of a few MB through `rulesbook serve`, ..."""
from __future__ import annotations

import base64
import json
import os

from dulwich.repo import Repo

from rulesbook.ballots import load_ballot
from tests.datapaths import REPO

from .conftest import bare_repo, log


def ok(result):
    assert result.code == 0, result.err
    return result


def tree_paths(folder) -> set[str]:
    from rulesbook.rulesfolder.repo import commit_files

    with Repo(str(folder)) as repo:
        return set(commit_files(repo, repo.head()))


def test_sync_shares_only_the_rules_data_files(rb, tmp_path):
    folder, remote = tmp_path / "mine", bare_repo(tmp_path / "shared.git")
    ok(rb("init", folder))
    (folder / "mynotes.txt").write_text("what I think of member B\n")
    (folder / "big.bin").write_bytes(os.urandom(1024 * 1024))
    members = folder / "members.yaml"
    members.write_text(members.read_text().replace("name: Moochie", "name: Moochie Jr."))
    result = ok(rb("--data", folder, "sync", "--remote", remote))
    assert "mynotes.txt" in result.err and "big.bin" in result.err and "not shared" in result.err
    assert log(folder)[0].message == "Edit by hand: members.yaml"
    paths = tree_paths(remote)
    assert "members.yaml" in paths
    assert "mynotes.txt" not in paths and "big.bin" not in paths
    assert (folder / "mynotes.txt").exists()  # left alone
    from rulesbook.rulesfolder import folder_status

    assert folder_status(folder).pending == ()  # nothing for a sync to commit (the app's status)
    as_json = json.loads(ok(rb("--data", folder, "sync", "--json")).out)
    assert sorted(as_json["not_shared"]) == ["big.bin", "mynotes.txt"]
    assert as_json["committed_edits"] == []


def test_a_push_of_several_megabytes_goes_through_rulesbook_serve(rb, tmp_path, http_remote):
    url, bare = http_remote
    folder = tmp_path / "mine"
    ok(rb("init", folder))
    ok(rb("--data", folder, "sync", "--remote", url))
    members = folder / "members.yaml"
    # 4 MB of comment lines that do not compress: a commit of a few MB, each data file
    # well under the 20 MiB limit of docs/rules-folder.md
    noise = base64.b64encode(os.urandom(3 * 1024 * 1024)).decode()
    lines = "".join(f"# {noise[i:i + 76]}\n" for i in range(0, len(noise), 76))
    members.write_text(members.read_text() + lines)
    result = rb("--data", folder, "sync")
    assert result.code == 0, result.err
    assert log(bare)[0].id == log(folder)[0].id
    other = tmp_path / "other"
    ok(rb("clone", url, other))
    assert (other / "members.yaml").read_bytes() == members.read_bytes()


# -- a stopped sync settled with `rulesbook sync --take` ------------------------------

def test_a_conflicting_vote_is_settled_with_take_theirs(rb, tmp_path):
    from rulesbook.loading import load_library

    from .test_sync import BALLOT, committee, sync, vote, votes

    remote, secretary, a, b = committee(rb, tmp_path)
    vote(rb, secretary, "D", "10", "10C")  # D phoned the secretary...
    vote(rb, a, "D", "10", "10A")  # ...and wrote to the chair A, differently
    ok(sync(rb, secretary))
    stopped = sync(rb, a)
    assert stopped.code == 2
    assert "..." not in stopped.err  # both sides in full
    assert "apca:10A" in stopped.err and "apca:10C" in stopped.err
    assert "--take theirs" in stopped.err
    # they agree on 10A, and A records it again: still two different signed records
    vote(rb, a, "D", "10", "10C")
    again = sync(rb, a)
    assert again.code == 2, again.err
    # the fields that still differ (the signature; the time too when not in the same
    # second), not the ranking both now hold
    assert '"signature"' in again.err and '"ranking"' not in again.err
    assert "..." not in again.err
    settled = sync(rb, a, "--take", "theirs", "votes[member=D, question=10]")
    assert settled.code == 0, settled.err
    secretary_vote = next(v for v in load_ballot(secretary / BALLOT).votes if v.member == "D")
    mine = next(v for v in load_ballot(a / BALLOT).votes if v.member == "D")
    assert mine == secretary_vote  # the remote's record, its time and signature
    assert ("D", "10", ("apca:10C",)) in votes(a)
    load_library(a)
    assert log(tmp_path / "shared.git")[0].id == log(a)[0].id  # pushed
    ok(sync(rb, secretary))
    assert votes(secretary) == votes(a)


def test_take_mine_keeps_this_folders_record_and_says_what_was_dropped(rb, tmp_path):
    from .test_sync import committee, sync, vote, votes

    remote, secretary, a, b = committee(rb, tmp_path)
    vote(rb, secretary, "D", "10", "10C")
    vote(rb, a, "D", "10", "10A")
    ok(sync(rb, secretary))
    result = rb("--data", a, "sync", "--take", "mine", "--json")
    assert result.code == 0, result.err
    dropped = json.loads(result.out)["dropped"]
    assert [d["kept"] for d in dropped] == ["mine"]
    assert dropped[0]["record"].startswith("votes[member=D, question=10]")
    assert "apca:10C" in dropped[0]["dropped"]  # the remote's ranking, given up
    assert ("D", "10", ("apca:10A",)) in votes(a)
    # the remote's signed vote is not deleted: it stays in the history, not counted, so
    # the secretary, who holds it, takes the merge (signed votes are append-only)
    remote_vote = next(v for v in load_ballot(secretary / BALLOT_PATH).votes if v.member == "D")
    kept = [h for h in load_ballot(a / BALLOT_PATH).history if h.member == "D"]
    assert [(h.ranking, h.vote.signature if h.vote else None, h.source) for h in kept] == [
        (("apca:10C",), remote_vote.signature, "sync --take mine")]
    ok(sync(rb, secretary))
    assert ("D", "10", ("apca:10A",)) in votes(secretary)
    assert [h.ranking for h in load_ballot(secretary / BALLOT_PATH).history
            if h.member == "D"] == [("apca:10C",)]


def test_take_mine_cannot_set_aside_a_newer_vote_of_the_remote(rb, tmp_path):
    """Signed votes are append-only: a member's vote is replaced only by a newer one of
    theirs. ``--take mine`` of an older vote over the remote's newer one would make
    every member who holds the newer one refuse the shared folder: the sync stops
    before, naming the vote, and nothing is merged or pushed."""
    import time

    from .conftest import file_bytes
    from .test_sync import committee, sync, vote

    remote, secretary, a, b = committee(rb, tmp_path)
    vote(rb, a, "D", "10", "10A")
    time.sleep(1.1)  # the secretary's entry is signed a second later, whatever the machine
    vote(rb, secretary, "D", "10", "10C")
    ok(sync(rb, secretary))
    shared = log(tmp_path / "shared.git")[0].id
    before = file_bytes(a)
    result = sync(rb, a, "--take", "mine")
    assert result.code == 2, result.err
    assert ("the signed vote of member D on question '10'" in result.err
            and "disappeared without a newer signed vote" in result.err), result.err
    assert file_bytes(a) == before and log(tmp_path / "shared.git")[0].id == shared


def test_a_vote_made_after_the_remote_sealed_the_ballot_can_be_dropped(rb, tmp_path):
    from rulesbook.loading import load_library

    from .test_sync import as_owner, committee, sync, vote, votes

    remote, secretary, a, b = committee(rb, tmp_path)
    ok(sync(rb, secretary))
    ok(as_owner(rb, secretary, "ballot", "close", secretary / BALLOT_PATH, "--as", "E"))
    ok(sync(rb, secretary))
    vote(rb, a, "E", "10", "10B")  # after the seal, unknown to A
    stopped = sync(rb, a)
    assert stopped.code == 2
    assert "votes[member=E, question=10]" in stopped.err and "sealed" in stopped.err
    assert "--take theirs" in stopped.err
    settled = sync(rb, a, "--take", "theirs", "votes[member=E, question=10]")
    assert settled.code == 0, settled.err
    assert "votes[member=E, question=10]" in settled.out and "apca:10B" in settled.out
    assert votes(a) == votes(secretary)
    load_library(a)  # the seal verifies
    ok(sync(rb, a))


def test_take_refuses_a_side_that_is_not_theirs_or_mine(rb, tmp_path):
    folder = tmp_path / "mine"
    ok(rb("init", folder))
    result = rb("--data", folder, "sync", "--take", "yours", "--remote",
                bare_repo(tmp_path / "s.git"))
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1
    assert "'theirs'" in result.err and "Traceback" not in result.err


BALLOT_PATH = "apca/ballots/2026-committee.yaml"


def test_a_folder_made_from_a_read_only_seed_is_writable(rb, tmp_path):
    import shutil
    import stat

    seed = tmp_path / "seed"
    shutil.copytree(REPO / "rules_data", seed)
    for path in [seed, *seed.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    old = os.umask(0o027)
    try:
        folder = tmp_path / "mine"
        ok(rb("init", folder, "--from", seed))
    finally:
        os.umask(old)
        for path in [seed, *seed.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
    checked = [p for p in [folder, *folder.rglob("*")] if ".git" not in p.parts]
    assert len(checked) > 20
    for path in checked:
        mode = stat.S_IMODE(path.stat().st_mode)
        expected = 0o750 if path.is_dir() else 0o640  # 0o777/0o666 less the umask 027
        assert mode == expected, (path, oct(mode))
    (folder / "members.yaml").write_text((folder / "members.yaml").read_text())  # writable


def test_clone_refuses_a_git_repository_that_is_not_a_rules_folder(rb, tmp_path):
    from rulesbook.rulesfolder.repo import Identity, build_tree, make_commit

    # a repository holding a data folder one level down (as the program's own
    # checkout holds rules_data/): loadable as a library, but not a rules folder
    bare = bare_repo(tmp_path / "project.git")
    with Repo(str(bare)) as repo:
        from dulwich.objects import Blob

        files = {}
        for path in (REPO / "rules_data").rglob("*.yaml"):
            if "schema" in path.parts:
                continue
            blob = Blob.from_string(path.read_bytes())
            repo.object_store.add_object(blob)
            files["rules_data/" + path.relative_to(REPO / "rules_data").as_posix()] = blob.id
        commit = make_commit(repo, build_tree(repo, files), [], "code", Identity("x", "x@y"))
        repo.refs[b"refs/heads/main"] = commit
    target = tmp_path / "out"
    result = rb("clone", bare, target, "--quiet")
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1
    assert "not a rules folder" in result.err and "Traceback" not in result.err
    assert not target.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]  # no staging left


def test_a_hand_edit_that_breaks_the_yaml_is_named_alone(rb, tmp_path):
    folder, remote = tmp_path / "mine", bare_repo(tmp_path / "shared.git")
    ok(rb("init", folder))
    members = folder / "members.yaml"
    lines = members.read_text().splitlines(keepends=True)
    members.write_text("".join(lines) + "  - {id: F, name: [broken\n")
    result = rb("--data", folder, "sync", "--remote", remote, "--quiet")
    assert result.code == 2
    problems = result.err.split("nothing was synced:", 1)[1]
    # the cause, first and alone (the parser reports it where the unclosed list ends,
    # past the line appended)
    assert problems.strip().startswith("members.yaml:")
    assert len(problems.strip().split("; ")) == 1 and len(problems.strip().splitlines()) == 1
    line = int(problems.strip().split(":")[1])
    assert line > len(lines)
    assert "not valid YAML" in problems and "neither in members.yaml" not in problems


def test_history_refuses_a_reference_with_an_edition(rb, tmp_path):
    folder = tmp_path / "mine"
    ok(rb("init", folder))
    result = rb("--data", folder, "history", "apca:28", "--edition", "original")
    assert result.code == 2 and result.out == ""
    assert len(result.err.strip().splitlines()) == 1 and "not both" in result.err
    assert "apca:28" in result.err and "Traceback" not in result.err


def test_a_writing_command_in_an_unversioned_folder_says_no_commit_was_made(rb, tmp_path):
    import shutil

    folder = tmp_path / "plain"
    shutil.copytree(REPO / "rules_data", folder)
    before = (folder / "members.yaml").read_bytes()
    result = rb("--data", folder, "member", "keygen", "--member", "A")
    assert result.code == 0, result.err
    assert (folder / "members.yaml").read_bytes() != before  # it wrote
    assert "not versioned" in result.err and "no commit" in result.err
    assert not (folder / ".git").exists()
    versioned = tmp_path / "mine"
    ok(rb("init", versioned))
    again = rb("--data", versioned, "member", "keygen", "--member", "B")
    assert again.code == 0 and "not versioned" not in again.err, again.err


def _big_edit(folder) -> None:
    """4 MB of comment lines that do not compress appended to members.yaml."""
    members = folder / "members.yaml"
    noise = base64.b64encode(os.urandom(3 * 1024 * 1024)).decode()
    members.write_text(members.read_text()
                       + "".join(f"# {noise[i:i + 76]}\n" for i in range(0, len(noise), 76)))


def test_serve_takes_a_push_streamed_in_chunks_over_one_mebibyte(rb, tmp_path, http_remote,
                                                                 monkeypatch):
    """As dulwich's client sends a push above its post buffer (and Rulesbook did before
    it sent pushes whole): chunked, a pack's objects as chunks of any size."""
    import importlib

    sync_module = importlib.import_module("rulesbook.rulesfolder.transport")
    url, bare = http_remote
    folder = tmp_path / "mine"
    ok(rb("init", folder))
    ok(rb("--data", folder, "sync", "--remote", url, "--quiet"))
    _big_edit(folder)
    monkeypatch.setattr(sync_module, "HTTP_POST_BUFFER", 1024 * 1024)
    result = rb("--data", folder, "sync", "--quiet")
    assert result.code == 0, result.err
    assert log(bare)[0].id == log(folder)[0].id


def test_a_failed_push_is_one_readable_line_and_the_next_sync_sends_it(rb, tmp_path,
                                                                        http_remote,
                                                                        monkeypatch):
    import importlib

    serve_module = importlib.import_module("rulesbook.rulesfolder.serve")
    url, bare = http_remote
    folder = tmp_path / "mine"
    ok(rb("init", folder))
    ok(rb("--data", folder, "sync", "--remote", url, "--quiet"))
    _big_edit(folder)
    monkeypatch.setattr(serve_module, "MAX_PUSH_BYTES", 1024 * 1024)  # a stricter server
    monkeypatch.setattr(importlib.import_module("rulesbook.rulesfolder.serve_bodies"),
                        "MAX_PUSH_BYTES", 1024 * 1024)
    monkeypatch.setattr(importlib.import_module("rulesbook.rulesfolder.transport"),
                        "HTTP_POST_BUFFER", 1024 * 1024)
    failed = rb("--data", folder, "sync", "--quiet")
    # (the server, in this process, logs its refusal on the same stderr: "rulesbook serve:")
    mine = [line for line in failed.err.splitlines() if line.startswith("rulesbook sync")]
    assert failed.code == 2 and len(mine) == 1, failed.err
    assert "cannot push" in mine[0] and "next sync sends them" in mine[0], mine
    assert "refused the request as too large" in mine[0], mine
    assert log(bare)[0].id != log(folder)[0].id  # nothing arrived
    monkeypatch.undo()
    again = rb("--data", folder, "sync", "--quiet")
    assert again.code == 0, again.err
    assert log(bare)[0].id == log(folder)[0].id
