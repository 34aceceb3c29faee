"""Where and how the app keeps unsaved work so that a crash loses nothing.

Every autosave goes to :func:`autosave_dir` (``$RULESBOOK_AUTOSAVE_DIR`` in
tests, otherwise the user's app data folder) and is written atomically
(:mod:`rulesbook.storage`): a kill at any moment leaves the previous autosave
or the new one, never half of one. A recovery that cannot be used is moved
aside (:func:`set_aside`), never deleted.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from rulesbook.storage import SaveError, atomic_write_text, durability_notes
from rulesbook.textio import read_text

#: Largest autosave read back (a board session or a ballot with its changes).
MAX_AUTOSAVE_BYTES = 64 * 1024 * 1024

__all__ = ["autosave_dir", "bytes_digest", "file_digest", "read_json", "write_json",
           "set_aside", "SET_ASIDE", "in_use_by_another_app", "claim", "release",
           "owner_lock_path", "in_use_notice", "AutosaveSlot"]

#: the subfolder (of a recovery file's folder) where unusable recoveries are kept
SET_ASIDE = "set-aside"


def autosave_dir() -> Path:
    """Where the app autosaves: ``$RULESBOOK_AUTOSAVE_DIR`` (tests) or the
    user's app data folder."""
    env = os.environ.get("RULESBOOK_AUTOSAVE_DIR")
    if env:
        return Path(env)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    if not base:
        base = str(Path.home() / ".rulesbook")
    return Path(base) / "autosave"


#: owner-lock path -> the open descriptor holding its lock, for this process
_HELD: dict[str, int] = {}


def owner_lock_path(path: str | os.PathLike) -> Path:
    """The owner lock of an autosave file: ``.NAME.owner`` beside it."""
    path = Path(path)
    return path.with_name(f".{path.name}.owner")


def claim(path: str | os.PathLike) -> bool:
    """Make this process the owner of the autosave ``path``: an exclusive
    ``flock`` on its owner lock, held until :func:`release` or the end of the
    process. The operating system releases it when the process dies (a crash, a
    kill, a reboot), so ownership never depends on a process id that another
    program may have been given since. False when another running app owns it.
    """
    key = str(owner_lock_path(path))
    if key in _HELD:
        return True
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no owner locks
        return True
    try:
        Path(key).parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(key, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return True  # cannot lock here: the autosave itself will report the folder
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return False
    except OSError:  # a file system without locks: nobody can be told apart
        os.close(fd)
        return True
    _HELD[key] = fd
    return True


def release(path: str | os.PathLike) -> None:
    """Give up this process's ownership of the autosave ``path`` (if it had it)."""
    fd = _HELD.pop(str(owner_lock_path(path)), None)
    if fd is not None:
        os.close(fd)


def in_use_by_another_app(path: str | os.PathLike) -> bool:
    """True when another app that is still running owns the autosave ``path``
    (holds its owner lock): its work is live, not something to recover."""
    key = str(owner_lock_path(path))
    if key in _HELD:
        return False
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return False
    try:
        fd = os.open(key, os.O_RDONLY)
    except OSError:
        return False  # no lock file: nobody ever claimed it
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # also drops the lock just taken to look
    return False


def in_use_notice(path: str | os.PathLike, what: str = "Unsaved work") -> str:
    """The sentence shown when a recovery is not offered because its app runs."""
    return (f"{what} in {path} belongs to another Rulesbook window that is still "
            "running; it is offered here once that app is closed.")


def file_digest(path: str | os.PathLike) -> str | None:
    """SHA-256 (hex) of a file's bytes; None when there is no such file."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return None
    return hashlib.sha256(data).hexdigest()


def bytes_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_json(path: Path, data: object, encoded: Mapping[str, str] | None = None) -> None:
    """Write ``data`` as JSON atomically (the folder is made if needed); ``encoded``:
    more keys of the object ``data``, their values JSON texts already (a long
    record's moves, encoded once each). Raises :class:`~rulesbook.storage.SaveError`
    or OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # compact: json's C encoder (indented output is Python's, 10 times slower: a
    # record of 60,000 plies took 0.8 s on the GUI thread at every change)
    text = json.dumps(data, ensure_ascii=False)
    if encoded:
        if not isinstance(data, dict) or not data or set(encoded) & set(data):
            raise ValueError("encoded keys go into a non-empty object, not twice")
        text = text[:-1] + "".join(f", {json.dumps(key, ensure_ascii=False)}: {value}"
                                   for key, value in encoded.items()) + "}"
    with durability_notes():  # an autosave is best effort: the next one follows
        atomic_write_text(path, text, private=True)


def read_json(path: Path) -> dict | None:
    """The JSON object in ``path``; None when it is missing or unreadable."""
    try:
        data = json.loads(read_text(path, max_bytes=MAX_AUTOSAVE_BYTES, fallback=False).text)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def set_aside(path: Path) -> Path | None:
    """Move ``path`` into the ``set-aside`` folder beside it (a time-stamped name,
    never overwriting another); the new path, or None if it could not be moved."""
    folder = path.parent / SET_ASIDE
    stamp = time.strftime("%Y%m%d-%H%M%S")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for n in range(1000):
            suffix = f"-{n}" if n else ""
            target = folder / f"{path.stem}.{stamp}{suffix}{path.suffix}"
            if not target.exists():
                os.replace(path, target)
                return target
    except OSError:
        return None
    return None


class AutosaveSlot:
    """The autosave file of one kind of work in this app run (``version`` marks the
    format; files of another version are ignored).

    The file is owned through an OS lock (:func:`claim`): if another running app
    owns the same file, this run takes a file of its own (``<stem>-<pid>.json``):
    neither overwrites the other.  Only a file this run wrote or recovered is ever
    deleted."""

    def __init__(self, path: Path, version: int):
        self.path = Path(path)
        self.version = version
        self.owned = False
        self.last_error = ""

    def read(self, path: Path | None = None) -> dict | None:
        """The autosave in ``path`` (default: this slot's), None when missing,
        unreadable or of another version."""
        data = read_json(self.path if path is None else path)
        return data if data is not None and data.get("version") == self.version else None

    def write(self, data: dict, encoded: Mapping[str, str] | None = None) -> str:
        """Write ``data`` (with the version and this app's pid; ``encoded``: see
        :func:`write_json`) at once, atomically; never raises.  The error, or ""
        when written; a failure already reported (the same error again) is
        returned as ""."""
        if not self.owned and not claim(self.path):
            self.path = self.path.with_name(f"{self.path.stem}-{os.getpid()}{self.path.suffix}")
            claim(self.path)
        try:
            write_json(self.path, {**data, "version": self.version, "pid": os.getpid()},
                       encoded)
        except (OSError, SaveError) as exc:
            new = str(exc) != self.last_error
            self.last_error = str(exc)
            return self.last_error if new else ""
        self.last_error = ""
        self.owned = True
        return ""

    def recoverable(self, in_use: Callable[[Path], None] | None = None) -> dict | None:
        """The newest autosave of a run that ended with unsaved changes (``dirty``),
        if any.  One owned by an app still running (it holds the file's OS lock) is
        not offered: ``in_use`` is called with its path.  This slot then owns and
        writes to the file it recovers."""
        stem, suffix = self.path.stem, self.path.suffix
        head, _, tail = stem.rpartition("-")
        base = head if head and tail.isdigit() else stem  # board-autosave-<pid>: its kind
        try:
            files = sorted(self.path.parent.glob(f"{base}*{suffix}"),
                           key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            return None
        for file in files:
            data = self.read(file)
            if data is None or not data.get("dirty"):
                continue
            if in_use_by_another_app(file) or not claim(file):
                if in_use is not None:
                    in_use(file)
                continue
            self.path = file
            return data
        return None

    def discard(self) -> None:
        """Delete the autosave this run wrote or recovered (never another's)."""
        if not self.owned:
            return
        try:
            self.path.unlink()
        except OSError:
            pass
        release(self.path)
        self.owned = False
