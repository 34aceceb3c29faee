"""What the board widget shows: the position, the last move, the squares selected
and hinted, the arrows of the check (the move as written, the legal moves) and of
a gap preview (the next move, where the sequences part), and the caption."""
from __future__ import annotations

from rulesbook.reconstruct import written_squares

from ..controller import BoardController
from ..preview import BRANCH_COLOUR
from ..widget import BOARD_COLOURS, Arrow, BoardWidget

__all__ = ["BoardView", "caption", "last_move_squares", "record_ply"]


def record_ply(bc: BoardController, ply: int) -> str:
    """``ply 21/52 (after 11… 8-11)``: a ply of the record as the caption under the
    board numbers it (the gap panel says where its search starts the same way)."""
    n = max(0, min(ply, len(bc.moves)))
    where = "start" if n == 0 else f"after {bc.record.ply_prefix(n)} {bc.moves[n - 1].text}"
    return f"ply {n}/{len(bc.moves)} ({where})"


def last_move_squares(bc: BoardController) -> tuple[int, ...]:
    """The squares of the move that led to the position shown (of the previewed gap
    sequence while previewing; a move the replay could not play: as written)."""
    if bc.mode == "setup":
        return ()
    gap = bc.gap
    if gap.previewing:
        moves = gap.preview_moves()
        return moves[gap.preview_ply - 1].path if gap.preview_ply else ()
    if bc.ply == 0:
        return ()
    move = bc.played_move(bc.ply)
    if move is not None:
        return move.path
    return written_squares(bc.moves[bc.ply - 1].text) or ()


def caption(bc: BoardController) -> str:
    """The line under the board: where in the record (or the preview) and who moves."""
    pos = bc.position()
    gap = bc.gap
    if bc.mode == "setup":
        return f"Setting up · {pos.turn.title} to move"
    if gap.previewing and gap.preview_index is not None and gap.result is not None:
        moves = gap.preview_texts()
        k = gap.preview_ply
        where = "end of the record" if k == 0 else f"after {moves[k - 1]}"
        # who moves before where it stands: on a narrow board the end is elided
        text = (f"Gap preview · sequence {gap.preview_index + 1} of "
                f"{len(gap.result.sequences)} · ply {k}/{len(moves)} · "
                f"{pos.turn.title} to move · {where}")
        alternatives = len(gap.preview_alternatives())
        if alternatives:
            text += f" · the sequences part here ({alternatives + 1} ways)"
        return text
    where = record_ply(bc, bc.ply)
    text = f"{where[:1].upper()}{where[1:]} · {pos.turn.title} to move"
    if bc.mode == "check":
        text = "Checking · " + text
    elif pos.is_game_over():
        text += f" · {pos.turn.title} has no move"
    return text


class BoardView:
    """Keeps ``board`` showing what the controller says (on every ``changed``)."""

    def __init__(self, bc: BoardController, board: BoardWidget):
        self._bc = bc
        self.board = board
        bc.changed.connect(self.refresh)
        bc.modeChanged.connect(lambda _mode: self.refresh())

    def refresh(self) -> None:
        bc = self._bc
        gap = bc.gap
        self.board.set_setup_mode(bc.mode == "setup")
        self.board.set_position(bc.position())
        marks: tuple[int, ...] = ()
        arrows: list[Arrow] = []
        hints = bc.input.hint_squares()
        selected = bc.input.selected
        if gap.previewing:
            # the sequence's next move in blue; where the sequences part, the other
            # sequences' moves dashed in orange
            hints = ()
            moves = gap.preview_moves()
            for alt in gap.preview_alternatives():
                arrows.append(Arrow(alt.path, BRANCH_COLOUR, dashed=True))
            if gap.preview_ply < len(moves):
                arrows.append(Arrow(moves[gap.preview_ply].path, BOARD_COLOURS["select"]))
        elif bc.mode == "check":
            illegal = bc.check.illegal_here()
            if illegal is not None:
                written = written_squares(illegal.move) or ()
                for text in illegal.legal_moves[:6]:
                    legal = written_squares(text)
                    if legal:
                        arrows.append(Arrow(legal, BOARD_COLOURS["select"]))
                if written:
                    arrows.append(Arrow(written, BOARD_COLOURS["mark"], dashed=True))
                    marks = (written[0],)
        elif bc.mode == "play" and not selected:
            hints = ()
        last = last_move_squares(bc) if bc.mode != "check" or not arrows or \
            gap.previewing else ()
        self.board.set_highlights(last=last, selected=selected, hints=hints, marks=marks,
                                  arrows=tuple(arrows))
        self.board.set_caption(caption(bc))
