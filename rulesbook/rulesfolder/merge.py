"""Three-way merge of a rules folder, record by record.

A file changed on one side only takes that side, byte for byte. A file changed on
both sides is merged as data: mappings key by key, lists of records by their key
(``id``; a vote by ``member`` and ``question``), logs of records (a ballot's
replaced votes) as append-only sequences; any other value changed on both sides,
or added on both sides differently, is a conflict. Two members' votes, imports and new proposals are different records and
merge cleanly; the same record changed differently on both sides is a
:class:`~rulesbook.rulesfolder.errors.ConflictedRecord`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import yaml

from ..ballots.records import inline_signatures, is_ballot, table_signatures
from ..errors import DataFileError
from ..yamlio import loads_bytes
from .errors import ConflictedRecord

_MISSING = object()


@dataclass(frozen=True)
class FileMerge:
    """The outcome for one file: its merged bytes (None: deleted) or its conflicts."""

    path: str
    data: bytes | None
    conflicts: tuple[ConflictedRecord, ...] = ()


def _short(value) -> str:
    if value is _MISSING:
        return "removed"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def _record_key(item) -> str | None:
    if not isinstance(item, dict):
        return None
    if "member" in item and "question" in item and "ranking" in item and "replaced_at" not in item:
        return f"member={item['member']}, question={item['question']}"
    if "id" in item:
        return f"id={item['id']}"
    if "proposal" in item and ("rule" in item or "ballot" in item):
        return f"proposal={item['proposal']}"
    return None


def _keyed(items: list) -> dict[str, object] | None:
    out: dict[str, object] = {}
    for item in items:
        key = _record_key(item)
        if key is None or key in out:
            return None
        out[key] = item
    return out


class _Merger:
    def __init__(self, file: str):
        self.file = file
        self.conflicts: list[ConflictedRecord] = []

    def conflict(self, where: str, ours, theirs) -> None:
        self.conflicts.append(ConflictedRecord(self.file, where or "(whole file)",
                                               _short(ours), _short(theirs)))

    def merge(self, base, ours, theirs, where: str):
        if ours == theirs:
            return ours
        if ours == base:
            return theirs
        if theirs == base:
            return ours
        if (base is _MISSING and where and type(ours) is type(theirs)
                and isinstance(ours, (dict, list))):
            # a part of a file added on both sides (the first keys of members.yaml's
            # registry, a ballot's first replaced votes): merged as if it had been there
            # empty (a whole file added on both sides differently stays a conflict)
            base = type(ours)()
        elif base is _MISSING or ours is _MISSING or theirs is _MISSING:
            # added differently on both sides, or changed on one and removed on the other
            self.conflict(where, ours, theirs)
            return ours
        if isinstance(ours, dict) and isinstance(theirs, dict):
            if "signature" in ours or "signature" in theirs:
                # a signed record (a vote, a statement) is whole: its signature covers
                # every field, so two versions never mix
                if ours.get("ranking") != theirs.get("ranking"):
                    self.conflict(f"{where}.ranking", ours.get("ranking", _MISSING),
                                  theirs.get("ranking", _MISSING))
                else:
                    self.conflict(where, ours, theirs)
                return ours
            base = base if isinstance(base, dict) else {}
            out = {}
            for key in list(ours) + [k for k in theirs if k not in ours]:
                value = self.merge(base.get(key, _MISSING), ours.get(key, _MISSING),
                                   theirs.get(key, _MISSING), f"{where}.{key}" if where else key)
                if value is not _MISSING:
                    out[key] = value
            return out
        if isinstance(ours, list) and isinstance(theirs, list):
            base = base if isinstance(base, list) else []
            return self.merge_list(base, ours, theirs, where)
        self.conflict(where, ours, theirs)
        return ours

    def merge_list(self, base: list, ours: list, theirs: list, where: str):
        kb, ko, kt = _keyed(base), _keyed(ours), _keyed(theirs)
        if kb is not None and ko is not None and kt is not None:
            order = list(ko) + [k for k in kt if k not in ko]
            out = []
            for key in order:
                value = self.merge(kb.get(key, _MISSING), ko.get(key, _MISSING),
                                   kt.get(key, _MISSING), f"{where}[{key}]")
                if value is not _MISSING:
                    out.append(value)
            return out
        records = all(isinstance(item, dict) for item in ours + theirs)
        if records and ours[:len(base)] == base and theirs[:len(base)] == base:
            # a log of records (a ballot's replaced votes, the signed statements of
            # members.yaml): both sides appended to it
            mine = ours[len(base):]
            return base + _interleave(mine, [i for i in theirs[len(base):] if i not in mine])
        self.conflict(where, ours, theirs)
        return ours


def _time(item: dict):
    """When an entry of a log was written: a replaced vote's ``replaced_at``, a signed
    statement's ``at``."""
    at = item.get("replaced_at", item.get("at"))
    return at if isinstance(at, str) else None


def _interleave(ours: list, theirs: list) -> list:
    """Both sides' new entries of a log. When every entry is dated (``at``, as the
    statements of the members' registry are, each side's in time order), in time
    order, each side's own order kept, the same whichever side merges; otherwise ours
    first. The registry applies its statements in order and refuses one dated before
    the one above it, so two members' keys added on different clones merge into a
    registry that verifies."""
    if not all(_time(item) is not None for item in ours + theirs):
        return ours + theirs
    out: list = []
    i = j = 0
    while i < len(ours) and j < len(theirs):
        a, b = ours[i], theirs[j]
        if (_time(a), _canonical(a)) <= (_time(b), _canonical(b)):
            out.append(a)
            i += 1
        else:
            out.append(b)
            j += 1
    return out + ours[i:] + theirs[j:]


def _canonical(item) -> str:
    return json.dumps(item, sort_keys=True, ensure_ascii=False, default=str)


def _load(data: bytes | None, path: str):
    if data is None:
        return _MISSING
    return loads_bytes(data, path).data  # the safe loader: no aliases, bounded size


def merge_file(path: str, base: bytes | None, ours: bytes | None,
               theirs: bytes | None) -> FileMerge:
    """Merge one file changed on both sides (bytes, None when absent)."""
    if ours == theirs:
        return FileMerge(path, ours)
    merger = _Merger(path)
    if not path.endswith((".yaml", ".yml")):
        merger.conflict("", "changed", "changed")
        return FileMerge(path, ours, tuple(merger.conflicts))
    try:
        b, o, t = _load(base, path), _load(ours, path), _load(theirs, path)
    except DataFileError as exc:
        merger.conflict("", "changed", f"unreadable: {exc}")
        return FileMerge(path, ours, tuple(merger.conflicts))
    ballot = any(is_ballot(d) for d in (b, o, t))
    if ballot:  # each vote a record carrying its own signature (no row numbers)
        b, o, t = (inline_signatures(d) if is_ballot(d) else d for d in (b, o, t))
    merged = merger.merge(b, o, t, "")
    if merger.conflicts:
        return FileMerge(path, ours, tuple(merger.conflicts))
    if merged is _MISSING:
        return FileMerge(path, None)
    if ballot and is_ballot(merged):
        merged = table_signatures(merged)
    return FileMerge(path, dump_merged(path, merged, ours or theirs or b""))


def dump_merged(path: str, data, like: bytes) -> bytes:
    """YAML for merged data, keeping the leading comment block of the file."""
    header = []
    for line in like.decode("utf-8", "replace").splitlines(keepends=True):
        if line.startswith("#"):
            header.append(line)
        else:
            break
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True,
                          default_flow_style=None, width=100)
    return ("".join(header) + body).encode("utf-8")


def merge_trees(base: dict[str, bytes], ours: dict[str, bytes], theirs: dict[str, bytes],
                read) -> tuple[dict[str, bytes | bytes], list[FileMerge]]:
    """Merge three ``{path: blob id}`` maps. ``read(blob_id) -> bytes``. Returns the
    merged ``{path: blob id}`` (for files taken whole) and the files merged as data
    (their bytes still to store), conflicts included."""
    result: dict[str, bytes] = {}
    merged: list[FileMerge] = []
    for path in sorted(set(base) | set(ours) | set(theirs)):
        b, o, t = base.get(path), ours.get(path), theirs.get(path)
        if o == t or t == b:
            if o is not None:
                result[path] = o
        elif o == b:
            if t is not None:
                result[path] = t
        else:
            merged.append(merge_file(path, read(b) if b else None, read(o) if o else None,
                                     read(t) if t else None))
    return result, merged
