"""Hand-made positions for each rule of capture, crowning and the variants."""
from __future__ import annotations

import pytest

from rulesbook.draughts import VARIANTS, Color, Move, Piece, Position, Variant


def moves(fen: str, variant: str | Variant = "pool") -> set[Move]:
    return set(Position.from_fen(fen, variant=variant).legal_moves())


def M(*path: int, captures: tuple[int, ...] = (), crowns: bool = False) -> Move:
    return Move(path=path, captures=captures, crowns=crowns)


def test_start_position() -> None:
    for name, variant in VARIANTS.items():
        p = Position.start(name)
        assert p.turn is variant.first_player
        assert p.piece_at(1) == Piece(Color.BLACK, False)
        assert p.piece_at(32) == Piece(Color.WHITE, False)
        assert p.piece_at(15) is None
        assert len(p.pieces()) == 24


def test_man_moves_forward_only() -> None:
    assert moves("B:W:B1") == {M(1, 5), M(1, 6)}
    assert moves("W:W32:B") == {M(32, 27), M(32, 28)}


def test_man_crowns_on_the_king_row() -> None:
    assert moves("W:W5:B") == {M(5, 1, crowns=True)}
    assert moves("B:W:B28") == {M(28, 32, crowns=True)}
    p = Position.from_fen("W:W5:B").play(M(5, 1, crowns=True))
    assert p.piece_at(1) == Piece(Color.WHITE, True)


def test_flying_king_moves_and_short_king() -> None:
    assert moves("W:WK29:B") == {M(29, s) for s in (25, 22, 18, 15, 11, 8, 4)}
    assert moves("W:WK29:B", "english") == {M(29, 25)}


def test_king_landing_choices_without_continuation() -> None:
    assert moves("W:WK29:B18") == {M(29, s, captures=(18,)) for s in (15, 11, 8, 4)}


def test_king_must_land_where_it_can_go_on_and_turns_corners() -> None:
    # After taking 18 only the landing on 11 lets the king take 16 (turning the corner).
    assert moves("W:WK29:B18,16") == {M(29, 11, 20, captures=(18, 16))}


TURKISH = "W:WK29:B17,19,22,27"


def test_captured_pieces_block_until_the_move_ends() -> None:
    # From 31 the king would take 17 if the captured piece on 22 had left the board.
    expected = {M(29, 15, 24, 31, captures=(22, 19, 27)), M(29, 18, 32, captures=(22, 27))}
    assert moves(TURKISH, "pool") == expected
    assert moves(TURKISH, "russian") == expected


def test_brazilian_majority_rule() -> None:
    assert moves(TURKISH, "brazilian") == {M(29, 15, 24, 31, captures=(22, 19, 27))}


def test_no_piece_jumped_twice() -> None:
    # A pool man could otherwise jump 18 back and forth.
    assert moves("W:W22:B18") == {M(22, 15, captures=(18,))}
    # A king may not come back over the piece it took.
    assert all(len(m.captures) == 1 for m in moves("W:WK29:B18"))


def test_capture_is_compulsory() -> None:
    got = moves("W:W22,32:B18")
    assert got == {M(22, 15, captures=(18,))}


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("pool", {M(11, 2, 9, captures=(7, 6))}),
        ("brazilian", {M(11, 2, 9, captures=(7, 6))}),
        ("english", {M(11, 2, captures=(7,), crowns=True)}),
        ("russian", {M(11, 2, 9, captures=(7, 6), crowns=True),
                     M(11, 2, 13, captures=(7, 6), crowns=True)}),
    ],
)
def test_man_passing_through_the_king_row(variant: str, expected: set[Move]) -> None:
    assert moves("W:W11:B6,7", variant) == expected


def test_crowned_only_when_the_capture_ends_on_the_king_row() -> None:
    assert moves("W:W11:B7") == {M(11, 2, captures=(7,), crowns=True)}
    p = Position.from_fen("W:W11:B6,7").play(M(11, 2, 9, captures=(7, 6)))
    assert p.piece_at(9) == Piece(Color.WHITE, False)
    assert p.piece_at(6) is None and p.piece_at(7) is None


def test_men_capture_backward_in_pool_not_english() -> None:
    assert moves("W:W18:B22", "pool") == {M(18, 25, captures=(22,))}
    assert moves("W:W18:B22", "english") == {M(18, 14), M(18, 15)}


def test_custom_variant_without_backward_captures() -> None:
    custom = Variant.custom("pool", men_capture_backward=False)
    assert custom.flying_kings and not custom.men_capture_backward
    assert custom.gametype is None and custom.name == "pool-custom"
    assert moves("W:W18:B22", custom) == {M(18, 14), M(18, 15)}
    # kings still fly and capture at a distance
    assert moves("W:WK29:B18", custom) == {M(29, s, captures=(18,)) for s in (15, 11, 8, 4)}


def test_variant_lookup() -> None:
    assert Variant.named("pool").gametype == 23
    assert Variant.from_gametype(21) is VARIANTS["english"]
    assert Variant.from_gametype("25,W,8,8,A0,0") is VARIANTS["russian"]
    assert VARIANTS["brazilian"].capture_precedence == "most"
    assert VARIANTS["russian"].first_player is Color.WHITE
    assert Color.BLACK.opponent is Color.WHITE


def test_game_over_and_winner() -> None:
    p = Position.from_fen("B:W18:B")
    assert p.is_game_over() and p.winner() is Color.WHITE
    blocked = Position.from_fen("B:W:B")
    assert blocked.is_game_over()
    assert not Position.start().is_game_over()


def test_move_object() -> None:
    m = Move(path=(9, 18, 27), captures=(14, 23), crowns=False)
    assert m.start == 9 and m.end == 27 and m.is_capture
    assert m.full_text() == "9x18x27"
    assert repr(Move((9, 14), (), False)) == "Move(path=(9, 14), captures=(), crowns=False)"
    assert eval(repr(m)) == m
