"""The user's rules folder: created from the seed on first use, a git repository in
which every change of the CLI is one commit, and a failed change leaves nothing."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from dulwich import porcelain

from rulesbook.datapath import bundled_data_dir
from rulesbook.loading import load_library
from rulesbook.rulesfolder import recorded_change
from rulesbook.rulesfolder.repo import commit_files

from .conftest import file_bytes, log

BALLOT = "apca/ballots/2026-committee.yaml"


def seed_files() -> dict[str, bytes]:
    return {rel: data for rel, data in file_bytes(bundled_data_dir()).items()
            if not rel.endswith("__init__.py") and "__pycache__" not in rel
            and not rel.startswith("schema/")}


def clean(folder: Path) -> bool:
    status = porcelain.status(str(folder))
    return not (status.staged["add"] or status.staged["modify"] or status.staged["delete"]
                or status.unstaged or [p for p in status.untracked
                                       if not str(p).startswith(".")])


def test_where_creates_the_users_folder_from_the_seed(rb, tmp_path):
    result = rb("where")
    # platformdirs' Linux rule: $XDG_DATA_HOME/<app name>; the folder inside is "rules"
    expected = tmp_path / "xdg-data" / "Rulesbook" / "rules"
    assert result.code == 0 and result.out.strip() == str(expected)
    files = file_bytes(expected)
    assert {k: v for k, v in files.items() if k != ".gitignore"} == seed_files()
    history = log(expected)
    assert len(history) == 1 and "seed" in history[0].message
    assert history[0].author == "Test Runner <tests@apca.invalid>"
    assert clean(expected)
    assert rb("where").out == result.out and len(log(expected)) == 1  # made once


def test_data_option_and_environment_choose_another_folder(rb, tmp_path, monkeypatch):
    other = tmp_path / "other"
    assert rb("--data", other, "where").out.strip() == str(other)
    monkeypatch.setenv("RULESBOOK_DATA", str(tmp_path / "env"))
    assert rb("where").out.strip() == str(tmp_path / "env")
    assert not (tmp_path / "xdg-data").exists()


def test_init_from_a_folder_and_refusals(rb, tmp_path, data_copy):
    result = rb("init", tmp_path / "club", "--from", data_copy)
    assert result.code == 0, result.err
    assert load_library(tmp_path / "club").members == load_library(data_copy).members
    assert len(log(tmp_path / "club")) == 1
    again = rb("init", tmp_path / "club")
    assert again.code == 2 and "not empty" in again.err and len(again.err.splitlines()) == 1
    (data_copy / "members.yaml").write_text("kind: members\n", encoding="utf-8")
    broken = rb("init", tmp_path / "broken", "--from", data_copy)
    assert broken.code == 2 and "members.yaml" in broken.err
    assert not (tmp_path / "broken").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".broken")]


def test_a_vote_is_one_commit_by_the_member(rb, tmp_path):
    folder = Path(rb("where").out.strip())
    (folder / "topics.yaml").write_text((folder / "topics.yaml").read_text() + "# note\n")
    members = yaml.safe_load((folder / "members.yaml").read_text())["members"]
    name = next(m["name"] for m in members if m["id"] == "A")
    keygen = rb("member", "keygen", "--member", "A")  # A's key: signs A's votes
    assert keygen.code == 0, keygen.err
    assert log(folder)[0].message == "Member A: new signing key"
    assert log(folder)[0].author.startswith(f"{name} (member A)")
    assert rb("member", "role", "A", "chair").code == 0  # the chair opens the ballot
    signed = rb("ballot", "sign", folder / BALLOT, "--as", "A")
    assert signed.code == 0, signed.err
    assert log(folder)[0].message == "Ballot 2026-committee: settings signed by A"
    result = rb("ballot", "vote", folder / BALLOT, "--member", "A", "--question", "10",
                "--ranking", "10B,10A")
    assert result.code == 0, result.err
    newest = log(folder)[0]
    assert len(log(folder)) == 5  # the seed, A's key and role, the signed ballot, A's vote
    assert "member A" in newest.message and "question 10" in newest.message
    assert newest.author.startswith(f"{name} (member A)")
    assert newest.committer == "Test Runner <tests@apca.invalid>"
    with porcelain.open_repo_closing(str(folder)) as repo:
        new = commit_files(repo, newest.id.encode())
        old = commit_files(repo, repo[newest.id.encode()].parents[0])
    assert sorted(p for p in set(new) | set(old) if new.get(p) != old.get(p)) == [BALLOT]
    status = porcelain.status(str(folder))
    assert [p.decode() for p in status.unstaged] == ["topics.yaml"]


def test_a_failed_command_leaves_no_commit_and_no_change(rb, tmp_path):
    folder = Path(rb("where").out.strip())
    before = file_bytes(folder)
    for argv in (["ballot", "vote", folder / BALLOT, "--member", "Z", "--question", "10",
                  "--ranking", "10B"],
                 ["ballot", "vote", folder / BALLOT, "--member", "A", "--question", "10",
                  "--ranking", "10Q"],
                 ["ballot", "adopt", folder / BALLOT, "--edition", "x"]):
        result = rb(*argv)
        assert result.code == 2 and len(result.err.strip().splitlines()) == 1, result.err
        assert "Traceback" not in result.err
    assert len(log(folder)) == 1
    assert file_bytes(folder) == before


def test_a_change_that_fails_after_writing_is_undone(tmp_path):
    from rulesbook.datafolder import resolve_data_dir

    folder = resolve_data_dir()
    before = file_bytes(folder)
    with pytest.raises(RuntimeError), recorded_change(folder / BALLOT, "half a change"):
        (folder / BALLOT).write_text("half", encoding="utf-8")
        (folder / "apca" / "new.yaml").write_text("x: 1\n", encoding="utf-8")
        (folder / "topics.yaml").unlink()
        raise RuntimeError("disk full")
    assert file_bytes(folder) == before and len(log(folder)) == 1


def test_nothing_is_written_into_the_seed(rb, tmp_path):
    seed = bundled_data_dir()
    before = file_bytes(seed)
    names = sorted(p for p in seed.rglob("*") if "__pycache__" not in p.parts)
    result = rb("ballot", "vote", seed / BALLOT, "--member", "A", "--question", "10",
                "--ranking", "10B")
    assert result.code == 2 and "seed data" in result.err
    assert rb("--data", seed, "ballot", "adopt", seed / BALLOT, "--edition", "e").code == 2
    assert rb("ballot", "new", seed / "apca" / "ballots" / "x.yaml").code == 2
    assert file_bytes(seed) == before
    assert sorted(p for p in seed.rglob("*") if "__pycache__" not in p.parts) == names


def _adopt_28a(rb, folder: Path) -> None:
    for member in "ABCDE":  # each member's key (here all on one computer)
        assert rb("member", "keygen", "--member", member).code == 0
    assert rb("member", "role", "A", "chair").code == 0  # the first chair names themself
    assert rb("ballot", "sign", folder / BALLOT, "--as", "A").code == 0  # and opens it
    for member in "ABCDE":  # unanimous: 28A wins under every counting method
        assert rb("ballot", "vote", folder / BALLOT, "--member", member, "--question", "28",
                  "--ranking", "28A").code == 0
    closed = rb("ballot", "close", folder / BALLOT, "--as", "A")
    assert closed.code == 0, closed.err
    result = rb("ballot", "adopt", folder / BALLOT, "--edition", "2027", "--date", "2027-01-02")
    assert result.code == 0, result.err


def test_history_of_a_rule_and_of_an_edition(rb, tmp_path):
    import json

    folder = Path(rb("where").out.strip())
    _adopt_28a(rb, folder)
    messages = [e.message for e in log(folder)]
    # the seed, five keys and the chair's role, the signed ballot, five votes, the close,
    # the adoption
    assert len(messages) == 1 + 5 + 1 + 1 + 5 + 1 + 1
    assert messages[0] == "Adopt ballot 2026-committee as edition 2027"
    assert messages[1] == "Close ballot 2026-committee: results stored and sealed by A"
    assert messages[7] == "Ballot 2026-committee: settings signed by A"
    assert messages[8] == "Member A: role chair"
    assert messages[9:14] == [f"Member {m}: new signing key" for m in "EDCBA"]
    result = rb("history", "apca:28", "--json")
    assert result.code == 0, result.err
    entries = json.loads(result.out)
    assert {"commit", "date", "author", "message", "edition", "ballot"} <= set(entries[0])
    adopted = [e for e in entries if e["edition"] == "2027"]
    assert len(adopted) == 1 and adopted[0]["ballot"] == "2026-committee"
    assert adopted[0]["message"] == messages[0]
    assert entries[-1]["change"] == "added"  # the first commit brought the rule in
    edition = json.loads(rb("history", "--edition", "2027", "--json").out)
    assert edition["base"] == "original" and edition["commit"]["message"] == messages[0]
    changed = {c["ref"]: c for c in edition["changes"] if c["status"] != "unchanged"}
    assert set(changed) == {"apca:28"} and changed["apca:28"]["proposal"] == "apca:28A"
    text = rb("history", "28")
    assert text.code == 0 and "edition 2027" in text.out


def test_history_lists_a_text_change_and_shows_the_older_text(rb, tmp_path):
    from rulesbook.rulesfolder.history import record_history, record_text_at
    from rulesbook.rulesfolder.repo import open_repo
    from rulesbook.rulesfolder.sync import commit_pending

    folder = Path(rb("where").out.strip())
    book = folder / "apca" / "rulebook.yaml"
    seed_rule = next(r for r in yaml.safe_load(book.read_text())["rules"] if r["id"] == "28")
    text = book.read_text(encoding="utf-8")
    # a word of rule 28 that no ruling quotes (a hand edit of quoted words would make
    # the folder invalid, and then it is not committed)
    marker = "COUNT STARTS"
    assert marker in seed_rule["text"] and text.count(marker) == 1
    book.write_text(text.replace(marker, "COUNT BEGINS", 1), encoding="utf-8")
    with open_repo(folder) as repo:
        assert commit_pending(repo, lambda _m: None) == ("apca/rulebook.yaml",)
    library = load_library(folder)
    entries = record_history(folder, library, "apca:28")
    assert [e.change for e in entries] == ["changed", "added"]
    old = record_text_at(folder, library, "apca:28", entries[1].commit)
    assert old == seed_rule["text"]
    assert "COUNT BEGINS" in record_text_at(folder, library, "apca:28", entries[0].commit)
    assert record_history(folder, library, "apca:10") == [
        e for e in record_history(folder, library, "apca:10") if e.change == "added"]


def test_history_needs_a_versioned_folder(rb, data_copy):
    result = rb("--data", data_copy, "history", "apca:28")
    assert result.code == 2 and "not versioned" in result.err


def test_the_same_vote_cast_again_changes_nothing(rb, tmp_path):
    """A vote cast again as it was (the same ranking, the same key: a retry after a
    kill that came once it was committed) is the member's vote already: no new
    commit, the receipt unchanged; a changed ranking is a new vote and a commit."""
    import time

    folder = Path(rb("where").out.strip())
    assert rb("member", "keygen", "--member", "A").code == 0
    assert rb("member", "role", "A", "chair").code == 0
    assert rb("ballot", "sign", folder / BALLOT, "--as", "A").code == 0
    vote = ("ballot", "vote", folder / BALLOT, "--member", "A", "--question", "10",
            "--ranking", "10B,10A")
    first = rb(*vote)
    assert first.code == 0, first.err
    commits, receipt = len(log(folder)), first.out.split("receipt ")[1].split()[0]
    time.sleep(1.1)  # a vote's time is to the second: a second later, the same vote
    again = rb(*vote)
    assert again.code == 0, again.err
    assert "recorded already" in again.out and receipt in again.out
    assert len(log(folder)) == commits
    changed = rb(*vote[:-1], "10A")
    assert changed.code == 0 and "recorded already" not in changed.out
    assert len(log(folder)) == commits + 1
