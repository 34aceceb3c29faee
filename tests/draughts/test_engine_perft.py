"""Perft from the start position against the published numbers."""
from __future__ import annotations

import os

import pytest

from rulesbook.draughts import Position, perft

PUBLISHED = {
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931],
    "pool": [7, 49, 302, 1469, 7482, 37986, 190146, 929902],
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929905],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907836],
}


@pytest.mark.parametrize("variant", sorted(PUBLISHED))
def test_perft_to_depth_6(variant: str) -> None:
    start = Position.start(variant)
    assert [perft(start, d) for d in range(1, 7)] == PUBLISHED[variant][:6]


def test_perft_depth_0_is_one() -> None:
    assert perft(Position.start(), 0) == 1


@pytest.mark.parametrize("variant", ["pool", "english"])
def test_divide_sums_to_total(variant: str) -> None:
    start = Position.start(variant)
    divided = perft(start, 4, divide=True)
    assert len(divided) == 7
    assert sum(divided.values()) == PUBLISHED[variant][3]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("RULESBOOK_SLOW"),
                    reason="depth 8 takes seconds; set RULESBOOK_SLOW=1 (bench/bench_engine.py runs it)")
@pytest.mark.parametrize("variant", sorted(PUBLISHED))
def test_perft_depth_8(variant: str) -> None:
    assert perft(Position.start(variant), 8) == PUBLISHED[variant][7]
