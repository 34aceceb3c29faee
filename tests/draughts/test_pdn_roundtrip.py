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


# --------------------------------------------------------------------------- ambiguous captures
# PDN 3.0 (FMJD grammar, https://pdn.fmjd.org/grammar.html): a capture is
# written start x end unless that is ambiguous; then with the complete
# sequence of intermediate squares (where the piece turns, or the square
# immediately behind a captured piece when it goes on straight).

# issue 21: the writer used to write c3xa5xc7xc3 here, which pydraughts rejects
ISSUE_FEN = "W:W19,20,21,22,23,25,27,29,30,31,32:B1,2,3,4,7,8,9,10,12,14,17,18"


def _pydraughts_after_one_move(text: str, variant: str) -> str:
    draughts = pytest.importorskip("draughts")
    from draughts.PDN import PDNReader

    (read,) = PDNReader(pdn_text=text).games
    board = draughts.Board(variant, fen=read.tags["FEN"])
    (move_text,) = read.moves
    board.push(draughts.Move(board, pdn_move=move_text))
    return board.fen


def _ambiguous_positions(variant: str, wanted: int) -> list[Position]:
    """Seeded king-heavy positions where some capture must be written in full."""
    import random

    rng = random.Random(f"ambiguous-{variant}")
    out = []
    tries = 0
    while len(out) < wanted and tries < 200_000:
        tries += 1
        squares = rng.sample(range(1, 33), rng.randint(5, 10))
        white_kings = squares[:2]
        black = [s for s in squares[2:] if s < 29]
        if not black:
            continue
        fen = "W:W{}:B{}".format(",".join(f"K{s}" for s in white_kings),
                                 ",".join(str(s) for s in black))
        pos = Position.from_fen(fen, variant)
        moves = pos.legal_moves()
        if any(pos.move_text(m) != m.short_text() for m in moves):
            out.append(pos)
    return out


@pytest.mark.parametrize("variant", ["russian", "brazilian", "english"])
def test_pydraughts_reads_every_ambiguous_capture_we_write(variant):
    positions = _ambiguous_positions(variant, 25)
    if variant == "russian":
        positions.insert(0, Position.from_fen(ISSUE_FEN, variant))
    assert len(positions) >= 20
    written = full = 0
    for pos in positions:
        for move in pos.legal_moves():
            text = PdnGame.from_moves([move], variant, start=pos).to_pdn()
            (back,) = read_games(text)
            assert back.errors == [] and back.mainline_moves() == [move], text
            same_ends = [m for m in pos.legal_moves() if (m.start, m.end) == (move.start, move.end)]
            if len(move.path) == 2 and len(same_ends) > 1:
                # a single capture that shares its ends with a longer one has no
                # intermediate square to write; pydraughts then takes any move
                # between those squares (its reader keys moves on the two ends)
                continue
            theirs = _pydraughts_after_one_move(text, variant)
            assert _pieces(theirs) == _pieces(pos.play(move).fen()), text
            written += 1
            full += len(pos.move_text(move).split("x")) > 2
    assert full >= 20 and written > full


def test_issue_capture_is_written_with_every_turn():
    pos = Position.from_fen(ISSUE_FEN, "russian")
    texts = sorted(pos.move_text(m, algebraic=True) for m in pos.legal_moves())
    assert texts == ["c3xa5xc7xe5xc3", "c3xe5xc7xa5xc3"]
