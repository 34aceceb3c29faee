"""A count and its noun in the singular or the plural, for every message a user reads
(imports nothing: the error classes use it too)."""
from __future__ import annotations


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` and the noun, singular or plural as the count needs: ``counted(1, "time")``
    -> "1 time", ``counted(3, "move")`` -> "3 moves" (``plural`` when it is not the
    noun and an s: ``counted(2, "match", "matches")``). Never "move(s)"."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
