"""The compiled gap search (issue 21) against the pure-Python reference.

The compiled kernel (:mod:`rulesbook.reconstruct.gap.kernel`) generates its
own moves and runs its own bounds: its moves must be the Python engine's, on
random positions of every variant, and :func:`fill_gap` must answer exactly
what the Python search answers (status, every sequence in order, where they
differ, the explanation) on random gaps, also when the search is stopped to
build a deeper backward layer and when it is cancelled.
"""
from __future__ import annotations

import random
import sys
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesbook.draughts import DraughtsError, Position, Variant
from rulesbook.draughts.movegen import compile_rules, legal_raw_moves
from rulesbook.reconstruct.gap import Status, fill_gap
from rulesbook.reconstruct.gap import compiled as gap_compiled
from rulesbook.reconstruct.gap import search as gap_search
from tests.datapaths import REPO
from tests.long_gap import LONG_GAP
from tests.reconstruct.test_gap_bounds import VARIANTS, king_position, play

sys.path.insert(0, str(REPO / "bench"))
from gap_cases import english_cases, russian_cases  # noqa: E402 - the bench's corpus cases

pytestmark = pytest.mark.skipif(not gap_compiled.AVAILABLE,
                                reason=f"numba: {gap_compiled.why_unavailable()}")

if gap_compiled.AVAILABLE:
    import numpy as np

    from rulesbook.reconstruct.gap import kernel


@pytest.fixture(autouse=True, scope="module")
def kernel_ready():
    # the searches below compare the compiled search with the Python one: the
    # kernel must be loaded (a short gap would otherwise run in Python, as it
    # does in a process that has not loaded it yet)
    gap_compiled.warm_up()
    assert gap_compiled.worth_it(1)


def test_a_short_gap_does_not_wait_for_the_kernel_nor_a_long_one_for_its_compilation(
        monkeypatch, tmp_path):
    started = []
    monkeypatch.setattr(gap_compiled, "_READY", __import__("threading").Event())
    monkeypatch.setattr(gap_compiled.threading, "Thread",
                        lambda **kwargs: type("T", (), {"start": lambda self: started.append(
                            kwargs["name"])})())
    # not loaded in this process: a short gap runs in Python at once
    assert not gap_compiled.worth_it(6)
    # a long one loads it from the disk cache (about a second) ...
    assert gap_compiled.worth_it(16)
    # ... but never waits for a compilation: with no cache it runs in Python
    # and the kernel is compiled in the background
    monkeypatch.setattr(gap_compiled, "CACHE_FOLDER", tmp_path)
    assert not gap_compiled.worth_it(16)
    assert started == ["gap-compile"]


def kernel_moves(key, variant: Variant) -> Counter:
    rules = compile_rules(variant)
    t = np.zeros(len(kernel.T_FIELDS), dtype=np.int64)
    t[kernel.T_MENBACK] = rules.men_capture_backward
    t[kernel.T_FLYING] = rules.flying_kings
    t[kernel.T_MOST] = rules.most_captures
    t[kernel.T_MODE] = rules.crowning
    rows = np.zeros((1, kernel.MAX_MOVES, 6), dtype=np.int64)
    state = np.zeros(kernel.S_SIZE, dtype=np.int64)
    n = kernel.legal_moves(*key, t, rows, 0, state)
    assert not state[kernel.S_OVERFLOW]
    return Counter((int(rows[0, k, 0]), int(rows[0, k, 1]), int(rows[0, k, 2]),
                    bool(rows[0, k, 3])) for k in range(n))


def python_moves(key, variant: Variant) -> Counter:
    return Counter((m.path[0], m.path[-1], m.capture_mask, m.crowns)
                   for m in legal_raw_moves(*key, compile_rules(variant)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.booleans(), st.integers(0, 60))
def test_the_kernel_generates_the_engines_moves(name, seed, kings, plies):
    # start, end, pieces taken and crowning of every move, with how many
    # moves share them (two orders of taking the same pieces are two moves)
    rng = random.Random(seed)
    start = king_position(rng, name) if kings else Position.start(name)
    path = play(start.bitboards(), start.variant, rng, plies) or []
    for key, _move in path:
        assert kernel_moves(key, start.variant) == python_moves(key, start.variant), (
            name, Position.from_bitboards(key, start.variant).fen())


def test_the_flying_king_takes_two_on_one_line_once_per_landing_choice():
    # issue 21, defect 1: three moves (a landing after the last piece each),
    # not six (counted by hand)
    russian = Variant.named("russian")
    key = Position.from_fen("W:WK29:B25,15,1", russian).bitboards()
    moves = kernel_moves(key, russian)
    assert sum(moves.values()) == 3 == sum(python_moves(key, russian).values())


def result_of(result):
    return (result.status, result.sequences, result.diverge_at, result.explanation,
            result.truncated)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.booleans(), st.integers(1, 9),
       st.sampled_from([1, 3, 200]))
def test_the_compiled_search_answers_what_the_python_search_answers(name, seed, kings, plies,
                                                                     limit):
    rng = random.Random(seed)
    start = king_position(rng, name) if kings else Position.start(name)
    lead = play(start.bitboards(), start.variant, rng, rng.randrange(0, 8 if kings else 40))
    if lead is None:
        return
    earlier = Position.from_bitboards(lead[-1][0], start.variant)
    path = play(lead[-1][0], start.variant, rng, plies)
    if path is None:
        return
    # half the time a board one or two plies off the path (often impossible)
    cut = plies - rng.choice([0, 0, 1, 2]) if plies > 2 else plies
    board = Position.from_bitboards(path[cut][0], start.variant)
    reference = fill_gap(earlier, board, plies=plies, limit=limit, compiled=False)
    assert result_of(fill_gap(earlier, board, plies=plies, limit=limit)) == \
        result_of(reference)


def test_a_search_stopped_for_each_deeper_layer_gives_the_same_answer(monkeypatch):
    # GROW 0: the kernel is stopped for a new backward layer at every progress
    # report (50 ms); the layers built and the restarts must not change the
    # answer of the search that never builds one after the first
    earlier = Position.from_fen("B:W14,21,25,27,28,29,30:B2,3,4,5,7,8", "pool")
    board = Position.from_fen("B:W15,25,28,29,30:B3,5,7,12", "pool")
    built = []
    grow = gap_compiled.CompiledGapSearch._grow

    def spy(search, variant, key):
        built.append(search.depth + 1)
        grow(search, variant, key)

    monkeypatch.setattr(gap_compiled.CompiledGapSearch, "_grow", spy)
    monkeypatch.setattr(gap_search, "GROW", float("inf"))
    one_layer = fill_gap(earlier, board, plies=14)
    assert built == [1]
    built.clear()
    monkeypatch.setattr(gap_search, "GROW", 0.0)
    deeper = fill_gap(earlier, board, plies=14)
    assert len(built) >= 2, built  # it was stopped and went on with a deeper layer
    assert result_of(deeper) == result_of(one_layer)
    assert one_layer.status is Status.SEVERAL


KINGS = Position.from_fen("W:WK29,K32:BK1,K4", "pool")
LONG = (Position.from_fen(LONG_GAP.earlier, LONG_GAP.variant),
        Position.from_fen(LONG_GAP.board, LONG_GAP.variant))


def test_a_cancelled_compiled_search_lists_only_sequences_that_replay():
    # stopped at its second progress report (they come every 50 ms), long
    # before it could finish on any machine
    calls = []

    def progress(fraction: float, nodes: int) -> bool:
        calls.append((fraction, nodes))
        return len(calls) < 2

    earlier, board = LONG
    result = fill_gap(earlier, board, plies=LONG_GAP.plies, progress=progress)
    assert result.cancelled and result.status is Status.CANCELLED
    assert result.nodes > 0 and "search cancelled after" in result.explanation
    for sequence in result.sequences:
        position = earlier
        for move in sequence:
            assert move in position.legal_moves()
            position = position.play(move)
        assert position == board
    assert "add a move the players agree on" in result.explanation
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions)  # the progress shown never goes back


def test_without_numba_the_python_search_answers(monkeypatch):
    import threading

    board = KINGS.play(KINGS.legal_moves()[0])
    compiled = fill_gap(KINGS, board, plies=1)
    # as in a process where numba cannot be imported: it was tried and failed
    monkeypatch.setattr(gap_compiled, "_WHY", "ModuleNotFoundError: No module named 'numba'")
    monkeypatch.setattr(gap_compiled, "_READY", threading.Event())
    assert not gap_compiled.AVAILABLE and not gap_compiled.worth_it(30)
    python = fill_gap(KINGS, board, plies=1)
    assert result_of(python) == result_of(compiled)
    assert python.status is Status.UNIQUE


def test_a_failing_kernel_falls_back_to_the_python_search(monkeypatch, caplog):
    board = KINGS.play(KINGS.legal_moves()[0])
    expected = fill_gap(KINGS, board, plies=3, compiled=False)

    def broken(*_args):
        raise ZeroDivisionError("a numba failure")

    # the count gap.compiled calls (numba's, or the one compiled ahead of time)
    monkeypatch.setattr(gap_compiled.fast, "count", broken)
    assert result_of(fill_gap(KINGS, board, plies=3)) == result_of(expected)
    assert "the compiled count failed" in caplog.text


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(2, 8),
       st.lists(st.sampled_from(["both", "start", "end", "wrong"]), min_size=1, max_size=2))
def test_known_moves_are_kept_as_the_python_search_keeps_them(name, seed, plies, kinds):
    from rulesbook.reconstruct.gap import Known

    rng = random.Random(seed)
    start = Position.start(name)
    lead = play(start.bitboards(), start.variant, rng, rng.randrange(0, 40))
    path = play(lead[-1][0], start.variant, rng, plies) if lead else None
    if path is None:
        return
    earlier = Position.from_bitboards(lead[-1][0], start.variant)
    board = Position.from_bitboards(path[-1][0], start.variant)
    known = []
    for ply, kind in zip(rng.sample(range(1, plies + 1), len(kinds)), kinds, strict=True):
        played = path[ply - 1][1].path
        first, last = played[0] + 1, played[-1] + 1
        known.append({"both": Known(ply, start=first, end=last),
                      "start": Known(ply, start=first), "end": Known(ply, end=last),
                      "wrong": Known(ply, start=first, end=rng.randint(1, 32))}[kind])
    try:
        reference = fill_gap(earlier, board, plies=plies, known=known, compiled=False)
    except DraughtsError as error:  # a wrong known move is refused before any search
        assert "wrong" in kinds
        with pytest.raises(DraughtsError) as again:
            fill_gap(earlier, board, plies=plies, known=known)
        assert str(again.value) == str(error)
        return
    assert result_of(fill_gap(earlier, board, plies=plies, known=known)) == \
        result_of(reference)
    if "wrong" not in kinds:
        assert reference.status is not Status.IMPOSSIBLE  # the moves played fit


def kernel_perft(key, variant: Variant, depth: int) -> int:
    """Perft with the kernel's moves (played with its own apply_move)."""
    from rulesbook.reconstruct.gap import kernel_moves as moves_kernel

    rules = compile_rules(variant)
    t = np.zeros(len(kernel.T_FIELDS), dtype=np.int64)
    t[kernel.T_MENBACK] = rules.men_capture_backward
    t[kernel.T_FLYING] = rules.flying_kings
    t[kernel.T_MOST] = rules.most_captures
    t[kernel.T_MODE] = rules.crowning
    rows = np.zeros((depth + 1, kernel.MAX_MOVES, 6), dtype=np.int64)
    state = np.zeros(kernel.S_SIZE, dtype=np.int64)

    def walk(bm, bk, wm, wk, black, left):
        n = kernel.legal_moves(bm, bk, wm, wk, black, t, rows, left, state)
        if left == 1:
            return n
        return sum(walk(*moves_kernel.apply_move(bm, bk, wm, wk, black, *(int(v) for v in
                                                                          rows[left, k, :4])),
                        not black, left - 1)
                   for k in range(n))

    return walk(*key, depth)


@pytest.mark.parametrize("variant", ["english", "pool", "russian", "brazilian"])
def test_the_kernels_moves_give_the_published_perft(variant):
    # the published counts (tests/draughts/test_engine_perft.py: Aart Bik for
    # English, Rein Halbersma's dctl for the others), depths 1-5
    from tests.draughts.test_engine_perft import PUBLISHED

    start = Position.start(variant)
    assert [kernel_perft(start.bitboards(), start.variant, d) for d in range(1, 6)] == \
        PUBLISHED[variant][:5]


def _kernel_feasible(variant: Variant, path) -> list[int]:
    """The plies left at which the kernel's bounds (``kernel.feasible``, the
    sides searched on their own by ``kernel_bounds.side_live`` too) reject a
    position of ``path`` (a real line: none should be)."""
    from rulesbook.reconstruct.gap.bounds import Target, VariantFlags

    board = path[-1][0]
    plies = len(path) - 1
    search = gap_compiled.CompiledGapSearch(Target(*board, *VariantFlags.of(variant)),
                                            compile_rules(variant), {}, plies, 2)
    search._setup()
    side_ok = search._tables[kernel.M_SIDE_OK]
    return [plies - ply for ply, (key, _move) in enumerate(path)
            if not kernel.feasible(*key, plies - ply, search._t, side_ok, search._metas)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(1, 20))
def test_the_kernels_bounds_never_reject_a_position_on_a_random_line(name, seed, plies):
    rng = random.Random(seed)
    start = Position.start(name)
    lead = play(start.bitboards(), start.variant, rng, rng.randrange(0, 50))
    if lead is None:
        return
    path = play(lead[-1][0], start.variant, rng, plies)
    if path is None:
        return
    assert _kernel_feasible(start.variant, path) == []


def test_the_kernels_bounds_never_reject_a_position_of_a_real_game():
    """Russian and English games of the corpus (Abatsiev, Tinsley), 20 plies
    from ply 20: men capture backward and exchange, where the sides searched
    on their own rule out most positions."""
    for case in [*russian_cases(20, 20), *english_cases(20, 10)]:
        path = []
        position = case.earlier
        for move in case.truth:
            path.append((position.bitboards(), move))
            position = position.play(move)
        path.append((position.bitboards(), None))
        assert position.bitboards() == case.board.bitboards()
        assert _kernel_feasible(case.earlier.variant, path) == [], case.name
