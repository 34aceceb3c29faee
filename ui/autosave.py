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
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from rulesbook.storage import SaveError, atomic_write_text

__all__ = ["autosave_dir", "bytes_digest", "file_digest", "read_json", "write_json",
           "set_aside", "SET_ASIDE", "in_use_by_another_app", "AutosaveSlot"]

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


def in_use_by_another_app(pid: object) -> bool:
    """True when ``pid`` (the writer of an autosave) is another app still running:
    its work is live, not something to recover from a crash."""
    if not isinstance(pid, int) or pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def file_digest(path: str | os.PathLike) -> str | None:
    """SHA-256 (hex) of a file's bytes; None when there is no such file."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return None
    return hashlib.sha256(data).hexdigest()


def bytes_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_json(path: Path, data) -> None:
    """Write ``data`` as JSON atomically (the folder is made if needed).
    Raises :class:`~rulesbook.storage.SaveError` or OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=1, ensure_ascii=False))


def read_json(path: Path) -> dict | None:
    """The JSON object in ``path``; None when it is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
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

    If another running app autosaves to the same file, this run takes a file of its
    own (``<stem>-<pid>.json``): neither overwrites the other.  Only a file this run
    wrote or recovered is ever deleted."""

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

    def write(self, data: dict) -> str:
        """Write ``data`` (with the version and this app's pid) at once, atomically;
        never raises.  The error, or "" when written; a failure already reported
        (the same error again) is returned as ""."""
        if not self.owned:
            current = self.read()
            if current is not None and in_use_by_another_app(current.get("pid")):
                self.path = self.path.with_name(
                    f"{self.path.stem}-{os.getpid()}{self.path.suffix}")
        try:
            write_json(self.path, {**data, "version": self.version, "pid": os.getpid()})
        except (OSError, SaveError) as exc:
            new = str(exc) != self.last_error
            self.last_error = str(exc)
            return self.last_error if new else ""
        self.last_error = ""
        self.owned = True
        return ""

    def recoverable(self) -> dict | None:
        """The newest autosave of a run that ended with unsaved changes (``dirty``),
        if any; autosaves of apps still running are theirs, not offered.  This slot
        then writes to that file."""
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
            if data is None or not data.get("dirty") or in_use_by_another_app(data.get("pid")):
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
        self.owned = False
