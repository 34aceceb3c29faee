"""Entering a move on a board by clicks or a drag, as a pure state machine.

The referee clicks the piece, then the square it goes to; a capture with
several stops can be entered by its end (when that tells it apart) or stop
by stop.  :func:`click` takes the squares clicked so far (:class:`Entry`)
and the square clicked now, and says what happens (:class:`Step`): a legal
move to play, the squares to remember, or a refusal with the engine's reason.

>>> pos = Position.start("pool")
>>> step = click(pos, Entry(), 11)
>>> step.entry.squares, step.message
((11,), 'Black man on 11: 11-15, 11-16')
>>> click(pos, step.entry, 15).move.full_text()
'11-15'
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rulesbook.draughts import IllegalMoveError, Move, Position
from rulesbook.draughts.notation import write_squares

__all__ = ["Entry", "Step", "click", "drag", "extend", "hints", "is_subsequence"]


def is_subsequence(needle: Sequence[int], hay: Sequence[int]) -> bool:
    """True when ``needle`` occurs in ``hay`` in order (not necessarily adjacent)."""
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


@dataclass(frozen=True)
class Entry:
    """The squares clicked so far; ``pending_end``: the end of a capture that
    several captures share, waiting for a square the piece stops on."""

    squares: tuple[int, ...] = ()
    pending_end: int | None = None

    @property
    def selected(self) -> tuple[int, ...]:
        """The squares to show as selected."""
        return self.squares + ((self.pending_end,) if self.pending_end is not None else ())


@dataclass(frozen=True)
class Step:
    """What a click does: ``move`` to play (legal), else ``entry`` to remember;
    ``message`` a sentence for the status line (empty: nothing to say)."""

    entry: Entry
    move: Move | None = None
    message: str = ""


def hints(position: Position, entry: Entry) -> tuple[int, ...]:
    """Where the selected piece can go next: the next stop and the end of each
    legal move that goes through the squares clicked so far."""
    if not entry.squares:
        return ()
    inner = entry.squares[1:]
    out = []
    for m in position.legal_moves():
        if m.start != entry.squares[0]:
            continue
        rest = m.path[1:]
        if inner and not is_subsequence(inner, rest):
            continue
        idx = 0
        for s in inner:
            idx = rest.index(s, idx) + 1
        if idx < len(rest):
            out.append(rest[idx])
            out.append(m.end)
    return tuple(sorted(set(out)))


def _explain_selection(pos: Position, square: int) -> str:
    legal = pos.legal_moves()
    own = [m for m in legal if m.start == square]
    piece = pos.piece_at(square)
    assert piece is not None
    if own:
        return (f"{piece.description.capitalize()} on {square}: "
                + ", ".join(pos.move_text(m) for m in own))
    if legal and legal[0].is_capture:
        texts = ", ".join(pos.move_text(m) for m in legal)
        return f"The {piece.description} on {square} cannot move: you must capture: {texts}"
    return f"The {piece.description} on {square} cannot move: it is blocked"


def _select(pos: Position, square: int) -> Step:
    return Step(Entry((square,)), message=_explain_selection(pos, square))


def extend(pos: Position, squares: tuple[int, ...]) -> Step:
    """The squares clicked so far ending with the one clicked now."""
    legal = pos.legal_moves()
    start, end = squares[0], squares[-1]
    inner = squares[1:-1]
    # the squares clicked between fit the move as a written move's would (the engine's
    # reading: a turn, or any square between two pieces on a straight run)
    ending = [m for m in legal if m.start == start and m.end == end and m.stops_fit(inner)]
    exact = [m for m in ending if m.path == squares]
    if len(exact) == 1:
        ending = exact
    passing = [m for m in legal if m.start == start and end in m.path[1:-1]
               and is_subsequence(squares[1:], m.path[1:])]
    if len(ending) == 1:
        # ends here (even when it could go on: the shorter reading is a legal move)
        return Step(Entry(), ending[0])
    if len(ending) > 1:
        # ask for a square the piece stops on (one that tells the captures apart)
        options = " or ".join(m.full_text() for m in ending)
        return Step(Entry(squares[:-1], end),
                    message=f"Several captures end on {end}: {options} — click a square "
                            f"the piece stops on to choose")
    if passing:
        return Step(Entry(squares),
                    message=f"Go on: click the next square of the capture from {end}")
    text = write_squares(squares, len(squares) > 2 and any(m.is_capture for m in legal))
    try:
        pos.parse_move(text)
        message = f"{text} is not a legal move here"
    except IllegalMoveError as exc:
        message = str(exc)
    return Step(Entry(), message=f"Refused: {message}")


def click(pos: Position, entry: Entry, square: int) -> Step:
    """A click on ``square`` with ``entry`` clicked before (see the module docstring)."""
    piece = pos.piece_at(square)
    if not entry.squares:
        if piece is None:
            return Step(entry, message=f"{square} is empty: click a {pos.turn.title} piece "
                                       f"to move")
        if piece.color is not pos.turn:
            return Step(entry, message=f"{pos.turn.title} to move: the piece on {square} is "
                                       f"{piece.color.title}'s")
        return _select(pos, square)
    if entry.pending_end is not None:
        end = entry.pending_end
        entry = Entry(entry.squares)
        if square != end:
            return extend(pos, entry.squares + (square, end))
    if square == entry.squares[-1]:
        return Step(Entry(entry.squares[:-1]))
    if len(entry.squares) == 1 and piece is not None and piece.color is pos.turn:
        return _select(pos, square)
    return extend(pos, entry.squares + (square,))


def drag(pos: Position, start: int, end: int) -> Step:
    """A piece dragged from ``start`` to ``end``."""
    piece = pos.piece_at(start)
    if piece is None or piece.color is not pos.turn:
        return click(pos, Entry(), start)
    return extend(pos, (start, end))
