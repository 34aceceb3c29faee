"""Canonical JSON: the one byte form of a value that every signature and digest of
the ballots covers (sorted keys, no spaces, UTF-8, no NaN)."""
from __future__ import annotations

import json

__all__ = ["canonical_json"]


def canonical_json(obj: object) -> bytes:
    """The canonical bytes of ``obj`` (JSON: sorted keys, no whitespace, UTF-8)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")
