"""The backward layers built in the kernel (``gap/kernel_unmove.py``, driven
by ``gap/compiled_layers.py``: the un-moves, the counts added up, the
candidates checked, the layers held as arrays) are the layers the Python
search builds (``retro.next_layer``), position for position and count for
count: on English, pool and Russian gaps cut from real and random games,
with and without a known move, on random king-heavy lines of pool,
Brazilian and Russian, and on Russian captures by a man crowned in the
middle of the capture.  A kernel that forgets the crowned man's un-jumps is
caught by the same comparison."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from rulesbook.draughts import Position
from rulesbook.draughts.movegen import compile_rules
from rulesbook.reconstruct.gap import Known
from rulesbook.reconstruct.gap import compiled as gap_compiled
from rulesbook.reconstruct.gap.bounds import Target, VariantFlags
from rulesbook.reconstruct.gap.compiled_layers import ArrayLayer
from rulesbook.reconstruct.gap.search import COUNT_CAP, GapSearch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from gap_cases import GapCase, english_cases, pool_cases, russian_cases  # noqa: E402
from test_gap_retro import _mid_capture_crownings, king_heavy  # noqa: E402

pytestmark = pytest.mark.skipif(not gap_compiled.AVAILABLE, reason="numba is not installed")

CASES = english_cases(10, 2) + english_cases(16, 1) + pool_cases(8, 2) + russian_cases(12, 2)


def both(earlier: Position, board: Position, plies: int, depth: int,
         known: dict[int, list[Known]] | None = None) -> tuple[list[dict], list[dict]]:
    """The Python search's layers and the compiled one's (each a dict)."""
    variant = earlier.variant
    target = Target(*board.bitboards(), *VariantFlags.of(variant))
    rules = compile_rules(variant)
    key = earlier.bitboards()
    python = GapSearch(target, rules, known or {}, plies, COUNT_CAP)
    fast = gap_compiled.CompiledGapSearch(target, rules, known or {}, plies, COUNT_CAP)
    fast._setup()
    for search in (python, fast):
        for _ in range(depth):
            search._grow(variant, key)
    # the compiled layers were built in the kernel, not in Python
    assert all(isinstance(layer, ArrayLayer) for layer in fast.back[1:])
    for k, layer in enumerate(fast.back):  # and their look-ups agree with their rows
        for key_ in list(layer)[:50]:
            assert layer.get(key_, 0) == layer[key_] > 0, f"layer {k}"
    return [dict(layer) for layer in python.back], [dict(layer.items()) for layer in fast.back]


def same(expected: list[dict], got: list[dict]) -> None:
    assert len(got) == len(expected)
    for k, (a, b) in enumerate(zip(expected, got, strict=True)):
        assert b == a, f"layer {k}: {len(b)} positions, {len(a)} expected"


@pytest.mark.parametrize("known", [False, True])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_kernel_layers_are_the_python_layers(case: GapCase, known: bool) -> None:
    plies = len(case.truth)
    constraints: dict[int, list[Known]] = {}
    if known:  # the move really played one ply before the board
        move = case.truth[plies - 2]
        constraints[plies - 1] = [Known(plies - 1, move.path[0], move.path[-1])]
    expected, got = both(case.earlier, case.board, plies, min(plies // 2, 4), constraints)
    same(expected, got)
    assert sum(len(layer) for layer in expected) > 10  # layers worth comparing


@pytest.mark.parametrize("variant", ["pool", "brazilian", "russian"])
def test_king_heavy_lines(variant: str) -> None:
    """Flying kings, men capturing backward, long captures: random lines from
    random set-ups with kings of both sides."""
    rng = random.Random(f"kernel un-moves {variant}")
    compared = 0
    while compared < 6:
        line = [king_heavy(rng, variant)]
        while len(line) < 7 and line[-1].legal_moves():
            line.append(line[-1].play(rng.choice(line[-1].legal_moves())))
        if len(line) < 7:
            continue
        expected, got = both(line[0], line[-1], 6, 3)
        same(expected, got)
        compared += 1


def test_a_man_crowned_in_the_middle_of_a_capture() -> None:
    """Russian: the board after a capture in which a man was crowned and took
    on as a king; the layer one ply before holds the position before it."""
    for before, after in _mid_capture_crownings(8):
        expected, got = both(before, after, 1, 1)
        same(expected, got)
        assert got[1].get(before.bitboards(), 0) >= 1


def test_a_wrong_kernel_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same comparison fails on a kernel that never un-makes a crowned
    man's un-jumps (its ``continues`` flag cleared), and on a count changed."""
    from rulesbook.reconstruct.gap import compiled_layers

    real = compiled_layers._params

    def without_continues(*args: object) -> object:
        p = real(*args)  # type: ignore[arg-type]
        p[compiled_layers.P_FIELDS.index("continues")] = 0
        return p

    monkeypatch.setattr(compiled_layers, "_params", without_continues)
    missed = 0
    for before, after in _mid_capture_crownings(8):
        expected, got = both(before, after, 1, 1)
        missed += got != expected
    assert missed, "the crowned man's un-jumps are needed"
    monkeypatch.undo()
    case = CASES[-1]
    expected, got = both(case.earlier, case.board, len(case.truth), 3)
    key = next(iter(got[3]))
    got[3][key] += 1
    with pytest.raises(AssertionError):
        same(expected, got)


def test_without_the_layer_kernels_the_layers_are_built_in_python(monkeypatch) -> None:
    """The kernel compiled ahead of time for the bundle has no ``quiet_layer``
    nor ``capture_layer`` (bundle/aot.py): the layers are then the Python
    ones (with the candidates checked by the kernel), the same layers."""
    from types import SimpleNamespace

    real = gap_compiled.fast
    names = ("count", "put_many", "grown", "get", "capture_counts", "reachable", "quiet_ok")
    monkeypatch.setattr(gap_compiled, "fast",
                        SimpleNamespace(**{name: getattr(real, name) for name in names}))
    case = CASES[-1]
    variant = case.earlier.variant
    target = Target(*case.board.bitboards(), *VariantFlags.of(variant))
    fast = gap_compiled.CompiledGapSearch(target, compile_rules(variant), {}, len(case.truth),
                                          COUNT_CAP)
    fast._setup()
    for _ in range(3):
        fast._grow(variant, case.earlier.bitboards())
    assert not any(isinstance(layer, ArrayLayer) for layer in fast.back)
    monkeypatch.undo()
    expected, got = both(case.earlier, case.board, len(case.truth), 3)
    assert [dict(layer) for layer in fast.back] == got == expected
