"""The retro moves of the gap search against forward play.

The reference is the engine's forward move generator (checked against
published perft counts in ``tests/draughts``): a position ``p`` is a true
predecessor of ``x`` when one of ``p``'s legal moves leads to ``x``.  For
random positions of pool, English, Russian and Brazilian (from random play
and from random king-heavy set-ups) the tests check that

* every quiet un-move is a legal move leading to the position whenever the
  side that moved had no capture (and the quiet moves of the real game are
  found);
* a backward layer keeps every position reachable from the earlier
  position in the plies left that reaches the board in ``k`` plies, with the
  number of sequences that forward play counts, and no position it keeps
  has another count (brute force, nothing but ``legal_raw_moves``/``apply``);
* the capture candidates respect the pieces each side has lost since the
  earlier position (only that many come back, never more men than were lost
  as men) without missing a predecessor;
* where men go only forward (English) the men's cones that prune the
  un-moves allow for a man that took several pieces in one move.
"""
from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulesbook.draughts import Color, Piece, Position, Variant
from rulesbook.draughts.movegen import apply, compile_rules, has_capture, legal_raw_moves
from rulesbook.reconstruct.gap.retro import (
    Key,
    can_unmove,
    capture_unmoves,
    next_layer,
    quiet_unmoves,
    reach,
    unmoves,
)

# the variants the backward layers serve: every one (Russian's men crowned in
# the middle of a capture capture on as kings: un-moved as a king back to the
# crowning row and a man before it)
UNMOVED = ["pool", "english", "brazilian", "russian"]
ALL = UNMOVED


def key_of(position: Position) -> Key:
    return tuple(position.bitboards())  # type: ignore[return-value]


def successors(key: Key, rules) -> list[Key]:
    bm, bk, wm, wk, black = key
    return [(*apply(bm, bk, wm, wk, black, mv), not black)
            for mv in legal_raw_moves(bm, bk, wm, wk, black, rules)]


def king_heavy(rng: random.Random, variant: str) -> Position:
    """A random set-up with kings of both sides (captures and long king moves)."""
    while True:
        pieces: dict[int, Piece] = {}
        for n, square in enumerate(rng.sample(range(1, 33), rng.randint(4, 12))):
            color = Color.BLACK if n % 2 else Color.WHITE
            king = n < 4 or rng.random() < 0.3
            if (color is Color.BLACK and square >= 29) or (color is Color.WHITE and square <= 4):
                king = True
            pieces[square] = Piece(color, king)
        position = Position(pieces, rng.choice((Color.BLACK, Color.WHITE)), variant)
        if position.legal_moves():
            return position


@st.composite
def gaps(draw: st.DrawFn, variants: list[str]) -> tuple[Position, list[Position]]:
    """(variant, the positions of a random line): from the start after random
    plies, or from a king-heavy set-up; at least two positions."""
    variant = draw(st.sampled_from(variants))
    rng = random.Random(draw(st.integers(0, 2**32)))
    if draw(st.booleans()):
        position = Position.start(variant)
        for _ in range(draw(st.integers(0, 50))):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
    else:
        position = king_heavy(rng, variant)
    line = [position]
    for _ in range(draw(st.integers(1, 3))):
        moves = line[-1].legal_moves()
        if not moves:
            break
        line.append(line[-1].play(rng.choice(moves)))
    assume(len(line) >= 2)  # the game was over: nothing to un-move
    return line[0], line


def reachable(start: Key, plies: int, rules) -> set[Key]:
    """The positions exactly ``plies`` plies from ``start`` (forward play)."""
    level = {start}
    for _ in range(plies):
        level = {child for key in level for child in successors(key, rules)}
    return level


def sequences(key: Key, target: Key, plies: int, rules, memo: dict) -> int:
    """The number of sequences of ``plies`` legal moves from ``key`` to ``target``."""
    if plies == 0:
        return int(key == target)
    hit = memo.get((key, plies))
    if hit is None:
        hit = sum(sequences(child, target, plies - 1, rules, memo)
                  for child in successors(key, rules))
        memo[key, plies] = hit
    return hit


@settings(max_examples=120, deadline=None)
@given(gaps(ALL))
def test_quiet_unmoves_are_the_quiet_moves_that_lead_here(gap) -> None:
    _earlier, line = gap
    before, here = line[-2], line[-1]
    variant = here.variant
    rules = compile_rules(variant)
    bm, bk, wm, wk, black = key_of(here)
    found = set()
    for u in quiet_unmoves(bm, bk, wm, wk, black, variant.flying_kings):
        mover = not black
        men, kings, opp = (u.bm, u.bk, u.wm | u.wk) if mover else (u.wm, u.wk, u.bm | u.bk)
        if has_capture(men, kings, opp, u.bm | u.bk | u.wm | u.wk, mover, rules):
            continue
        leading = [mv for mv in legal_raw_moves(u.bm, u.bk, u.wm, u.wk, mover, rules)
                   if apply(u.bm, u.bk, u.wm, u.wk, mover, mv) == (bm, bk, wm, wk)]
        # exactly one legal move leads here from there: this step
        assert [(mv[0][0], mv[0][-1]) for mv in leading] == [(u.start, u.end)], (
            Position.from_bitboards((u.bm, u.bk, u.wm, u.wk, mover), variant).fen(), here.fen())
        found.add((u.bm, u.bk, u.wm, u.wk))
    # the move really played, when quiet, is one of them
    prev = key_of(before)
    if not any(mv.captures for mv in before.legal_moves()):
        assert prev[:4] in found, (before.fen(), here.fen())


def check_layers(earlier: Position, line: list[Position]) -> None:
    """Every backward layer from the end of ``line`` keeps each position
    reachable from ``earlier`` in the plies left that reaches the board, with
    the forward count; every position it keeps has the forward count."""
    variant = earlier.variant
    assert can_unmove(variant)
    rules = compile_rules(variant)
    start, target = key_of(earlier), key_of(line[-1])
    plies = len(line) - 1
    memo: dict = {}
    layer: dict[Key, int] = {target: 1}
    for k in range(1, plies + 1):
        layer = next_layer(layer, k, variant, rules, start, plies, {})
        for key, count in layer.items():
            assert count == sequences(key, target, k, rules, memo), (
                k, Position.from_bitboards(key, variant).fen())
        for key in reachable(start, plies - k, rules):
            want = sequences(key, target, k, rules, memo)
            assert layer.get(key, 0) == want, (k, Position.from_bitboards(key, variant).fen())
    assert layer.get(start, 0) >= 1  # the line played is one of them


@settings(max_examples=80, deadline=None)
@given(gaps(UNMOVED))
def test_backward_layers_match_forward_play(gap) -> None:
    check_layers(*gap)


def test_layers_after_a_multiple_capture_by_a_man() -> None:
    """A man that takes two pieces in one move goes four rows in one move: the
    men's cones of the later layers must allow for it (English, where men go
    only forward).  Lines of 3 and 4 plies whose first move is such a capture,
    from random games."""
    rng = random.Random("double jump")
    found = 0
    while found < 6:
        position = Position.start("english")
        for _ in range(rng.randrange(6, 40)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        double = [mv for mv in position.legal_moves() if len(mv.captures) >= 2]
        if not double:
            continue
        jump = rng.choice(double)
        line = [position, position.play(jump)]
        for _ in range(2 + found % 2):
            moves = line[-1].legal_moves()
            if not moves:
                break
            # the man that took two moves again when it can: its cone is the one tested
            again = [mv for mv in moves if mv.start == jump.end]
            line.append(line[-1].play(rng.choice(again or moves)))
        check_layers(position, line)
        found += 1


@settings(max_examples=80, deadline=None)
@given(gaps(UNMOVED))
def test_capture_candidates_bring_back_only_lost_pieces(gap) -> None:
    """The true predecessors found by captures come back within the limits of
    what the side lost since the earlier position (``room`` pieces,
    ``men_room`` men), and every candidate keeps within them."""
    earlier, line = gap
    variant = earlier.variant
    here = line[-1]
    bm, bk, wm, wk, black = key_of(here)
    eb, ebk, ew, ewk, _ = key_of(earlier)
    room = (eb | ebk).bit_count() - (bm | bk).bit_count() if black else \
        (ew | ewk).bit_count() - (wm | wk).bit_count()
    men_room = max(eb.bit_count() - bm.bit_count() if black else ew.bit_count() - wm.bit_count(), 0)
    cands = capture_unmoves(bm, bk, wm, wk, black, variant, room, men_room)
    for q in cands:
        qb = q[0] | q[1] if black else q[2] | q[3]
        qmen = q[0] if black else q[2]
        now = bm | bk if black else wm | wk
        nmen = bm if black else wm
        assert 0 < qb.bit_count() - now.bit_count() <= room
        assert qmen.bit_count() - nmen.bit_count() <= men_room
    # the real previous position, when it captured, is a candidate
    before = line[-2]
    prev = key_of(before)
    if any(mv.captures for mv in before.legal_moves()):
        assert prev[:4] in cands, (before.fen(), here.fen())
        assert prev[:4] in unmoves(bm, bk, wm, wk, black, variant, room, men_room)


def test_the_capture_over_the_square_it_ends_on_is_un_made() -> None:
    """A flying king may pass over the square it ends on: 28x10 (over 24,
    through 19), 10x17, 17x26, 26x19 in pool, found by a random game.  The
    un-jump from 10 goes back through 19, empty while the king was away."""
    variant = Variant.named("pool")
    before = Position.from_fen("B:W14,16,22,K23,24,25,29:B4,5,6,7,8,12,13,18,27,K28,K32", variant)
    moves = [mv for mv in before.legal_moves() if mv.path == (28, 10, 17, 26, 19)]
    assert moves, "the capture of the example is legal"
    after = before.play(moves[0])
    bm, bk, wm, wk, black = key_of(after)
    assert key_of(before)[:4] in capture_unmoves(bm, bk, wm, wk, black, variant, 4, 3)


def _mid_capture_crownings(count: int) -> list[tuple[Position, Position]]:
    """(before, after) of Russian captures by a man crowned in the middle of
    the capture that captures on as a king, from seeded random games."""
    rng = random.Random("crowned on the way")
    out: list[tuple[Position, Position]] = []
    while len(out) < count:
        position = Position.start("russian")
        for _ in range(rng.randrange(10, 60)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        black = position.turn is Color.BLACK
        crown_row = range(29, 33) if black else range(1, 5)
        for mv in position.legal_moves():
            piece = position.piece_at(mv.start)
            if (mv.captures and not piece.king
                    and any(s in crown_row for s in mv.path[1:-1])
                    and position.play(mv).piece_at(mv.end).king):
                out.append((position, position.play(mv)))
                break
    return out


def test_a_man_crowned_in_the_middle_of_a_capture_is_un_captured() -> None:
    """Russian: a man reaching its crowning row in the middle of a capture is
    crowned and captures on as a king (off the crowning row, or back to it).
    Its predecessor is a capture candidate (a king's un-jumps back to the
    crowning row, a man's before), and a backward layer from the board after
    it counts what forward play counts (the move's line checked ply by ply)."""
    variant = Variant.named("russian")
    rules = compile_rules(variant)
    cases = _mid_capture_crownings(12)
    off_row = 0
    for before, after in cases:
        bm, bk, wm, wk, black = key_of(after)
        lost = max(len(mv.captures) for mv in before.legal_moves())
        cands = capture_unmoves(bm, bk, wm, wk, black, variant, lost)
        assert key_of(before)[:4] in cands, before.fen()
        # and the layers from the board: the capture is the last ply
        target = key_of(after)
        layer = next_layer({target: 1}, 1, variant, rules, key_of(before), 1, {})
        assert layer.get(key_of(before), 0) == sequences(key_of(before), target, 1, rules, {})
        assert layer.get(key_of(before), 0) >= 1
        moved = [mv for mv in before.legal_moves() if before.play(mv) == after]
        crown_row = range(1, 5) if black else range(29, 33)
        off_row += any(mv.end not in crown_row for mv in moved)
    assert off_row, "some of the captures end off the crowning row"


def test_reach_is_the_forward_cone() -> None:
    """A black man on 9 steps to 13 or 14, then to 17 or 18 (Black moves
    down the board, one square diagonally forward; 13 is on the edge); a
    white man on 22 to 17 or 18, then 13, 14 or 15."""
    def squares(mask: int) -> set[int]:
        return {i + 1 for i in range(32) if mask >> i & 1}

    assert squares(reach(True, 1 << 8, 0)) == {9}
    assert squares(reach(True, 1 << 8, 1)) == {9, 13, 14}
    assert squares(reach(True, 1 << 8, 2)) == {9, 13, 14, 17, 18}
    assert squares(reach(False, 1 << 21, 2)) == {22, 17, 18, 13, 14, 15}
    assert reach(True, 1 << 8, -1) == 0
