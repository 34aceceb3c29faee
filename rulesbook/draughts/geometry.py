"""The geometry of the 32 playing squares as bit indices (0-31): the four
diagonal directions, each square's rays and neighbours, the squares between
two squares of a diagonal, the direction from one to another, and where a
capture may be said to stop. Pure tables, shared by the move generator and
:class:`~rulesbook.draughts.move.Move` (one place for the board's shape).

It is also the one place for the geometry of square numbers (1-32): ``coords``,
``square_at``, ``between``, ``is_diagonal``, ``distance``, ``forward_rows``,
``crown_row`` (row 0 is the top row, squares 1-4; Black moves down the board,
towards 29-32). The UI and the reconstruction use these, never their own arithmetic.
"""
from __future__ import annotations

from .variant import Color

__all__ = ["BIT", "DIRS", "coords", "square_at", "between", "is_diagonal", "distance",
           "forward_rows", "crown_row", "stop_choices"]

BIT = tuple(1 << i for i in range(32))
DIRS = ((-1, -1), (-1, 1), (1, -1), (1, 1))  # up-left, up-right, down-left, down-right


def _coords(i: int) -> tuple[int, int]:
    """``(row, file)`` of bit index ``i`` (square ``i + 1``)."""
    row = i // 4
    return row, 2 * (i % 4) + (1 if row % 2 == 0 else 0)


def coords(square: int) -> tuple[int, int]:
    """``(row, file)`` of a square: row 0 is the top row (1-4), file 0 is the a-file."""
    return _coords(square - 1)


def square_at(row: int, file: int) -> int | None:
    """The square at ``(row, file)``, or None off the board or on a light square."""
    index = _index(row, file)
    return index + 1 if index >= 0 else None


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


def _index(row: int, file: int) -> int:
    if 0 <= row < 8 and 0 <= file < 8 and (row + file) % 2 == 1:
        return row * 4 + file // 2
    return -1


def _build() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    nb: list[tuple[int, ...]] = []
    rays: list[tuple[tuple[int, ...], ...]] = []
    for i in range(32):
        r, f = _coords(i)
        nb.append(tuple(_index(r + dr, f + df) for dr, df in DIRS))
        rs: list[tuple[int, ...]] = []
        for dr, df in DIRS:
            ray: list[int] = []
            k = 1
            while _index(r + k * dr, f + k * df) >= 0:
                ray.append(_index(r + k * dr, f + k * df))
                k += 1
            rs.append(tuple(ray))
        rays.append(tuple(rs))
    return tuple(nb), tuple(rays)


NB, RAYS_BY_DIR = _build()  # RAYS_BY_DIR[i][d]: the squares from bit i in DIRS[d], nearest first


def _between() -> dict[tuple[int, int], int]:
    """{(i, j): mask of the squares strictly between} for i, j on one diagonal."""
    out: dict[tuple[int, int], int] = {}
    for i in range(32):
        for ray in RAYS_BY_DIR[i]:
            mask = 0
            for j in ray:
                out[i, j] = mask
                mask |= BIT[j]
    return out


BETWEEN = _between()
# DIRECTION[i, j]: the index in DIRS of the direction from bit i to bit j on one diagonal
DIRECTION = {(i, j): d for i in range(32) for d, ray in enumerate(RAYS_BY_DIR[i]) for j in ray}


def stop_choices(path: tuple[int, ...], caps: tuple[int, ...]) -> tuple[int, ...]:
    """For each intermediate stop of a capture (bit indices), the mask of the
    squares a text may name for it: the turning square where the piece turns,
    and on a straight run over two pieces any square between them (a flying
    king may be said to stop on any of them; the move is the same)."""
    out: list[int] = []
    for k in range(1, len(path) - 1):
        here = path[k]
        if DIRECTION.get((path[k - 1], here)) == DIRECTION.get((here, path[k + 1])):
            out.append(BETWEEN.get((caps[k - 1], caps[k]), 0) | BIT[here])
        else:
            out.append(BIT[here])
    return tuple(out)
