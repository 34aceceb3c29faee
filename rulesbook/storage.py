"""Atomic saving: every file the app or the CLI writes goes through here.

A save writes a temporary file in the same folder, flushes and fsyncs it,
renames it over the target and fsyncs the folder, so a crash at any moment
leaves either the old file or the new one, byte for byte. The previous
version can be kept as ``NAME~`` (a backup a user would expect).
"""
from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from .datapath import is_bundled
from .errors import RulesbookError


class SaveError(RulesbookError):
    """A file could not be saved; the previous version is untouched."""


def _refuse_seed(target: Path) -> None:
    """The bundled seed data (the installed package, the checkout's rules_data) is
    never written: an upgrade would lose the change and a system install is read-only."""
    if is_bundled(target):
        raise SaveError(f"cannot save {target}: it is in the bundled seed data of the "
                        f"installed program, which is never changed; work in your rules "
                        f"folder instead (`rulesbook where` shows it)")


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: str | os.PathLike, data: bytes, backup: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically; with ``backup`` keep the old file as ``path~``."""
    target = Path(path)
    _refuse_seed(target)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise SaveError(f"cannot save {target}: the folder {folder} does not exist")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise SaveError(f"cannot save {target}: {exc.strerror}") from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            with contextlib.suppress(OSError):
                os.chmod(tmp, target.stat().st_mode & 0o777)
            if backup:
                backup_path = target.with_name(target.name + "~")
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(backup_path)
                os.link(target, backup_path)
        os.replace(tmp, target)
        _fsync_dir(folder)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise SaveError(f"cannot save {target}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return target


def atomic_write_text(path: str | os.PathLike, text: str, backup: bool = False) -> Path:
    """Write UTF-8 text atomically (see :func:`atomic_write_bytes`)."""
    return atomic_write_bytes(path, text.encode("utf-8"), backup=backup)


@contextlib.contextmanager
def file_lock(path: str | os.PathLike, timeout: float = 10.0) -> Iterator[None]:
    """Hold an exclusive lock for a read-modify-write of ``path``.

    Two programs updating one file (two secretaries, a member's ``ballot import``
    while the app saves) take turns instead of one silently losing the other's
    change. The lock is ``.NAME.lock`` beside the file (advisory ``flock``; on a
    system without it the block runs unlocked).
    """
    target = Path(path)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    _refuse_seed(target)
    lock_path = target.with_name(f".{target.name}.lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise SaveError(f"cannot lock {target}: {exc.strerror}") from None
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise SaveError(f"{target} is being changed by another program; "
                                    f"try again in a moment") from None
                time.sleep(0.02)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
