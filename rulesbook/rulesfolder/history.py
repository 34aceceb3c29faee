"""History of a rules folder: which commits and editions changed a rule or a
proposal, the record's text at any commit, and what an edition changed.

A commit changed a record when the record (its text, title, topics, notes, its
proposals for a rule) differs from the record in every parent; a merge that took
the record from one side is not listed again. Rulebook files are parsed once per
blob, so a long history costs one YAML read per version of the file.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import TypedDict

from dulwich.objects import Blob, Commit, ObjectID, Tree
from dulwich.repo import Repo

from ..errors import DataFileError
from ..library import Library
from ..model import Proposal, Rule
from ..yamlio import load_file, loads_bytes
from .repo import StrPath, head_id, open_repo, read_object
from .trailer import split_trailer


class HistoryEntryJson(TypedDict):
    """One commit of ``rulesbook history REF --json``."""

    commit: str
    date: str
    author: str
    message: str
    change: str
    edition: str | None
    ballot: str | None
    program_version: str | None


class EditionChangeJson(TypedDict):
    ref: str
    title: str
    status: str
    old_text: str
    new_text: str
    proposal: str | None
    ballot: str | None
    question: str | None


class EditionHistoryJson(TypedDict):
    """``rulesbook history --edition ID --json``."""

    edition: str
    title: str
    base: str | None
    ballot: str | None
    seal: str | None
    commit: HistoryEntryJson | None
    changes: list[EditionChangeJson]


@dataclass(frozen=True)
class HistoryEntry:
    """One commit that changed a record (or added an edition that adopted it)."""

    commit: str
    date: str  # ISO 8601, UTC
    author: str
    message: str
    change: str  # "added" | "changed" | "removed" | "adopted" | "repealed"
    edition: str | None = None
    ballot: str | None = None
    #: the version of Rulesbook that made the commit (its trailer; None: another program)
    program_version: str | None = None

    def to_dict(self) -> HistoryEntryJson:
        return {"commit": self.commit, "date": self.date, "author": self.author,
                "message": self.message, "change": self.change, "edition": self.edition,
                "ballot": self.ballot, "program_version": self.program_version}


@dataclass(frozen=True)
class EditionChange:
    ref: str
    title: str
    status: str
    old_text: str
    new_text: str
    proposal: str | None
    ballot: str | None
    question: str | None

    def to_dict(self) -> EditionChangeJson:
        return {"ref": self.ref, "title": self.title, "status": self.status,
                "old_text": self.old_text, "new_text": self.new_text,
                "proposal": self.proposal, "ballot": self.ballot, "question": self.question}


@dataclass(frozen=True)
class EditionHistory:
    edition: str
    title: str
    base: str | None
    ballot: str | None
    seal: str | None
    commit: HistoryEntry | None  # the commit that published it (None: not versioned)
    changes: tuple[EditionChange, ...]

    def to_dict(self) -> EditionHistoryJson:
        return {"edition": self.edition, "title": self.title, "base": self.base,
                "ballot": self.ballot, "seal": self.seal,
                "commit": self.commit.to_dict() if self.commit else None,
                "changes": [c.to_dict() for c in self.changes]}


def _rulebook_path(root: Path, book: str) -> str:
    if (root / book / "rulebook.yaml").is_file():
        return f"{book}/rulebook.yaml"
    for path in sorted(root.rglob("rulebook.yaml")):
        try:
            if load_file(path).data.get("id") == book:
                return path.relative_to(root).as_posix()
        except (DataFileError, AttributeError):
            continue
    return f"{book}/rulebook.yaml"


@lru_cache(maxsize=256)
def _parse(raw: bytes) -> object:
    try:
        return loads_bytes(raw).data  # the safe loader: no aliases, bounded size
    except DataFileError:
        return None  # a version that did not read: its records are unknown


def _records(data: object, key: str) -> list[dict[str, object]]:
    """The mappings of the list ``data[key]``; none where an old version (committed by
    hand, never validated) has something else there."""
    items = data.get(key) if isinstance(data, dict) else None
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _find_record(data: object, record_id: str) -> dict[str, object] | None:
    for raw in _records(data, "preamble"):
        if str(raw.get("id")) == record_id:
            return raw
    for rule in _records(data, "rules"):
        if str(rule.get("id")) == record_id:
            return rule
        for prop in _records(rule, "proposals"):
            if str(prop.get("id")) == record_id:
                return prop
    return None


class _Reader:
    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self._blobs: dict[tuple[ObjectID, str], ObjectID | None] = {}

    def blob_at(self, commit_id: ObjectID, path: str) -> ObjectID | None:
        key = (commit_id, path)  # a commit is looked at as itself and as a parent
        if key not in self._blobs:
            commit = read_object(self.repo, commit_id, Commit)
            tree = read_object(self.repo, commit.tree, Tree)
            sha: ObjectID | None
            try:
                _mode, sha = tree.lookup_path(self.repo.object_store.__getitem__,
                                              path.encode())
            except KeyError:
                sha = None
            self._blobs[key] = sha
        return self._blobs[key]

    def data_at(self, commit_id: ObjectID, path: str) -> object:
        sha = self.blob_at(commit_id, path)
        return None if sha is None else _parse(read_object(self.repo, sha, Blob).as_raw_string())


def _entry(commit: Commit, change: str, edition: str | None = None,
           ballot: str | None = None) -> HistoryEntry:
    when = datetime.fromtimestamp(commit.author_time, tz=timezone.utc)
    message, program = split_trailer(commit.message.decode("utf-8", "replace"))
    return HistoryEntry(commit.id.decode(), when.isoformat().replace("+00:00", "Z"),
                        commit.author.decode("utf-8", "replace"), message, change,
                        edition, ballot, program)


def _edition_concerns(edition: dict[str, object], ref: str) -> bool:
    return any(a.get("rule") == ref or a.get("proposal") == ref
               for a in _records(edition, "adopted")) or \
        any(r.get("rule") == ref for r in _records(edition, "repealed"))


def record_history(root: StrPath, library: Library, ref: str) -> list[HistoryEntry]:
    """Newest first: the commits that changed ``ref`` (a rule or proposal reference a
    person writes) and those that published an edition adopting or repealing it."""
    entry = library.resolve(ref)
    root = Path(root)
    path = _rulebook_path(root, entry.rulebook)
    repo = open_repo(root)
    try:
        reader = _Reader(repo)
        head = head_id(repo)
        out: list[HistoryEntry] = []
        if head is None:
            return out
        for walk in repo.get_walker(include=[head]):
            commit = walk.commit
            parents = commit.parents
            sha = reader.blob_at(commit.id, path)
            parent_shas = [reader.blob_at(p, path) for p in parents]
            if not parents or all(s != sha for s in parent_shas):
                now = _find_record(reader.data_at(commit.id, path), entry.id)
                befores = [_find_record(reader.data_at(p, path), entry.id) for p in parents]
                if all(b != now for b in befores) and (now is not None or befores):
                    if not befores or all(b is None for b in befores):
                        change = "added" if now is not None else None
                    else:
                        change = "removed" if now is None else "changed"
                    if change:
                        out.append(_entry(commit, change))
            ed_sha = reader.blob_at(commit.id, "editions.yaml")
            if parents and all(reader.blob_at(p, "editions.yaml") != ed_sha for p in parents):
                now_eds = _records(reader.data_at(commit.id, "editions.yaml"), "editions")
                seen = {e.get("id") for p in parents
                        for e in _records(reader.data_at(p, "editions.yaml"), "editions")}
                for edition in now_eds:
                    if edition.get("id") not in seen and _edition_concerns(edition, entry.ref):
                        repealed = any(r.get("rule") == entry.ref
                                       for r in _records(edition, "repealed"))
                        ballot = edition.get("ballot") or next(
                            (a.get("ballot") for a in _records(edition, "adopted")
                             if a.get("rule") == entry.ref or a.get("proposal") == entry.ref),
                            None)
                        out.append(_entry(commit, "repealed" if repealed else "adopted",
                                          _text(edition.get("id")), _text(ballot)))
        return out
    finally:
        repo.close()


def record_text_at(root: StrPath, library: Library, ref: str,
                   commit: str) -> str | None:
    """The text of ``ref`` as it was at ``commit`` (None: the record did not exist)."""
    entry = library.resolve(ref)
    root = Path(root)
    repo = open_repo(root)
    try:
        try:
            commit_id = repo[commit.encode()].id
        except (KeyError, ValueError):
            from .errors import RulesFolderError

            raise RulesFolderError(f"no commit {commit!r} in {root}") from None
        record = _find_record(_Reader(repo).data_at(commit_id,
                                                    _rulebook_path(root, entry.rulebook)),
                              entry.id)
        return None if record is None else str(record.get("text", ""))
    finally:
        repo.close()


def edition_history(root: StrPath | None, library: Library,
                    edition_id: str) -> EditionHistory:
    """What edition ``edition_id`` changed against its base (rule by rule, with the
    proposal and ballot of each adoption) and the commit that published it."""
    from ..editions import redline

    edition = library.edition(edition_id)
    adoption = {a.rule or a.proposal: a for a in edition.adopted}
    changes: list[EditionChange] = []
    if edition.base:
        for item in redline(library, edition.base, edition.id).changes:
            a = adoption.get(item.ref)
            changes.append(EditionChange(item.ref, item.title, item.status, item.old_text,
                                         item.new_text, a.proposal if a else None,
                                         (a.ballot if a else None) or edition.ballot,
                                         a.question if a else None))
    else:
        for a in edition.adopted:
            target = library.index.get(a.proposal)
            rule = library.index.get(a.rule) if a.rule else None
            changes.append(EditionChange(
                a.rule or a.proposal, rule.title if isinstance(rule, Rule) else "",
                "adopted", rule.text if isinstance(rule, Rule) else "",
                target.text if isinstance(target, Proposal) else "", a.proposal, a.ballot,
                a.question))
    published = None
    if root is not None and (Path(root) / ".git").is_dir():
        repo = open_repo(root)
        try:
            reader = _Reader(repo)
            head = head_id(repo)
            for walk in repo.get_walker(include=[head]) if head else ():
                commit = walk.commit
                ids = {e.get("id")
                       for e in _records(reader.data_at(commit.id, "editions.yaml"), "editions")}
                if edition_id not in ids:
                    continue
                before = {e.get("id") for p in commit.parents
                          for e in _records(reader.data_at(p, "editions.yaml"), "editions")}
                if edition_id not in before:
                    published = _entry(commit, "published", edition_id, edition.ballot)
                    break
        finally:
            repo.close()
    return EditionHistory(edition.id, edition.title, edition.base, edition.ballot,
                          edition.seal, published, tuple(changes))
