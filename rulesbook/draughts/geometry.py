"""The geometry of the 32 playing squares as bit indices (0-31): the four
diagonal directions, each square's rays and neighbours, the squares between
two squares of a diagonal, the direction from one to another, and where a
capture may be said to stop. Pure tables, shared by the move generator and
:class:`~rulesbook.draughts.move.Move` (one place for the board's shape)."""
from __future__ import annotations

BIT = tuple(1 << i for i in range(32))
DIRS = ((-1, -1), (-1, 1), (1, -1), (1, 1))  # up-left, up-right, down-left, down-right


def _coords(i: int) -> tuple[int, int]:
    row = i // 4
    return row, 2 * (i % 4) + (1 if row % 2 == 0 else 0)


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
