"""Canonical forms: the one byte form of a value that every signature and digest of
the ballots covers (sorted keys, no spaces, UTF-8, no NaN), and the one record of a
text that ballots and editions bind (:func:`text_record`, :func:`text_digest`)."""
from __future__ import annotations

import hashlib
import json

__all__ = ["TEXT_CONTEXT", "canonical_json", "sha256_of", "text_digest", "text_record"]

#: the context of a text record's digest (never the same bytes as any signed message)
TEXT_CONTEXT = "rulesbook-text/1"


def canonical_json(obj: object) -> bytes:
    """The canonical bytes of ``obj`` (JSON: sorted keys, no whitespace, UTF-8)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def sha256_of(obj: object) -> str:
    """The hex SHA-256 of the canonical JSON of ``obj``."""
    return hashlib.sha256(canonical_json(obj)).hexdigest()


def text_record(ref: str, member: str | None, kind: str, title: str | None,
                text: str) -> dict[str, str | None]:
    """The canonical record of a text a committee votes on or adopts: a rule (``kind``
    ``rule``, no member), a proposal (its member and kind) or a rule as it stands in an
    edition (``kind`` ``rule``; ``member``: the author of the proposal whose text is in
    force, None for the original)."""
    return {"context": TEXT_CONTEXT, "id": ref, "member": member, "kind": kind,
            "title": title or None, "text": text}


def text_digest(record: dict[str, str | None]) -> str:
    """``sha256:<hex>`` of a :func:`text_record`."""
    return "sha256:" + sha256_of(record)
