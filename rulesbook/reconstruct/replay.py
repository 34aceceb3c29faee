"""Replaying a record and finding the first illegal move, with its reason.

The engine only says whether a move is legal; this module looks at the
written move against the geometry of the position to say *why* it is not
(a man moved backward, a capture over an empty square, a jump left
incomplete...), names the legal moves that were available, maps the reason
to an incident of the rulings engine and writes a sentence a referee can
read aloud.

Two modes (real rules differ):

* ``let_stand=False``: stop at the first illegal move.
* ``let_stand=True``: the illegal move stands as played (the Standard Laws
  and the ACF guide let an uncaught illegal move stand): when it can be
  interpreted physically (a piece goes from its first square to its last,
  the pieces it passed over are taken up) the board is changed that way and
  the replay goes on, listing every later illegal move.  A move that cannot
  be put on the board (unreadable, from an empty square, onto an occupied
  one, ambiguous) stops the replay.

>>> r = replay("11-15 22-18 8-11")
>>> r.first_illegal.reason, r.first_illegal.ply
(<Reason.FAILURE_TO_CAPTURE: 'failure_to_capture'>, 3)
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from rulesbook.draughts import (
    AmbiguousMoveError,
    CapturePrecedence,
    Color,
    DraughtsError,
    IllegalMoveError,
    MidCaptureCrowning,
    Move,
    Piece,
    Position,
    Variant,
)
from rulesbook.draughts.geometry import (
    between,
    crown_row,
    distance,
    forward_rows,
    is_diagonal,
)
from rulesbook.draughts.notation import MoveText, NotationError, read_move
from rulesbook.draughts.pdn import LOOKAHEAD as LOOKAHEAD  # one look-ahead for PDN and replay
from rulesbook.draughts.pdn import disambiguate, resolve_move
from rulesbook.reconstruct.by_hand import played_by_hand
from rulesbook.reconstruct.record import Record, WrittenMove, parse_moves_text
from rulesbook.textio import shorten

__all__ = ["Reason", "INCIDENTS", "IllegalMove", "Replay", "replay", "analyse_move",
           "Analysis", "move_number", "DECISIVE_RESULTS"]

DECISIVE_RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0")
#: how often :func:`replay` reports its progress, in plies
PROGRESS_PLIES = 500


class Reason(str, enum.Enum):
    """Why a written move is not legal."""

    FAILURE_TO_CAPTURE = "failure_to_capture"
    INCOMPLETE_JUMP = "incomplete_jump"
    CROWNED_IN_PASSING = "crowned_in_passing"  # a man crowned while it had to jump on
    NOT_MAXIMUM_CAPTURE = "not_maximum_capture"  # majority-rule variants only
    MAN_MOVED_BACKWARD = "man_moved_backward"
    OCCUPIED_SQUARE = "occupied_square"
    OFF_DIAGONAL = "off_diagonal"
    EMPTY_SQUARE = "empty_square"
    OPPONENT_PIECE = "opponent_piece"
    OUT_OF_TURN = "out_of_turn"
    NOT_A_KING = "not_a_king"
    TOO_FAR = "too_far"
    CAPTURE_OWN_PIECE = "capture_own_piece"
    CAPTURE_OVER_EMPTY = "capture_over_empty"
    JUMPED_TWICE = "jumped_twice"
    JUMP_BLOCKED = "jump_blocked"
    JUMPED_ON_AFTER_CROWNING = "jumped_on_after_crowning"
    STEP_THEN_MORE = "step_then_more"
    UNREADABLE = "unreadable"
    AMBIGUOUS = "ambiguous"
    GAME_OVER = "game_over"
    ILLEGAL = "illegal"

    def __str__(self) -> str:
        return self.value


#: The rulings engine's incident for each reason.
INCIDENTS: dict[Reason, str] = {reason: "illegal_move" for reason in Reason}
INCIDENTS.update({
    Reason.FAILURE_TO_CAPTURE: "failure_to_capture",
    Reason.INCOMPLETE_JUMP: "incomplete_jump",
    Reason.CROWNED_IN_PASSING: "incomplete_jump",
    Reason.NOT_MAXIMUM_CAPTURE: "failure_to_capture",
    Reason.CAPTURE_OWN_PIECE: "own_piece_removed",
})

#: Reasons whose move cannot be put on the board "as played".
_NOT_PHYSICAL = {Reason.UNREADABLE, Reason.AMBIGUOUS, Reason.EMPTY_SQUARE,
                 Reason.OCCUPIED_SQUARE, Reason.JUMP_BLOCKED}


def _or_list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def move_number(start: Position, ply: int) -> int:
    """The move number (``1.``, ``2.``...) of ``ply`` (1-based) played from ``start``."""
    offset = 0 if start.turn is start.variant.first_player else 1
    return (ply - 1 + offset) // 2 + 1


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse_move` found for one written move.

    ``move`` is the legal move (None when illegal).  For an illegal move,
    ``reason``, ``explanation`` (the clause after "but") and ``detail``
    (e.g. ``{"captures": [...]}``), and ``as_played``: the position after
    the move as physically made, or None when it cannot be put on the board.
    """

    move: Move | None
    reason: Reason | None = None
    explanation: str = ""
    detail: dict[str, object] = field(default_factory=dict, compare=False)
    as_played: Position | None = None
    candidates: tuple[Move, ...] = ()


def _texts(position: Position, moves: Iterable[Move]) -> list[str]:
    out = []
    for m in moves:
        try:
            out.append(position.move_text(m))
        except DraughtsError:  # pragma: no cover - moves come from the position
            out.append(m.full_text())
    return out


def _geometry(position: Position, squares: tuple[int, ...], piece: Piece,
              written_capture: bool
              ) -> tuple[Reason, str, Mapping[str, object]] | tuple[None, list[int], bool]:
    """Check the written path hop by hop.  Returns ``(reason, clause, detail)``
    for the first fault, or ``(None, captured squares, crowned)``."""
    variant = position.variant
    color = piece.color
    start = squares[0]
    board = position.pieces()
    board.pop(start, None)
    hops = list(zip(squares, squares[1:], strict=False))
    what = piece.description
    for a, b in hops:
        if not is_diagonal(a, b):
            return (Reason.OFF_DIAGONAL,
                    f"{a} and {b} are not on one diagonal: a piece moves only along a diagonal",
                    {"from": a, "to": b})
    king = piece.king
    captured: list[int] = []
    multi = len(hops) > 1
    for index, (a, b) in enumerate(hops):
        d = distance(a, b)
        mid = between(a, b)
        on_the_way = [s for s in mid if s in board]
        forward = forward_rows(color, a, b) > 0
        is_jump_shape = bool(on_the_way) or written_capture or multi
        if not king and not forward:
            if on_the_way and variant.men_capture_backward and d == 2:
                pass  # a man's backward capture (pool, Russian, Brazilian)
            elif on_the_way and d == 2:
                return (Reason.MAN_MOVED_BACKWARD,
                        f"the man on {a} jumped backward to {b}: in {variant.name} rules "
                        f"men capture forward only", {"from": a, "to": b})
            elif d == 1 or not on_the_way:
                return (Reason.MAN_MOVED_BACKWARD,
                        f"the man on {a} moved backward to {b}: a man moves only forward",
                        {"from": a, "to": b})
        if not king and d > 2:
            return (Reason.NOT_A_KING,
                    f"the piece on {start} is a man, not a king, and cannot move "
                    f"{d} squares from {a} to {b}", {"from": a, "to": b})
        if king and not variant.flying_kings and d > 2:
            return (Reason.TOO_FAR,
                    f"in {variant.name} rules a king moves one square, or jumps over one "
                    f"piece, and cannot go {d} squares from {a} to {b}", {"from": a, "to": b})
        if len(on_the_way) > 1:
            own = [s for s in on_the_way if board[s].color is color]
            twice = [s for s in on_the_way if s in captured]
            if own:
                return (Reason.CAPTURE_OWN_PIECE,
                        f"the {what} would pass over its own piece on {own[0]}",
                        {"square": own[0]})
            if twice:
                return (Reason.JUMPED_TWICE,
                        f"the piece on {twice[0]} was already jumped in this move; "
                        f"no piece may be jumped twice", {"square": twice[0]})
            return (Reason.JUMP_BLOCKED,
                    f"the pieces on {on_the_way[0]} and {on_the_way[1]} stand together "
                    f"between {a} and {b}: two pieces cannot be jumped at once",
                    {"squares": on_the_way})
        if on_the_way:
            sq = on_the_way[0]
            if sq in captured:
                return (Reason.JUMPED_TWICE,
                        f"the piece on {sq} was already jumped in this move; no piece "
                        f"may be jumped twice (jumped pieces stay on the board until "
                        f"the move is complete)", {"square": sq})
            if board[sq].color is color:
                return (Reason.CAPTURE_OWN_PIECE,
                        f"the piece on {sq} is {color.title}'s own {board[sq].description}: "
                        f"a player cannot jump his own piece", {"square": sq})
            captured.append(sq)
        else:
            if is_jump_shape and (d >= 2 or captured):
                if d >= 2:
                    over = mid[-1] if len(mid) == 1 else f"{mid[0]}-{mid[-1]}"
                    return (Reason.CAPTURE_OVER_EMPTY,
                            f"there is no piece on {over} to jump between {a} and {b}",
                            {"from": a, "to": b, "squares": mid})
                return (Reason.STEP_THEN_MORE,
                        f"{a} to {b} is a step, not a jump: a move goes on only by jumping",
                        {"from": a, "to": b})
            if multi:
                return (Reason.STEP_THEN_MORE,
                        f"{a} to {b} is a step, not a jump: a move goes on only by jumping",
                        {"from": a, "to": b})
            if not king and d == 2:
                if variant.flying_kings:
                    return (Reason.NOT_A_KING,
                            f"the piece on {a} is a man, not a king: a man moves one "
                            f"square at a time", {"from": a, "to": b})
                return (Reason.CAPTURE_OVER_EMPTY,
                        f"there is no piece on {mid[0]} to jump", {"from": a, "to": b,
                                                                  "squares": mid})
            if king and not variant.flying_kings and d == 2:
                return (Reason.CAPTURE_OVER_EMPTY,
                        f"there is no piece on {mid[0]} to jump", {"from": a, "to": b,
                                                                  "squares": mid})
        if b in board and b != start:
            return (Reason.OCCUPIED_SQUARE,
                    f"{b} is occupied by a {board[b].description}", {"square": b})
        if not king and b in crown_row(color) and captured:
            mode = variant.mid_capture_crowning
            if index < len(hops) - 1:
                if mode is MidCaptureCrowning.ENDS:
                    return (Reason.JUMPED_ON_AFTER_CROWNING,
                            f"the man reached the king row on {b}: in {variant.name} rules "
                            f"that ends the move, it cannot jump on", {"square": b})
                if mode is MidCaptureCrowning.CONTINUES:
                    king = True
    crowned = (not piece.king and squares[-1] in crown_row(color)) or (king and not piece.king)
    return None, captured, crowned


def analyse_move(position: Position, text: str | WrittenMove,
                 following: Sequence[str] = ()) -> Analysis:
    """Resolve the written move ``text`` in ``position``; when it is not legal,
    say why.  ``following`` (the next written moves) settles an ambiguous
    capture when only one reading lets the record go on."""
    text = text.text if isinstance(text, WrittenMove) else str(text)
    slot = position.turn
    legal = position.legal_moves()
    # ---- legal?
    try:
        move = resolve_move(position, text)
        return Analysis(move)
    except AmbiguousMoveError as exc:
        candidates = tuple(exc.candidates)
        if candidates and following:
            chosen = disambiguate(position, candidates, following)
            if chosen is not None:
                return Analysis(chosen)
        options = [m.full_text() for m in candidates]
        return Analysis(None, Reason.AMBIGUOUS,
                        f"{text} could be {_or_list(options)}; the record does not say which",
                        {"candidates": options}, None, candidates)
    except DraughtsError:
        pass
    try:
        written: MoveText = read_move(text)
    except NotationError as exc:
        return Analysis(None, Reason.UNREADABLE,
                        f"{shorten(text)!r} cannot be read as a move: {exc.explanation}", {})
    if written.start is None:  # the short form (ed4): no legal move fits it
        return Analysis(None, Reason.UNREADABLE,
                        f"{shorten(text)!r} cannot be read as a move here: no legal move goes "
                        f"from the {written.start_file}-file to it (write it as from-to, e.g. "
                        f"11-15, or fromxto, e.g. 15x24)", {})
    squares = written.squares
    if not legal:
        return Analysis(None, Reason.GAME_OVER,
                        f"{slot.title} had no legal move: the game was already over", {},
                        played_by_hand(position, squares, slot))
    start = squares[0]
    piece = position.piece_at(start)
    if piece is None:
        return Analysis(None, Reason.EMPTY_SQUARE, f"there is no piece on {start}",
                        {"square": start})
    if piece.color is not slot:
        other = position.with_turn(piece.color)
        try:
            resolve_move(other, text)
            return Analysis(None, Reason.OUT_OF_TURN,
                            f"that is a move of {piece.color.title}'s "
                            f"{piece.description.split()[1]} on {start}: {piece.color.title} "
                            f"moved out of turn (it was {slot.title}'s turn)",
                            {"mover": piece.color.name.lower()},
                            played_by_hand(position, squares, slot))
        except DraughtsError:
            return Analysis(None, Reason.OPPONENT_PIECE,
                            f"the piece on {start} is {piece.color.title}'s "
                            f"{piece.description.split()[1]}: {slot.title} cannot move it",
                            {"square": start},
                            played_by_hand(position, squares, slot))
    found = _geometry(position, squares, piece, written.capture)
    physical = played_by_hand(position, squares, slot)
    if found[0] is not None:
        reason, clause, detail = found
        return Analysis(None, reason, clause, dict(detail),
                        None if reason in _NOT_PHYSICAL else physical)
    captured = list(found[1])
    crowned = bool(found[2])
    legal_caps = [m for m in legal if m.is_capture]
    if not captured:
        if legal_caps:
            texts = _texts(position, legal_caps)
            return Analysis(None, Reason.FAILURE_TO_CAPTURE,
                            f"{slot.title} had to capture: {_or_list(texts)}",
                            {"captures": texts}, physical)
        return Analysis(None, Reason.ILLEGAL, _engine_reason(position, text), {}, physical)
    k = len(captured)
    longer = [m for m in legal_caps
              if m.start == start and list(m.captures[:k]) == captured and len(m.captures) > k]
    if longer:
        texts = [m.full_text() for m in longer]
        end = squares[-1]
        if crowned and not piece.king:
            return Analysis(None, Reason.CROWNED_IN_PASSING,
                            f"the man stopped on the king row at {end} although it could "
                            f"jump on ({_or_list(texts)}); a man is crowned only when its "
                            f"move ends there, and it had to complete the jump",
                            {"continuations": texts}, physical)
        return Analysis(None, Reason.INCOMPLETE_JUMP,
                        f"the jump was not complete: from {end} the {piece.description} "
                        f"could have gone on ({_or_list(texts)})",
                        {"continuations": texts}, physical)
    if position.variant.capture_precedence is CapturePrecedence.MOST and legal_caps:
        best = max(len(m.captures) for m in legal_caps)
        if k < best:
            texts = _texts(position, legal_caps)
            return Analysis(None, Reason.NOT_MAXIMUM_CAPTURE,
                            f"{slot.title} had to take the most pieces ({best}): "
                            f"{_or_list(texts)}", {"captures": texts}, physical)
    return Analysis(None, Reason.ILLEGAL, _engine_reason(position, text), {}, physical)


def _engine_reason(position: Position, text: str) -> str:
    """The engine's own reason why ``text`` is not legal (the clause after "move X: ")."""
    try:
        position.parse_move(text)
    except IllegalMoveError as exc:
        return exc.explanation
    return "the move is not legal here"  # pragma: no cover


# --------------------------------------------------------------------------- results

@dataclass(frozen=True)
class IllegalMove:
    """An illegal move of the record.

    ``ply`` counts from 1 for the first move replayed; ``facts`` are what it
    establishes for the rulings engine: ``ply``, ``plies_ago`` (plies
    written after it, so 0 = noticed at once), ``side`` (``"black"`` /
    ``"white"``), ``discovered`` (``at_once`` / ``later_in_game`` /
    ``after_game``), ``repeated`` and ``reconstructible``.
    """

    ply: int
    move_number: int
    side: Color
    move: str
    reason: Reason
    message: str
    legal_moves: tuple[str, ...]
    position_before: Position
    detail: dict[str, object] = field(default_factory=dict, compare=False)
    facts: dict[str, int | str | bool] = field(default_factory=dict, compare=False)
    applied: bool = False
    line: int = 0
    col: int = 0

    @property
    def incident(self) -> str:
        return INCIDENTS[self.reason]

    @property
    def fen_before(self) -> str:
        return self.position_before.fen()

    def to_dict(self) -> dict[str, object]:
        """The ``first_illegal`` object of ``rulesbook replay --json``."""
        return {
            "ply": self.ply,
            "move_number": self.move_number,
            "side": self.side.name.lower(),
            "move": shorten(self.move),
            "reason": self.reason.value,
            "incident": self.incident,
            "message": self.message,
            "legal_moves": list(self.legal_moves),
            "fen_before": self.fen_before,
        }


@dataclass(frozen=True)
class Replay:
    """The result of :func:`replay`.

    ``positions[i]`` is the board after ``i`` plies (``positions[0]`` is the
    start); ``played[i]`` the legal move of ply ``i + 1`` or None when it was
    illegal (and stood as played, or stopped the replay).
    """

    start: Position
    moves: tuple[str, ...]
    positions: tuple[Position, ...]
    played: tuple[Move | None, ...]
    illegal: tuple[IllegalMove, ...]
    let_stand: bool = False

    @property
    def first_illegal(self) -> IllegalMove | None:
        return self.illegal[0] if self.illegal else None

    @property
    def ok(self) -> bool:
        return not self.illegal

    @property
    def final(self) -> Position:
        return self.positions[-1]

    @property
    def complete(self) -> bool:
        """True when every written move was replayed (legal or standing as played)."""
        return len(self.positions) == len(self.moves) + 1

    def stopped(self) -> Replay:
        """This replay as :func:`replay` without ``let_stand`` gives it: stopped at the
        first illegal move (cut from this one, not replayed again: a long record's
        check after its replay)."""
        first = self.first_illegal
        if not self.let_stand:
            return self
        if first is None:
            return replace(self, let_stand=False)
        return Replay(self.start, self.moves, self.positions[:first.ply],
                      self.played[:first.ply - 1], (replace(first, applied=False),), False)


def _discovered(plies_ago: int, result: str) -> str:
    if result in DECISIVE_RESULTS:
        return "after_game"
    return "at_once" if plies_ago == 0 else "later_in_game"


def _kept(previous: Replay | None, start: Position, texts: Sequence[str],
          let_stand: bool) -> int:
    """How many plies of ``previous`` the replay of ``texts`` from ``start`` takes
    over: those before the first text that differs, less the look-ahead that
    could read them otherwise (0 without a previous replay of the same start)."""
    if previous is None or previous.start != start or previous.let_stand != let_stand:
        return 0
    before, most = previous.moves, min(len(previous.moves), len(texts))
    same = 0
    while same < most and before[same] == texts[same]:
        same += 1
    return max(0, min(same - LOOKAHEAD, len(previous.played)))


def replay(record: Record | str | Sequence[str | WrittenMove], start: Position | str | None = None,
           variant: str | Variant | None = None, let_stand: bool = False,
           result: str | None = None, previous: Replay | None = None,
           progress: Callable[[int, int], None] | None = None) -> Replay:
    """Replay a record: a :class:`Record`, a move text (``"11-15 23-19 ..."``)
    or a list of move texts, from ``start`` (a Position, a FEN, or the start
    position of ``variant``, pool by default).

    Stops at the first illegal move, or with ``let_stand`` lets illegal moves
    stand as played and lists every one (see the module docstring).

    ``previous``: a replay of an earlier version of the record (an edit; the same
    start and ``let_stand``): the plies before the first move that differs are
    taken from it, not analysed again (the same result; an edit at the end of a
    long record replays only what changed).

    ``progress``: called with the plies replayed so far and the record's plies,
    every :data:`PROGRESS_PLIES` plies (a reader's progress on a long record).
    """
    if isinstance(record, Record):
        written = list(record.moves)
        if variant is None:
            variant = record.variant
        if start is None:
            start = record.start
        if result is None:
            result = record.result
    elif isinstance(record, str):
        written = parse_moves_text(record)
    else:
        written = [m if isinstance(m, WrittenMove) else WrittenMove(str(m)) for m in record]
    chosen = Variant.named(variant if variant is not None else
                           (start.variant if isinstance(start, Position) else "pool"))
    if isinstance(start, str):
        start = Position.from_fen(start, chosen)
    elif start is None:
        start = Position.start(chosen)
    elif start.variant != chosen:
        start = Position(start.pieces(), start.turn, chosen)
    texts = [m.text for m in written]
    keep = _kept(previous, start, texts, let_stand)
    positions = [start]
    played: list[Move | None] = []
    raw_illegal: list[tuple[int, WrittenMove, Analysis | IllegalMove, Position]] = []
    if keep and previous is not None:
        positions = list(previous.positions[:keep + 1])
        played = list(previous.played[:keep])
        raw_illegal = [(m.ply, written[m.ply - 1], m, m.position_before)
                       for m in previous.illegal if m.ply <= keep]
    position = positions[-1]
    for index in range(keep, len(written)):
        item = written[index]
        if progress is not None and index % PROGRESS_PLIES == 0:
            progress(index, len(written))
        # only the next LOOKAHEAD texts can settle an ambiguity: a slice of the
        # whole rest would make a long record quadratic
        analysis = analyse_move(position, item, texts[index + 1:index + 1 + LOOKAHEAD])
        if analysis.move is not None:
            position = position.play(analysis.move)
            played.append(analysis.move)
            positions.append(position)
            continue
        raw_illegal.append((index + 1, item, analysis, position))
        if not let_stand or analysis.as_played is None:
            break
        played.append(None)
        position = analysis.as_played
        positions.append(position)
    total = len(written)
    outcome = result or "*"
    illegal = []
    sides_seen: set[Color] = set()
    for ply, item, found, before in raw_illegal:
        side = before.turn
        number = move_number(start, ply)
        repeated = side in sides_seen
        sides_seen.add(side)
        facts: dict[str, int | str | bool] = {
            "ply": ply,
            "plies_ago": total - ply,
            "side": side.name.lower(),
            "discovered": _discovered(total - ply, outcome),
            "repeated": repeated,
            "reconstructible": True,
        }
        if isinstance(found, IllegalMove):  # taken over from the previous replay
            illegal.append(replace(found, facts=facts, detail=dict(found.detail),
                                   line=item.line, col=item.col))
            continue
        analysis = found
        assert analysis.reason is not None
        legal_texts = tuple(_texts(before, before.legal_moves()))
        message = (f"At move {number} {side.title} played {shorten(item.text)}, but "
                   f"{analysis.explanation}.")
        applied = let_stand and analysis.as_played is not None
        illegal.append(IllegalMove(ply, number, side, item.text, analysis.reason, message,
                                   legal_texts, before, dict(analysis.detail), facts,
                                   applied, item.line, item.col))
    return Replay(start, tuple(texts), tuple(positions), tuple(played), tuple(illegal),
                  let_stand)
