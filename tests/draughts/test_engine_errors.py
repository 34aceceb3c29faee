"""Bad input gives the specific error type with a message a referee can read."""
from __future__ import annotations

import pytest

from rulesbook.draughts import (
    AmbiguousMoveError,
    DraughtsError,
    FenError,
    IllegalMoveError,
    Position,
    PositionError,
    Variant,
    algebraic_to_square,
    square_to_algebraic,
)


def test_error_hierarchy() -> None:
    for cls in (FenError, PositionError, IllegalMoveError, AmbiguousMoveError):
        assert issubclass(cls, DraughtsError)
    assert issubclass(DraughtsError, ValueError)


def test_algebraic_squares() -> None:
    assert square_to_algebraic(29) == "a1"
    assert square_to_algebraic(32) == "g1"
    assert algebraic_to_square("h8") == 4
    assert algebraic_to_square("b8") == 1
    assert all(algebraic_to_square(square_to_algebraic(s)) == s for s in range(1, 33))
    with pytest.raises(DraughtsError, match="light square"):
        algebraic_to_square("a8")
    with pytest.raises(DraughtsError, match="unknown square"):
        algebraic_to_square("z9")
    with pytest.raises(DraughtsError, match="1-32"):
        square_to_algebraic(33)


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("", "empty FEN"),
        ("X:W21:B1", "side to move"),
        ("B:W21:Q1", "must start with W or B"),
        ("B:W33:B1", "unknown square 33"),
        ("B:W21,21:B1", "listed twice"),
        ("B:W5:B5", "listed twice"),
        ("B:W12-9:B1", "backwards"),
        ("B:Wz9:B1", "unknown square"),
        ("B:WK:B1", "'K' without a square"),
    ],
)
def test_malformed_fen(fen: str, message: str) -> None:
    with pytest.raises(FenError, match=message):
        Position.from_fen(fen)


def test_fen_input_forms() -> None:
    start = Position.start()
    assert Position.from_fen("B:W21-32:B1-12") == start
    assert Position.from_fen('"B:W21-32:B1-12."') == start
    assert Position.from_fen("B:B1-12:W21-32") == start
    assert Position.from_fen("B:W21-32:B1-12:H0:F1") == start
    kings = Position.from_fen("W:WK1-3,K5:B")
    assert {s for s, p in kings.pieces().items() if p.king} == {1, 2, 3, 5}
    assert Position.from_fen("W:W:B1").fen() == "W:W:B1"
    assert Position.from_fen("W:B1").fen() == "W:W:B1"
    alg = Position.from_fen("W:Wa1,Kc1:Bb8", variant="russian")
    assert alg.fen() == "W:W29,K30:B1"
    assert start.fen() == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def test_too_many_pieces() -> None:
    with pytest.raises(PositionError, match="13 black men on the board: at most 12"):
        Position.from_fen("B:W21-32:B1-13")
    with pytest.raises(PositionError, match="13 white pieces"):
        Position.from_fen("B:W20-31,K32:B1")


def test_man_on_its_crowning_row() -> None:
    with pytest.raises(PositionError, match="black man on 30"):
        Position.from_fen("B:W21:B30")
    with pytest.raises(PositionError, match="white man on 2"):
        Position.from_fen("B:W2:B12")
    assert Position.from_fen("B:W2:B12", check=False).piece_at(2) is not None


def test_unknown_variant() -> None:
    with pytest.raises(DraughtsError, match="unknown variant 'chess'"):
        Position.start("chess")
    with pytest.raises(DraughtsError, match="unsupported PDN game type 20"):
        Variant.from_gametype(20)
    with pytest.raises(DraughtsError, match="unknown variant flag"):
        Variant.custom("pool", flying=False)
    with pytest.raises(DraughtsError, match="capture_precedence"):
        Variant.custom("pool", capture_precedence="best")


def test_illegal_move_messages() -> None:
    start = Position.start()
    with pytest.raises(IllegalMoveError, match="move 15-19: 15 is empty"):
        start.parse_move("15-19")
    with pytest.raises(IllegalMoveError, match="22 holds a white man; it is Black's turn"):
        start.parse_move("22-18")
    with pytest.raises(IllegalMoveError, match="unknown square 33"):
        start.parse_move("33-29")
    with pytest.raises(IllegalMoveError, match="unknown square"):
        start.parse_move("z9-c3")
    with pytest.raises(IllegalMoveError, match="from-to"):
        start.parse_move("11")
    with pytest.raises(IllegalMoveError, match="cannot go to 17"):
        start.parse_move("11-17")
    with pytest.raises(IllegalMoveError, match="cannot move"):
        start.parse_move("1-5")
    with pytest.raises(IllegalMoveError, match="18 is occupied"):
        Position.from_fen("B:W:B14,18").parse_move("14-18")


def test_must_capture_lists_the_captures() -> None:
    pos = Position.from_fen("B:W18:B14,15,1")
    with pytest.raises(IllegalMoveError, match=r"move 1-6: you must capture: 14x23 or 15x22$"):
        pos.parse_move("1-6")


def test_ambiguous_move() -> None:
    # The king on 11 reaches 5 by two routes: via 18 (taking 15, 9) or via 20, 27 (16, 24, 9).
    pos = Position.from_fen("W:WK11:B9,15,16,21,24")
    with pytest.raises(AmbiguousMoveError, match="11x5 is ambiguous: it could be 11x18x5 or 11x20x27x5"):
        pos.parse_move("11x5")
    assert pos.parse_move("11x18x5").captures == (15, 9)
    assert pos.parse_move("11x20x5").captures == (16, 24, 9)
    assert pos.parse_move("11x27x5").captures == (16, 24, 9)
    # PDN 3.0 (FMJD grammar): a disambiguated capture gives the complete
    # sequence of intermediate squares, not the fewest that happen to suffice.
    assert sorted(pos.move_text(m) for m in pos.legal_moves()
                  if m.end == 5) == ["11x18x5", "11x20x27x5"]


def test_errors_carry_the_move_and_the_reason() -> None:
    pos = Position.from_fen("W:WK11:B9,15,16,21,24")
    with pytest.raises(AmbiguousMoveError) as info:
        pos.parse_move("11x5")
    assert [m.full_text() for m in info.value.candidates] == ["11x18x5", "11x20x27x5"]
    assert info.value.move == "11x5"
    assert info.value.explanation.startswith("it could be 11x18x5 or 11x20x27x5")
    pos = Position.from_fen("B:W18:B14,15,1")
    with pytest.raises(IllegalMoveError) as info:
        pos.parse_move("1-6!")
    assert str(info.value) == "move 1-6: you must capture: 14x23 or 15x22"
    assert (info.value.move, info.value.explanation) == ("1-6", "you must capture: 14x23 or 15x22")
    with pytest.raises(IllegalMoveError) as info:
        pos.parse_move("1-33")
    assert info.value.explanation == str(info.value)[len("move 1-33: "):]
    error = IllegalMoveError("plain")
    assert (error.move, error.explanation) == (None, "plain")
    assert AmbiguousMoveError("plain").candidates == []


def test_full_path_wins_over_a_longer_route() -> None:
    # 23x12 is the direct capture of 16; the loop 23x14x21x30x12 also ends on 12.
    pos = Position.from_fen("W:WK23:B16,17,18,25")
    assert pos.parse_move("23x12").captures == (16,)
    loop = pos.parse_move("23x14x21x30x12")
    assert loop.captures == (18, 17, 25, 16)
    # PDN 3.0: an ambiguous capture is written with every intermediate square
    assert pos.move_text(loop) == "23x14x21x30x12"


def test_play_rejects_illegal_move_objects() -> None:
    from rulesbook.draughts import Move

    with pytest.raises(IllegalMoveError):
        Position.start().play(Move((9, 18), (), False))


def test_fen_written_in_algebraic_notation_reads_back():
    from rulesbook.draughts import Position

    position = Position.from_fen("W:WK21,29,30:B1,K4", "russian")
    text = position.fen(algebraic=True)
    assert text == "W:WKa3,a1,c1:Bb8,Kh8"
    assert Position.from_fen(text, "russian") == position
    assert position.fen() == "W:WK21,29,30:B1,K4"
