"""The backward layers the compiled search builds (its candidates checked by
``gap/kernel_retro.py``: captures played, reachability, no capture for the
quiet ones) are the layers the Python search builds (``retro.next_layer``
alone), position for position and count for count, on gaps cut from real
games and from random pool games, with and without a known move in them."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulesbook.draughts.movegen import compile_rules
from rulesbook.reconstruct.gap import Known
from rulesbook.reconstruct.gap import compiled as gap_compiled
from rulesbook.reconstruct.gap.bounds import Target, VariantFlags
from rulesbook.reconstruct.gap.search import COUNT_CAP, GapSearch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gap_cases import GapCase, english_cases, pool_cases  # noqa: E402 - the bench's corpus cases

pytestmark = pytest.mark.skipif(not gap_compiled.AVAILABLE, reason="numba is not installed")

CASES = english_cases(10, 3) + english_cases(16, 2) + pool_cases(8, 3)
#: the layers compared (the fifth has thousands of positions on the 16-ply gaps)
DEPTH = 5


def layers(search: GapSearch, case: GapCase, depth: int) -> list[dict]:
    variant = case.earlier.variant
    key = case.earlier.bitboards()
    search._reachable = None
    for _ in range(depth):
        search._grow(variant, key)
    return search.back


@pytest.mark.parametrize("known", [False, True])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_compiled_layers_are_the_python_layers(case, known):
    variant = case.earlier.variant
    plies = len(case.truth)
    target = Target(*case.board.bitboards(), *VariantFlags.of(variant))
    rules = compile_rules(variant)
    constraints: dict[int, list[Known]] = {}
    if known:  # the move really played one ply before the board
        move = case.truth[plies - 2]
        constraints[plies - 1] = [Known(plies - 1, move.path[0], move.path[-1])]
    python = GapSearch(target, rules, constraints, plies, COUNT_CAP)
    fast = gap_compiled.CompiledGapSearch(target, rules, constraints, plies, COUNT_CAP)
    fast._setup()
    assert fast._capture_counts() is not None  # the kernel checks them
    depth = min(plies // 2, DEPTH)
    expected = layers(python, case, depth)
    got = layers(fast, case, depth)
    assert len(got) == len(expected) == depth + 1
    for k in range(depth + 1):
        assert got[k] == expected[k], f"layer {k}"
    assert sum(len(layer) for layer in expected) > 10  # layers worth comparing


def test_the_cases_have_big_layers():
    # (so that the comparison above meets captures, crownings, many kings)
    sizes = []
    for case in CASES[3:5]:
        plies = len(case.truth)
        search = GapSearch(Target(*case.board.bitboards(), *VariantFlags.of(case.earlier.variant)),
                           compile_rules(case.earlier.variant), {}, plies, COUNT_CAP)
        sizes.append(len(layers(search, case, DEPTH)[-1]))
    assert max(sizes) > 1000, sizes
