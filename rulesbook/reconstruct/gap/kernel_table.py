"""The hash tables of the compiled gap kernel: open addressing over one int64
array, numba-compiled (several times faster than numba's typed dict, which
the kernel's millions of look-ups per search feel).

A table is an array of rows ``[a, b, c, value]`` (a power of two of them);
``c == EMPTY`` marks a free row, so keys have ``c >= 0`` (the kernel's
position keys: ``black | remaining << 1``).  ``meta[0]`` counts the rows in
use; :func:`put` sets ``meta[1]`` once the table is half full, and the
kernel then stops at its next position so that the caller can double the
table (:func:`grown`) and run it again (what it has counted stays counted).
"""
from __future__ import annotations

import numpy as np

from rulesbook.reconstruct.gap.kernel_njit import njit

__all__ = ["EMPTY", "contains", "find", "get", "grown", "new_table", "put", "put_many"]

EMPTY = -1


def new_table(rows: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty table with room for ``rows`` keys before it asks to grow, and
    its ``meta`` array."""
    size = 1 << 10
    while size < rows * 2:
        size <<= 1
    table = np.zeros((size, 4), dtype=np.int64)
    table[:, 2] = EMPTY
    return table, np.zeros(2, dtype=np.int64)


@njit(cache=True, inline="always")
def find(table: np.ndarray, a: int, b: int, c: int) -> int:
    """The row of the key, or the free row where it would go."""
    mask = table.shape[0] - 1
    # mixed, then the middle bits of a product (the low bits of a product see
    # only the low bits of the key: the positions' keys differ little there)
    h = a * 0x2545F4914F6CDD1D + b * 0x5851F42D4C957F2D + c * 0x14057B7EF767814F
    h ^= h >> 32
    h *= 0x9E3779B97F4A7C1
    i = (h >> 24) & mask
    while True:
        rc = table[i, 2]
        if rc == EMPTY or (rc == c and table[i, 0] == a and table[i, 1] == b):
            return i
        i = (i + 1) & mask


@njit(cache=True)
def get(table: np.ndarray, a: int, b: int, c: int, default: int) -> int:
    i = find(table, a, b, c)
    return default if table[i, 2] == EMPTY else table[i, 3]


@njit(cache=True)
def contains(table: np.ndarray, a: int, b: int, c: int) -> bool:
    return table[find(table, a, b, c), 2] != EMPTY


@njit(cache=True)
def put(table: np.ndarray, meta: np.ndarray, a: int, b: int, c: int, value: int) -> None:
    i = find(table, a, b, c)
    if table[i, 2] == EMPTY:
        table[i, 0] = a
        table[i, 1] = b
        table[i, 2] = c
        meta[0] += 1
        if meta[0] * 2 >= table.shape[0]:
            meta[1] = 1
    table[i, 3] = value


@njit(cache=True)
def put_many(table: np.ndarray, meta: np.ndarray, keys: np.ndarray, values: np.ndarray) -> None:
    """Put rows ``keys[k] = (a, b, c)`` with ``values[k]``: only while the
    table has room (``meta[1]`` says it has not: grow it and put them again)."""
    for k in range(keys.shape[0]):
        if meta[1]:
            return
        put(table, meta, keys[k, 0], keys[k, 1], keys[k, 2], values[k])


@njit(cache=True, nogil=True)
def grown(table: np.ndarray, stop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The table twice as big, with every row of ``table``.  Off the GIL (a
    table of millions of rows takes a second or more to copy: the caller's
    other threads run meanwhile); it gives up as soon as ``stop[0]`` is set
    (looked at every 65,536 rows), and then ``meta[1]`` is -1 and the table
    given back is incomplete (keep ``table``)."""
    bigger = np.zeros((table.shape[0] * 2, 4), dtype=np.int64)
    bigger[:, 2] = EMPTY
    meta = np.zeros(2, dtype=np.int64)
    for i in range(table.shape[0]):
        if not i & 0xFFFF and stop[0]:
            meta[1] = -1
            return bigger, meta
        if table[i, 2] != EMPTY:
            put(bigger, meta, table[i, 0], table[i, 1], table[i, 2], table[i, 3])
    return bigger, meta
