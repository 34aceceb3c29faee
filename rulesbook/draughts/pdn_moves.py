"""Reading one move text as written in PDN (numeric, algebraic or short
algebraic) in a position, and telling the readings of an ambiguous one apart.

Used by the PDN reader (:mod:`rulesbook.draughts.pdn`, which re-exports these
names), the guess of a record's variant (:mod:`rulesbook.draughts.pdn_variant`)
and the replay of a record (:mod:`rulesbook.reconstruct.replay`).
"""
from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

from rulesbook.draughts.errors import AmbiguousMoveError, DraughtsError, IllegalMoveError
from rulesbook.draughts.move import Move
from rulesbook.draughts.notation import (
    PLACEHOLDERS,
    MoveText,
    Notation,
    NotationError,
    full_form,
    read_move,
)
from rulesbook.draughts.position import Position
from rulesbook.draughts.squares import square_to_algebraic

__all__ = ["LOOKAHEAD", "disambiguate", "resolve_move"]

#: Plies tried after an ambiguous move to tell its readings apart (:func:`disambiguate`).
LOOKAHEAD = 24


def _written(text: str) -> MoveText | None:
    try:
        return read_move(text)
    except NotationError:
        return None


def _short_candidates(position: Position, written: MoveText) -> list[Move]:
    """The legal moves the short algebraic ``written`` (``ed4``, ``ed4:f6``) can stand for."""
    return [m for m in position.legal_moves()
            if square_to_algebraic(m.start)[0] == written.start_file and m.end == written.end
            and m.stops_fit(written.via)]


def resolve_move(position: Position, text: str) -> Move:
    """The legal move of ``position`` written ``text`` as in a PDN file:
    numeric (``9-14``, ``9x18x27``), algebraic (``c3-d4``, ``c3:e5``) or short
    algebraic (``ed4``: from-file + destination, ``ed4:f6`` with stops).
    Readings that lead to the same position are one move.

    Raises :class:`~rulesbook.draughts.IllegalMoveError` (``move`` is
    ``text``, ``explanation`` says why) or, when ``text`` stands for several
    legal moves that lead to different positions,
    :class:`~rulesbook.draughts.AmbiguousMoveError` whose ``candidates`` are
    those moves (see :func:`disambiguate`).  ``-`` and ``--`` (a move not
    recorded) raise IllegalMoveError."""
    if text in PLACEHOLDERS:
        raise IllegalMoveError("the move was not recorded (placeholder)", move=text)
    written = _written(text)
    if written is not None and written.notation is Notation.SHORT:
        found = _short_candidates(position, written)
        if not found:
            raise IllegalMoveError(
                f"no legal move goes from the {written.start_file}-file to "
                f"{square_to_algebraic(written.end)}", move=text)
    else:
        try:
            return position.parse_move(text)
        except AmbiguousMoveError as exc:
            found = exc.candidates  # the engine's readings, in legal_moves() order
    if len(found) == 1:
        return found[0]
    after = {position.play(m) for m in found}
    if len(after) == 1:
        return found[0]  # e.g. a flying king's landing squares: same captures, same end
    algebraic = written is not None and written.notation is not Notation.NUMERIC
    options = ", ".join(full_form(m, algebraic=algebraic) for m in found)
    raise AmbiguousMoveError(f"it matches {len(found)} legal moves: {options}", found,
                             move=text)


def _survival(position: Position, following: list[str]) -> int:
    """How many of the move texts ``following`` can be played from ``position``."""
    count = 0
    for text in following:
        try:
            move = resolve_move(position, text)
        except DraughtsError:
            break
        position = position.play(move)
        count += 1
    return count


def disambiguate(position: Position, candidates: Iterable[Move],
                 following: Iterable[str]) -> Move | None:
    """The one reading of an ambiguous move that lets the record go on furthest.

    ``candidates`` are the legal moves of ``position`` the text could be
    (:attr:`AmbiguousMoveError.candidates <rulesbook.draughts.AmbiguousMoveError>`
    from :func:`resolve_move`), ``following`` the move texts written after it;
    at most :data:`LOOKAHEAD` of them are tried.  None when no candidate is
    given or two or more go on equally far."""
    after = list(islice(following, LOOKAHEAD))
    scores = [(_survival(position.play(m), after), m) for m in candidates]
    if not scores:
        return None
    best = max(score for score, _ in scores)
    winners = [m for score, m in scores if score == best]
    return winners[0] if len(winners) == 1 else None
