"""The public bitboard view: Position.bitboards() / from_bitboards() and the
movegen entry points a search uses without building Position objects."""
from __future__ import annotations

import random

import pytest

from rulesbook.draughts import Bitboards, Color, Piece, Position, PositionError, Variant, movegen
from rulesbook.draughts.movegen import (
    BIT,
    apply,
    compile_rules,
    legal_raw_moves,
    raw_to_move,
)
from tests.draughts.test_engine_speed import played_position

VARIANTS = ("pool", "english", "russian", "brazilian")


def test_start_position_boards():
    boards = Position.start("english").bitboards()
    assert isinstance(boards, Bitboards) and isinstance(boards, tuple)
    assert boards.black_men == sum(BIT[s - 1] for s in range(1, 13))
    assert boards.white_men == sum(BIT[s - 1] for s in range(21, 33))
    assert boards.black_kings == boards.white_kings == 0
    assert boards.black_to_move is True
    assert Position.start("russian").bitboards().black_to_move is False
    with pytest.raises(AttributeError):
        boards.black_men = 0  # type: ignore[misc]


def test_bitboards_agree_with_pieces():
    pos = Position({1: Piece(Color.BLACK, True), 6: Piece(Color.BLACK, False),
                    27: Piece(Color.WHITE, False), 32: Piece(Color.WHITE, True)},
                   Color.WHITE, "pool")
    assert pos.bitboards() == (BIT[5], BIT[0], BIT[26], BIT[31], False)


@pytest.mark.parametrize("variant", VARIANTS)
def test_round_trip_and_moves(variant):
    rng = random.Random(variant)
    for _ in range(40):
        pos = played_position(rng, Variant.named(variant))
        boards = pos.bitboards()
        back = Position.from_bitboards(boards, variant)
        assert back == pos and hash(back) == hash(pos)
        assert back.fen() == pos.fen()
        assert Position.from_bitboards(tuple(boards), pos.variant) == pos
        rules = compile_rules(pos.variant)
        raw = legal_raw_moves(*boards, rules)
        assert sorted({raw_to_move(r) for r in raw}, key=lambda m: (m.path, m.captures)) == \
            sorted(set(pos.legal_moves()), key=lambda m: (m.path, m.captures))
        for r in raw:
            after = Position.from_bitboards((*apply(*boards, r), not boards.black_to_move),
                                            variant)
            assert after == pos.play(raw_to_move(r))


def test_from_bitboards_refuses_bad_boards():
    with pytest.raises(PositionError, match="more than one piece on square"):
        Position.from_bitboards((BIT[0], BIT[0], 0, 0, True))
    with pytest.raises(PositionError, match="not a 32-bit board"):
        Position.from_bitboards((1 << 32, 0, 0, 0, True))
    with pytest.raises(PositionError, match="not a 32-bit board"):
        Position.from_bitboards((-1, 0, 0, 0, True))
    with pytest.raises(PositionError, match="expected"):
        Position.from_bitboards((0, 0, 0, 0))


def test_public_names():
    for name in movegen.__all__:
        assert hasattr(movegen, name)
    assert {"Bitboards", "legal_raw_moves", "apply", "compile_rules", "raw_to_move",
            "BIT"} <= set(movegen.__all__)
