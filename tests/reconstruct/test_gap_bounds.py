"""The gap search's lower bounds never reject a position on a real path.

Random play (raw moves of the engine, every variant, from the start or from a
random position with kings) gives a game; for every position of it on the
way from an earlier position to the board, :func:`feasible` must say it can
still reach the board in the plies left, and :func:`useful_moves` must keep
the move that was really played.  A bound that prunes a position on a real
path would lose sequences: the search would no longer be exact.

And the search, bounds and all, counts exactly what brute force counts on
random small gaps of pool, English, Russian and Brazilian.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesbook.draughts import Position, Variant
from rulesbook.draughts.movegen import apply, compile_rules, legal_raw_moves
from rulesbook.reconstruct.gap import fill_gap
from rulesbook.reconstruct.gap import search as gap_search
from rulesbook.reconstruct.gap.bounds import (
    EDGE,
    Reachable,
    Target,
    VariantFlags,
    feasible,
    useful_moves,
)

VARIANTS = ("pool", "english", "russian", "brazilian")
Key = tuple[int, int, int, int, bool]


def king_position(rng: random.Random, variant: str) -> Position:
    """A random legal position with kings of both sides (an endgame)."""
    while True:
        squares = rng.sample(range(1, 33), rng.randint(4, 12))
        half = len(squares) // 2
        white = [f"K{s}" if n < 1 or s <= 4 or rng.random() < 0.3 else str(s)
                 for n, s in enumerate(squares[:half])]
        black = [f"K{s}" if n < 1 or s >= 29 or rng.random() < 0.3 else str(s)
                 for n, s in enumerate(squares[half:])]
        pos = Position.from_fen(f"{rng.choice('BW')}:W{','.join(white)}:B{','.join(black)}",
                                variant)
        if pos.legal_moves():
            return pos


def play(start: Key, variant: Variant, rng: random.Random, plies: int
         ) -> list[tuple[Key, tuple]] | None:
    """``plies`` random raw moves from ``start``: [(position, move played)], or
    None when the game ends first."""
    rules = compile_rules(variant)
    key, out = start, []
    for _ in range(plies):
        moves = legal_raw_moves(*key, rules)
        if not moves:
            return None
        move = rng.choice(moves)
        out.append((key, move))
        key = (*apply(*key, move), not key[4])
    out.append((key, None))
    return out


@st.composite
def real_paths(draw: st.DrawFn) -> tuple[Variant, list[tuple[Key, tuple]]]:
    """A variant and a stretch of a random game (the last entry is the board)."""
    name = draw(st.sampled_from(VARIANTS))
    rng = random.Random(draw(st.integers(0, 2**32)))
    kings = draw(st.booleans())
    before = draw(st.integers(0, 10 if kings else 70))
    plies = draw(st.integers(1, 24))
    start = king_position(rng, name) if kings else Position.start(name)
    variant = start.variant
    lead = play(start.bitboards(), variant, rng, before)
    if lead is None:
        return variant, []
    path = play(lead[-1][0], variant, rng, plies)
    return variant, path or []


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(real_paths())
def test_bounds_never_reject_a_position_on_a_real_path(case):
    variant, path = case
    if not path:
        return
    board = path[-1][0]
    target = Target(*board, *VariantFlags.of(variant))
    plies = len(path) - 1
    rules = compile_rules(variant)
    for ply, (key, move) in enumerate(path):
        remaining = plies - ply
        assert feasible(*key, remaining, target), (variant.name, key, board, remaining)
        if move is not None:
            kept = useful_moves(legal_raw_moves(*key, rules), *key, remaining, target)
            assert move in kept, (variant.name, key, board, remaining, move)
    # the remembered answers are the answers (asked again, in another order)
    again = Target(*board, *VariantFlags.of(variant))
    for ply, (key, _move) in reversed(list(enumerate(path))):
        assert feasible(*key, plies - ply, again)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(real_paths(), st.integers(0, 2**32))
def test_reachable_from_a_fixed_start_says_what_feasible_says(case, seed):
    # the backward layers ask Reachable(start) of many keys instead of building
    # a Target for each: the answers must be feasible's, for keys on the path
    # (reachable) and for keys from other games (mostly not), asked in any order
    variant, path = case
    if not path:
        return
    start = path[0][0]
    rng = random.Random(seed)
    others = play(Position.start(variant).bitboards(), variant, rng, 30) or []
    keys = [key for key, _ in path] + [key for key, _ in others]
    rng.shuffle(keys)
    reachable = Reachable(start, *VariantFlags.of(variant))
    for key in keys:
        for remaining in (0, 1, 2, 5, 9, 16):
            expected = feasible(*start, remaining,
                                Target(*key, *VariantFlags.of(variant)))
            assert reachable(key, remaining) == expected, (variant.name, start, key, remaining)


def brute_count(start: Position, target: Position, plies: int) -> int:
    if plies == 0:
        return int(start == target)
    return sum(brute_count(start.play(m), target, plies - 1) for m in start.legal_moves())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.booleans(), st.integers(2, 5))
def test_search_counts_what_brute_force_counts(name, seed, kings, plies):
    rng = random.Random(seed)
    start = king_position(rng, name) if kings else Position.start(name)
    lead = play(start.bitboards(), start.variant, rng, rng.randrange(0, 8 if kings else 40))
    if lead is None:
        return
    earlier = Position.from_bitboards(lead[-1][0], start.variant)
    # the board: ``plies`` on by random play, or (half the time) fewer plies
    # on, asked as ``plies``: often impossible, sometimes another route
    hidden = plies if rng.random() < 0.5 else plies - 2
    path = play(earlier.bitboards(), start.variant, rng, hidden)
    if path is None:
        return
    board = Position.from_bitboards(path[-1][0], start.variant)
    expected = brute_count(earlier, board, plies)
    result = fill_gap(earlier, board, plies=plies, limit=100_000)
    assert len(result.sequences) == expected, (earlier.fen(), board.fen(), plies)
    assert not result.truncated


def test_a_capture_that_goes_round_to_its_own_square_is_kept():
    # Brazilian: Black's man on 15 takes 19, 27, 26 and 18 and lands on 15 again
    # (15x24x31x22x15), so its square stays held: the move opens nothing.
    # The move filter once counted it as leaving a target square and found
    # no sequence; brute force finds 4.
    earlier = Position.from_fen("B:W5,18,19,20,21,26,27,28,29,30:B1,3,4,11,12,15,16", "brazilian")
    board = Position.from_fen("W:W5,17,20,24,29,30:B1,4,7,11,12,15,19", "brazilian")
    expected = brute_count(earlier, board, 5)
    assert expected == 4  # brute force, no bound: what the search must match
    result = fill_gap(earlier, board, plies=5, limit=100)
    assert len(result.sequences) == expected


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(("pool", "english", "brazilian")), st.integers(0, 2**32),
       st.integers(4, 5))
def test_search_with_the_deepest_layers_counts_what_brute_force_counts(name, seed, plies):
    # GROW = 0: every backward layer is built as soon as the search looks
    # (down to half the gap), so the check one ply above the deepest layer
    # runs at every depth
    rng = random.Random(seed)
    lead = play(Position.start(name).bitboards(), Position.start(name).variant, rng,
                rng.randrange(0, 40))
    if lead is None:
        return
    earlier = Position.from_bitboards(lead[-1][0], Position.start(name).variant)
    path = play(earlier.bitboards(), earlier.variant, rng, plies)
    if path is None:
        return
    board = Position.from_bitboards(path[-1][0], earlier.variant)
    grow = gap_search.GROW
    gap_search.GROW = 0.0
    try:
        result = fill_gap(earlier, board, plies=plies, limit=100_000)
    finally:
        gap_search.GROW = grow
    assert len(result.sequences) == brute_count(earlier, board, plies)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.booleans(), st.integers(2, 5),
       st.integers(1, 3))
def test_a_list_cut_by_the_limit_still_says_where_the_sequences_first_differ(
        name, seed, kings, plies, limit):
    # the ones not listed may leave the listed ones' path early: the first ply
    # where the sequences differ is that of the complete list, not of the cut one
    rng = random.Random(seed)
    start = king_position(rng, name) if kings else Position.start(name)
    path = play(start.bitboards(), start.variant, rng, plies)
    if path is None:
        return
    board = Position.from_bitboards(path[-1][0], variant=start.variant)
    complete = fill_gap(start, board, plies, limit=100_000)
    assert not complete.truncated
    if len(complete.sequences) <= limit:
        return
    cut = fill_gap(start, board, plies, limit=limit)
    assert cut.truncated and len(cut.sequences) == limit
    assert cut.diverge_at[0] == complete.diverge_at[0], (name, start.fen(), board.fen())
    assert "those not listed" not in cut.explanation


def test_a_crowning_is_a_move_of_its_own_unless_the_king_stays_on_the_king_row():
    # pool: Black needs a man on 2 and a king on 23 that it does not have; a
    # crowning ends Black's move on 29-32, so the king on 23 takes a second
    # move after it, and the man on 2 a third: three moves, not two (the
    # count of squares to fill alone says two).  Counted by hand.
    pool = Variant.named("pool")
    board = Position.from_fen("B:W25,26,28,29:B1,2,4,9,13,21,K23", pool)
    target = Target(*board.bitboards(), *VariantFlags.of(pool))
    earlier = Position.from_fen("W:W12,22,23,25,26,29,30:B1,4,7,9,11,13,14,21,28", pool)
    black_moves = {5: 2, 7: 3}  # White to move: Black moves twice in 5 plies, 3 times in 7
    assert not feasible(*earlier.bitboards(), 5, target), black_moves
    # a king already on the board needs no crowning: the same position with
    # a black king on 28 is not ruled out by this count
    with_king = Position.from_fen("W:W12,22,23,25,26,29,30:B1,4,7,9,11,13,14,21,K28", pool)
    assert feasible(*with_king.bitboards(), 5, target)
    # in Russian a man crowned during a capture goes on as a king: the
    # crowning move can end on 23, and the count does not apply
    russian = Variant.named("russian")
    flags = VariantFlags.of(russian)
    assert not flags.crown_ends and VariantFlags.of(pool).crown_ends


def test_a_piece_on_the_edge_must_move_itself_to_leave_its_square():
    # pool, Black to move, 4 plies left (Black moves twice). Black must come
    # from 1,3,4,7,12,13,K28 to 3,4,24: five pieces leave their squares and
    # four are taken (7 pieces -> 3), so counting alone lets two moves do it
    # (5 - 4 = 1). But 1, 12, 13 and 28 are on the edge of the board: no
    # square lies behind them to land on, nothing can take them there, so
    # each leaves by a move of its own: four moves, not two. (By hand.)
    pool = Variant.named("pool")
    target = Target(*Position.from_fen("B:W14,25:B3,4,24", pool).bitboards(),
                    *VariantFlags.of(pool))
    earlier = Position.from_fen("B:W5,16,17,22,25:B1,3,4,7,12,13,K28", pool)
    assert not feasible(*earlier.bitboards(), 4, target)
    # the edge: rows 1-4 and 29-32, the a-file (5, 13, 21) and the h-file
    # (12, 20, 28), read off the board diagram
    edge = sorted(i + 1 for i in range(32) if EDGE >> i & 1)
    assert edge == [1, 2, 3, 4, 5, 12, 13, 20, 21, 28, 29, 30, 31, 32]
