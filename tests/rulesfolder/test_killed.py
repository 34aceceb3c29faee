"""A writing command killed with SIGKILL (issue 34, attacks 1 and 2): the next command
completes or rolls back its change with a notice naming it, clears the locks and
temporary files it left, and every change is one commit named for its own command."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import log
from .killing import rulesbook


@pytest.fixture
def folder(tmp_path) -> Path:
    target = tmp_path / "club"
    made = rulesbook(tmp_path, "init", target)
    assert made.code == 0, made.err
    return target


def names(folder: Path) -> list[str]:
    data = yaml.safe_load((folder / "members.yaml").read_text(encoding="utf-8"))
    return [m["name"] for m in data["members"]]


def fsck(folder: Path) -> None:
    proc = subprocess.run(["git", "-C", str(folder), "fsck", "--strict"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_a_stale_object_lock_does_not_block_the_retry(folder, tmp_path):
    """Attack 1: killed holding ``.git/objects/xx/….lock``; every retry used to fail
    with ``internal error (FileLocked …)``."""
    killed = rulesbook(tmp_path, "--data", folder, "member", "add", "Bob Retry",
                       point="object-lock")
    assert killed.code == -9
    assert list((folder / ".git" / "objects").glob("*/*.lock"))  # the lock it left
    retry = rulesbook(tmp_path, "--data", folder, "member", "add", "Bob Retry")
    assert retry.code == 0, retry.err
    assert "internal error" not in retry.err
    assert "rulesbook --data" in retry.err and "member add 'Bob Retry'" in retry.err
    assert "rolled back" in retry.err
    assert not list((folder / ".git").rglob("*.lock*")) or all(
        p.name.startswith(".") for p in (folder / ".git").rglob("*.lock"))
    history = log(folder)
    assert len(history) == 2 and "Bob Retry" in history[0].message
    assert names(folder).count("Bob Retry") == 1
    fsck(folder)


def test_a_change_killed_before_its_commit_is_not_committed_by_the_next(folder, tmp_path):
    """Attack 2: killed between writing members.yaml and committing; the next
    command used to commit both under its own name."""
    killed = rulesbook(tmp_path, "--data", folder, "member", "add", "K0", point="first-object")
    assert killed.code == -9
    assert "K0" in names(folder)  # written, not committed: the state the kill left
    after = rulesbook(tmp_path, "--data", folder, "member", "add", "After Kill")
    assert after.code == 0, after.err
    assert "member add K0" in after.err and "rolled back" in after.err
    assert "K0" not in names(folder) and "After Kill" in names(folder)
    history = log(folder)
    assert len(history) == 2 and "After Kill" in history[0].message
    retry = rulesbook(tmp_path, "--data", folder, "member", "add", "K0")
    assert retry.code == 0, retry.err
    assert retry.err == ""  # nothing left to recover
    history = log(folder)
    assert len(history) == 3 and "K0" in history[0].message
    with subprocess.Popen(["git", "-C", str(folder), "show", "--stat", "--format=",
                           history[1].id], stdout=subprocess.PIPE, text=True) as show:
        stat = show.communicate()[0]
    assert "members.yaml" in stat and "1 file changed" in stat
    assert "K0" not in subprocess.run(["git", "-C", str(folder), "show", history[1].id],
                                      capture_output=True, text=True).stdout
    fsck(folder)
    valid = rulesbook(tmp_path, "--data", folder, "validate")
    assert valid.code == 0, valid.err


def test_a_killed_save_leaves_no_temporary_file(folder, tmp_path):
    killed = rulesbook(tmp_path, "--data", folder, "member", "add", "Tmp Kill",
                       point="save-rename")
    assert killed.code == -9
    assert list(folder.glob(".members.yaml.*.tmp"))
    after = rulesbook(tmp_path, "--data", folder, "member", "add", "Tmp Kill")
    assert after.code == 0, after.err
    assert not list(folder.glob(".*.tmp"))
    assert "temporary" in after.err
    assert len(log(folder)) == 2
    fsck(folder)


def test_a_lock_of_a_live_git_is_left_alone(folder, tmp_path):
    """A fresh ``index.lock`` with no killed rulesbook command behind it may be a git
    running now: it is not removed (the command reports the lock instead)."""
    lock = folder / ".git" / "index.lock"
    lock.write_bytes(b"")
    rulesbook(tmp_path, "--data", folder, "member", "add", "Live Git")
    assert lock.exists()


@pytest.mark.parametrize("point", ["set-head", "ref-lock"])
def test_a_change_killed_while_committing_is_completed(folder, tmp_path, point):
    killed = rulesbook(tmp_path, "--data", folder, "member", "add", "Late Kill", point=point)
    assert killed.code == -9
    assert len(log(folder)) == 1
    seen = rulesbook(tmp_path, "--data", folder, "validate")
    assert seen.code == 0, seen.err
    assert "member add 'Late Kill'" in seen.err and "completed" in seen.err
    history = log(folder)
    assert len(history) == 2 and "Late Kill" in history[0].message
    status = subprocess.run(["git", "-C", str(folder), "status", "--porcelain"],
                            capture_output=True, text=True).stdout
    assert status == ""
    fsck(folder)


@pytest.mark.parametrize("point", ["set-head", "ref-lock"])
def test_the_same_command_run_again_after_its_change_was_made_succeeds(folder, tmp_path, point):
    """Issue #34, Must 1: a command killed after its commit was made, run again as
    it was (the retry a user makes), succeeds: the change is completed once, and
    the retry says the stopped run had made it (exit 0, no second member, one
    commit). Another command that fails the same way still fails."""
    killed = rulesbook(tmp_path, "--data", folder, "member", "add", "Late Kill", point=point)
    assert killed.code == -9
    again = rulesbook(tmp_path, "--data", folder, "member", "add", "Late Kill")
    assert again.code == 0, again.err
    assert "completed" in again.err and "already made its change" in again.err
    assert names(folder).count("Late Kill") == 1
    history = log(folder)
    assert len(history) == 2 and "Late Kill" in history[0].message
    # the name given again later, by a command that was never stopped: refused
    twice = rulesbook(tmp_path, "--data", folder, "member", "add", "Late Kill")
    assert twice.code == 2 and "already made its change" not in twice.err
    fsck(folder)


def test_a_command_killed_once_its_change_was_made_whole_succeeds_when_run_again(folder,
                                                                              tmp_path):
    """Issue #34, Must 1 (re-test): a kill that comes after the change was committed
    and its journal closed, before the process ends: the same command line run again
    exits 0 saying its change was made; once another change came since, the same
    command is refused as usual."""
    import signal

    from .killing import CHILD, environment

    script = CHILD.replace('from rulesbook.cli import main\n',
                           'from rulesbook.cli import main\n'
                           'import rulesbook.rulesfolder.journal as j\n'
                           'real_close = j.Journal.close\n'
                           'def close(self):\n'
                           '    real_close(self)\n'
                           '    os.kill(os.getpid(), signal.SIGKILL)\n'
                           'j.Journal.close = close\n')
    argv = ["--data", str(folder), "member", "add", "Very Late"]
    killed = subprocess.run([sys.executable, "-c", script, "none", *argv],
                            capture_output=True, text=True, env=environment(tmp_path))
    assert killed.returncode == -signal.SIGKILL
    assert "Very Late" not in killed.stdout  # said only once the command is done
    assert names(folder).count("Very Late") == 1
    again = rulesbook(tmp_path, *argv)
    assert again.code == 0, again.err
    assert "already made its change" in again.err and "Very Late" in again.err
    assert len(log(folder)) == 2
    assert rulesbook(tmp_path, "--data", folder, "member", "add", "Someone Else").code == 0
    refused = rulesbook(tmp_path, *argv)
    assert refused.code == 2 and "already made its change" not in refused.err
