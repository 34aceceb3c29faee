"""The draw counts of the record (13-count, the stronger side's count, repetition)
under the limits of the edition in force, for every ply of legal play."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from rulesbook.draughts import CountRules, CountState, Game

if TYPE_CHECKING:
    from rulesbook.reconstruct import Replay

    from .controller import BoardController

__all__ = ["CountsController"]


class CountsController(QObject):
    """The count limits in force and the counts at each ply (worked out once per record).

    Signals:
      changed()   the limits in force changed
    """

    changed = Signal()

    def __init__(self, board: BoardController):
        super().__init__(board)
        self._board = board
        self.rules = CountRules()
        self.label = ""
        self.edition_id: str | None = None
        self._for: Replay | None = None
        self._states: list[CountState] = []

    def set_rules(self, rules: CountRules, label: str = "",
                  edition_id: str | None = None) -> None:
        """The count limits of the edition in force (``label``: its title)."""
        self.rules = rules
        self.label = label
        self.edition_id = edition_id
        self._for = None
        self.changed.emit()

    def at(self, ply: int | None = None) -> CountState | None:
        """The counts at ``ply`` (default: the current ply), or None past an illegal
        move (the counts follow legal play only)."""
        board = self._board
        ply = board.ply if ply is None else ply
        replayed = board.replay
        if self._for is not replayed:
            game = Game(board.start, counts=self.rules)
            states = [game.count_state()]
            for move in replayed.played:
                if move is None:
                    break
                game.push(move)
                states.append(game.count_state())
            self._states, self._for = states, replayed
        return self._states[ply] if 0 <= ply < len(self._states) else None
