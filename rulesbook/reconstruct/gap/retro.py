"""Retro moves for the gap search: the positions one ply before a position.

Quiet moves are un-made exactly (:func:`quiet_unmoves`: a man steps back one
square, a king back along a free diagonal, a king on its crowning row back to
a man behind it): each is the one legal move that leads to the position when
the side that moved had no capture there, so a backward layer adds up their
counts without generating any move.  Captures are over-generated
(:func:`capture_unmoves`: the pieces taken come back on the squares the
capturing piece passed, as men or kings, only as many as the side has lost
since the earlier position and never more men than it has lost men; a man
that does not capture backward un-jumps only backward), and each candidate
is played forward to check it.  :func:`unmoves` is both, and never misses a
predecessor; :func:`frontier` keeps the checked ones with the moves that lead
from them to the board.  Where a man crowned in the middle of a capture
captures on as a king (Russian), a king's capture is also un-made back to
a square of its crowning row and on from there as a man's.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from rulesbook.draughts import Variant
from rulesbook.draughts.movegen import (
    BIT,
    FULL,
    RAYS_BY_DIR,
    CompiledRules,
    RawMove,
    apply,
    has_capture,
    legal_raw_moves,
)
from rulesbook.draughts.variant import MidCaptureCrowning
from rulesbook.reconstruct.gap.bounds import (
    CONE_BLACK,
    CONE_WHITE,
    CROWN_ROW_BLACK,
    CROWN_ROW_WHITE,
    Reachable,
    Target,
    bits,
)

__all__ = ["Key", "QuietUnmove", "RawMove", "Rules", "can_unmove", "capture_unmoves", "frontier",
           "next_layer", "quiet_unmoves", "reach", "unmoves"]

#: A position as the search keys it: ``(bm, bk, wm, wk, black_to_move)``.
Key = tuple[int, int, int, int, bool]
#: The four boards ``(bm, bk, wm, wk)`` of a position without the side to move.
Boards = tuple[int, int, int, int]
#: A variant's flags as :func:`~rulesbook.draughts.movegen.compile_rules` gives them.
Rules = CompiledRules

_T = TypeVar("_T")

_CROWN_MASK_BLACK = sum(BIT[i] for i in CROWN_ROW_BLACK)
_CROWN_MASK_WHITE = sum(BIT[i] for i in CROWN_ROW_WHITE)
# directions (indices of RAYS_BY_DIR) in which a man of the side goes back:
# Black moves down the board (directions 2, 3), so it came from above (0, 1)
_BACK_BLACK = (0, 1)
_BACK_WHITE = (2, 3)
_ALL_DIRS = (0, 1, 2, 3)


class QuietUnmove(NamedTuple):
    """A position one ply before, from which the quiet move ``start``-``end``
    (bit indices) of the side that moved leads to the position un-moved."""

    bm: int
    bk: int
    wm: int
    wk: int
    start: int
    end: int


class MoveConstraint(Protocol):
    """What the search asks of a known move (:class:`~rulesbook.reconstruct.gap.Known`):
    does a move, as its path of square numbers, match it?"""

    def matches(self, path: tuple[int, ...]) -> bool: ...


def _back_squares(dirs: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(RAYS_BY_DIR[i][d][0] for d in dirs if RAYS_BY_DIR[i][d])
                 for i in range(32))


def _back_jumps(dirs: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """Per square: ``(bit of the square jumped, bit of the square jumped from,
    the two squares)`` for a short jump that ended there, coming from ``dirs``."""
    return tuple(tuple((BIT[ray[0]], BIT[ray[1]], ray[0], ray[1])
                       for ray in (RAYS_BY_DIR[i][d] for d in dirs) if len(ray) >= 2)
                 for i in range(32))


_JUMP_BACK: dict[tuple[int, ...], tuple[tuple[tuple[int, int, int, int], ...], ...]] = {
    dirs: _back_jumps(dirs) for dirs in ((0, 1), (2, 3), (0, 1, 2, 3))}

# the squares a man of the side stepped from to reach each square
_STEP_BACK_BLACK = _back_squares(_BACK_BLACK)
_STEP_BACK_WHITE = _back_squares(_BACK_WHITE)
_STEP_ANY = _back_squares(_ALL_DIRS)


def quiet_unmoves(bm: int, bk: int, wm: int, wk: int, black: bool,
                  flying: bool, men_from: int = FULL) -> list[QuietUnmove]:
    """Every quiet move of the side that just moved (``not black``: ``black``
    is to move now) that ends in this position, with the position before it;
    a man's only from the squares ``men_from`` (all by default).

    Exact: each is a legal move of the position before when the side that
    moved has no capture there (the caller checks that); a man on its own
    crowning row has not just moved (it would have been crowned)."""
    occ = bm | bk | wm | wk
    free = FULL ^ occ
    men_free = free & men_from
    out: list[QuietUnmove] = []
    if black:  # White moved
        men, kings, back, crown = wm, wk, _STEP_BACK_WHITE, _CROWN_MASK_WHITE
    else:
        men, kings, back, crown = bm, bk, _STEP_BACK_BLACK, _CROWN_MASK_BLACK
    x = men & ~crown
    while x:
        b = x & -x
        x ^= b
        end = b.bit_length() - 1
        rest = men ^ b
        for sq in back[end]:
            if men_free & BIT[sq]:
                nmen = rest | BIT[sq]
                out.append(QuietUnmove(bm, bk, nmen, wk, sq, end) if black
                           else QuietUnmove(nmen, bk, wm, wk, sq, end))
    x = kings
    while x:
        b = x & -x
        x ^= b
        end = b.bit_length() - 1
        rest = kings ^ b
        if flying:
            for ray in RAYS_BY_DIR[end]:
                for sq in ray:
                    if not free & BIT[sq]:
                        break
                    nk = rest | BIT[sq]
                    out.append(QuietUnmove(bm, bk, wm, nk, sq, end) if black
                               else QuietUnmove(bm, nk, wm, wk, sq, end))
        else:
            for sq in _STEP_ANY[end]:
                if free & BIT[sq]:
                    nk = rest | BIT[sq]
                    out.append(QuietUnmove(bm, bk, wm, nk, sq, end) if black
                               else QuietUnmove(bm, nk, wm, wk, sq, end))
        if crown & b:  # a man stepped onto its crowning row and was crowned
            for sq in back[end]:
                if men_free & BIT[sq]:
                    nmen = men | BIT[sq]
                    out.append(QuietUnmove(bm, bk, nmen, rest, sq, end) if black
                               else QuietUnmove(nmen, rest, wm, wk, sq, end))
    return out


def _reach_table(cone: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """``reach[c][b]``: the squares a man on ``c`` can reach in at most ``b``
    quiet steps forward (``b`` up to 7, a whole board)."""
    return tuple(tuple(sum(BIT[t] for t in range(32) if cone[c][t] <= b) for b in range(8))
                 for c in range(32))


_REACH_BLACK = _reach_table(CONE_BLACK)
_REACH_WHITE = _reach_table(CONE_WHITE)


def reach(black: bool, men: int, steps: int) -> int:
    """The squares the men ``men`` of a side (``black`` or White) can stand on
    after at most ``steps`` steps forward between them (a man on one of them
    may be any of the men; the squares themselves included)."""
    if steps < 0:
        return 0
    table = _REACH_BLACK if black else _REACH_WHITE
    b = min(steps, 7)
    out = 0
    for c in bits(men):
        out |= table[c][b]
    return out


def capture_unmoves(bm: int, bk: int, wm: int, wk: int, black: bool, variant: Variant,
                    room: int, men_room: int | None = None, victim_men: int = FULL,
                    mover_men: Sequence[int] | None = None) -> set[Boards]:
    """Candidate boards one ply before (bm, bk, wm, wk), ``black`` to move
    now, from which the side that just moved (``not black``) captured: up to
    ``room`` pieces of the side to move come back, of which at most
    ``men_room`` men (None: up to ``room``), men only on ``victim_men`` and
    never on their own crowning row (elsewhere only kings come back); a man
    that captured ``n`` pieces started on ``mover_men[n]`` (None: anywhere).
    Over-generates (the caller plays each candidate forward to check it);
    never misses a capture within those limits."""
    out: set[Boards] = set()
    if room <= 0:
        return out
    if men_room is None or men_room > room:
        men_room = room
    mover_black = not black
    if mover_black:
        men, kings, omen, okings = bm, bk, wm, wk
    else:
        men, kings, omen, okings = wm, wk, bm, bk
    occ = bm | bk | wm | wk
    empty = FULL ^ occ
    opp_crown = _CROWN_MASK_WHITE if mover_black else _CROWN_MASK_BLACK
    own_crown = _CROWN_MASK_BLACK if mover_black else _CROWN_MASK_WHITE
    flying = variant.flying_kings
    # a man crowned in the middle of a capture captures on as a king (Russian)
    continues = variant.mid_capture_crowning is MidCaptureCrowning.CONTINUES
    man_dirs = _ALL_DIRS if variant.men_capture_backward else (
        _BACK_BLACK if mover_black else _BACK_WHITE)

    men_ok = victim_men & ~opp_crown  # where a piece taken may have been a man

    def emit(nmen: int, nkings: int, restored: int) -> None:
        either = bits(restored & men_ok)  # a man or a king
        kings_only = okings | (restored & ~men_ok)
        for mask in range(1 << len(either)):
            em, ek = omen, kings_only
            as_men = 0
            for idx, sq in enumerate(either):
                if mask >> idx & 1:
                    ek |= BIT[sq]
                else:
                    em |= BIT[sq]
                    as_men += 1
            if as_men <= men_room:
                out.add((nmen, nkings, em, ek) if mover_black else (em, ek, nmen, nkings))

    for end_set, is_king in ((men & ~own_crown, False), (kings, True)):
        for end in bits(end_set):
            # a king on its crowning row may be a man crowned by this capture
            kinds = (True, False) if is_king and own_crown & BIT[end] else (is_king,)
            path_free = empty | BIT[end]  # the piece may end where it started
            for was_king in kinds:
                base_men = men & ~BIT[end]
                base_kings = kings & ~BIT[end]

                def start_at(sq: int, restored: int, was_king: bool = was_king,
                             base_men: int = base_men, base_kings: int = base_kings) -> None:
                    if was_king:
                        emit(base_men, base_kings | BIT[sq], restored)
                    elif mover_men is None or mover_men[restored.bit_count()] >> sq & 1:
                        emit(base_men | BIT[sq], base_kings, restored)

                if was_king and continues:
                    # or a man crowned where the king segment began (a square of
                    # its crowning row it jumped onto): a man's un-jumps before it
                    def crowned_at(sq: int, restored: int, start_at: Callable[[int, int], None]
                                   = start_at, base_men: int = base_men,
                                   base_kings: int = base_kings,
                                   path_free: int = path_free) -> None:
                        start_at(sq, restored)
                        if own_crown & BIT[sq] and restored.bit_count() < room:
                            def as_man(at: int, rest: int) -> None:
                                if mover_men is None or mover_men[rest.bit_count()] >> at & 1:
                                    emit(base_men | BIT[at], base_kings, rest)
                            _retro_short(sq, _JUMP_BACK[man_dirs], empty, path_free, restored,
                                         room, as_man)
                    king_start: Callable[[int, int], None] = crowned_at
                else:
                    king_start = start_at
                if was_king and flying:
                    _retro_flying(end, empty, path_free, 0, room, king_start)
                else:
                    _retro_short(end, _JUMP_BACK[_ALL_DIRS if was_king else man_dirs], empty,
                                 path_free, 0, room, king_start)
    return out


def _retro_short(here: int, table: tuple[tuple[tuple[int, int, int, int], ...], ...],
                 empty: int, path_free: int, restored: int, room: int,
                 start_at: Callable[[int, int], None]) -> None:
    """Short un-jumps into ``here`` (a man, or a king that does not fly): the
    piece came from ``prev`` over ``cap`` (``table``: the ways back); ``cap`` is
    empty now (the piece was taken up) and comes back (``restored``: the
    squares already given back, at most ``room``)."""
    for cb, pb, _cap, prev in table[here]:
        if empty & cb and not restored & cb and path_free & pb and not restored & pb:
            nrest = restored | cb
            start_at(prev, nrest)
            if nrest.bit_count() < room:
                _retro_short(prev, table, empty, path_free, nrest, room, start_at)


def _retro_flying(here: int, empty: int, path_free: int, restored: int, room: int,
                  start_at: Callable[[int, int], None]) -> None:
    """Un-jumps of a flying king into ``here``: it came from ``prev`` over
    ``cap`` along a free diagonal, ``cap`` anywhere between (see
    :func:`_retro_short`)."""
    for ray in RAYS_BY_DIR[here]:
        n = len(ray)
        for a in range(n):
            cap = ray[a]
            if restored >> cap & 1 or not path_free >> cap & 1:
                break
            if not empty >> cap & 1:
                continue  # the square the piece ends on: passed over, never taken
            nrest = restored | BIT[cap]
            for b in range(a + 1, n):
                prev = ray[b]
                if restored >> prev & 1 or not path_free >> prev & 1:
                    break
                start_at(prev, nrest)
                if nrest.bit_count() < room:
                    _retro_flying(prev, empty, path_free, nrest, room, start_at)


def unmoves(bm: int, bk: int, wm: int, wk: int, black: bool, variant: Variant,
            room: int, men_room: int | None = None) -> set[Boards]:
    """Candidate boards one ply before (bm, bk, wm, wk), ``black`` to move
    now, so the side that just moved is ``not black``: it un-moves one piece
    (un-captures put back up to ``room`` opposing pieces, at most ``men_room``
    of them men).  Over-generates (the caller plays each candidate forward to
    check it); never misses a predecessor."""
    out = capture_unmoves(bm, bk, wm, wk, black, variant, room, men_room)
    out.update((u.bm, u.bk, u.wm, u.wk)
               for u in quiet_unmoves(bm, bk, wm, wk, black, variant.flying_kings))
    return out


def frontier(t: Target, variant: Variant, rules: Rules, room: int
             ) -> dict[Key, list[RawMove]]:
    """{board one ply before the target: [raw moves leading to the target]}."""
    table: dict[Key, list[RawMove]] = {}
    mover_black = not t.black
    for nbm, nbk, nwm, nwk in unmoves(t.bm, t.bk, t.wm, t.wk, t.black, variant, room):
        hits = []
        for mv in legal_raw_moves(nbm, nbk, nwm, nwk, mover_black, rules):
            if apply(nbm, nbk, nwm, nwk, mover_black, mv) == (t.bm, t.bk, t.wm, t.wk):
                hits.append(mv)
        if hits:
            table[(nbm, nbk, nwm, nwk, mover_black)] = hits
    return table


def can_unmove(variant: Variant) -> bool:
    """Whether :func:`unmoves` knows the variant (every variant: a man crowned
    in the middle of a capture that captures on as a king, Russian, is
    un-moved as a king back to a square of its crowning row and a man before)."""
    return variant.mid_capture_crowning in ("no", "ends", "continues")


def _must_capture(key: Key, rules: Rules) -> bool:
    bm, bk, wm, wk, black = key
    if black:
        return has_capture(bm, bk, wm | wk, bm | bk | wm | wk, True, rules)
    return has_capture(wm, wk, bm | bk, bm | bk | wm | wk, False, rules)


#: a layer's progress is reported (``tick``) every this many positions
TICK_EVERY = 64
#: the capture candidates given to ``captures`` at a time (next_layer)
CAPTURE_BATCH = 4096



class CaptureCounts(Protocol):
    """The candidates of a backward layer checked a batch at a time (the
    compiled search's :mod:`.kernel_retro`), for :func:`next_layer`."""

    def captures(self, keys: list[Key], k: int) -> Sequence[int]:
        """For each candidate board of layer ``k`` from un-captures: -1 when
        its side to move has no capture, 0 when the start cannot reach it in
        the plies before (``reachable``), else the sequences its moves (those
        the known move of its ply allows) lead to in layer ``k - 1``."""

    def quiet(self, keys: list[Key], k: int) -> Sequence[bool]:
        """For each candidate board of layer ``k`` from quiet un-moves: its
        side to move has no capture and the start can reach it."""


def _ticking(items: Sequence[_T] | Mapping[Key, int] | set[Key],
             tick: Callable[[float, int], None] | None, first: float, last: float
             ) -> Iterator[Any]:
    """The items (a dict's items), calling ``tick(share, positions)`` after
    every :data:`TICK_EVERY` of them and after the last: ``share`` of the
    layer done, from ``first`` to ``last`` along them, ``positions`` examined
    since the last call."""
    seq = items.items() if isinstance(items, Mapping) else items
    if tick is None:
        yield from seq
        return
    n = max(len(items), 1)
    i = -1
    for i, item in enumerate(seq):
        if i % TICK_EVERY == TICK_EVERY - 1:
            tick(first + (last - first) * i / n, TICK_EVERY)
        yield item
    if (i + 1) % TICK_EVERY:
        tick(last, (i + 1) % TICK_EVERY)


def next_layer(below: Mapping[Key, int], k: int, variant: Variant, rules: Rules, start: Key,
               plies: int, known: Mapping[int, Sequence[MoveConstraint]],
               tick: Callable[[float, int], None] | None = None,
               reachable: Reachable | None = None,
               captures: CaptureCounts | None = None) -> dict[Key, int]:
    """The backward layer ``k`` from layer ``k - 1`` (``below``): every position
    from which the target is reached in exactly ``k`` plies (the last ``k`` of
    ``plies``, honouring the constraints ``known`` on them), with the number
    of such sequences.  Positions the ``start`` cannot reach in the plies
    before are left out (they are never looked up).  Layer 0 is ``{target: 1}``.

    A position whose side to move has no capture moves quietly: its count is
    the sum over the quiet un-moves into ``below`` (each one legal move).  A
    position with a capture is counted by playing its captures (the
    candidates from :func:`capture_unmoves`).  The two kinds never mix.
    ``reachable``: the search's :class:`~rulesbook.reconstruct.gap.bounds.Reachable`
    from ``start`` (one is made when None), so its answers serve every layer.
    ``tick(share, positions)`` is called every :data:`TICK_EVERY` positions
    examined (it may raise to cancel): ``share`` of the layer built (the
    positions of ``below`` un-moved, the first half; the candidates checked,
    the second), ``positions`` examined since the last call.
    ``captures``: the candidates checked a batch at a time (the compiled
    search's :mod:`.kernel_retro`; the same answer as the Python checks here)."""
    sb, sbk, sw, swk, start_turn = start
    start_black, start_white = (sb | sbk).bit_count(), (sw | swk).bit_count()
    start_bmen, start_wmen = sb.bit_count(), sw.bit_count()
    ply = plies - k + 1  # the ply of the move from this layer to the one below
    constraints = [c.matches for c in known.get(ply) or ()]
    flying = variant.flying_kings
    men_back = variant.men_capture_backward
    left = plies - k  # plies from the start to this layer
    if reachable is None:
        reachable = Reachable(start, men_back, flying)
    # the moves of Black and White in those plies
    black_moves = (left + 1) // 2 if start_turn else left // 2
    moves_of = {True: black_moves, False: left - black_moves}
    reaches: dict[tuple[bool, int], int] = {}

    def men_reach(side_black: bool, steps: int) -> int:
        """Where the side's men can be after ``steps`` steps forward from the start."""
        got = reaches.get((side_black, steps))
        if got is None:
            got = reaches[side_black, steps] = reach(side_black, sb if side_black else sw, steps)
        return got

    quiet: dict[Key, int] = {}
    capture: set[Key] = set()
    for (bm, bk, wm, wk, black), n in _ticking(below, tick, 0.0, 0.5):
        mover = not black
        # the mover may have taken pieces of the side to move now (``room``)
        if black:
            room = max(start_black - (bm | bk).bit_count(), 0)
            men_room = start_bmen - bm.bit_count()
            lost = start_white - (wm | wk).bit_count()  # taken from the mover
        else:
            room = max(start_white - (wm | wk).bit_count(), 0)
            men_room = start_wmen - wm.bit_count()
            lost = start_black - (bm | bk).bit_count()
        men_from = FULL
        mover_men: list[int] | None = None
        victim_men = FULL
        if not men_back:
            # men go only forward, two rows for each piece they take: a man
            # stands only where one of the start's men can have gone by then
            mover_men = [men_reach(mover, moves_of[mover] + 2 * (room - taken))
                         for taken in range(room + 1)]
            men_from = mover_men[0]
            victim_men = men_reach(black, moves_of[black] + 2 * max(lost, 0))
        for u in quiet_unmoves(bm, bk, wm, wk, black, flying, men_from):
            if constraints and not all(ok((u.start + 1, u.end + 1)) for ok in constraints):
                continue
            key = (u.bm, u.bk, u.wm, u.wk, mover)
            quiet[key] = quiet.get(key, 0) + n
        if room > 0:
            for q in capture_unmoves(bm, bk, wm, wk, black, variant, room, max(men_room, 0),
                                     victim_men, mover_men):
                capture.add((*q, mover))
    layer: dict[Key, int] = {}
    middle = 0.5 + 0.5 * len(quiet) / max(len(quiet) + len(capture), 1)
    if captures is not None:  # compiled: the quiet ones checked in batches too
        keys = list(quiet)
        for at in range(0, len(keys), CAPTURE_BATCH):
            part = keys[at:at + CAPTURE_BATCH]
            for key, ok in zip(part, captures.quiet(part, k), strict=True):
                if ok:
                    layer[key] = quiet[key]
            if tick is not None:
                tick(0.5 + (middle - 0.5) * (at + len(part)) / len(keys), len(part))
    else:
        for key, n in _ticking(quiet, tick, 0.5, middle):
            if not _must_capture(key, rules) and reachable(key, left):
                layer[key] = n
    if captures is not None:
        half = (middle + 1.0) / 2
        todo = [key for key in _ticking(capture, tick, middle, half) if key not in layer]
        for at in range(0, len(todo), CAPTURE_BATCH):
            part = todo[at:at + CAPTURE_BATCH]
            for key, count in zip(part, captures.captures(part, k), strict=True):
                if count > 0:
                    layer[key] = count
            if tick is not None:
                tick(half + (1.0 - half) * (at + len(part)) / len(todo), len(part))
        return layer
    for key in _ticking(capture, tick, middle, 1.0):
        if key in layer or not _must_capture(key, rules):
            continue  # no capture there: its quiet moves are counted above
        if not reachable(key, left):
            continue
        qbm, qbk, qwm, qwk, mover = key
        count = 0
        for mv in legal_raw_moves(qbm, qbk, qwm, qwk, mover, rules):
            if constraints and not all(ok(tuple(i + 1 for i in mv[0])) for ok in constraints):
                continue
            count += below.get((*apply(qbm, qbk, qwm, qwk, mover, mv), not mover), 0)
        if count:
            layer[key] = count
    return layer
