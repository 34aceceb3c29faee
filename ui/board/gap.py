"""Gap filling on the board: the search (off the GUI thread, :mod:`.gapworker`)
from the end of the record to the board now, and the preview of a sequence found.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from rulesbook.draughts import Move, Position
from rulesbook.draughts.notation import count_text, plies_text
from rulesbook.reconstruct import RecordMove
from rulesbook.reconstruct.gap.progress import ProgressEstimate, SearchProgress

from .gapworker import GapWorker
from .setup import board_check_message

if TYPE_CHECKING:
    from rulesbook.reconstruct.gap import Question

    from .controller import BoardController

__all__ = ["GapController"]


class GapController(QObject):
    """The gap search and its preview.

    Signals:
      started() / progress(float fraction, int nodes)   as the search reports it
      progressShown(object SearchProgress)  what to show of it: positions, time, the
                                           sequences counted so far, and the
                                           percentage only when it can be trusted
      cancelling(object SearchProgress)    Cancel was pressed: how far the search got
                                           and the sequences counted so far (a lower
                                           bound), shown at once; the search's own
                                           answer follows through ``finished``, and
                                           progress reported meanwhile is ignored
      finished(object GapResult) / failed(str message)
      previewChanged(int index, int ply)   the sequence previewed on the board
                                           (index -1: no preview, the board shows the record)
      changed()                            redraw the board
      statusMessage(str)
      questionChanged(object Question|None)  the question to ask the players now
                                           (after a search, or "they don't remember")
    """

    started = Signal()
    progress = Signal(float, int)
    progressShown = Signal(object)
    cancelling = Signal(object)
    finished = Signal(object)
    failed = Signal(str)
    previewChanged = Signal(int, int)
    changed = Signal()
    statusMessage = Signal(str)
    questionChanged = Signal(object)

    def __init__(self, board: BoardController):
        super().__init__(board)
        self._board = board
        self._worker: GapWorker | None = None
        self.result: Any = None  # the GapResult of the last search (None: none)
        self.from_ply: int | None = None
        self.preview_index: int | None = None
        self.preview_ply = 0
        #: the clock the worker reads the search's time with (tests replace it)
        self.clock: Callable[[], float] = time.monotonic
        self._estimate = ProgressEstimate()
        #: what was shown of the running search last (None: nothing yet)
        self._shown: SearchProgress | None = None
        #: Cancel was pressed and the search has not answered yet
        self._cancelling = False
        #: the plies of the gap the players could not remember (the interview
        #: asks the next best question instead); cleared by a new search
        #: that is not an answer
        self.skipped: set[int] = set()

    # ------------------------------------------------------------------ the interview
    def question(self) -> Question | None:
        """The question to ask the players now: the best split of the sequences
        at a ply they have not said they forgot (None: one sequence is left,
        nothing splits them, or the search did not finish)."""
        result = self.result
        if result is None or result.cancelled or not result.count or result.count < 2:
            return None
        return next((q for q in result.questions if q.ply not in self.skipped), None)

    def game_move_number(self, ply: int) -> int:
        """The record's move number of ply ``ply`` of the gap."""
        return self._board.move_number(self.base_ply() + ply)

    def question_text(self, question: Question, most: int | None = None) -> str:
        """The question in words, naming ``most`` answers (None: every one)."""
        return question.sentence(self.game_move_number(question.ply), most)

    def certain_texts(self) -> tuple[str, ...]:
        """``Black's 9th move was certainly 10-14``, one for each certain move."""
        result = self.result
        if result is None or not result.certain or (result.count or 0) < 2:
            return ()
        return tuple(c.sentence(self.game_move_number(c.ply)) for c in result.certain)

    def certain_plies(self) -> tuple[int, ...]:
        result = self.result
        if result is None or (result.count or 0) < 2:
            return ()
        return tuple(c.ply for c in result.certain)

    def answer(self, index: int) -> str | None:
        """The known move (``--known`` text) the players' answer ``index``
        to the current question makes; the caller searches again with it."""
        question = self.question()
        if question is None or not 0 <= index < len(question.options):
            return None
        self.statusMessage.emit(f"The players agree: {self.question_text(question)} — "
                                f"{question.options[index].move}")
        return question.known[index]

    def dont_remember(self) -> None:
        """The players cannot say: ask the next best question."""
        question = self.question()
        if question is not None:
            self.skipped.add(question.ply)
        self.questionChanged.emit(self.question())

    # ------------------------------------------------------------------ the board now
    def mark_board_now(self, position: Position | None = None) -> bool:
        """Take ``position`` (default: the board shown, the set-up position in set-up
        mode) as "the board now": the target of gap filling from the end of the record."""
        board = self._board
        pos = position if position is not None else board.position()
        problem = board_check_message(pos)
        if problem is not None:
            self.statusMessage.emit(f"Cannot use this board: {problem}")
            return False
        target = Position(pos.pieces(), pos.turn, board.variant)
        self.forget()
        self.statusMessage.emit(f"The board now: {target.fen()}")
        board.set_target(target)
        return True

    # ------------------------------------------------------------------ search
    @property
    def running(self) -> bool:
        return self._worker is not None and self._worker.isRunning()

    @property
    def is_cancelling(self) -> bool:
        """Cancel was pressed; the search has not answered yet."""
        return self._cancelling and self.running

    def start_position(self) -> Position:
        """The known position the gap starts from: the end of the replayed record."""
        return self._board.positions[self._board.available_plies]

    def start(self, plies: int | None = None, max_plies: int | None = None,
              known: Iterable[str] = (), limit: int = 200) -> bool:
        """Search, off the GUI thread, every sequence from the end of the record to
        the board now; results arrive through ``finished``."""
        board = self._board
        if self.running:
            self.statusMessage.emit("A search is already running")
            return False
        if board.gap_target is None:
            self.statusMessage.emit("Mark the board now first (set it up, then "
                                    "\"This is the board now\")")
            return False
        self.from_ply = board.available_plies
        kwargs = dict(start=self.start_position(), target=board.gap_target, plies=plies,
                      max_plies=max_plies, known=tuple(known), variant=board.variant,
                      limit=limit)
        worker = GapWorker(kwargs, self, self.clock)
        self._estimate = ProgressEstimate()
        self._shown = None
        self._cancelling = False
        worker.progressed.connect(self._progressed)
        worker.found.connect(self._found)
        worker.failed.connect(self._failed)
        worker.finished.connect(self._thread_done)
        self._worker = worker
        self.result = None
        self.end_preview()
        worker.start()
        self.started.emit()
        what = (f"the missing {plies_text(plies)}" if plies is not None else
                f"up to {count_text(max_plies or 0, 'missing ply', 'missing plies')}")
        self.statusMessage.emit(f"Searching {what}…")
        return True

    def cancel(self) -> None:
        """Stop the search: says at once how far it got and the sequences
        counted so far (``cancelling``); its answer, with those it found
        listed, follows (``finished``)."""
        worker = self._worker
        if worker is None or self._cancelling:
            return
        worker.cancel()
        self._cancelling = True
        last = self._shown
        # the worker's count may be newer than the last report delivered here
        found = max(worker.counted, last.found if last is not None else 0)
        shown = SearchProgress(last.nodes if last is not None else 0,
                               last.seconds if last is not None else 0.0, None, found)
        self.statusMessage.emit("Cancelling the search…")
        self.cancelling.emit(shown)

    def wait(self, ms: int = 30000) -> bool:
        return self._worker.wait(ms) if self._worker is not None else True

    def shutdown(self) -> None:
        """Stop a running search (window closing)."""
        if self._worker is not None:
            self._worker.cancel()
            self._worker.wait(5000)

    def forget(self) -> None:
        """The record or the board now changed: the result no longer applies."""
        self.result = None
        self.end_preview()

    def _progressed(self, fraction: float, nodes: int, seconds: float, found: int = 0
                    ) -> None:
        if self._cancelling:
            return  # reported before the search saw the cancel: "cancelled" stays shown
        self.progress.emit(fraction, nodes)
        self._shown = self._estimate.update(fraction, nodes, seconds, int(found))
        self.progressShown.emit(self._shown)

    def _found(self, result: Any) -> None:
        self._cancelling = False
        self.result = result
        self.end_preview()
        self.statusMessage.emit(result.explanation)
        self.finished.emit(result)
        self.questionChanged.emit(self.question())
        self.changed.emit()

    def _failed(self, message: str) -> None:
        self._cancelling = False
        self.result = None
        self.end_preview()
        self.statusMessage.emit(f"Cannot search: {message}")
        self.failed.emit(message)

    def _thread_done(self) -> None:
        worker = self._worker
        if worker is not None and not worker.isRunning():
            self._cancelling = False
            worker.wait()
            self._worker = None
            worker.deleteLater()

    # ------------------------------------------------------------------ preview
    @property
    def previewing(self) -> bool:
        """True while a sequence found by the gap search is shown on the board."""
        result = self.result
        return (self.preview_index is not None and result is not None
                and 0 <= self.preview_index < len(result.sequences)
                and self._board.mode != "setup")

    def _sequence(self, index: int | None, field: str) -> tuple[Any, ...]:
        index = self.preview_index if index is None else index
        items = getattr(self.result, field, None) if self.result is not None else None
        if items is None or index is None or not 0 <= index < len(items):
            return ()
        return tuple(items[index])

    def preview_moves(self, index: int | None = None) -> tuple[Move, ...]:
        """The moves of sequence ``index`` (default: the one previewed)."""
        return self._sequence(index, "sequences")

    def preview_texts(self, index: int | None = None) -> tuple[str, ...]:
        return self._sequence(index, "texts")

    def base_ply(self) -> int:
        """The ply of the record the gap sequences start from."""
        board = self._board
        at = self.from_ply if self.from_ply is not None else board.available_plies
        return max(0, min(at, board.available_plies))

    def preview_position(self, ply: int | None = None) -> Position:
        """The board after ``ply`` plies (default: the preview's) of the previewed sequence."""
        ply = self.preview_ply if ply is None else ply
        position = self._board.positions[self.base_ply()]
        for move in self.preview_moves()[:ply]:
            position = position.play(move)
        return position

    def _parting(self, moves: tuple[Move, ...], k: int) -> list[Move]:
        """The other sequences' moves at ply k + 1 that agree with ``moves`` up to k."""
        out: list[Move] = []
        for seq in self.result.sequences:
            if len(seq) > k and tuple(seq[:k]) == moves[:k] and seq[k] != moves[k] \
                    and seq[k] not in out:
                out.append(seq[k])
        return out

    def branch_plies(self, index: int | None = None) -> tuple[int, ...]:
        """The plies (1 = the first missing ply) where sequence ``index`` parts from
        another sequence found: the same moves before, another move there."""
        moves = self.preview_moves(index)
        if not moves or self.result is None:
            return ()
        return tuple(k + 1 for k in range(len(moves)) if self._parting(moves, k))

    def preview_alternatives(self) -> tuple[Move, ...]:
        """While previewing at ply k: the other sequences' moves at ply k + 1 (those that
        agree with the previewed one up to k); empty where the sequences do not part."""
        moves = self.preview_moves()
        k = self.preview_ply
        if not moves or k >= len(moves) or self.result is None:
            return ()
        return tuple(self._parting(moves, k))

    def preview_sequence(self, index: int, ply: int | None = None) -> bool:
        """Show sequence ``index`` on the board at ``ply`` (default: the ply shown now,
        so that sequences can be compared at the same ply)."""
        result = self.result
        if result is None or not 0 <= index < len(result.sequences):
            self.stop_preview()
            return False
        self._board.leave_setup()
        self._board.input.reset()
        self.preview_index = index
        target = self.preview_ply if ply is None else ply
        self.preview_ply = max(0, min(int(target), len(result.sequences[index])))
        self.previewChanged.emit(index, self.preview_ply)
        self.changed.emit()
        return True

    def preview_go(self, ply: int) -> None:
        """Step the previewed sequence to ``ply`` (0 = the end of the record)."""
        if not self.previewing:
            return
        ply = max(0, min(int(ply), len(self.preview_moves())))
        if ply != self.preview_ply:
            self.preview_ply = ply
            self.previewChanged.emit(self.preview_index, ply)
        self.changed.emit()

    def step(self, delta: int) -> None:
        self.preview_go(self.preview_ply + delta)

    def stop_preview(self) -> None:
        """Show the record again."""
        if self.preview_index is None:
            return
        self.end_preview()
        self.changed.emit()

    def end_preview(self) -> None:
        """End the preview without a redraw (the caller redraws)."""
        if self.preview_index is not None:
            self.preview_index = None
            self.preview_ply = 0
            self.previewChanged.emit(-1, 0)

    def adopt(self, index: int) -> bool:
        """Append sequence ``index`` of the result to the record (undoable)."""
        result = self.result
        if result is None or not 0 <= index < len(result.texts):
            self.statusMessage.emit("No sequence to adopt")
            return False
        at = self.base_ply()
        texts = result.texts[index]
        dropped = len(self._board.moves) - at
        answer = self._board.editing.adopt(at, [RecordMove(t) for t in texts])
        if answer != "replace":  # kept as a variation or not at all: editing said so
            return answer == "variation"
        msg = f"Adopted {plies_text(len(texts))}: {' '.join(texts)}"
        if dropped:
            msg += (f" (replacing {count_text(dropped, 'unplayable move')}; "
                    f"Ctrl+Z to undo)")
        self.statusMessage.emit(msg)
        return True
