"""The mutable :class:`Game`: a start position and the moves played."""
from __future__ import annotations

from collections.abc import Sequence

from rulesbook.draughts.counts import (
    CountRules,
    CountState,
    initial_count_state,
    next_count_state,
)
from rulesbook.draughts.errors import DraughtsError
from rulesbook.draughts.move import Move
from rulesbook.draughts.position import Position
from rulesbook.draughts.variant import Variant

__all__ = ["Game"]


class Game:
    """A game in progress; ``push``/``pop`` moves, read positions and counts."""

    def __init__(self, start: Position | None = None, variant: str | Variant = "pool",
                 counts: CountRules | None = None) -> None:
        if start is None:
            start = Position.start(variant)
        self.counts = counts if counts is not None else CountRules()
        self._positions: list[Position] = [start]
        self._moves: list[Move] = []
        self._states: list[CountState] = [initial_count_state(start, self.counts)]
        self._seen: dict[Position, int] = {start: 1}

    @classmethod
    def resumed(cls, positions: Sequence[Position], moves: Sequence[Move],
                states: Sequence[CountState], counts: CountRules) -> Game:
        """The game of ``moves`` from ``positions[0]`` as :meth:`push` leaves it, from
        what an earlier walk over them kept: every position (the start first) and the
        count state at each ply under ``counts``. Nothing is played again (a long
        record edited near its end goes on from there); the positions are only
        counted for repetition. Raises DraughtsError when the lengths disagree."""
        if not len(positions) == len(moves) + 1 == len(states) or \
                any(state.ply != ply for ply, state in ((0, states[0]),
                                                        (len(moves), states[-1]))):
            raise DraughtsError(f"cannot resume a game of {len(moves)} moves from "
                                f"{len(positions)} positions and {len(states)} count states")
        game = cls(positions[0], counts=counts)
        game._positions = list(positions)
        game._moves = list(moves)
        game._states = list(states)
        seen: dict[Position, int] = {}
        for position in positions:
            seen[position] = seen.get(position, 0) + 1
        game._seen = seen
        return game

    def __repr__(self) -> str:
        texts = " ".join(self.move_texts())
        return f"<Game {self.variant.name} from {self.start.fen()!r}: {texts or 'no moves'}>"

    @property
    def variant(self) -> Variant:
        return self._positions[0].variant

    @property
    def start(self) -> Position:
        return self._positions[0]

    @property
    def board(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def moves(self) -> list[Move]:
        return list(self._moves)

    @property
    def positions(self) -> list[Position]:
        """Every position, the start first (``len == plies + 1``)."""
        return list(self._positions)

    @property
    def ply(self) -> int:
        return len(self._moves)

    def move_texts(self) -> list[str]:
        """The moves as shortest unambiguous PDN texts."""
        return [p.move_text(m) for p, m in zip(self._positions[:-1], self._moves, strict=True)]

    def push(self, move: Move | str) -> Move:
        """Play ``move`` (a Move or a text); raises IllegalMoveError.  Returns the Move."""
        before = self.board
        move = before.parse_move(move) if isinstance(move, str) else move
        after = before.play(move)
        reps = self._seen.get(after, 0) + 1
        self._seen[after] = reps
        self._states.append(next_count_state(self._states[-1], before, move, after,
                                             self.counts, reps))
        self._positions.append(after)
        self._moves.append(move)
        return move

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._moves:
            raise DraughtsError("no move to take back: the game is at its start")
        after = self._positions.pop()
        self._states.pop()
        n = self._seen[after] - 1
        if n:
            self._seen[after] = n
        else:
            del self._seen[after]
        return self._moves.pop()

    def result(self) -> str | None:
        """``"1-0"`` if the first player won, ``"0-1"`` if the second, None otherwise.

        (For PDN game types 21/23 the first player is Black; for 25/26 White.)
        """
        winner = self.board.winner()
        if winner is None:
            return None
        return "1-0" if winner is self.variant.first_player else "0-1"

    def count_state(self, ply: int | None = None) -> CountState:
        """The draw-count state after ``ply`` plies (default: now)."""
        if ply is None:
            return self._states[-1]
        if not 0 <= ply < len(self._states):
            raise DraughtsError(f"ply {ply} is outside the game (0-{len(self._moves)})")
        return self._states[ply]
