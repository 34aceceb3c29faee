"""Property tests: FEN round trip, push/pop, move texts parse back."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.draughts import VARIANTS, Color, Game, Piece, Position, Variant

VARIANT_NAMES = sorted(VARIANTS)


@st.composite
def random_positions(draw: st.DrawFn) -> Position:
    """Any sane position: up to 12 pieces a side, no man on its king row."""
    variant = draw(st.sampled_from(VARIANT_NAMES))
    squares = draw(st.lists(st.integers(1, 32), unique=True, max_size=24))
    pieces: dict[int, Piece] = {}
    counts = {Color.BLACK: 0, Color.WHITE: 0}
    for sq in squares:
        color = draw(st.sampled_from([Color.BLACK, Color.WHITE]))
        if counts[color] >= 12:
            continue
        king = draw(st.booleans())
        if not king and ((color is Color.BLACK and sq >= 29) or (color is Color.WHITE and sq <= 4)):
            king = True
        counts[color] += 1
        pieces[sq] = Piece(color, king)
    turn = draw(st.sampled_from([Color.BLACK, Color.WHITE]))
    return Position(pieces, turn, variant)


@st.composite
def played_positions(draw: st.DrawFn) -> Position:
    """A position reached from the start by random legal moves."""
    variant = draw(st.sampled_from(VARIANT_NAMES))
    rng = random.Random(draw(st.integers(0, 2**32)))
    pos = Position.start(variant)
    for _ in range(draw(st.integers(0, 120))):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(rng.choice(moves))
    return pos


positions = st.one_of(random_positions(), played_positions())


@settings(max_examples=150, deadline=None)
@given(positions)
def test_fen_round_trip(pos: Position) -> None:
    pos.check_sane()
    again = Position.from_fen(pos.fen(), variant=pos.variant)
    assert again == pos
    assert hash(again) == hash(pos)
    assert eval(repr(pos), {"Position": Position, "Variant": Variant, "Color": Color}) == pos


@settings(max_examples=100, deadline=None)
@given(positions)
def test_push_pop_restores(pos: Position) -> None:
    game = Game(start=pos)
    for move in pos.legal_moves():
        game.push(move)
        assert game.board == pos.play(move)
        assert game.board.turn is pos.turn.opponent
        assert len(game.positions) == 2
        assert game.pop() == move
        assert game.board == pos
        assert game.moves == []


@settings(max_examples=150, deadline=None)
@given(positions)
def test_move_texts_parse_back(pos: Position) -> None:
    for move in pos.legal_moves():
        assert pos.parse_move(pos.move_text(move)) == move
        assert pos.parse_move(move.full_text()) == move
        assert pos.parse_move(pos.move_text(move, algebraic=True)) == move
        assert pos.parse_move(move.full_text().replace("x", ":")) == move


@settings(max_examples=60, deadline=None)
@given(random_positions())
def test_position_invariants(pos: Position) -> None:
    moves = pos.legal_moves()
    assert len(set(moves)) == len(moves)
    if any(m.is_capture for m in moves):
        assert all(m.is_capture for m in moves)
    for move in moves:
        after = pos.play(move)
        assert after.piece_at(move.end) is not None
        for sq in move.captures:
            assert after.piece_at(sq) is None
        assert len(set(move.captures)) == len(move.captures)
        assert len(after.pieces()) == len(pos.pieces()) - len(move.captures)
