"""The keys the compiled gap kernel files positions and sides under
(:mod:`.kernel`: ``(bm | bk << 32, wm | wk << 32, black | remaining << 1)``
as three int64, a side ``men | kings << 32``), made from Python ints."""
from __future__ import annotations

__all__ = ["pos_key", "side_key", "signed"]

_TOP = 1 << 63


def signed(x: int) -> int:
    """A 64-bit pattern as the int64 the kernel keys its tables by."""
    return x - (1 << 64) if x >= _TOP else x


def pos_key(bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int
            ) -> tuple[int, int, int]:
    return signed(bm | bk << 32), signed(wm | wk << 32), int(black) | remaining << 1


def side_key(men: int, kings: int) -> int:
    return signed(men | kings << 32)
