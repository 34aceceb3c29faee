"""Every commit of the rules folder names the program that wrote it (issue 32): the
trailer ``Rulesbook-Version: X`` (git's trailer form: the message's last
paragraph), read back by ``rulesbook history`` apart from the message."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dulwich.objects import Commit
from dulwich.repo import Repo

from rulesbook.rulesfolder.trailer import TRAILER, split_trailer, with_version_trailer
from rulesbook.version import version

from .conftest import log


def test_the_trailer_is_the_last_paragraph():
    assert with_version_trailer("Vote: A on question 10", "0.2.0") == \
        "Vote: A on question 10\n\nRulesbook-Version: 0.2.0"
    assert split_trailer("Vote: A on question 10\n\nRulesbook-Version: 0.2.0\n") == \
        ("Vote: A on question 10", "0.2.0")
    assert split_trailer("Edit by hand") == ("Edit by hand", None)


def test_a_message_gets_one_trailer_the_running_programs():
    """A message that already ends with one (a commit made again, a message copied)
    gets the running program's, not a second one."""
    once = with_version_trailer("Sync", "0.1.0")
    again = with_version_trailer(once)
    assert again == f"Sync\n\n{TRAILER}: {version()}" and again.count(TRAILER) == 1


def test_a_trailer_typed_inside_the_message_is_not_the_trailer():
    """Text a member typed (a proposal's words) that looks like a trailer, then the
    program's own: the last paragraph is the program's."""
    typed = f"Proposal 28F: the text\n\n{TRAILER}: 9.9 (typed)"
    message = with_version_trailer(typed, "0.2.0")
    assert split_trailer(message) == (typed, "0.2.0")


def test_every_writing_command_commits_with_the_trailer(rb):
    folder = Path(rb("where").out.strip())  # the first commit: the seed
    assert rb("member", "add", "Frank").code == 0
    entries = log(folder)
    assert [e.program_version for e in entries] == [version()] * len(entries)
    assert entries[0].message == "Member F: Frank joins the committee"
    with Repo(str(folder)) as repo:
        raw = repo[repo.head()].message.decode()
    assert raw.endswith(f"\n\n{TRAILER}: {version()}\n")
    # git reads it as a trailer too, where git is installed
    git = subprocess.run(["git", "interpret-trailers", "--parse"], input=raw, text=True,
                         capture_output=True) if _has_git() else None
    if git is not None:
        assert git.stdout.strip() == f"{TRAILER}: {version()}"


def _has_git() -> bool:
    import shutil

    return shutil.which("git") is not None


def test_history_shows_the_message_and_the_version_apart(rb):
    folder = Path(rb("where").out.strip())
    # a commit made by another program (git, by hand): no trailer, so no version
    with Repo(str(folder)) as repo:
        head = repo[repo.head()]
        other = Commit()
        other.tree, other.parents = head.tree, [head.id]
        other.author = other.committer = b"Someone <someone@apca.invalid>"
        other.commit_time = other.author_time = head.commit_time + 1
        other.commit_timezone = other.author_timezone = 0
        other.message = b"Edited rule 28 with git\n"
        repo.object_store.add_object(other)
        repo.refs[b"refs/heads/main"] = other.id
    result = rb("history", "apca:28", "--json")
    assert result.code == 0, result.err
    entries = json.loads(result.out)
    seed = entries[-1]
    assert seed["program_version"] == version() and TRAILER not in seed["message"]
    text = rb("history", "apca:28").out
    assert TRAILER not in text  # one line per commit, as before
    assert log(folder)[0].program_version is None  # git's commit names no program


def test_the_installed_program_writes_its_version(tmp_path):
    """Run as a program (not in the test's process): the trailer's version is the
    installed package's."""
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path),
           "RULESBOOK_AUTHOR": "T <t@apca.invalid>", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "rulesbook", "where"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert log(Path(proc.stdout.strip()))[0].program_version == version()
