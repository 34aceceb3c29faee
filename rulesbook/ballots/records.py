"""A ballot file's votes as self-contained records, for a record-by-record merge.

In a ballot file a vote names a row of the ``signatures`` table by its position
(``signed: N``); the table is sorted by time. Two copies of one ballot in which
different members voted each number their own rows from 0, so merging the files
as they are would make B's vote point at A's signature. :func:`inline_signatures`
writes each vote's (and replaced vote's) signature row into the vote itself and
drops the table: every vote is then one record, keyed by member and question,
that carries its own signature. :func:`table_signatures` turns the merged
document back into the file's form, with the table rebuilt as
:meth:`rulesbook.ballots.model.Ballot.to_dict` builds it.

Both work on plain data (the YAML as loaded) and leave a document they do not
understand (a ``signed`` that names no row) as it is for the validation to report.
"""
from __future__ import annotations

from typing import TypeGuard

from .model import sort_signature_rows

#: the fields of a signatures row that a vote record carries itself
SIGNED_FIELDS = ("at", "proxy_by", "key", "signature")
_ENTRIES = ("votes", "history")


def is_ballot(data: object) -> TypeGuard[dict[str, object]]:
    return isinstance(data, dict) and data.get("kind") == "ballot"


def _entries(data: dict[str, object], name: str) -> list[object]:
    """The list ``data[name]``; none when it is absent or not a list (a hand edit)."""
    entries = data.get(name)
    return entries if isinstance(entries, list) else []


def inline_signatures(data: dict[str, object]) -> dict[str, object]:
    """The ballot document with each entry's signature row written into the entry."""
    table = data.get("signatures")
    if not isinstance(table, list):
        return data
    out = {k: v for k, v in data.items() if k != "signatures"}
    for name in _ENTRIES:
        entries = data.get(name)
        if not isinstance(entries, list):
            continue
        inlined: list[object] = []
        for entry in entries:
            n = entry.get("signed") if isinstance(entry, dict) else None
            if (isinstance(n, int) and not isinstance(n, bool) and 0 <= n < len(table)
                    and isinstance(table[n], dict)
                    and table[n].get("member") == entry.get("member")):
                entry = {**{k: v for k, v in entry.items() if k != "signed"},
                         **{k: table[n][k] for k in SIGNED_FIELDS if k in table[n]}}
            inlined.append(entry)
        out[name] = inlined
    if any(isinstance(e, dict) and "signed" in e for name in _ENTRIES
           for e in _entries(out, name)):
        return data  # a reference that names no row: keep the file as it is
    return out


def table_signatures(data: dict[str, object]) -> dict[str, object]:
    """The inverse of :func:`inline_signatures`: the rows collected into the table."""
    entries = [e for name in _ENTRIES for e in _entries(data, name)
               if isinstance(e, dict) and "signature" in e]
    if not entries:
        return data
    try:
        table = sort_signature_rows(
            {"member": e.get("member"), **{k: e[k] for k in SIGNED_FIELDS if k in e}}
            for e in entries)
    except (KeyError, TypeError):  # not rows a ballot writes: left for the validation
        return data
    index = {row["signature"]: i for i, row in enumerate(table)}
    out: dict[str, object] = {}
    for key, value in data.items():
        if key in _ENTRIES and isinstance(value, list):
            value = [{**{k: v for k, v in e.items() if k not in SIGNED_FIELDS},
                      "signed": index[e["signature"]]}
                     if isinstance(e, dict) and "signature" in e else e for e in value]
        out[key] = value
        if key == ("history" if "history" in data else "votes"):
            out["signatures"] = table
    return out
