"""What ``rulesbook sync`` did and where a folder stands against its remote, as the
command line prints them (``--json``) and the app shows them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from .errors import DroppedJson, DroppedRecord

__all__ = ["FolderStatus", "StatusJson", "SyncJson", "SyncResult"]


class SyncJson(TypedDict):
    """``rulesbook sync --json``."""

    remote: str
    fetched: int
    merged: bool
    fast_forward: bool
    pushed: int
    committed_edits: list[str]
    head: str
    up_to_date: bool
    not_shared: list[str]
    dropped: list[DroppedJson]
    relettered: list[str]
    previous_origin: str | None
    origin_set: bool
    replaced: int


class StatusJson(TypedDict):
    """:meth:`FolderStatus.to_dict`: where the folder stands against its remote."""

    remote: str | None
    ahead: int
    behind: int
    pending: list[str]


@dataclass(frozen=True)
class SyncResult:
    """What a sync did."""

    remote: str  # the URL
    fetched: int  # commits received
    merged: bool  # a merge commit was made
    fast_forward: bool
    pushed: int  # commits sent
    committed_edits: tuple[str, ...]  # data files edited by hand, committed first
    head: str
    not_shared: tuple[str, ...] = ()  # other files changed in the folder, left alone
    dropped: tuple[DroppedRecord, ...] = ()  # conflicting records settled by --take
    #: members added here given another letter by the merge (the remote had theirs)
    relettered: tuple[str, ...] = ()
    previous_origin: str | None = None  # the origin a URL given with --remote replaced
    #: the URL given with --remote became the folder's origin (it had none, or another)
    origin_set: bool = False
    replaced: int = 0  # --restore-remote: the remote's commits replaced by this folder's

    @property
    def up_to_date(self) -> bool:
        """The sync changed nothing, here or on the remote (they already agreed): a
        restore that replaced the remote's commits changed the remote, even when it
        sent none (the remote held this folder's)."""
        return not (self.fetched or self.merged or self.pushed or self.committed_edits
                    or self.replaced)

    def to_dict(self) -> SyncJson:
        return {"remote": self.remote, "fetched": self.fetched, "merged": self.merged,
                "fast_forward": self.fast_forward, "pushed": self.pushed,
                "committed_edits": list(self.committed_edits), "head": self.head,
                "up_to_date": self.up_to_date, "not_shared": list(self.not_shared),
                "dropped": [d.to_dict() for d in self.dropped],
                "relettered": list(self.relettered),
                "previous_origin": self.previous_origin, "origin_set": self.origin_set,
                "replaced": self.replaced}


@dataclass(frozen=True)
class FolderStatus:
    """Where the folder stands against its remote as last fetched (no network)."""

    remote: str | None
    ahead: int
    behind: int
    pending: tuple[str, ...]  # data files edited by hand, not committed (a sync commits them)

    def to_dict(self) -> StatusJson:
        return {"remote": self.remote, "ahead": self.ahead, "behind": self.behind,
                "pending": list(self.pending)}
