"""The write-ahead journal of a rules folder: a command killed at any moment (kill -9,
a power cut) leaves the folder as it was before it, or with its change committed,
and never blocks the next command.

Every writer takes the folder lock (``.git/.rulesbook.lock``, an ``flock`` the
system releases when the process dies) and then writes ``.git/rulesbook-change``:
which command it is, its process and when it started. A recorded change adds the
folder's files as they were before it (their blobs are stored first) and, just
before moving the branch, the commit it is about to make. The journal is removed
when the writer is done, whether it succeeded or failed and undid its change.

A journal found by the next writer (it holds the lock, so the journal's owner is
gone) is finished there, before anything else:

- the commit was made and announced: the branch is moved to it (if it was not yet)
  and the index brought in line: the change is *completed*;
- otherwise every file is put back as it was before the command: the change is
  *rolled back*, and the killed command can simply be run again;
- the git lock files (``objects/xx/….lock``, ``index.lock``, ``refs/…/main.lock``)
  and temporary files (``.NAME.*.tmp`` of a save, ``tmp_pack_*``) made since the
  killed command started are removed: nothing else can have made them, as every
  writer holds the folder lock. Lock and temporary files older than
  :data:`STALE_SECONDS` are removed too, whoever left them (no write of a rules
  folder takes that long).

Each recovery is announced as a :class:`FolderRecovered` warning naming the killed
command (the command line prints it as one ``warning:`` line).
"""
from __future__ import annotations

import contextlib
import json
import os
import shlex
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..storage import atomic_write_bytes, file_lock

CHANGE_JOURNAL = "rulesbook-change"  # in .git
#: in .git: the last change made whole (its command, its commit), for the retry of a
#: command killed after its journal was closed (:func:`last_done`)
LAST_DONE = "rulesbook-last"
LOCK_NAME = "rulesbook"  # .git/.rulesbook.lock (storage.file_lock's naming)
#: A git lock or temporary file this old is stale whoever left it: no write of a rules
#: folder holds one for more than a few seconds, even on a slow computer.
STALE_SECONDS = 600.0
_CLOCK_SLACK = 2.0  # file times and time.time() may differ by this much


#: what :func:`~rulesbook.rulesfolder.repo.finish_change` says of a change whose
#: commit had been made: the killed command's change is done
COMPLETED = "its change was completed (the commit was made)"


class FolderRecovered(UserWarning):
    """The previous command in this rules folder was killed; its change was
    completed or rolled back, and what it left behind was cleared."""


_COMMAND: list[str] = []
#: the killed writers whose change this command completed (:func:`recover`)
_COMPLETED: list[JournalEntry] = []


def set_command(text: str) -> None:
    """Name the running command in the journal (the command line sets ``rulesbook …``
    as each command starts: what an earlier one completed is forgotten)."""
    _COMMAND[:] = [text]
    _COMPLETED.clear()


def current_command() -> str:
    if _COMMAND:
        return _COMMAND[0]
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"
    return shlex.join([name, *sys.argv[1:]])[:300]


@dataclass(frozen=True)
class JournalEntry:
    """What the journal of a (possibly killed) writer holds."""

    command: str
    pid: int
    started: float
    message: str | None = None  # the commit message of its change
    head: str | None = None  # the branch when the change began
    before: Mapping[str, str] | None = None  # {path: blob id} of the files before it
    commit: str | None = None  # the commit about to be made the branch's
    files: tuple[str, ...] = ()  # the files that commit changed

    def to_bytes(self) -> bytes:
        return json.dumps({
            "command": self.command, "pid": self.pid, "started": self.started,
            "message": self.message, "head": self.head,
            "before": dict(self.before) if self.before is not None else None,
            "commit": self.commit, "files": list(self.files)}, sort_keys=True).encode()

    @classmethod
    def from_bytes(cls, data: bytes) -> JournalEntry | None:
        try:
            raw = json.loads(data.decode("utf-8"))
            before = raw.get("before")
            return cls(str(raw["command"]), int(raw["pid"]), float(raw["started"]),
                       raw.get("message"), raw.get("head"),
                       {str(k): str(v) for k, v in before.items()} if before is not None
                       else None, raw.get("commit"), tuple(raw.get("files") or ()))
        except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError):
            return None


class Journal:
    """The running writer's journal (see the module's description)."""

    def __init__(self, root: Path) -> None:
        self.path = root / ".git" / CHANGE_JOURNAL
        self.entry = JournalEntry(current_command(), os.getpid(), time.time())
        self.write()

    def write(self) -> None:
        atomic_write_bytes(self.path, self.entry.to_bytes())

    def began(self, message: str, head: str | None, before: Mapping[str, str]) -> None:
        self.entry = JournalEntry(self.entry.command, self.entry.pid, self.entry.started,
                                  message, head, dict(before))
        self.write()

    def committing(self, commit: str, files: tuple[str, ...]) -> None:
        e = self.entry
        self.entry = JournalEntry(e.command, e.pid, e.started, e.message, e.head, e.before,
                                  commit, files)
        self.write()

    def done(self) -> None:
        """The change is committed and the branch moved: the journal, which names its
        commit since :meth:`committing`, becomes the folder's last change made whole
        (:func:`last_done`) by one rename, which also ends it."""
        os.replace(self.path, self.path.with_name(LAST_DONE))

    def close(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def last_done(root: Path) -> JournalEntry | None:
    """The last change made whole in the rules folder ``root`` (None: not known)."""
    try:
        return JournalEntry.from_bytes((root / ".git" / LAST_DONE).read_bytes())
    except OSError:
        return None


#: completes or rolls back a killed writer's change, saying which
Finish = Callable[[Path, "JournalEntry"], str]


@contextlib.contextmanager
def folder_lock(root: str | os.PathLike[str], finish: Finish) -> Iterator[Journal]:
    """One writer at a time in a rules folder; what a killed writer left is finished
    first (see the module's description) by ``finish`` (the git side:
    :func:`rulesbook.rulesfolder.repo.finish_change`). Yields the writer's journal."""
    root = Path(root).resolve()
    with file_lock(root / ".git" / LOCK_NAME, timeout=30.0):
        recover(root, finish)
        journal = Journal(root)
        _HELD.add(root)
        try:
            yield journal
        finally:
            _HELD.discard(root)
            journal.close()


_HELD: set[Path] = set()  # the folders this process holds the lock of
def completed_here(command: str) -> JournalEntry | None:
    """The killed run of ``command`` (the same command line) whose change this
    process completed, if there was one: running that command again had nothing
    left to do."""
    return next((e for e in _COMPLETED if e.command == command), None)


def needs_recovery(root: Path) -> bool:
    """A writer's journal is in ``root`` and it is not this process's own."""
    return (root / ".git" / CHANGE_JOURNAL).exists() and root.resolve() not in _HELD


def recover(root: Path, finish: Finish) -> str | None:
    """Finish what a killed writer left (the caller holds the folder lock). Returns
    the notice given, or None when there was nothing to do."""
    path = root / ".git" / CHANGE_JOURNAL
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        _clear_leftovers(root, None)
        return None
    entry = JournalEntry.from_bytes(data)
    cleared = _clear_leftovers(root, entry.started if entry else 0.0)
    outcome = finish(root, entry) if entry else "its journal did not read; nothing was undone"
    path.unlink()
    if entry is not None and outcome == COMPLETED:
        _COMPLETED.append(entry)
    who = f"`{entry.command}` (process {entry.pid})" if entry else "a command"
    what = f" ({entry.message.splitlines()[0]})" if entry and entry.message else ""
    notice = f"the previous command in {root}, {who}{what}, was stopped before it " \
             f"finished; {outcome}"
    if cleared:
        notice += f"; {cleared} lock or temporary file(s) it left were removed"
    warnings.warn(FolderRecovered(notice), stacklevel=3)
    return notice


def _leftovers(root: Path) -> Iterator[Path]:
    """The git lock files and temporary files a writer may leave."""
    for dirpath, _dirnames, filenames in os.walk(root / ".git"):
        for name in filenames:
            # git's own locks (never ``.NAME.lock``: those are the flock files of
            # storage.file_lock, the folder lock among them, which stay)
            git_lock = name.endswith(".lock") and not name.startswith(".")
            if git_lock or name.startswith("tmp_pack_") or \
                    (name.startswith(".") and name.endswith(".tmp")):
                yield Path(dirpath) / name
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            if name.startswith(".") and name.endswith(".tmp"):
                yield Path(dirpath) / name


def _clear_leftovers(root: Path, killed_started: float | None) -> int:
    """Remove the stale leftovers: those made since the killed writer started, and
    any older than STALE_SECONDS. Returns how many were removed."""
    now = time.time()
    removed = 0
    for path in list(_leftovers(root)):
        try:
            mtime = path.stat().st_mtime
        except OSError:
            continue
        ours = killed_started is not None and mtime >= killed_started - _CLOCK_SLACK
        # the journal's own temporary file: only a holder of the folder lock writes it
        ours = ours or path.name.startswith(f".{CHANGE_JOURNAL}.")
        if ours or now - mtime > STALE_SECONDS:
            with contextlib.suppress(OSError):
                path.unlink()
                removed += 1
    return removed
