"""Move generation on 32-bit integer bitboards.

Internal squares are bit indices 0-31 (square number - 1).  Row 0 is the top
row (squares 1-4), row 7 the bottom row (29-32).  Black moves down (towards
29-32), White up.

A generated ("raw") move is a :class:`RawMove`, a named tuple ``(path, captures,
crowns, capture_mask)`` with ``path`` and ``captures`` in bit indices.

The public entry points, for code that searches many positions without
building :class:`~rulesbook.draughts.Position` objects (the reconstruction's
gap search), are listed in ``__all__``:

* :class:`Bitboards` -- the four boards and the side to move, as given by
  :meth:`Position.bitboards() <rulesbook.draughts.Position.bitboards>` and
  taken by :meth:`Position.from_bitboards()
  <rulesbook.draughts.Position.from_bitboards>`;
* :func:`compile_rules` -- a variant's flags in the form the generator reads;
* :func:`legal_raw_moves` -- every legal raw move of the side to move;
* :func:`apply` -- the boards after a raw move;
* :func:`raw_to_move` -- a raw move as a :class:`~rulesbook.draughts.Move`;
* :data:`BIT`, :data:`FULL`, :data:`RAYS_BY_DIR`, :data:`CROWN_BLACK`,
  :data:`CROWN_WHITE` -- the board geometry in bit indices.

Everything else here is internal to the engine and may change.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeAlias

from rulesbook.draughts.geometry import (  # noqa: F401 - re-exported for callers
    BETWEEN,
    BIT,
    DIRECTION,
    DIRS,
    NB,
    RAYS_BY_DIR,
    stop_choices,
)
from rulesbook.draughts.move import Move
from rulesbook.draughts.variant import CapturePrecedence, MidCaptureCrowning, Variant

__all__ = [
    "BIT",
    "CROWN_BLACK",
    "CROWN_WHITE",
    "FULL",
    "RAYS_BY_DIR",
    "Bitboards",
    "RawMove",
    "apply",
    "CompiledRules",
    "compile_rules",
    "has_capture",
    "legal_raw_moves",
    "raw_to_move",
]


class Bitboards(NamedTuple):
    """A position as four 32-bit boards and the side to move.

    Bit ``i`` of a board stands for square ``i + 1`` (``BIT[square - 1]``);
    a set bit means a piece of that kind stands there.  The boards never
    overlap.  Unpacks in the order the functions of this module take:
    ``legal_raw_moves(*boards, rules)``.
    """

    black_men: int
    black_kings: int
    white_men: int
    white_kings: int
    black_to_move: bool


class RawMove(NamedTuple):
    """A generated move, squares as bit indices (0-31): the squares it stops on,
    the squares of the pieces it takes in order, whether it crowns, and the taken
    pieces as a mask.  Built in the hot loops with ``_NEW(RawMove, (path, ...))``
    (no keyword handling); :class:`~rulesbook.draughts.move.Move` is the public form."""

    path: tuple[int, ...]
    captures: tuple[int, ...]
    crowns: bool
    capture_mask: int


#: ``_NEW(RawMove, (path, captures, crowns, mask))``: a RawMove the cheapest way
_NEW = tuple.__new__
# One single jump from an origin: (bit of the jumped square, bit of the landing
# square, jumped square, landing square).
_Jump: TypeAlias = tuple[int, int, int, int]
Jumps: TypeAlias = tuple[tuple[_Jump, ...], ...]
_Masks: TypeAlias = tuple[tuple[int, int], ...]

FULL = (1 << 32) - 1
BLACK_FORWARD = (2, 3)
WHITE_FORWARD = (0, 1)




def _jumps(dirs: Sequence[int]) -> Jumps:
    out: list[tuple[_Jump, ...]] = []
    for i in range(32):
        js: list[_Jump] = []
        for d in dirs:
            o = NB[i][d]
            if o >= 0 and NB[o][d] >= 0:
                land = NB[o][d]
                js.append((BIT[o], BIT[land], o, land))
        out.append(tuple(js))
    return tuple(out)


def _steps(dirs: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(NB[i][d] for d in dirs if NB[i][d] >= 0) for i in range(32))


JUMPS_ALL = _jumps(range(4))
JUMPS_BLACK = _jumps(BLACK_FORWARD)
JUMPS_WHITE = _jumps(WHITE_FORWARD)
STEPS_ALL = _steps(range(4))
STEPS_BLACK = _steps(BLACK_FORWARD)
STEPS_WHITE = _steps(WHITE_FORWARD)

CROWN_BLACK = sum(BIT[i] for i in range(28, 32))  # squares 29-32
CROWN_WHITE = sum(BIT[i] for i in range(0, 4))  # squares 1-4
LONG_LINE = sum(BIT[s - 1] for s in (4, 8, 11, 15, 18, 22, 25, 29))


def _shift_masks(dirs: Sequence[int]) -> _Masks:
    """{delta: mask of origins whose neighbour in one of ``dirs`` is origin + delta}."""
    masks: dict[int, int] = {}
    for i in range(32):
        for d in dirs:
            j = NB[i][d]
            if j >= 0:
                masks[j - i] = masks.get(j - i, 0) | BIT[i]
    return tuple(sorted(masks.items()))


SHIFT_BLACK = _shift_masks(BLACK_FORWARD)
SHIFT_WHITE = _shift_masks(WHITE_FORWARD)
SHIFT_ALL = _shift_masks(range(4))

MODE_NO, MODE_ENDS, MODE_CONTINUES = 0, 1, 2
_MODES = {MidCaptureCrowning.NO: MODE_NO, MidCaptureCrowning.ENDS: MODE_ENDS,
          MidCaptureCrowning.CONTINUES: MODE_CONTINUES}


class CompiledRules(NamedTuple):
    """A variant's flags in the form the generator reads fast."""

    men_capture_backward: bool
    flying_kings: bool
    most_captures: bool   # the capture taking the most pieces is compulsory
    crowning: int         # MODE_NO, MODE_ENDS or MODE_CONTINUES


def compile_rules(variant: Variant) -> CompiledRules:
    """The variant flags as the generator reads them."""
    return CompiledRules(
        variant.men_capture_backward,
        variant.flying_kings,
        variant.capture_precedence is CapturePrecedence.MOST,
        _MODES[variant.mid_capture_crowning],
    )


# --------------------------------------------------------------------------- captures

def _king_dfs(i: int, capmask: int, path: tuple[int, ...], caps: tuple[int, ...], opp: int,
              empty: int, crowns: bool, out: list[RawMove]) -> bool:
    """Short (non-flying) king: jump adjacent pieces in all four directions."""
    found = False
    for ob, lb, o, land in JUMPS_ALL[i]:
        if opp & ob and not capmask & ob and empty & lb:
            found = True
            np = path + (land,)
            nc = caps + (o,)
            nm = capmask | ob
            if not _king_dfs(land, nm, np, nc, opp, empty, crowns, out):
                out.append(_NEW(RawMove, (np, nc, crowns, nm)))
    return found


def _fking_dfs(i: int, capmask: int, path: tuple[int, ...], caps: tuple[int, ...], opp: int,
               empty: int, crowns: bool, out: list[RawMove], skip: int = -1) -> bool:
    """Flying king: captures at a distance, landing anywhere beyond; a landing
    square from which the capture can go on must be chosen when one exists.

    One move per distinct (start, end, ordered captures): when the capture goes
    on straight ahead, every landing square before the next piece leads to the
    same move, so that continuation is searched from the nearest landing only
    (the square immediately behind the captured piece, as PDN 3.0 writes it);
    the other landings search only their turns (``skip`` is the direction they
    must not search again).  The landing after the last capture stays the
    player's choice."""
    found = False
    block = FULL ^ empty  # every piece blocks, the ones taken on this capture too
    masks = RAY_MASK[i]
    for d in range(4):
        if d == skip:
            continue
        o = masks[d] & block
        if not o:
            continue
        # the nearest piece on the ray, and the next one behind it
        if d < 2:
            near = o.bit_length() - 1
            rest = o ^ BIT[near]
            nxt = rest.bit_length() - 1
        else:
            low = o & -o
            near = low.bit_length() - 1
            rest = o ^ low
            nxt = (rest & -rest).bit_length() - 1
        target = BIT[near]
        if not opp & target or capmask & target:
            continue
        ray = RAYS_BY_DIR[i][d]
        index = _RAY_INDEX[i][d]
        first = index[near] + 1
        stop = index[nxt] if rest else len(ray)
        if first >= stop:
            continue  # no empty square behind it
        lands = ray[first:stop]
        found = True
        nm = capmask | target
        nc = caps + (near,)
        # can the capture go on straight ahead, past the last landing square?
        straight = (rest != 0 and stop + 1 < len(ray) and bool(opp & BIT[nxt])
                    and not nm & BIT[nxt] and bool(empty & BIT[ray[stop + 1]]))
        going_on = False
        ends: list[int] = []
        for n, land in enumerate(lands):
            if n == 0:
                cont = _fking_dfs(land, nm, path + (land,), nc, opp, empty, crowns, out)
            else:
                cont = _fking_dfs(land, nm, path + (land,), nc, opp, empty, crowns, out,
                                  d) or straight
            if cont:
                going_on = True
            elif not going_on:
                ends.append(land)
        if not going_on:
            for land in ends:
                out.append(_NEW(RawMove, (path + (land,), nc, crowns, nm)))
    return found


def _man_dfs(i: int, capmask: int, path: tuple[int, ...], caps: tuple[int, ...], opp: int,
             empty: int, jumps: Jumps, crown: int, mode: int, flying: bool,
             out: list[RawMove]) -> bool:
    found = False
    for ob, lb, o, land in jumps[i]:
        if opp & ob and not capmask & ob and empty & lb:
            found = True
            np = path + (land,)
            nc = caps + (o,)
            nm = capmask | ob
            if crown & lb:
                if mode == MODE_ENDS:
                    out.append(_NEW(RawMove, (np, nc, True, nm)))
                elif mode == MODE_CONTINUES:
                    if flying:
                        going_on = _fking_dfs(land, nm, np, nc, opp, empty, True, out)
                    else:
                        going_on = _king_dfs(land, nm, np, nc, opp, empty, True, out)
                    if not going_on:
                        out.append(_NEW(RawMove, (np, nc, True, nm)))
                elif not _man_dfs(land, nm, np, nc, opp, empty, jumps, crown, mode, flying, out):
                    out.append(_NEW(RawMove, (np, nc, True, nm)))
            elif not _man_dfs(land, nm, np, nc, opp, empty, jumps, crown, mode, flying, out):
                out.append(_NEW(RawMove, (np, nc, False, nm)))
    return found


def captures(men: int, kings: int, opp: int, occ: int, black: bool,
             rules: CompiledRules) -> list[RawMove]:
    """All capture moves of the side owning ``men``/``kings`` (after precedence)."""
    free = FULL ^ occ
    return _captures_from(jumpers(men, kings, opp, free, black, rules), men, kings, opp, free,
                          black, rules)


def _captures_from(starts: int, men: int, kings: int, opp: int, free: int, black: bool,
                   rules: CompiledRules) -> list[RawMove]:
    """The captures (after precedence) of the pieces on ``starts`` (the side's
    pieces that have a first jump: no other piece can capture)."""
    back, flying, most, mode = rules
    out: list[RawMove] = []
    bb = starts & men
    if bb:
        crown = CROWN_BLACK if black else CROWN_WHITE
        jumps = JUMPS_ALL if back else (JUMPS_BLACK if black else JUMPS_WHITE)
        while bb:
            b = bb & -bb
            bb ^= b
            i = b.bit_length() - 1
            _man_dfs(i, 0, (i,), (), opp, free | b, jumps, crown, mode, flying, out)
    bb = starts & kings
    while bb:
        b = bb & -bb
        bb ^= b
        i = b.bit_length() - 1
        if flying:
            _fking_dfs(i, 0, (i,), (), opp, free | b, False, out)
        else:
            _king_dfs(i, 0, (i,), (), opp, free | b, False, out)
    if most and out:
        best = max(len(m[1]) for m in out)
        out = [m for m in out if len(m[1]) == best]
    return out


# --------------------------------------------------------------------------- quiet moves

def _quiet_table(steps: tuple[tuple[int, ...], ...], crown: int
                 ) -> tuple[tuple[tuple[int, RawMove], ...], ...]:
    """Per origin: ``(bit of the square, the raw move there)`` for each step."""
    return tuple(tuple((BIT[j], RawMove((i, j), (), bool(crown & BIT[j]), 0)) for j in steps[i])
                 for i in range(32))


# the quiet moves as shared tuples (raw moves are immutable): no move is built
QUIET_BLACK_MEN = _quiet_table(STEPS_BLACK, CROWN_BLACK)
QUIET_WHITE_MEN = _quiet_table(STEPS_WHITE, CROWN_WHITE)
QUIET_SHORT_KING = _quiet_table(STEPS_ALL, 0)
# a flying king's quiet moves along each ray, nearest first, with the ray's mask
# and, for each square of the ray, how many of the ray's squares come before it
RAY_MOVES = tuple(tuple(tuple(RawMove((i, j), (), False, 0) for j in ray) for ray in rays)
                  for i, rays in enumerate(RAYS_BY_DIR))
RAY_MASK = tuple(tuple(sum(BIT[j] for j in ray) for ray in rays) for rays in RAYS_BY_DIR)
_RAY_INDEX = tuple(tuple({j: n for n, j in enumerate(ray)} for ray in rays) for rays in RAYS_BY_DIR)
# directions 0 and 1 go up the board (to lower bits), 2 and 3 down
_UP = (0, 1)
_DOWN = (2, 3)


def quiet_moves(men: int, kings: int, occ: int, black: bool,
                rules: CompiledRules) -> list[RawMove]:
    free = FULL ^ occ
    out: list[RawMove] = []
    append = out.append
    if men:
        table = QUIET_BLACK_MEN if black else QUIET_WHITE_MEN
        bb = men
        while bb:
            b = bb & -bb
            bb ^= b
            for bj, mv in table[b.bit_length() - 1]:
                if free & bj:
                    append(mv)
    bb = kings
    if bb:
        if rules.flying_kings:
            extend = out.extend
            while bb:
                b = bb & -bb
                bb ^= b
                i = b.bit_length() - 1
                masks = RAY_MASK[i]
                moves = RAY_MOVES[i]
                for d in range(4):
                    o = masks[d] & occ
                    if not o:
                        extend(moves[d])
                    else:
                        # the nearest piece on the ray stops the king
                        near = (o.bit_length() - 1 if d < 2 else (o & -o).bit_length() - 1)
                        extend(moves[d][:_RAY_INDEX[i][d][near]])
        else:
            while bb:
                b = bb & -bb
                bb ^= b
                for bj, mv in QUIET_SHORT_KING[b.bit_length() - 1]:
                    if free & bj:
                        append(mv)
    return out


def count_quiet(men: int, kings: int, occ: int, black: bool, rules: CompiledRules) -> int:
    """Number of quiet moves, counted with shifts (no move objects built)."""
    free = FULL ^ occ
    n = 0
    for delta, mask in (SHIFT_BLACK if black else SHIFT_WHITE):
        m = men & mask
        if m:
            n += ((m << delta if delta > 0 else m >> -delta) & free).bit_count()
    if kings:
        if rules.flying_kings:
            bb = kings
            while bb:
                b = bb & -bb
                bb ^= b
                for ray in RAYS_BY_DIR[b.bit_length() - 1]:
                    for j in ray:
                        if free & BIT[j]:
                            n += 1
                        else:
                            break
        else:
            for delta, mask in SHIFT_ALL:
                m = kings & mask
                if m:
                    n += ((m << delta if delta > 0 else m >> -delta) & free).bit_count()
    return n


def generate(men: int, kings: int, opp: int, occ: int, black: bool,
             rules: CompiledRules) -> list[RawMove]:
    """All legal moves (captures are compulsory).  Most positions have no
    capture: a bitboard test says so (and which pieces have one) before any
    capture is searched."""
    free = FULL ^ occ
    starts = jumpers(men, kings, opp, free, black, rules)
    if starts:
        return _captures_from(starts, men, kings, opp, free, black, rules)
    return quiet_moves(men, kings, occ, black, rules)


def legal_raw_moves(bm: int, bk: int, wm: int, wk: int, black: bool,
                    rules: CompiledRules) -> list[RawMove]:
    """Every legal raw move of the side to move (``black`` or White) on the
    boards ``bm, bk, wm, wk`` under ``rules`` (from :func:`compile_rules`);
    captures are compulsory.  One move per distinct start, end and ordered
    captures (a flying king's straight run over two pieces is one move)."""
    if black:
        return generate(bm, bk, wm | wk, bm | bk | wm | wk, True, rules)
    return generate(wm, wk, bm | bk, bm | bk | wm | wk, False, rules)


_NEW_MOVE = Move.__new__
_SET = object.__setattr__


def raw_to_move(raw: RawMove) -> Move:
    """The :class:`~rulesbook.draughts.Move` (squares 1-32) of a raw move."""
    move = _NEW_MOVE(Move)  # Move(path, captures, crowns) without the frozen __init__
    _SET(move, "__dict__", {"path": tuple(i + 1 for i in raw[0]),
                            "captures": tuple(i + 1 for i in raw[1]), "crowns": raw[2]})
    return move


def apply(bm: int, bk: int, wm: int, wk: int, black: bool,
          move: RawMove) -> tuple[int, int, int, int]:
    """The boards ``(bm, bk, wm, wk)`` after the raw ``move`` by the side to
    move (``black`` or White); the turn passes (not part of the result)."""
    path, _caps, crowns, capmask = move
    s = BIT[path[0]]
    d = BIT[path[-1]]
    if black:
        if bk & s:
            bk = (bk ^ s) | d
        else:
            bm ^= s
            if crowns:
                bk |= d
            else:
                bm |= d
        if capmask:
            keep = FULL ^ capmask
            wm &= keep
            wk &= keep
    else:
        if wk & s:
            wk = (wk ^ s) | d
        else:
            wm ^= s
            if crowns:
                wk |= d
            else:
                wm |= d
        if capmask:
            keep = FULL ^ capmask
            bm &= keep
            bk &= keep
    return bm, bk, wm, wk


# --------------------------------------------------------------------------- fast checks
# Used to validate a written move without generating every legal move.

def _jump_direction(d: int) -> tuple[int, int, int, int, int]:
    """A single jump in direction ``d`` as shifts: the neighbour of an origin is
    ``a`` bits away for the origins of mask ``ma`` and ``b`` for ``mb`` (by the
    parity of the row), the landing square always ``land`` bits away; the
    masks keep only origins whose jump stays on the board."""
    groups: dict[int, int] = {}
    lands = set()
    for i in range(32):
        o = NB[i][d]
        if o >= 0 and NB[o][d] >= 0:
            groups[o - i] = groups.get(o - i, 0) | BIT[i]
            lands.add(NB[o][d] - i)
    (a, ma), (b, mb) = sorted(groups.items(), key=lambda item: abs(item[0]))
    (land,) = lands
    return abs(a), ma, abs(b), mb, abs(land)


# up the board (directions 0, 1: towards lower bits, shifts <<) and down (2, 3: >>)
_A0, _MA0, _B0, _MB0, _L0 = _jump_direction(0)
_A1, _MA1, _B1, _MB1, _L1 = _jump_direction(1)
_A2, _MA2, _B2, _MB2, _L2 = _jump_direction(2)
_A3, _MA3, _B3, _MB3, _L3 = _jump_direction(3)


# for each square and direction: the bit of the next square that way (0 off the board)
_NEXT_BIT = tuple(tuple(BIT[NB[i][d]] if NB[i][d] >= 0 else 0 for d in range(4))
                  for i in range(32))


def _flying_jumping(kings: int, opp: int, free: int) -> int:
    """The flying ``kings`` that have a capture: the nearest piece on a ray is
    an opponent's with an empty square behind it."""
    found = 0
    occ = FULL ^ free
    bb = kings
    while bb:
        b = bb & -bb
        bb ^= b
        i = b.bit_length() - 1
        masks = RAY_MASK[i]
        for d in _UP:
            o = masks[d] & occ
            if o:
                near = o.bit_length() - 1
                if opp >> near & 1 and free & _NEXT_BIT[near][d]:
                    found |= b
                    break
        else:
            for d in _DOWN:
                o = masks[d] & occ
                if o:
                    o &= -o
                    if opp & o and free & _NEXT_BIT[o.bit_length() - 1][d]:
                        found |= b
                        break
    return found


def jumpers(men: int, kings: int, opp: int, free: int, black: bool, rules: CompiledRules) -> int:
    """The pieces of the side owning ``men``/``kings`` that can capture (a
    single jump exists from them): nonzero exactly when the side must capture.
    Short-range jumps are found for all pieces at once, by shifts."""
    back, flying = rules.men_capture_backward, rules.flying_kings
    short_kings = 0 if flying else kings
    down = (men if back or black else 0) | short_kings  # pieces that jump down the board
    up = (men if back or not black else 0) | short_kings
    found = 0
    if down:
        found = down & ((((opp >> _A2) & _MA2) | ((opp >> _B2) & _MB2)) & (free >> _L2)
                        | (((opp >> _A3) & _MA3) | ((opp >> _B3) & _MB3)) & (free >> _L3))
    if up:
        found |= up & ((((opp << _A0) & _MA0) | ((opp << _B0) & _MB0)) & (free << _L0)
                       | (((opp << _A1) & _MA1) | ((opp << _B1) & _MB1)) & (free << _L1))
    if flying and kings:
        found |= _flying_jumping(kings, opp, free)
    return found


def has_capture(men: int, kings: int, opp: int, occ: int, black: bool, rules: CompiledRules) -> bool:
    """True when the side owning ``men``/``kings`` has a capture (and so must
    capture): a single jump exists.  Same answer as ``bool(captures(...))``."""
    return bool(jumpers(men, kings, opp, FULL ^ occ, black, rules))
