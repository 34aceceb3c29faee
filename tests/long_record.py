"""Long legal pool records for the tests and benches that open them (issue #34:
the Board froze on records of thousands of plies): two kings shuffling, played
by the engine (each move one of the position's legal moves, never a capture and
never one that lets the other king capture), with illegal moves planted.

A planted move is a king move two squares along a file, which no piece can make;
the record goes on from the board as if it had been played, so with illegal
moves let stand every later move is legal again.

One place for the generator: ``tests/ui/test_board_long.py`` opens a record of
4,000 plies, ``bench/bench_board_long.py`` times 1k to 60k.
"""
from __future__ import annotations

from typing import NamedTuple

from rulesbook.draughts import Move, Position

__all__ = ["LongRecord", "long_record", "START_FEN"]

#: two kings, far apart, Black to move (pool)
START_FEN = "B:WK30:BK3"


class LongRecord(NamedTuple):
    pdn: str
    moves: tuple[str, ...]
    #: the plies (1-based) whose move is a planted illegal one
    illegal: tuple[int, ...]


def _safe(after: Position) -> bool:
    return not any(m.captures for m in after.legal_moves())


def _planted(position: Position) -> tuple[str, Position] | None:
    """An illegal move of the king to move (two squares along a file) and the
    board as if it had been played, when the square is free and the other king
    cannot take it there."""
    pieces = position.pieces()
    origin = next(s for s, p in pieces.items() if p.color is position.turn)
    for target in (origin + 8, origin - 8):
        if 1 <= target <= 32 and target not in pieces:
            moved = dict(pieces)
            moved[target] = moved.pop(origin)
            after = Position(moved, position.turn.opponent, position.variant)
            if _safe(after):
                return f"{origin}-{target}", after
    return None


def long_record(plies: int, illegal_every: int = 0, middle: bool = True) -> LongRecord:
    """A pool PDN game of ``plies`` plies from :data:`START_FEN`, an illegal move
    at the middle ply (or the first safe ply after it; none with ``middle=False``)
    and, with ``illegal_every`` > 0, at every ``illegal_every``-th ply."""
    wanted = set(range(illegal_every, plies + 1, illegal_every)) if illegal_every else set()
    if middle:
        wanted.add(max(1, plies // 2))
    position = Position.from_fen(START_FEN, "pool")
    texts: list[str] = []
    planted: list[int] = []
    came_from: dict[object, int] = {}
    pending = False
    for ply in range(1, plies + 1):
        pending = pending or ply in wanted
        if pending:
            found = _planted(position)
            if found is not None:
                text, position = found
                texts.append(text)
                planted.append(ply)
                pending = False
                continue
        safe: list[Move] = [m for m in position.legal_moves()
                            if not m.captures and _safe(position.play(m))]
        assert safe, f"no safe king move in {position.fen()}"
        back = [m for m in safe if m.path[-1] == came_from.get(position.turn)]
        move = back[0] if back else safe[0]
        came_from[position.turn] = move.path[0]
        texts.append(position.move_text(move))
        position = position.play(move)
    body = [f"{i // 2 + 1}. " + " ".join(texts[i:i + 2]) for i in range(0, len(texts), 2)]
    pdn = (f'[Event "Long record ({plies} plies)"]\n[GameType "23"]\n'
           f'[SetUp "1"]\n[FEN "{START_FEN}"]\n[Result "*"]\n\n'
           + "\n".join(body) + " *\n")
    return LongRecord(pdn, tuple(texts), tuple(planted))
