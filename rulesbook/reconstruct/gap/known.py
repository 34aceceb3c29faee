"""Checks of the moves the players agree on (``--known``) before a gap search.

A known move that cannot belong to the gap is an input error the referee can
fix, not an "impossible" answer: a ply past the end of the gap, two moves for
one ply, a step no piece can make, a king's move by a side that can have no king yet, a man's step backward at a ply of the side
whose men go the other way (and which can have no king yet), a first move
that is not legal in the earlier position.  :func:`check_known` raises
:class:`~rulesbook.draughts.DraughtsError` with a message that names the
move as written.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from rulesbook.draughts import Color, DraughtsError, Position, Variant
from rulesbook.draughts.geometry import coords, forward_rows, is_diagonal

__all__ = ["KnownMove", "check_known"]


class KnownMove(Protocol):
    """What :func:`check_known` reads of a :class:`~rulesbook.reconstruct.gap.Known`."""

    @property
    def ply(self) -> int: ...
    @property
    def start(self) -> int | None: ...
    @property
    def end(self) -> int | None: ...
    @property
    def via(self) -> tuple[int, ...]: ...
    @property
    def text(self) -> str: ...

    def matches(self, path: tuple[int, ...]) -> bool: ...


def _shown(k: KnownMove) -> str:
    return k.text or str(k)


def _side_at(start: Position, ply: int) -> Color:
    """The side that plays ply ``ply`` (1 = the first missing ply)."""
    return start.turn if ply % 2 == 1 else start.turn.opponent


def _can_have_king(start: Position, target: Position, side: Color, moves_before: int) -> bool:
    """Whether ``side`` may have a king after ``moves_before`` of its moves: it
    has one, or a man of it can reach its king row in time (a quiet move
    goes one row forward, a jump two, and it takes at most the pieces that
    disappear from the board in the whole gap)."""
    if start.count(side, king=True):
        return True
    takes = max(start.count(side.opponent) - target.count(side.opponent), 0)
    reach = moves_before + 2 * takes
    crown_row = 7 if side is Color.BLACK else 0
    for square, piece in start.pieces().items():
        if piece.color is side and not piece.king:
            if abs(crown_row - coords(square)[0]) <= reach:
                return True
    return False


def _check_geometry(k: KnownMove, variant: Variant, flying_capture: bool) -> None:
    """A move with both squares known and nothing between: a capture by
    short jumps always moves an even number of rows (two a jump), so a move
    an odd number of rows long is a step along one diagonal (one square long
    without flying kings).  ``flying_capture``: the side may capture with a
    flying king by then, whose capture lands any distance behind each piece
    and can end anywhere, an odd number of rows away too."""
    if k.start is None or k.end is None or k.via or flying_capture:
        return
    (ra, _), (rb, _) = coords(k.start), coords(k.end)
    rows = abs(ra - rb)
    if rows % 2 == 0:
        return
    if not is_diagonal(k.start, k.end):
        raise DraughtsError(
            f"the known move {_shown(k)} cannot be played: {k.start} and {k.end} are not on "
            f"one diagonal, and a capture always moves an even number of rows")
    if rows > 1 and not variant.flying_kings:
        raise DraughtsError(
            f"the known move {_shown(k)} cannot be played: in {variant.name} a piece steps "
            f"one square at a time, and a capture always moves an even number of rows")


def check_known(constraints: Mapping[int, Sequence[KnownMove]], start: Position,
                target: Position, plies: int | None, max_plies: int | None,
                variant: Variant) -> None:
    """Raise DraughtsError when a known move cannot belong to the gap."""
    longest = plies if plies is not None else max_plies
    assert longest is not None
    gap = f"the {longest}-ply gap" if plies is not None else \
        f"the gap of at most {longest} plies"
    for ply in sorted(constraints):
        ks = constraints[ply]
        if ply > longest:
            raise DraughtsError(
                f"the known move {_shown(ks[0])} is at ply {ply}, beyond {gap}: plies count "
                f"from 1 = the first missing ply")
        if len(ks) > 1:
            raise DraughtsError(
                f"two known moves for ply {ply} ({' and '.join(_shown(k) for k in ks)}): "
                f"give one move for each ply")
        (k,) = ks
        side = _side_at(start, ply)
        moves_before = (ply - 1) // 2
        # (a man crowned during this very capture may go on as a flying king)
        _check_geometry(k, variant, variant.flying_kings
                        and _can_have_king(start, target, side, moves_before + 1))
        if k.start is not None and k.end is not None and not k.via:
            rows = forward_rows(side, k.start, k.end)
            if rows % 2 and abs(rows) > 1 \
                    and not _can_have_king(start, target, side, moves_before):
                raise DraughtsError(
                    f"the known move {_shown(k)} is a king's move ({abs(rows)} squares along a "
                    f"diagonal), but {side.title}, who plays ply {ply}, can have no king by "
                    f"then")
            if rows == -1 and not _can_have_king(start, target, side, moves_before):
                owner = side.opponent
                first, second = start.turn, start.turn.opponent
                raise DraughtsError(
                    f"the known move {_shown(k)} is {owner.title}'s (a man's step toward "
                    f"{'29-32' if owner is Color.BLACK else '1-4'}, and {side.title} can have "
                    f"no king by then), but ply {ply} is {side.title}'s: {first.title} plays "
                    f"the odd plies of the gap, {second.title} the even ones")
        if ply == 1:
            legal = start.legal_moves()
            if not any(k.matches(m.path) for m in legal):
                shown = ", ".join(start.move_text(m) for m in legal[:12])
                more = ", …" if len(legal) > 12 else ""
                raise DraughtsError(
                    f"the known move {_shown(k)} at ply 1 is not legal in the earlier position "
                    f"({start.turn.title} to move; legal moves: {shown or 'none'}{more})")
