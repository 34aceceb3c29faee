"""The errors of the rules folder: each message says what happened and what to do."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypedDict

from ..errors import RulesbookError


class RulesFolderError(RulesbookError):
    """A rules-folder operation failed; nothing was committed or changed."""


class NotARulesFolder(RulesFolderError):
    """The folder is not a git-versioned rules folder."""


class SeedReadOnlyError(RulesFolderError):
    """Something tried to write into the bundled seed data (the installed package)."""


class Side(enum.Enum):
    """Which version of a conflicting record a sync keeps."""

    MINE = "mine"  # this folder's
    THEIRS = "theirs"  # the remote's


@dataclass(frozen=True)
class Resolution:
    """``rulesbook sync --take theirs|mine [RECORD...]``: keep one side of the named
    conflicting records (of every conflicting record when none is named)."""

    side: Side
    records: tuple[str, ...] = ()

    def applies(self, file: str, record: str) -> bool:
        if not self.records:
            return True
        record = _squeeze(record)
        for spec in map(_squeeze, self.records):
            if spec == file:  # every conflicting record of that file
                return True
            if spec.startswith(f"{file}:"):
                spec = spec[len(file) + 1:]
            if record == spec or record.startswith((spec + ".", spec + "[")):
                return True
        return False


def _squeeze(text: str) -> str:
    return "".join(text.split())


class ConflictJson(TypedDict):
    """A conflicting record as ``rulesbook sync --json`` prints it."""

    file: str
    record: str
    ours: str
    theirs: str
    note: str


class DroppedJson(TypedDict):
    """A record settled by ``--take`` as ``rulesbook sync --json`` prints it."""

    file: str
    record: str
    kept: str
    dropped: str


@dataclass(frozen=True)
class ConflictedRecord:
    """One record changed differently on both sides of a merge."""

    file: str
    record: str  # e.g. "votes[member=A, question=10]" or "rules[id=28].text"
    ours: str  # each side's value, in full (JSON; of a signed record, the fields that differ)
    theirs: str
    note: str = ""  # e.g. that the vote was made after the remote sealed the ballot

    def __str__(self) -> str:
        text = f"{self.file}: {self.record} (here: {self.ours}; remote: {self.theirs})"
        return f"{text} — {self.note}" if self.note else text

    def to_dict(self) -> ConflictJson:
        return {"file": self.file, "record": self.record, "ours": self.ours,
                "theirs": self.theirs, "note": self.note}


@dataclass(frozen=True)
class DroppedRecord:
    """A conflicting record settled by ``--take``: the side kept and the value dropped."""

    file: str
    record: str
    kept: Side
    dropped: str  # the value given up, in full
    #: a signed vote given up: kept in the ballot's history as a replaced vote
    in_history: bool = False

    def __str__(self) -> str:
        whose = "this folder's" if self.kept is Side.THEIRS else "the remote's"
        kept = "the remote's" if self.kept is Side.THEIRS else "this folder's"
        where = ("; it stays in the ballot's history as a replaced vote, not counted"
                 if self.in_history else "")
        return (f"{self.file}: {self.record}: kept {kept} version, dropped {whose}: "
                f"{self.dropped}{where}")

    def to_dict(self) -> DroppedJson:
        return {"file": self.file, "record": self.record, "kept": self.kept.value,
                "dropped": self.dropped}


class SyncConflict(RulesFolderError):
    """Two changes to the same record: the sync stopped, both sides are kept."""

    def __init__(self, records: list[ConflictedRecord], remote_ref: str,
                 kept_as: str | None = "") -> None:
        """``kept_as``: where the remote's version is kept ("": ``remote_ref``; None:
        nowhere, the remote being another than the folder's own)."""
        self.records = tuple(records)
        self.remote_ref = remote_ref
        names = "; ".join(str(r) for r in records[:5])
        more = f" and {len(records) - 5} more" if len(records) > 5 else ""
        example = records[0].record if records else "RECORD"
        kept = (f"the remote's is kept as {kept_as or remote_ref}" if kept_as is not None
                else "the remote's is not kept here (it is not this folder's remote)")
        super().__init__(
            f"sync stopped: {len(records)} record(s) were changed both here and on the remote: "
            f"{names}{more}. Nothing was merged or pushed; your version is unchanged and "
            f"{kept}. Agree on one version and keep it with "
            f"`rulesbook sync --take theirs '{example}'` (the remote's) or `--take mine "
            f"'{example}'` (yours); `--take theirs` alone keeps the remote's for every one")


class SyncInvalid(RulesFolderError):
    """The merged folder would not validate, so nothing was merged or pushed."""


class SealedMeanwhile(SyncInvalid):
    """A ballot was sealed on one side while votes were made on the other: the merge
    would not verify; ``--take`` keeps the sealed ballot (dropping those votes)."""

    def __init__(self, message: str, records: list[ConflictedRecord]) -> None:
        self.records = tuple(records)
        super().__init__(message)
