"""Perft against published counts, and from king-heavy positions against an
independent reference generator written here.

Sources of the published counts (leaf nodes from the initial position, depth 1
first; one move per distinct start, end and ordered captures):

* English: Aart Bik, "Perft for Checkers", http://www.aartbik.com/MISC/checkers.html
  (BikMove, depths 1-15; duplicates not eliminated, which first matters at 12).
* Pool, Russian, Brazilian: Rein Halbersma's dctl, the ``keep_duplicates_gen``
  rows of ``test/src/aima/traversal/initial/board8x8.cpp``
  (https://github.com/rhalbersma/dctl), after the "Standard validation
  generator moves" thread of the shashki.com forum.  dctl also gives English,
  equal to Bik's up to depth 11.

Depths 1-8 run by default (a few seconds); 9 and 10 are ``slow``
(``pytest -m slow``; about 4 s and 20 s per variant).
"""
from __future__ import annotations

import random

import pytest

from rulesbook.draughts import Color, Position, Variant, perft

PUBLISHED = {
    # Aart Bik, http://www.aartbik.com/MISC/checkers.html
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564],
    # dctl board8x8.cpp, poolinitial, keep_duplicates_gen
    "pool": [7, 49, 302, 1469, 7482, 37986, 190146, 929902, 4570615, 22442551],
    # dctl board8x8.cpp, russianinitial, keep_duplicates_gen
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929905, 4570667, 22450628],
    # dctl board8x8.cpp, brazilianinitial, keep_duplicates_gen
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907836, 4431847, 21566606],
}


@pytest.mark.parametrize("variant", sorted(PUBLISHED))
def test_perft_to_depth_7(variant: str) -> None:
    start = Position.start(variant)
    assert [perft(start, d) for d in range(1, 8)] == PUBLISHED[variant][:7]


@pytest.mark.parametrize("variant", sorted(PUBLISHED))
def test_perft_depth_8(variant: str) -> None:
    assert perft(Position.start(variant), 8) == PUBLISHED[variant][7]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [9, 10])
@pytest.mark.parametrize("variant", sorted(PUBLISHED))
def test_perft_deep(variant: str, depth: int) -> None:
    assert perft(Position.start(variant), depth) == PUBLISHED[variant][depth - 1]


def test_perft_depth_0_is_one() -> None:
    assert perft(Position.start(), 0) == 1


@pytest.mark.parametrize("variant", ["pool", "english"])
def test_divide_sums_to_total(variant: str) -> None:
    start = Position.start(variant)
    divided = perft(start, 4, divide=True)
    assert len(divided) == 7
    assert sum(divided.values()) == PUBLISHED[variant][3]


# --------------------------------------------------------------------------- the issue's case

def test_a_straight_run_over_two_pieces_is_one_move_per_landing() -> None:
    # White king on 29 (a1) and black men on 25, 15 on the long diagonal
    # 29-25-22-18-15-11-8-4 (and 1 out of the way): it takes 25 and 15 and
    # lands on 11, 8 or 4.  Stopping on 22 or 18 in between is not a choice
    # of another move: three moves, not six (issue 21, defect 1).
    pos = Position.from_fen("W:WK29:B25,15,1", "russian")
    moves = pos.legal_moves()
    assert sorted(m.end for m in moves) == [4, 8, 11]
    assert {m.captures for m in moves} == {(25, 15)}
    assert perft(pos, 1) == 3


# --------------------------------------------------------------------------- reference generator
# Written from the rules, independently of rulesbook.draughts.movegen: squares
# as (row, column) on a dict board, captures by plain recursion, and the
# duplicates dropped explicitly by (start, end, ordered captures).

_DIRS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _rc(square: int) -> tuple[int, int]:
    row = (square - 1) // 4
    return row, 2 * ((square - 1) % 4) + (1 if row % 2 == 0 else 0)


def _sq(row: int, col: int) -> int | None:
    if 0 <= row < 8 and 0 <= col < 8 and (row + col) % 2 == 1:
        return row * 4 + col // 2 + 1
    return None


def _ref_moves(board: dict[int, tuple[str, bool]], me: str, v: Variant) -> list[tuple]:
    """Legal moves as (start, end, captures, becomes_king)."""
    crown_row = 7 if me == "b" else 0
    forward = 1 if me == "b" else -1
    found: dict[tuple, tuple] = {}

    def capture(square: int, king: bool, taken: tuple[int, ...], start: int,
                crowned: bool) -> bool:
        """Search on from ``square``; True when some capture was possible."""
        row, col = _rc(square)
        any_capture = False
        for dr, dc in _DIRS:
            if not king and not v.men_capture_backward and dr != forward:
                continue
            reach = 8 if king and v.flying_kings else 1
            r, c, k = row + dr, col + dc, 1
            while k <= reach and _sq(r, c) is not None and _sq(r, c) not in board:
                r, c, k = r + dr, c + dc, k + 1
            victim = _sq(r, c)
            if k > reach or victim is None or victim in taken:
                continue
            color, _ = board[victim]
            if color == me:
                continue
            lands = []
            r, c = r + dr, c + dc
            while _sq(r, c) is not None and _sq(r, c) not in board:
                lands.append(_sq(r, c))
                if not (king and v.flying_kings):
                    break
                r, c = r + dr, c + dc
            if not lands:
                continue
            any_capture = True
            now = taken + (victim,)
            going_on = []
            stopping = []
            for land in lands:
                on_row = _rc(land)[0] == crown_row
                if not king and on_row and v.mid_capture_crowning == "ends":
                    stopping.append((land, True))
                    continue
                as_king = king or (on_row and v.mid_capture_crowning == "continues")
                if capture(land, as_king, now, start, crowned or as_king != king):
                    going_on.append(land)
                else:
                    stopping.append((land, crowned or as_king != king or (not king and on_row)))
            if not going_on:
                for land, crowns in stopping:
                    found.setdefault((start, land, now), (start, land, now, crowns))
        return any_capture

    for square, (color, king) in sorted(board.items()):
        if color == me:
            del board[square]
            capture(square, king, (), square, False)
            board[square] = (color, king)
    moves = list(found.values())
    if moves:
        if v.capture_precedence == "most":
            best = max(len(m[2]) for m in moves)
            moves = [m for m in moves if len(m[2]) == best]
        return moves
    for square, (color, king) in sorted(board.items()):
        if color != me:
            continue
        row, col = _rc(square)
        for dr, dc in _DIRS:
            if not king and dr != forward:
                continue
            r, c = row + dr, col + dc
            while _sq(r, c) is not None and _sq(r, c) not in board:
                end = _sq(r, c)
                moves.append((square, end, (), not king and r == crown_row))
                if not (king and v.flying_kings):
                    break
                r, c = r + dr, c + dc
    return moves


def _ref_perft(board: dict[int, tuple[str, bool]], me: str, v: Variant, depth: int) -> int:
    if depth == 0:
        return 1
    moves = _ref_moves(board, me, v)
    if depth == 1:
        return len(moves)
    total = 0
    for start, end, taken, crowns in moves:
        child = dict(board)
        color, king = child.pop(start)
        for sq in taken:
            del child[sq]
        child[end] = (color, king or crowns)
        total += _ref_perft(child, "w" if me == "b" else "b", v, depth - 1)
    return total


def _board(position: Position) -> dict[int, tuple[str, bool]]:
    return {sq: ("b" if p.color is Color.BLACK else "w", p.king)
            for sq, p in position.pieces().items()}


def _king_heavy(seed: int, count: int) -> list[Position]:
    """Seeded positions with 2-4 kings a side among a few men."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        squares = rng.sample(range(1, 33), rng.randint(6, 11))
        pieces = {}
        for n, sq in enumerate(squares):
            color = "b" if n % 2 == 0 else "w"
            king = n < 6 or rng.random() < 0.2
            if not king and ((color == "b" and sq > 28) or (color == "w" and sq < 5)):
                king = True
            pieces[sq] = color + ("K" if king else "")
        fen = "{}:W{}:B{}".format(
            rng.choice("BW"),
            ",".join(("K" if v.endswith("K") else "") + str(s)
                     for s, v in pieces.items() if v[0] == "w"),
            ",".join(("K" if v.endswith("K") else "") + str(s)
                     for s, v in pieces.items() if v[0] == "b"))
        out.append(Position.from_fen(fen))
    return out


def test_reference_generator_agrees_with_published_counts() -> None:
    # the reference is itself checked against the published numbers first
    for name in PUBLISHED:
        v = Variant.named(name)
        board = _board(Position.start(v))
        me = "b" if v.first_player is Color.BLACK else "w"
        assert [_ref_perft(board, me, v, d) for d in range(1, 5)] == PUBLISHED[name][:4]


def test_reference_sees_the_issue_case_as_three_moves() -> None:
    v = Variant.named("russian")
    board = {29: ("w", True), 25: ("b", False), 15: ("b", False), 1: ("b", False)}
    assert sorted(m[1] for m in _ref_moves(board, "w", v)) == [4, 8, 11]


@pytest.mark.parametrize("variant", ["pool", "russian", "brazilian", "english"])
def test_perft_from_king_heavy_positions_matches_the_reference(variant: str) -> None:
    v = Variant.named(variant)
    checked = 0
    for pos in _king_heavy(2100 + len(variant), 12):
        pos = Position.from_bitboards(pos.bitboards(), v)
        me = "b" if pos.turn is Color.BLACK else "w"
        for depth in (1, 2, 3):
            assert perft(pos, depth) == _ref_perft(_board(pos), me, v, depth), (pos.fen(), depth)
        checked += 1
    assert checked == 12


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["pool", "russian", "brazilian", "english"])
def test_perft_from_many_king_heavy_positions_matches_the_reference(variant: str) -> None:
    v = Variant.named(variant)
    for pos in _king_heavy(7300 + len(variant), 60):
        pos = Position.from_bitboards(pos.bitboards(), v)
        me = "b" if pos.turn is Color.BLACK else "w"
        assert perft(pos, 4) == _ref_perft(_board(pos), me, v, 4), pos.fen()
