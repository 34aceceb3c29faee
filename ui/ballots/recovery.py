"""Recovery files of ballots with unsaved votes.

While a ballot has unsaved changes, the app keeps the whole ballot and the list
of the changes (votes entered or imported, the method chosen) in a recovery
file of the autosave folder, written atomically on every change; the ballot
FILE is still only written when the user saves. The recovery records the
SHA-256 of the ballot file's bytes it was based on: if the file changed since
(another secretary saved, a member's ``ballot import``), the recovery is stale
and is refused, and kept aside (``set-aside/``) rather than deleted.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from pathlib import Path

from rulesbook.ballots import METHODS, Ballot, parse_ballot

from ..autosave import (
    autosave_dir,
    claim,
    file_digest,
    in_use_by_another_app,
    read_json,
    set_aside,
    write_json,
)

RECOVERY_VERSION = 1
RECOVERY_KIND = "ballot-recovery"


def recovery_folder() -> Path:
    return autosave_dir() / "ballots"


def recovery_path(ballot_path: str | os.PathLike) -> Path:
    """The recovery file of a ballot file (one per ballot file, by its full path)."""
    path = Path(ballot_path).resolve()
    key = hashlib.sha256(str(path).encode("utf-8")).hexdigest()[:16]
    return recovery_folder() / f"{path.stem}-{key}.json"


def describe_changes(changes: list[dict]) -> str:
    """ "3 votes (B on 10, C on 10, A on 12); method: irv"."""
    votes = [c for c in changes if c.get("op") == "vote"]
    methods = [c["method"] for c in changes if c.get("op") == "method"]
    parts = []
    if votes:
        keys = list(dict.fromkeys(f"{c['member']} on {c['question']}" for c in votes))
        shown = ", ".join(keys[:6]) + (", …" if len(keys) > 6 else "")
        parts.append(f"{len(keys)} vote(s) ({shown})")
    if methods:
        parts.append(f"counting method {methods[-1]}")
    return "; ".join(parts) or "no vote"


@dataclasses.dataclass
class Recovery:
    """The unsaved state of a ballot, as an earlier session left it."""

    file: Path  # the recovery file
    path: Path  # the ballot file it belongs to
    ballot_id: str
    base_digest: str | None  # sha256 of the ballot file's bytes it was based on (None: no file)
    saved_at: str
    text: str  # the whole unsaved ballot (dump_ballot)
    changes: list[dict]
    pid: int | None = None  # the process that wrote it (shown only; never decides)

    def in_use(self) -> bool:
        """Another running app is still working on it (holds its OS owner lock):
        not a crash to recover from."""
        return in_use_by_another_app(self.file)

    def ballot(self) -> Ballot:
        return parse_ballot(self.text, str(self.file))

    def is_stale(self) -> bool:
        """The ballot file is no longer the one these changes were made on."""
        return file_digest(self.path) != self.base_digest

    @property
    def summary(self) -> str:
        return describe_changes(self.changes)


def write_recovery(ballot_path: Path, ballot_text: str, ballot_id: str,
                   base_digest: str | None, changes: list[dict]) -> Path:
    """Write (atomically) the recovery file of ``ballot_path``; raises SaveError/OSError."""
    target = recovery_path(ballot_path)
    claim(target)  # this process owns it until it ends (the OS then releases the lock)
    write_json(target, {
        "version": RECOVERY_VERSION, "kind": RECOVERY_KIND,
        "path": str(Path(ballot_path).resolve()), "ballot_id": ballot_id,
        "base_sha256": base_digest, "saved_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "pid": os.getpid(), "changes": changes, "ballot": ballot_text,
    })
    return target


def read_recovery(file: Path) -> Recovery | None:
    """A recovery file, or None when it is missing or not one."""
    data = read_json(file)
    if data is None or data.get("version") != RECOVERY_VERSION \
            or data.get("kind") != RECOVERY_KIND:
        return None
    try:
        changes = [dict(c) for c in data.get("changes", [])]
        for c in changes:
            if c.get("op") == "vote":
                c["ranking"] = [str(o) for o in c["ranking"]]
                if not isinstance(c.get("member"), str) or \
                        not isinstance(c.get("question"), str):
                    return None
            elif c.get("op") == "method":
                if c.get("method") not in METHODS:
                    return None
            else:
                return None
        base = data.get("base_sha256")
        return Recovery(file, Path(data["path"]), str(data.get("ballot_id", "")),
                        base if isinstance(base, str) else None,
                        str(data.get("saved_at", "")), str(data["ballot"]), changes,
                        data["pid"] if isinstance(data.get("pid"), int) else None)
    except (KeyError, TypeError, ValueError):
        return None


def find_recovery(ballot_path: Path, busy: list[Recovery] | None = None) -> Recovery | None:
    """The recovery left for ``ballot_path`` by a session that ended, if any; one
    still owned by a running app is not returned but added to ``busy``."""
    found = read_recovery(recovery_path(ballot_path))
    if found is not None and found.in_use():
        if busy is not None:
            busy.append(found)
        return None
    return found


def all_recoveries(busy: list[Recovery] | None = None) -> list[Recovery]:
    """Every recovery in the folder, the newest first; those still owned by a
    running app are left out and added to ``busy``."""
    folder = recovery_folder()
    try:
        files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    out = []
    for recovery in (read_recovery(f) for f in files):
        if recovery is None:
            continue
        if recovery.in_use():
            if busy is not None:
                busy.append(recovery)
            continue
        out.append(recovery)
    return out


def set_recovery_aside(recovery: Recovery) -> Path | None:
    return set_aside(recovery.file)

