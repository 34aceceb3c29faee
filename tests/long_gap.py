"""A gap that every gap search takes long over, for the tests that stop one
while it runs (cancel, Ctrl+C, progress lines): a pool gap of 20 plies from
bench/gap_cases.py (random game, seed 21) that the compiled search had not
finished after 40 s on the development machine (the Python search takes far
longer). One place: when the search gets faster, the gap is changed here.
"""
from __future__ import annotations

from typing import NamedTuple


class LongGap(NamedTuple):
    earlier: str
    board: str
    plies: int
    variant: str


LONG_GAP = LongGap("B:W13,14,21,25,27,28,29,32:B1,3,4,5,6,7,12", "B:W21,22,25,28:B7,10,20",
                   20, "pool")
