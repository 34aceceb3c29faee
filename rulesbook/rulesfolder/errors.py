"""The errors of the rules folder: each message says what happened and what to do."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import RulesbookError


class RulesFolderError(RulesbookError):
    """A rules-folder operation failed; nothing was committed or changed."""


class NotARulesFolder(RulesFolderError):
    """The folder is not a git-versioned rules folder."""


class SeedReadOnlyError(RulesFolderError):
    """Something tried to write into the bundled seed data (the installed package)."""


@dataclass(frozen=True)
class ConflictedRecord:
    """One record changed differently on both sides of a merge."""

    file: str
    record: str  # e.g. "votes[member=A, question=10]" or "rules[id=28].text"
    ours: str  # a short rendering of each side's value
    theirs: str

    def __str__(self) -> str:
        return f"{self.file}: {self.record} (here: {self.ours}; remote: {self.theirs})"

    def to_dict(self) -> dict:
        return {"file": self.file, "record": self.record, "ours": self.ours,
                "theirs": self.theirs}


class SyncConflict(RulesFolderError):
    """Two changes to the same record: the sync stopped, both sides are kept."""

    def __init__(self, records: list[ConflictedRecord], remote_ref: str):
        self.records = tuple(records)
        self.remote_ref = remote_ref
        names = "; ".join(str(r) for r in records[:5])
        more = f" and {len(records) - 5} more" if len(records) > 5 else ""
        super().__init__(
            f"sync stopped: {len(records)} record(s) were changed both here and on the remote: "
            f"{names}{more}. Nothing was merged or pushed; your version is unchanged and the "
            f"remote's is kept as {remote_ref}. Agree on one version, change the record "
            f"here, and sync again")


class SyncInvalid(RulesFolderError):
    """The merged folder would not validate, so nothing was merged or pushed."""
