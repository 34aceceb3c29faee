"""Lower bounds for the gap search: can a position still reach the board in
so many plies?  (:func:`feasible`; never says no to a position that can.)

What the board tells: material per side only goes down and must reach the
board's; men are never created; kings appear only by crowning; every target
square that a side does not hold yet needs a move of that side ending on it,
every square it must leave needs a move starting there (or a capture by the
other side); when a side has no capture left to make its men only step
forward, so a target man needs a man behind it in its cone; and for a side
whose men only go forward (it takes nothing more, or its men never capture
backward) the rows its men still advance must fit the moves and captures it
has left (:func:`_row_balance`, exact when it has no king and none to come);
where men capture backward, a side with pieces left to take still needs
its men's quiet steps, with a jump for each piece, to fit its moves
(:mod:`.bounds_jumps`).
What one side's bounds find depends only on its own pieces, its moves left
and the opposing pieces left: :class:`Target` remembers it for the search.
"""
from __future__ import annotations

from typing import NamedTuple

from rulesbook.draughts.geometry import coords
from rulesbook.draughts.movegen import BIT, CROWN_BLACK, CROWN_WHITE, RawMove
from rulesbook.draughts.variant import MidCaptureCrowning, Variant
from rulesbook.reconstruct.gap.bounds_jumps import bits, men_back_ok

__all__ = ["Target", "Reachable", "VariantFlags", "EDGE", "AHEAD_BLACK", "AHEAD_WHITE", "BEHIND_BLACK",
           "BEHIND_WHITE", "KING_RINGS", "ROWSUM_LO", "ROWSUM_HI", "ROWS_BLACK", "ROWS_WHITE", "feasible", "move_slack", "useful_moves", "bits", "CONE_BLACK", "CONE_WHITE", "CROWN_ROW_BLACK",
           "CROWN_ROW_WHITE"]


class VariantFlags(NamedTuple):
    """What the bounds need to know of a variant (see :class:`Target`)."""

    men_back: bool
    flying: bool
    crown_ends: bool

    @classmethod
    def of(cls, variant: Variant) -> VariantFlags:
        return cls(variant.men_capture_backward, variant.flying_kings,
                   variant.mid_capture_crowning is not MidCaptureCrowning.CONTINUES)


#: ``cone[c][t]``: quiet steps from bit c to bit t; ``rings[a]``: (steps, mask) pairs
Cone = tuple[tuple[int, ...], ...]
Rings = tuple[tuple[tuple[int, int], ...], ...]


def _cones() -> tuple[Cone, Cone]:
    """``cone[c][t]``: quiet steps a man needs from bit c to bit t (99 = never)."""
    out = []
    for black in (True, False):
        table = []
        for c in range(32):
            rc, fc = coords(c + 1)
            row = []
            for t in range(32):
                rt, ft = coords(t + 1)
                ahead = rt - rc if black else rc - rt
                row.append(ahead if ahead >= abs(ft - fc) else 99)
            table.append(tuple(row))
        out.append(tuple(table))
    return out[0], out[1]


CONE_BLACK, CONE_WHITE = _cones()


def _rings(cone: Cone, forward: bool) -> Rings:
    """``rings[a]``: ``(d, mask)`` pairs, nearest first, ``mask`` holding the bits
    ``b`` a man needs ``d`` quiet steps to go to from ``a`` (``forward``) or to
    come from to ``a`` (not ``forward``); unreachable bits are in no mask."""
    out = []
    for a in range(32):
        masks: dict[int, int] = {}
        for b in range(32):
            d = cone[a][b] if forward else cone[b][a]
            if d != 99:
                masks[d] = masks.get(d, 0) | BIT[b]
        out.append(tuple(sorted(masks.items())))
    return tuple(out)


# a man's way ahead (to its target squares) and behind (where it can come from)
AHEAD_BLACK, BEHIND_BLACK = _rings(CONE_BLACK, True), _rings(CONE_BLACK, False)
AHEAD_WHITE, BEHIND_WHITE = _rings(CONE_WHITE, True), _rings(CONE_WHITE, False)
CROWN_ROW_BLACK = tuple(bits(CROWN_BLACK))
CROWN_ROW_WHITE = tuple(bits(CROWN_WHITE))
_NEVER = 1 << 30
#: the squares on the edge of the board (rows 1-4 and 29-32, the a- and
#: h-files): a piece there cannot be taken
EDGE = sum(BIT[i] for i in range(32) if coords(i + 1)[0] in (0, 7) or coords(i + 1)[1] in (0, 7))


def _king_tables() -> dict[tuple[bool, bool], tuple[Rings, Rings]]:
    """By (black, flying): ``(from_kings, from_men)``, rings (see :func:`_rings`)
    of the fewest moves that put a king of the side on each square: from a
    king of the side (on an empty board), and from a man of it (forward to
    its king row, crowned there, then on as a king)."""
    out = {}
    for black in (True, False):
        cone = CONE_BLACK if black else CONE_WHITE
        crown = [i for i in range(32) if (i >= 28 if black else i < 4)]
        for flying in (True, False):
            king = []
            for a in range(32):
                ra, fa = coords(a + 1)
                row = []
                for b in range(32):
                    rb, fb = coords(b + 1)
                    if a == b:
                        row.append(0)
                    elif flying:
                        row.append(1 if abs(ra - rb) == abs(fa - fb) else 2)
                    else:
                        row.append(max(abs(ra - rb), abs(fa - fb)))
                king.append(tuple(row))
            man = tuple(tuple(min(99, min(cone[m][c] + king[c][t] for c in crown))
                              for t in range(32)) for m in range(32))
            out[black, flying] = (_rings(tuple(king), False), _rings(man, False))
    return out


KING_RINGS = _king_tables()
# the sum of the rows (0 = squares 1-4) of the men of a board, by 16-bit halves
_ROW = tuple(coords(i + 1)[0] for i in range(32))


def _rowsums(rows: tuple[int, ...]) -> tuple[int, ...]:
    """``out[x]``: the sum of ``rows[i]`` over the bits ``i`` of ``x`` (16 bits),
    built by doubling (65,536 additions, a few ms; summing each entry's bits
    took half a second at every start)."""
    out = [0]
    for row in rows:
        out += [v + row for v in out]
    return tuple(out)


ROWSUM_LO = _rowsums(_ROW[:16])
ROWSUM_HI = _rowsums(_ROW[16:])
#: the rows of the board, nearest a side's own back row first: rows 0-7 for
#: Black (it moves down the board), 7-0 for White
ROWS_BLACK = tuple(0xF << 4 * r for r in range(8))
ROWS_WHITE = tuple(reversed(ROWS_BLACK))


def _advance(men: int, black: bool) -> int:
    """The rows the men of a side stand ahead of its own back row, summed (a
    man's quiet step adds one, a forward jump two; the king row is 7)."""
    rows = ROWSUM_LO[men & 0xFFFF] + ROWSUM_HI[men >> 16]
    return rows if black else 7 * men.bit_count() - rows


def _rearmost(men: int, black: bool, n: int) -> int:
    """The sum of :func:`_advance` over the ``n`` men of the side nearest its
    own back row (the least any ``n`` of them stand ahead)."""
    total = 0
    for ahead, mask in enumerate(ROWS_BLACK if black else ROWS_WHITE):
        if n <= 0:
            break
        k = min((men & mask).bit_count(), n)
        total += k * ahead
        n -= k
    return total


def _foremost(men: int, black: bool) -> int:
    """The most rows one man of the side stands ahead of its back row (-1 with no man)."""
    if not men:
        return -1
    if black:
        return (men.bit_length() - 1) >> 2
    return 7 - ((men & -men).bit_length() - 1 >> 2)


class Target:
    """The position to reach, with what the bounds read from it.  ``men_back``:
    whether men capture backward in the variant (when they do not, a man goes
    only forward even while capturing, and the man bounds hold then too);
    ``flying``: whether kings move and capture at a distance; ``crown_ends``:
    whether a man is crowned only where its move ends (on the king row: every
    variant but Russian, where a man crowned during a capture goes on as a
    king).  The defaults are the weakest assumptions (the bounds hold for
    every variant).

    It also keeps what the bounds found for one side's pieces: whether a side
    can go from its men and kings to the target's in so many moves, losing and
    taking so many pieces, depends on nothing else, and in a search one side's
    pieces stand so in very many positions (``side_ok``, filled by
    :func:`feasible`; ``slack``, filled by :func:`move_slack`)."""

    __slots__ = ("bm", "bk", "wm", "wk", "black", "nb", "nw", "nbm", "nwm", "key",
                 "b_goals", "w_goals", "men_back", "flying", "crown_ends", "b_ahead",
                 "w_ahead", "side_ok", "slack")

    def __init__(self, bm: int, bk: int, wm: int, wk: int, black: bool,
                 men_back: bool = True, flying: bool = True, crown_ends: bool = False) -> None:
        self.bm, self.bk, self.wm, self.wk, self.black = bm, bk, wm, wk, black
        self.men_back = men_back
        self.flying = flying
        self.crown_ends = crown_ends
        self.nb = (bm | bk).bit_count()
        self.nw = (wm | wk).bit_count()
        self.nbm = bm.bit_count()
        self.nwm = wm.bit_count()
        self.key = (bm, bk, wm, wk, black)
        # where a man that leaves its square can end: a target man's square, or
        # the king row when the target has kings of that side
        self.b_goals = bm | (CROWN_BLACK if bk else 0)
        self.w_goals = wm | (CROWN_WHITE if wk else 0)
        self.b_ahead = _advance(bm, True)
        self.w_ahead = _advance(wm, False)
        # {(men, kings, moves, opposing pieces, black): bool}: see _side_ok
        self.side_ok: dict[tuple[int, int, int, int, bool], bool] = {}
        # {(men, kings, moves after this one, black): move_slack's answer}
        self.slack: dict[tuple[int, int, int, bool], tuple[int, int, int, int, int, int]] = {}


def _steps_needed(rings: Rings, froms: int, tos: int) -> int:
    """The sum over the bits of ``froms`` of the fewest steps to (or from, by
    ``rings``: see :func:`_rings`) any bit of ``tos``; _NEVER when one cannot."""
    need = 0
    while froms:
        b = froms & -froms
        froms ^= b
        for d, ring in rings[b.bit_length() - 1]:
            if ring & tos:
                need += d
                break
        else:
            return _NEVER
    return need


def _row_balance(men: int, kings: int, tmen: int, tkings: int, t_ahead: int, moves: int,
                 takes_left: int, black: bool, back_jumps: bool = False) -> bool:
    """The rows a side's men still advance against the moves it has left.

    For a side whose every man move goes forward (the side takes nothing
    more, or its men never capture backward, as in English), a man's quiet
    step advances it one row and its jump two, and a man goes on until it
    stands on its target square, is taken, or is crowned on the king row
    (row 7).  ``back_jumps``: the side's men can still jump backward (they
    capture backward, and it takes pieces yet); then only the first test
    below is made, which holds for them too: a backward jump takes two rows
    off ``R`` and lets a man that is taken end up to two rows nearer its back
    row than it stands now, so ``R >= R_lo - 2 Jb`` and ``R = q + 2 Jf - 2 Jb``
    give ``q + 2 Jf >= R_lo`` with ``Jf <= takes``.

    Let ``gone`` be the men that are taken or crowned (the men now less the
    target's: men are never made).  The rows the men advance are then
    ``R = ahead(target men) - ahead(men now) + sum over gone of ahead(where
    it ends)``, and a gone man ends where it is taken, no nearer its back row
    than it stands now, or on the king row: so ``R >= R_lo``, the sum taken
    over the ``gone`` men standing nearest their back row.  With ``J <=
    takes`` jumps by men, ``q`` quiet man moves and at least one capture move
    when ``J > 0``, ``R = q + 2 J <= moves + 2 takes - 1`` (``<= moves`` when
    it takes nothing): the first test.

    When the side has no king now, none on the board and none can be crowned
    (no gone man, or none can reach the king row in time), every move is a
    man's, every jump a man's (``J = takes``) and, with ``c`` capture moves
    (``1 <= c <= min(takes, moves)``), ``R = moves - c + 2 takes``: at least
    ``moves + 2 takes - min(takes, moves)`` (exactly ``moves`` with no take),
    while a taken man ends at most on row 6, so ``R <= R_lo`` with each gone
    man on row 6 at most: ``R_hi = ahead(target) - ahead(now) + 6 gone``."""
    gone = men.bit_count() - tmen.bit_count()
    base = t_ahead - _advance(men, black)
    extra = 2 * takes_left - 1 if takes_left else 0
    if base + _rearmost(men, black, gone) > moves + extra:
        return False
    if back_jumps:
        return True
    if kings or tkings or (gone and _foremost(men, black) + moves + extra >= 7):
        return True
    least = moves + 2 * takes_left - min(takes_left, moves) if takes_left else moves
    return base + 6 * gone >= least


def _side_ok(men: int, kings: int, moves: int, lost_left: int, takes_left: int,
             black: bool, t: Target) -> bool:
    """Can one side go from (men, kings) to the target's men and kings in
    ``moves`` moves, losing ``lost_left`` pieces to the opponent and taking
    ``takes_left``?  (False only when it cannot.)"""
    if black:
        tmen, tkings, goals, t_ahead = t.bm, t.bk, t.b_goals, t.b_ahead
        ahead, behind = AHEAD_BLACK, BEHIND_BLACK
    else:
        tmen, tkings, goals, t_ahead = t.wm, t.wk, t.w_goals, t.w_ahead
        ahead, behind = AHEAD_WHITE, BEHIND_WHITE
    men_back, flying = t.men_back, t.flying
    nm = men.bit_count()
    # men are never made; kings appear only by crowning a man
    if nm < tmen.bit_count():
        return False
    if tkings.bit_count() > kings.bit_count() + nm - tmen.bit_count():
        return False
    if takes_left and not moves:
        return False
    if not _row_balance(men, kings, tmen, tkings, t_ahead, moves, takes_left, black,
                        takes_left > 0 and men_back):
        return False
    fill = ((tmen & ~men) | (tkings & ~kings)).bit_count()
    if fill > moves:
        return False
    if t.crown_ends:
        # every target square not held yet needs its own last move ending
        # there; a crowning move ends on the king row, so it is such a move
        # only for a target king on the king row not there yet: the other
        # crownings the side needs (kings only come from crowning) are moves
        # of their own
        crowns = tkings.bit_count() - kings.bit_count()
        if crowns > 0:
            on_row = (tkings & ~kings & (CROWN_BLACK if black else CROWN_WHITE)).bit_count()
            if crowns > on_row and fill + crowns - on_row > moves:
                return False
    # every piece not on its target square leaves it: by a move of its own,
    # or taken; a piece on the edge of the board cannot be taken there
    # (nothing is behind it to land on), so it moves itself
    vacating = (men & ~tmen) | (kings & ~tkings)
    on_edge = (vacating & EDGE).bit_count()
    if on_edge + max((vacating & ~EDGE).bit_count() - lost_left, 0) > moves:
        return False
    # a target king not there yet needs a king of the side to go there, or a
    # man to reach the king row and go on as a king (two squares a jump)
    crowned = tkings & ~kings
    if crowned and (not takes_left or not (men_back or flying)):
        from_kings, from_men = KING_RINGS[black, flying]
        need = 0
        while crowned:
            b = crowned & -crowned
            crowned ^= b
            sq = b.bit_length() - 1
            best = _NEVER
            for d, ring in from_kings[sq]:
                if ring & kings:
                    best = d
                    break
            for d, ring in from_men[sq]:
                if d >= best:
                    break
                if ring & men:
                    best = d
                    break
            need += best
        if need - 2 * takes_left > moves:
            return False
    if takes_left and moves < 1:
        return False
    if takes_left and men_back:
        return men_back_ok(men, tmen, goals, moves, lost_left, takes_left, black)
    # men only go forward (a capture by a man that never jumps backward too),
    # a quiet move one row, a jump two: so every target man not there yet needs
    # a man behind it, as many rows away as moves (less two per jump left) ...
    spare = 2 * takes_left
    missing = tmen & ~men
    if missing and _steps_needed(behind, missing, men) - spare > moves:
        return False
    # ... and, when none of its men is taken, every man that leaves its square
    # must reach a target man's square or the king row
    leaving = men & ~tmen
    if lost_left or not leaving:
        return True
    return _steps_needed(ahead, leaving, goals) - spare <= moves


def feasible(bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int,
             t: Target) -> bool:
    """False when the position (``black`` to move) cannot reach the target in
    ``remaining`` plies; True says only that no bound rules it out.

    The bounds of each side (:func:`_side_ok`) depend only on its own men and
    kings, its moves left and the opposing pieces left: they are remembered in
    ``t.side_ok``."""
    nb = (bm | bk).bit_count()
    nw = (wm | wk).bit_count()
    if nb < t.nb or nw < t.nw:
        return False
    if remaining == 0:
        return (bm, bk, wm, wk, black) == t.key
    black_moves = (remaining + 1) // 2 if black else remaining // 2
    white_moves = remaining - black_moves
    cache = t.side_ok
    side = (bm, bk, black_moves, nw, True)
    ok = cache.get(side)
    if ok is None:
        ok = cache[side] = _side_ok(bm, bk, black_moves, nb - t.nb, nw - t.nw, True, t)
    if not ok:
        return False
    side = (wm, wk, white_moves, nb, False)
    ok = cache.get(side)
    if ok is None:
        ok = cache[side] = _side_ok(wm, wk, white_moves, nw - t.nw, nb - t.nb, False, t)
    return ok


class Reachable:
    """``feasible(*start, remaining, Target(*key, ...))`` for one fixed
    ``start`` and very many keys — what the backward layers ask of every
    position they keep (can the earlier position reach it in the plies left?).

    Building a :class:`Target` for each key would remember nothing between
    keys; here what a side's bounds answer is remembered by that side's pieces
    in the key (with its moves and the opposing pieces left, all it depends
    on, the start being fixed), and the one-side targets are kept too."""

    __slots__ = ("start", "men_back", "flying", "crown_ends", "nb", "nw", "_sides", "_answers")

    def __init__(self, start: tuple[int, int, int, int, bool], men_back: bool = True,
                 flying: bool = True, crown_ends: bool = False) -> None:
        self.start = start
        self.men_back = men_back
        self.flying = flying
        self.crown_ends = crown_ends
        bm, bk, wm, wk, _ = start
        self.nb = (bm | bk).bit_count()
        self.nw = (wm | wk).bit_count()
        # {(men, kings, black): a Target holding only that side's pieces}
        self._sides: dict[tuple[int, int, bool], Target] = {}
        # {(men, kings, moves, opposing pieces, black): _side_ok's answer}
        self._answers: dict[tuple[int, int, int, int, bool], bool] = {}

    def __call__(self, key: tuple[int, int, int, int, bool], remaining: int) -> bool:
        """False when ``start`` cannot reach ``key`` in ``remaining`` plies
        (exactly what :func:`feasible` says of them)."""
        tbm, tbk, twm, twk, _ = key
        tnb = (tbm | tbk).bit_count()
        tnw = (twm | twk).bit_count()
        if self.nb < tnb or self.nw < tnw:
            return False
        bm, bk, wm, wk, black = self.start
        if bm.bit_count() < tbm.bit_count() or wm.bit_count() < twm.bit_count():
            return False
        if remaining == 0:
            return self.start == key
        black_moves = (remaining + 1) // 2 if black else remaining // 2
        return (self._side(tbm, tbk, black_moves, tnw, True, bm, bk, self.nb - tnb,
                           self.nw - tnw)
                and self._side(twm, twk, remaining - black_moves, tnb, False, wm, wk,
                               self.nw - tnw, self.nb - tnb))

    def _side(self, tmen: int, tkings: int, moves: int, opposing: int, black: bool,
              men: int, kings: int, lost_left: int, takes_left: int) -> bool:
        answers = self._answers
        at = (tmen, tkings, moves, opposing, black)
        ok = answers.get(at)
        if ok is None:
            side = self._sides.get((tmen, tkings, black))
            if side is None:
                side = self._sides[tmen, tkings, black] = (
                    Target(tmen, tkings, 0, 0, black, self.men_back, self.flying,
                           self.crown_ends) if black
                    else Target(0, 0, tmen, tkings, black, self.men_back, self.flying,
                                self.crown_ends))
            ok = answers[at] = _side_ok(men, kings, moves, lost_left, takes_left, black, side)
        return ok


def move_slack(bm: int, bk: int, wm: int, wk: int, black: bool, remaining: int,
               t: Target) -> tuple[int, int, int, int, int, int]:
    """What the next move of the side to move must not spoil, as bit masks:
    ``(fill, held, fill_slack, vacate, kept, vacate_slack)``.

    After the move the side has one move less; the squares it still has to
    fill (``fill``: target squares of its own it does not hold) must not
    outnumber them: a move ending on ``fill`` fills one, a move starting on
    ``held`` (a target square it holds) opens one, so the move must have
    (starts on held) - (ends on fill) <= ``fill_slack``.  Likewise the
    squares it must leave (``vacate``), less the pieces it is still to lose:
    (ends off ``kept``, the target squares of its own) - (starts on vacate)
    <= ``vacate_slack``.  A slack of 1 or more lets every move through.
    (Remembered in ``t.slack``: it depends only on the mover's pieces.)"""
    after = (remaining + 1) // 2 - 1  # the side's moves after this one
    if black:
        men, kings = bm, bk
    else:
        men, kings = wm, wk
    key = (men, kings, after, black)
    hit = t.slack.get(key)
    if hit is not None:
        return hit
    if black:
        tmen, tkings, lost = t.bm, t.bk, (bm | bk).bit_count() - t.nb
    else:
        tmen, tkings, lost = t.wm, t.wk, (wm | wk).bit_count() - t.nw
    fill = (tmen & ~men) | (tkings & ~kings)
    held = (men & tmen) | (kings & tkings)
    vacate = (men & ~tmen) | (kings & ~tkings)
    out = (fill, held, after - fill.bit_count(), vacate, tmen | tkings,
           after - (vacate.bit_count() - lost))
    t.slack[key] = out
    return out


def useful_moves(moves: list[RawMove], bm: int, bk: int, wm: int, wk: int, black: bool,
                 remaining: int, t: Target) -> list[RawMove]:
    """The ``moves`` of the side to move after which it could still fill and
    leave its squares in time (:func:`move_slack`); all of them when the
    slack lets every move through.  A capture that ends on the square it
    started from (a man or king going round, in a variant where men capture
    backward) leaves that square as it was: it opens nothing."""
    fill, held, fill_slack, vacate, kept, vacate_slack = move_slack(
        bm, bk, wm, wk, black, remaining, t)
    if fill_slack >= 1 and vacate_slack >= 1:
        return moves
    out = []
    for mv in moves:
        path = mv[0]
        s, e = BIT[path[0]], BIT[path[-1]]
        opens = 1 if s & held and s != e else 0
        if opens - (1 if e & fill else 0) <= fill_slack and \
                (0 if e & kept else 1) - (1 if s & vacate else 0) <= vacate_slack:
            out.append(mv)
    return out
