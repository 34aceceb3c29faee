"""Board geometry for analysing written moves (squares 1-32, row 0 = squares 1-4).

Black moves down the board (towards 29-32), White up (towards 1-4).
"""
from __future__ import annotations

from rulesbook.draughts import Color

__all__ = ["coords", "square_at", "between", "is_diagonal", "distance", "crown_row",
           "forward_rows"]


def coords(square: int) -> tuple[int, int]:
    """``(row, file)`` of a square: row 0 is the top row (1-4), file 0 is the a-file."""
    index = square - 1
    row = index // 4
    return row, 2 * (index % 4) + (1 if row % 2 == 0 else 0)


def square_at(row: int, file: int) -> int | None:
    """The square at ``(row, file)``, or None off the board or on a light square."""
    if 0 <= row < 8 and 0 <= file < 8 and (row + file) % 2 == 1:
        return row * 4 + file // 2 + 1
    return None


def is_diagonal(a: int, b: int) -> bool:
    (ra, fa), (rb, fb) = coords(a), coords(b)
    return a != b and abs(ra - rb) == abs(fa - fb)


def distance(a: int, b: int) -> int:
    """Rows between two squares (the number of diagonal steps when they share a diagonal)."""
    return abs(coords(a)[0] - coords(b)[0])


def between(a: int, b: int) -> list[int]:
    """The squares strictly between two squares on one diagonal."""
    (ra, fa), (rb, fb) = coords(a), coords(b)
    dr = 1 if rb > ra else -1
    df = 1 if fb > fa else -1
    out = []
    for k in range(1, abs(rb - ra)):
        sq = square_at(ra + k * dr, fa + k * df)
        assert sq is not None
        out.append(sq)
    return out


def forward_rows(color: Color, a: int, b: int) -> int:
    """Rows ``color`` advances going from ``a`` to ``b`` (negative: backward)."""
    d = coords(b)[0] - coords(a)[0]
    return d if color is Color.BLACK else -d


def crown_row(color: Color) -> range:
    """The squares where a man of ``color`` is crowned."""
    return range(29, 33) if color is Color.BLACK else range(1, 5)
