"""Check mode: the first illegal move (every one when illegal moves are let
stand), how the move list marks each ply, and the rulings request."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from rulesbook.reconstruct import IllegalMove, Replay
from rulesbook.rulings import RequestOrigin, RulingsRequest, rulings_request

if TYPE_CHECKING:
    from rulesbook.rulings import DrawAnnouncement

    from .controller import BoardController

__all__ = ["CheckController", "MOVE_STATES"]

#: how the move list shows a ply (see :meth:`CheckController.move_state`)
MOVE_STATES = ("legal", "illegal", "suspect", "unchecked", "unplayed", "after_draw")


class CheckController(QObject):
    """The result of "Check record" (cleared by the board when the record changes).

    Signals:
      rulingsRequested(RulingsRequest)   for the rulings panel
      statusMessage(str)
      resultChanged(object)   the Replay of "Check record" (None: cleared)
    """

    rulingsRequested = Signal(object)  # RulingsRequest
    statusMessage = Signal(str)
    resultChanged = Signal(object)

    def __init__(self, board: BoardController):
        super().__init__(board)
        self._board = board
        self.result: Replay | None = None
        self._illegal: dict[int, IllegalMove] = {}

    def clear(self) -> None:
        """The record changed: the result no longer applies."""
        if self.result is not None:
            self.result = None
            self._illegal = {}
            self.resultChanged.emit(None)

    @property
    def first_illegal(self) -> IllegalMove | None:
        """The first illegal move of the checked record (core ``IllegalMove``:
        ``.incident``, ``.facts``, ``.message``, ``.legal_moves``), or None."""
        return self.result.first_illegal if self.result is not None else None

    def run(self) -> Replay:
        """Replay the record and mark the first illegal move (all of them when
        illegal moves are let stand); the board shows the position it was played in."""
        board = self._board
        record = board.record
        # the board's replay lets illegal moves stand: cut at the first one otherwise
        # (the same as replaying again without let_stand, and a long record is not
        # replayed a second time on the GUI thread)
        self.result = checked = board.replay if board.let_stand else board.replay.stopped()
        self._illegal = {item.ply: item for item in checked.illegal}
        first = checked.first_illegal
        draw = board.counts.first()
        if first is not None:
            count = len(checked.illegal)
            more = f" ({count} illegal moves in all)" if board.let_stand and count > 1 else ""
            message = first.message + more
        else:
            message = f"Every move is legal ({len(record.moves)} plies)"
        if draw is not None:
            message += f" — {draw.text}"
        # the board shows the illegal move, else the position where the count was reached
        at = first.ply - 1 if first is not None else \
            draw.ply if draw is not None else board.available_plies
        self.resultChanged.emit(checked)
        board.enter_check(at)
        self.statusMessage.emit(message)
        return checked

    def illegal_here(self) -> IllegalMove | None:
        """In check mode: the illegal move played from the current ply, if any."""
        board = self._board
        if board.mode != "check" or self.result is None:
            return None
        return self._illegal.get(board.ply + 1)

    def illegal_at(self, ply: int) -> IllegalMove | None:
        """The illegal move the check found at ``ply``, if any."""
        return self._illegal.get(ply)

    def move_state(self, ply: int) -> str:
        """How the move list shows ``ply`` (one of :data:`MOVE_STATES`): ``illegal``
        (found by "Check record"), ``suspect`` (not legal, record not checked yet),
        ``unchecked`` (after the first illegal move when they are not let stand),
        ``unplayed`` (the replay cannot reach it), ``after_draw`` (legal, but played
        after a draw count was reached under the edition in force) or ``legal``."""
        board = self._board
        checked = self.result
        if checked is not None:
            if self.illegal_at(ply) is not None:
                return "illegal"
            if not checked.let_stand and checked.first_illegal is not None \
                    and ply > checked.first_illegal.ply:
                return "unchecked"
        elif board.illegal_at(ply) is not None:
            return "suspect"
        if ply > board.available_plies:
            return "unplayed"
        if board.counts.after_draw_text(ply):
            return "after_draw"
        return "legal"

    def rulings_request(self) -> RulingsRequest | None:
        """What "Rulings for This Incident" sends for the first illegal move (the
        core's :func:`~rulesbook.rulings.rulings_request`); None before a check finds
        one or without a rules library."""
        first = self.first_illegal
        library = self._board.counts.library
        if first is None or library is None:
            return None
        return rulings_request(library, self._board.record, first, RequestOrigin.CHECK_RECORD)

    def draw_claim(self) -> DrawAnnouncement | None:
        """The draw claim the checked record reached (None before a check)."""
        return None if self.result is None else self._board.counts.first()

    def request_rulings(self) -> bool:
        """Emit rulingsRequested(RulingsRequest) for the first illegal move, else for
        the draw claim the record reached."""
        if self.first_illegal is None:
            draw = self.draw_claim()
            if draw is not None:
                return self._board.counts.request_rulings(draw, RequestOrigin.CHECK_RECORD)
            self.statusMessage.emit("No illegal move and no draw claim: check the record first")
            return False
        request = self.rulings_request()
        if request is None:
            self.statusMessage.emit("No rules library is loaded: no rulings to open")
            return False
        self.rulingsRequested.emit(request)
        return True
