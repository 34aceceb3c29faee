"""Differential test against pydraughts (PyPI ``pydraughts``, imported as
``draughts``) over positions reached by seeded random playouts.

pydraughts numbers Russian and Brazilian squares 1 = a1, 2 = c1, ..., 5 = b2
internally and reads algebraic FENs for them; English uses our numbers.
Colours agree: its White is our White (on 21-32 at the start).
"""
from __future__ import annotations

import random

import pytest

from rulesbook.draughts import Color, Position, square_to_algebraic

draughts = pytest.importorskip("draughts")


def _pyd_square(n: int, variant: str) -> int:
    """pydraughts' internal square -> ours (the map is its own inverse)."""
    if variant == "english":
        return n
    r, col = divmod(n - 1, 4)
    return 4 * (7 - r) + col + 1


def _pyd_fen(position: Position, variant: str) -> str:
    def side(color: Color) -> str:
        return ",".join(
            ("K" if p.king else "") + (str(sq) if variant == "english" else square_to_algebraic(sq))
            for sq, p in position.pieces().items() if p.color is color)
    return f"{position.turn.value}:W{side(Color.WHITE)}:B{side(Color.BLACK)}"


def _pyd_moves(position: Position, variant: str) -> set:
    board = draughts.Board(variant, fen=_pyd_fen(position, variant))
    moves, caps = board._legal_moves_board()
    return {
        (_pyd_square(m[0][0], variant), _pyd_square(m[-1][1], variant),
         frozenset(_pyd_square(c, variant) for c in cs if c is not None))
        for m, cs in zip(moves, caps, strict=True)
    }


def _our_moves(position: Position) -> set:
    return {(m.start, m.end, frozenset(m.captures)) for m in position.legal_moves()}


def test_square_conversion() -> None:
    assert _pyd_square(1, "russian") == 29  # a1
    assert _pyd_square(4, "russian") == 32  # g1
    assert _pyd_square(5, "russian") == 25  # b2
    assert _pyd_square(32, "russian") == 4  # h8


@pytest.mark.parametrize(("variant", "positions"),
                         [("english", 1000), ("russian", 700), ("brazilian", 700)])
def test_same_legal_moves_as_pydraughts(variant: str, positions: int) -> None:
    rng = random.Random(f"oracle-{variant}")
    checked = 0
    kings_seen = 0
    while checked < positions:
        pos = Position.start(variant)
        for _ply in range(150):
            moves = pos.legal_moves()
            if not moves or checked >= positions:
                break
            ours, theirs = _our_moves(pos), _pyd_moves(pos, variant)
            assert ours == theirs, (
                f"{variant} {pos!r}: only ours {ours - theirs}, only pydraughts {theirs - ours}")
            checked += 1
            kings_seen += any(p.king for p in pos.pieces().values())
            pos = pos.play(rng.choice(moves))
    assert kings_seen > positions // 10  # the playouts reach king endings
