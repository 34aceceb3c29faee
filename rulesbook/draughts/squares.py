"""Square numbering (1-32) and algebraic notation.

Squares are numbered as in English checkers: 1-4 on the top row (``b8``,
``d8``, ``f8``, ``h8``), 29-32 on the bottom row (``a1``, ``c1``, ``e1``,
``g1``).  Black starts on 1-12, White on 21-32.
"""
from __future__ import annotations

from rulesbook.draughts.errors import DraughtsError

from .geometry import coords

__all__ = ["square_to_algebraic", "algebraic_to_square", "parse_square", "SQUARES"]

SQUARES = range(1, 33)
_FILES = "abcdefgh"


def _row_file(square: int) -> tuple[int, int]:
    return coords(square)  # 0 = top row (squares 1-4)


def square_to_algebraic(square: int) -> str:
    """``29 -> "a1"``, ``4 -> "h8"``, ``1 -> "b8"``, ``32 -> "g1"``."""
    if not isinstance(square, int) or isinstance(square, bool) or not 1 <= square <= 32:
        raise DraughtsError(f"unknown square {square!r}: squares are 1-32")
    row, file = _row_file(square)
    return f"{_FILES[file]}{8 - row}"


_ALG = {square_to_algebraic(s): s for s in SQUARES}


def algebraic_to_square(name: str) -> int:
    """``"a1" -> 29``, ``"h8" -> 4``; light squares are an error."""
    key = str(name).strip().lower()
    try:
        return _ALG[key]
    except KeyError:
        pass
    if len(key) == 2 and key[0] in _FILES and key[1] in "12345678":
        raise DraughtsError(f"{name} is a light square: pieces stand on dark squares only")
    raise DraughtsError(f"unknown square {name!r}: use 1-32 or a1-h8")


def parse_square(text: str) -> int:
    """A square written as a number (``"15"``) or algebraically (``"c3"``)."""
    t = str(text).strip()
    if t.isdigit():
        # reader limit: only ASCII digits, and never int() of a 5,000-digit number
        if not t.isascii() or len(t) > 4:
            shown = t if len(t) <= 12 else t[:12] + "…"
            raise DraughtsError(f"unknown square {shown}: squares are 1-32")
        n = int(t)
        if 1 <= n <= 32:
            return n
        raise DraughtsError(f"unknown square {t}: squares are 1-32")
    return algebraic_to_square(t)
