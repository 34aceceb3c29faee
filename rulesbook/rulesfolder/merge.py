"""Three-way merge of a rules folder, record by record.

A file changed on one side only takes that side, byte for byte. A file changed on
both sides is merged as data: mappings key by key, lists of records by their key
(``id``; a vote by ``member`` and ``question``), logs of records (a ballot's
replaced votes) as append-only sequences; any other value changed on both sides,
or added on both sides differently, is a conflict. Two members' votes, imports and new proposals are different records and
merge cleanly; the same record changed differently on both sides is a
:class:`~rulesbook.rulesfolder.errors.ConflictedRecord`. A signed vote that
``--take`` gives up is not deleted: it goes to the ballot's history as a replaced
vote (not counted), since signed votes are append-only.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

from dulwich.objects import ObjectID

from ..ballots.records import SIGNED_FIELDS, inline_signatures, is_ballot, table_signatures
from ..ballots.registry import now_utc
from ..errors import DataFileError
from ..yamlio import dump_text, loads_bytes
from .errors import ConflictedRecord, DroppedRecord, Resolution, Side

_MISSING = object()

#: a value of a data file as the safe loader reads it (a mapping, a list, a scalar),
#: or ``_MISSING`` where one side has none
Value: TypeAlias = object


@dataclass(frozen=True)
class FileMerge:
    """The outcome for one file: its merged bytes (None: deleted) or its conflicts."""

    path: str
    data: bytes | None
    conflicts: tuple[ConflictedRecord, ...] = ()
    dropped: tuple[DroppedRecord, ...] = ()
    #: votes made on one side after the other side sealed the ballot: the merge would
    #: not validate (``--take`` settles them like conflicts)
    after_seal: tuple[ConflictedRecord, ...] = ()
    #: members added here under a letter the remote gave someone else: given the next
    #: free letter (:mod:`.members_merge`)
    relettered: tuple[str, ...] = ()


def _shown(value: Value) -> str:
    """A value in full, as a message shows it."""
    if value is _MISSING:
        return "removed"
    return json.dumps(value, ensure_ascii=False, default=str)


def _differing(ours: Value, theirs: Value) -> tuple[str, str]:
    """Two versions of a record as shown side by side: of two mappings, only the
    fields that differ (a vote's ``at`` and ``signature``), each in full."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        keys = [k for k in list(ours) + [k for k in theirs if k not in ours]
                if ours.get(k, _MISSING) != theirs.get(k, _MISSING)]
        return (_shown({k: ours[k] for k in keys if k in ours}),
                _shown({k: theirs[k] for k in keys if k in theirs}))
    return _shown(ours), _shown(theirs)


def _record_key(item: Value) -> str | None:
    if not isinstance(item, dict):
        return None
    if "member" in item and "question" in item and "ranking" in item and "replaced_at" not in item:
        return f"member={item['member']}, question={item['question']}"
    if "id" in item:
        return f"id={item['id']}"
    if "proposal" in item and ("rule" in item or "ballot" in item):
        return f"proposal={item['proposal']}"
    return None


def _keyed(items: list[Value]) -> dict[str, Value] | None:
    out: dict[str, Value] = {}
    for item in items:
        key = _record_key(item)
        if key is None or key in out:
            return None
        out[key] = item
    return out


class _Merger:
    def __init__(self, file: str, resolution: Resolution | None = None) -> None:
        self.file = file
        self.resolution = resolution
        self.conflicts: list[ConflictedRecord] = []
        self.dropped: list[DroppedRecord] = []
        self.after_seal: list[ConflictedRecord] = []
        #: (record, the value given up) of each record settled by ``--take``
        self.given_up: list[tuple[str, Value]] = []

    def conflict(self, where: str, ours: Value, theirs: Value, *,
                 note: str = "", value_ours: Value = _MISSING,
                 value_theirs: Value = _MISSING) -> Value:
        """A record changed differently on both sides: the side ``--take`` names
        (recorded as dropped), else a conflict (ours kept for now). ``value_*``: the
        values to keep, when they are not the ones shown."""
        record = where or "(whole file)"
        keep_ours = ours if value_ours is _MISSING else value_ours
        keep_theirs = theirs if value_theirs is _MISSING else value_theirs
        if self.resolution is not None and self.resolution.applies(self.file, record):
            side = self.resolution.side
            given_up = keep_ours if side is Side.THEIRS else keep_theirs
            self.dropped.append(DroppedRecord(self.file, record, side, _shown(given_up)))
            self.given_up.append((record, given_up))
            return keep_theirs if side is Side.THEIRS else keep_ours
        a, b = _differing(ours, theirs)
        self.conflicts.append(ConflictedRecord(self.file, record, a, b, note))
        return keep_ours

    def merge(self, base: Value, ours: Value, theirs: Value, where: str) -> Value:
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
            return self.conflict(where, ours, theirs)
        if isinstance(ours, dict) and isinstance(theirs, dict):
            if "signature" in ours or "signature" in theirs:
                # a signed record (a vote, a statement) is whole: its signature covers
                # every field, so two versions never mix
                named = f"{where}.ranking" if ours.get("ranking") != theirs.get("ranking") \
                    else where
                return self.conflict(named, ours, theirs)
            base = base if isinstance(base, dict) else {}
            out: dict[str, Value] = {}
            for key in list(ours) + [k for k in theirs if k not in ours]:
                value = self.merge(base.get(key, _MISSING), ours.get(key, _MISSING),
                                   theirs.get(key, _MISSING), f"{where}.{key}" if where else key)
                if value is not _MISSING:
                    out[key] = value
            return out
        if isinstance(ours, list) and isinstance(theirs, list):
            base = base if isinstance(base, list) else []
            return self.merge_list(base, ours, theirs, where)
        return self.conflict(where, ours, theirs)

    def merge_list(self, base: list[Value], ours: list[Value], theirs: list[Value],
                   where: str) -> Value:
        kb, ko, kt = _keyed(base), _keyed(ours), _keyed(theirs)
        if kb is not None and ko is not None and kt is not None:
            order = list(ko) + [k for k in kt if k not in ko]
            items: list[Value] = []
            for key in order:
                value = self.merge(kb.get(key, _MISSING), ko.get(key, _MISSING),
                                   kt.get(key, _MISSING), f"{where}[{key}]")
                if value is not _MISSING:
                    items.append(value)
            return items
        records = all(isinstance(item, dict) for item in ours + theirs)
        if records and ours[:len(base)] == base and theirs[:len(base)] == base:
            # a log of records (a ballot's replaced votes, the signed statements of
            # members.yaml): both sides appended to it
            mine = ours[len(base):]
            return base + _interleave(mine, [i for i in theirs[len(base):] if i not in mine])
        return self.conflict(where, ours, theirs)


def _time(item: Value) -> str | None:
    """When an entry of a log was written: a replaced vote's ``replaced_at``, a signed
    statement's ``at``."""
    if not isinstance(item, dict):
        return None
    at = item.get("replaced_at", item.get("at"))
    return at if isinstance(at, str) else None


def _interleave(ours: list[Value], theirs: list[Value]) -> list[Value]:
    """Both sides' new entries of a log. When every entry is dated (``at``, as the
    statements of the members' registry are, each side's in time order), in time
    order, each side's own order kept, the same whichever side merges; otherwise ours
    first. The registry applies its statements in order and refuses one dated before
    the one above it, so two members' keys added on different clones merge into a
    registry that verifies."""
    if not all(_time(item) is not None for item in ours + theirs):
        return ours + theirs
    out: list[Value] = []
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


def _canonical(item: Value) -> str:
    return json.dumps(item, sort_keys=True, ensure_ascii=False, default=str)


def _load(data: bytes | None, path: str) -> Value:
    if data is None:
        return _MISSING
    return loads_bytes(data, path).data  # the safe loader: no aliases, bounded size


def merge_file(path: str, base: bytes | None, ours: bytes | None,
               theirs: bytes | None, resolution: Resolution | None = None) -> FileMerge:
    """Merge one file changed on both sides (bytes, None when absent). ``resolution``:
    the side to keep of the conflicting records it names."""
    if ours == theirs:
        return FileMerge(path, ours)
    merger = _Merger(path, resolution)

    def whole(theirs_shown: str) -> FileMerge:
        kept = merger.conflict("", "changed", theirs_shown, value_ours=ours, value_theirs=theirs)
        assert kept is None or isinstance(kept, bytes)  # one of the two files given
        if merger.dropped:
            dropped = merger.dropped[0]
            size = len((theirs if dropped.kept is Side.MINE else ours) or b"")
            merger.dropped[0] = DroppedRecord(path, dropped.record, dropped.kept,
                                              f"the whole file ({size} bytes)")
        return FileMerge(path, kept, tuple(merger.conflicts), tuple(merger.dropped))

    if not path.endswith((".yaml", ".yml")):
        return whole("changed")
    try:
        b, o, t = _load(base, path), _load(ours, path), _load(theirs, path)
    except DataFileError as exc:
        return whole(f"unreadable: {exc}")
    moved: tuple[str, ...] = ()
    if path == "members.yaml":
        from .members_merge import reletter

        o, letters = reletter(b, o, t)
        moved = tuple(str(m) for m in letters)
    ballot = any(is_ballot(d) for d in (b, o, t))
    if ballot:  # each vote a record carrying its own signature (no row numbers)
        b, o, t = (inline_signatures(d) if is_ballot(d) else d for d in (b, o, t))
    merged = merger.merge(b, o, t, "")
    if not merger.conflicts and ballot and is_ballot(merged):
        merged = _keep_given_up_votes(merger, merged)
        merged = _after_seal(merger, b, o, t, merged)
    if merger.conflicts:
        return FileMerge(path, ours, tuple(merger.conflicts), tuple(merger.dropped))
    if merged is _MISSING:
        return FileMerge(path, None, (), tuple(merger.dropped))
    if ballot and is_ballot(merged):
        merged = table_signatures(merged)
    return FileMerge(path, dump_merged(path, merged, ours or theirs or b""), (),
                     tuple(merger.dropped), tuple(merger.after_seal), moved)


def _keep_given_up_votes(merger: _Merger, merged: dict[str, Value]) -> dict[str, Value]:
    """The signed votes a ``--take`` gave up, appended to the ballot's ``history`` as
    replaced votes (not counted): a signed vote is never deleted, so the members who
    already hold the given-up one can take the merge (:mod:`.record_checks`). A sealed
    ballot is left as it is: its history is under the seal."""
    if merged.get("seal"):
        return merged
    history = _listed(merged.get("history"))
    kept = {e.get("signature") for e in history if isinstance(e, dict)}
    added: list[Value] = []
    for i, (record, value) in enumerate(merger.given_up):
        if not record.startswith("votes[") or not _is_signed_vote(value):
            continue
        assert isinstance(value, dict)  # _is_signed_vote
        if value["signature"] in kept:
            continue
        kept.add(value["signature"])
        side = merger.dropped[i].kept
        entry = {"member": value["member"], "question": value["question"],
                 "ranking": value["ranking"], "replaced_at": now_utc(),
                 "source": f"sync --take {side.value}",
                 **{k: value[k] for k in SIGNED_FIELDS if k in value}}
        added.append(entry)
        merger.dropped[i] = dataclasses.replace(merger.dropped[i], in_history=True)
    if not added:
        return merged
    return dict(merged, history=history + added)


def _is_signed_vote(value: Value) -> bool:
    return (isinstance(value, dict) and all(k in value for k in ("member", "question", "ranking"))
            and isinstance(value.get("signature"), str) and bool(value["signature"]))


def _after_seal(merger: _Merger, base: Value, ours: Value, theirs: Value,
                merged: Value) -> Value:
    """A ballot sealed on one side while the other side voted: the votes made after
    the seal cannot be merged into it (the seal covers every vote). Each is a
    conflict that ``--take`` settles (taking the sealed side drops that vote)."""
    seals = [d.get("seal") if isinstance(d, dict) else None for d in (base, ours, theirs)]
    if seals[2] and seals[2] != seals[0] and seals[1] == seals[0]:
        sealed, sealed_side, where_sealed = theirs, Side.THEIRS, "on the remote"
    elif seals[1] and seals[1] != seals[0] and seals[2] == seals[0]:
        sealed, sealed_side, where_sealed = ours, Side.MINE, "here"
    else:
        return merged
    if not isinstance(sealed, dict) or not isinstance(merged, dict):
        return merged
    kept, now = _keyed(_listed(sealed.get("votes"))), _keyed(_listed(merged.get("votes")))
    if kept is None or now is None or kept == now:
        return merged
    seal = sealed.get("seal")
    # a seal that is not a mapping is left for the validation to report
    closed = seal.get("closed_at", "") if isinstance(seal, dict) else ""
    note = (f"the ballot was closed and sealed {where_sealed}"
            + (f" at {closed}" if closed else "") + " before this vote was merged: "
            + ("drop the vote made here with `--take theirs`" if sealed_side is Side.THEIRS
               else "the remote's vote is dropped with `--take mine`"))
    votes: list[Value] = []
    for key in list(now) + [k for k in kept if k not in now]:
        mine, theirs_vote = now.get(key, _MISSING), kept.get(key, _MISSING)
        if mine == theirs_vote:
            votes.append(mine)
            continue
        late, sealed_vote = mine, theirs_vote  # the vote not in the sealed ballot
        if sealed_side is Side.THEIRS:
            value = merger.conflict(f"votes[{key}]", late, sealed_vote, note=note)
        else:
            value = merger.conflict(f"votes[{key}]", sealed_vote, late, note=note)
        if value is not _MISSING:
            votes.append(value)
    merger.after_seal.extend(merger.conflicts)
    merger.conflicts.clear()
    out = dict(merged, votes=votes)
    if not merger.after_seal and all(d.kept is sealed_side for d in merger.dropped):
        for key in ("history", "results", "status"):
            if key in sealed:
                out[key] = sealed[key]
            else:
                out.pop(key, None)
    return out


def _listed(value: Value) -> list[Value]:
    """A list of records as it is, anything else (absent, a hand-written scalar) as none."""
    return value if isinstance(value, list) else []


def dump_merged(path: str, data: Value, like: bytes) -> bytes:
    """YAML for merged data, keeping the leading comment block of the file."""
    header = []
    for line in like.decode("utf-8", "replace").splitlines(keepends=True):
        if line.startswith("#"):
            header.append(line)
        else:
            break
    body = dump_text(data)
    return ("".join(header) + body).encode("utf-8")


def merge_trees(base: Mapping[str, ObjectID], ours: Mapping[str, ObjectID],
                theirs: Mapping[str, ObjectID], read: Callable[[ObjectID], bytes],
                resolution: Resolution | None = None
                ) -> tuple[dict[str, ObjectID], list[FileMerge]]:
    """Merge three ``{path: blob id}`` maps. ``read(blob_id) -> bytes``. Returns the
    merged ``{path: blob id}`` (for files taken whole) and the files merged as data
    (their bytes still to store), conflicts included."""
    result: dict[str, ObjectID] = {}
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
                                     read(t) if t else None, resolution))
    return result, merged
