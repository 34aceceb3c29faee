"""Write/read round trips of random legal games, checked by this reader and by pydraughts."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesbook.draughts import Position, Variant, algebraic_to_square
from rulesbook.draughts.pdn import PdnGame, read_games

VARIANT_NAMES = ["pool", "english", "russian", "brazilian"]


def playout(variant: str, choices: list[int]) -> PdnGame:
    position = Position.start(variant)
    moves = []
    for choice in choices:
        legal = position.legal_moves()
        if not legal:
            break
        move = legal[choice % len(legal)]
        moves.append(move)
        position = position.play(move)
    return PdnGame.from_moves(moves, variant, tags={"Event": "random"}, result="*")


games = st.builds(playout, st.sampled_from(VARIANT_NAMES),
                  st.lists(st.integers(0, 10_000), max_size=80))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_round_trip_all_variants(game):
    text = game.to_pdn()
    assert all(len(line) <= 80 for line in text.splitlines())
    (back,) = read_games(text)
    assert back.errors == []
    assert back.variant == game.variant
    assert back.mainline_moves() == game.mainline_moves()


def _pieces(fen: str) -> tuple[str, frozenset]:
    """(side to move, {(colour, square, king)}) from a FEN with numbers or algebraic squares."""
    turn, *sides = fen.strip().rstrip(".").split(":")
    pieces = set()
    for side in sides:
        colour, body = side[0], side[1:]
        for item in filter(None, body.split(",")):
            king = item.startswith("K")
            name = item[1:] if king else item
            square = int(name) if name.isdigit() else algebraic_to_square(name)
            pieces.add((colour, square, king))
    return turn, frozenset(pieces)


def _pydraughts_positions(text: str, variant: str) -> list[str]:
    draughts = pytest.importorskip("draughts")
    from draughts.PDN import PDNReader

    (read,) = PDNReader(pdn_text=text).games
    board = draughts.Board(variant)
    fens = [board.fen]
    for move_text in read.moves:
        board.push(draughts.Move(board, pdn_move=move_text))
        fens.append(board.fen)
    return fens


@pytest.mark.parametrize("variant", ["english", "russian"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=st.lists(st.integers(0, 10_000), min_size=2, max_size=50))
def test_pydraughts_reads_our_output(variant, choices):
    game = playout(variant, choices)
    if len(game.mainline) < 2:
        return
    text = game.to_pdn()
    theirs = _pydraughts_positions(text, variant)
    ours = [p.fen() for p in game.positions()]
    assert len(theirs) == len(ours)
    for mine, their in zip(ours, theirs, strict=True):
        assert _pieces(mine) == _pieces(their)


def test_variant_equality_sanity():
    assert Variant.named("russian") == Variant.named("russian")
