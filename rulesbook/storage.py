"""Atomic saving: every file the app or the CLI writes goes through here.

A save writes a temporary file in the same folder, flushes and fsyncs it,
renames it over the target and fsyncs the folder, so a crash at any moment
leaves either the old file or the new one, byte for byte. The previous
version can be kept as ``NAME~`` (a backup a user would expect).
"""
from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import threading
import time
import warnings
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


class DurabilityWarning(UserWarning):
    """The new version was written (renamed into place) but the folder could not
    be flushed to disk afterwards: the data is saved, a power cut at this
    moment could still bring back the previous version."""


_UMASK_LOCK = threading.Lock()


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _umask() -> int:
    """The process's umask, read without changing it where the system allows."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:  # elsewhere: set and restore at once
        mask = os.umask(0o077)
        os.umask(mask)
    return mask


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def real_path(path: str | os.PathLike[str]) -> Path:
    """The file a save of ``path`` writes: symbolic links are followed to their
    target (which a save then replaces, so the link keeps pointing at the new
    version and every name of the file takes the same lock)."""
    target = Path(path)
    try:
        return Path(os.path.realpath(target, strict=False))
    except (OSError, ValueError):
        return target


def _check_target(shown: Path, target: Path, backup: Path) -> os.stat_result | None:
    """The existing file's status, or None when it does not exist yet; SaveError
    for a target a save must not replace."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveError(f"cannot save {shown}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(st.st_mode):
        raise SaveError(f"cannot save {shown}: its symbolic links go round in a loop")
    if not stat.S_ISREG(st.st_mode):
        raise SaveError(f"cannot save {shown}: it is {_kind(st.st_mode)}, not a regular file; "
                        "choose a file name to save to")
    if st.st_nlink > 1:
        try:
            ours = os.lstat(backup)
            links = st.st_nlink - (ours.st_ino == st.st_ino and ours.st_dev == st.st_dev)
        except OSError:
            links = st.st_nlink
        if links > 1:
            raise SaveError(f"cannot save {shown}: the file has {st.st_nlink} names (hard "
                            "links); saving would give only this name the new version. "
                            "Save under another name, or make it a single file first")
    return st


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, backup: bool = False,
                       private: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically; with ``backup`` keep the old file as ``path~``.

    A symbolic link is written through to its target. A device, a FIFO, a
    folder or a file with several hard links is refused (:class:`SaveError`).
    A new file gets the permissions the umask allows (``private``: owner only,
    for autosaves and keys); an existing file keeps its own. When only the
    flush of the folder fails after the rename, the data is written: a
    :class:`DurabilityWarning` says so instead of an error.
    """
    shown = Path(path)
    target = real_path(shown)
    _refuse_seed(target)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise SaveError(f"cannot save {shown}: the folder {folder} does not exist")
    backup_path = target.with_name(target.name + "~")
    existing = _check_target(shown, target, backup_path)
    if existing is not None:
        mode = stat.S_IMODE(existing.st_mode)
    else:
        mode = 0o600 if private else 0o666 & ~_umask()
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise SaveError(f"cannot save {shown}: {exc.strerror}") from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            with contextlib.suppress(OSError):
                os.fchmod(handle.fileno(), mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if existing is not None and backup:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(backup_path)
            os.link(target, backup_path)
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise SaveError(f"cannot save {shown}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    try:
        _fsync_dir(folder)
    except OSError as exc:  # after the rename: the new version is in place
        warnings.warn(DurabilityWarning(
            f"{shown} was saved, but its folder could not be flushed to disk "
            f"({exc.strerror or exc}); if the computer loses power now, the previous "
            "version may come back"), stacklevel=2)
    return shown


@contextlib.contextmanager
def durability_notes() -> Iterator[list[str]]:
    """Collect, as messages, the :class:`DurabilityWarning` of the saves made in
    the block (for the app to show them) instead of printing them; other
    warnings pass on as usual. The list is filled when the block ends."""
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DurabilityWarning)
        yield notes
    for item in caught:
        if issubclass(item.category, DurabilityWarning):
            notes.append(str(item.message))
        else:
            warnings.warn_explicit(item.message, item.category, item.filename, item.lineno)


def atomic_write_text(path: str | os.PathLike[str], text: str, backup: bool = False,
                      private: bool = False) -> Path:
    """Write UTF-8 text atomically (see :func:`atomic_write_bytes`)."""
    return atomic_write_bytes(path, text.encode("utf-8"), backup=backup, private=private)


@contextlib.contextmanager
def file_lock(path: str | os.PathLike[str], timeout: float = 10.0) -> Iterator[None]:
    """Hold an exclusive lock for a read-modify-write of ``path``.

    Two programs updating one file (two secretaries, a member's ``ballot import``
    while the app saves) take turns instead of one silently losing the other's
    change. The lock is ``.NAME.lock`` beside the file (advisory ``flock``; on a
    system without it the block runs unlocked).
    """
    target = real_path(path)  # one lock per real file, whatever name it is reached by
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
