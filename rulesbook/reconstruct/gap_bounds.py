"""Lower bounds for the gap search: can a position still reach the board in
so many plies?  (:func:`feasible`; never says no to a position that can.)

What the board tells: material per side only goes down and must reach the
board's; men are never created; kings appear only by crowning; every target
square that a side does not hold yet needs a move of that side ending on it,
every square it must leave needs a move starting there (or a capture by the
other side); when a side has no capture left to make its men only step
forward, so a target man needs a man behind it in its cone; and for a side
with no king, no capture left to make, no piece left to lose and no crowning
to come, the number of its moves is exactly the rows its men still advance.
"""
from __future__ import annotations

from rulesbook.draughts.geometry import coords
from rulesbook.draughts.movegen import BIT, CROWN_BLACK, CROWN_WHITE

__all__ = ["Target", "feasible", "move_slack", "bits", "CONE_BLACK", "CONE_WHITE", "CROWN_ROW_BLACK",
           "CROWN_ROW_WHITE"]


def bits(x: int) -> list[int]:
    out = []
    while x:
        b = x & -x
        out.append(b.bit_length() - 1)
        x ^= b
    return out


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
_AHEAD_BLACK, _BEHIND_BLACK = _rings(CONE_BLACK, True), _rings(CONE_BLACK, False)
_AHEAD_WHITE, _BEHIND_WHITE = _rings(CONE_WHITE, True), _rings(CONE_WHITE, False)
CROWN_ROW_BLACK = tuple(bits(CROWN_BLACK))
CROWN_ROW_WHITE = tuple(bits(CROWN_WHITE))
_NEVER = 1 << 30


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


_KING_RINGS = _king_tables()
# the sum of the rows (0 = squares 1-4) of the men of a board, by 16-bit halves
_ROW = tuple(coords(i + 1)[0] for i in range(32))
_ROWSUM_LO = tuple(sum(_ROW[i] for i in range(16) if x >> i & 1) for x in range(1 << 16))
_ROWSUM_HI = tuple(sum(_ROW[16 + i] for i in range(16) if x >> i & 1) for x in range(1 << 16))


class Target:
    """The position to reach, with what the bounds read from it.  ``men_back``:
    whether men capture backward in the variant (when they do not, a man goes
    only forward even while capturing, and the man bounds hold then too);
    ``flying``: whether kings move and capture at a distance.  The defaults
    are the weakest assumptions (the bounds hold for every variant)."""

    __slots__ = ("bm", "bk", "wm", "wk", "black", "nb", "nw", "nbm", "nwm", "key",
                 "b_goals", "w_goals", "men_back", "flying")

    def __init__(self, bm: int, bk: int, wm: int, wk: int, black: bool,
                 men_back: bool = True, flying: bool = True) -> None:
        self.bm, self.bk, self.wm, self.wk, self.black = bm, bk, wm, wk, black
        self.men_back = men_back
        self.flying = flying
        self.nb = (bm | bk).bit_count()
        self.nw = (wm | wk).bit_count()
        self.nbm = bm.bit_count()
        self.nwm = wm.bit_count()
        self.key = (bm, bk, wm, wk, black)
        # where a man that leaves its square can end: a target man's square, or
        # the king row when the target has kings of that side
        self.b_goals = bm | (CROWN_BLACK if bk else 0)
        self.w_goals = wm | (CROWN_WHITE if wk else 0)


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


def _exact_steps(black: bool, men: int, tmen: int, moves: int) -> bool:
    """For a side with men only, no capture to make, no piece to lose and no
    crowning to come, every move is one man's step one row forward: the number
    of moves is exactly the rows the board's men are ahead of the men now."""
    ahead = (_ROWSUM_LO[tmen & 0xFFFF] + _ROWSUM_HI[tmen >> 16]
             - _ROWSUM_LO[men & 0xFFFF] - _ROWSUM_HI[men >> 16])
    return (ahead if black else -ahead) == moves


def _side_bound(men: int, kings: int, tmen: int, tkings: int, goals: int,
                moves: int, lost_left: int, takes_left: int, ahead: Rings, behind: Rings,
                black: bool, men_back: bool, flying: bool) -> bool:
    """Can one side go from (men, kings) to (tmen, tkings) in ``moves`` moves,
    losing ``lost_left`` pieces to the opponent and taking ``takes_left``?"""
    if not (kings or tkings or lost_left or takes_left) and \
            not _exact_steps(black, men, tmen, moves):
        return False
    fill = ((tmen & ~men) | (tkings & ~kings)).bit_count()
    if fill > moves:
        return False
    vacate = ((men & ~tmen) | (kings & ~tkings)).bit_count()
    if vacate - lost_left > moves:
        return False
    # a target king not there yet needs a king of the side to go there, or a
    # man to reach the king row and go on as a king (two squares a jump)
    crowned = tkings & ~kings
    if crowned and (not takes_left or not (men_back or flying)):
        from_kings, from_men = _KING_RINGS[black, flying]
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
    if takes_left and (men_back or moves < 1):
        return moves >= 1
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
    ``remaining`` plies; True says only that no bound rules it out."""
    nb = (bm | bk).bit_count()
    nw = (wm | wk).bit_count()
    if nb < t.nb or nw < t.nw:
        return False
    nbm = bm.bit_count()
    nwm = wm.bit_count()
    if nbm < t.nbm or nwm < t.nwm:
        return False
    if remaining == 0:
        return (bm, bk, wm, wk, black) == t.key
    black_moves = (remaining + 1) // 2 if black else remaining // 2
    white_moves = remaining - black_moves
    lost_b = nb - t.nb
    lost_w = nw - t.nw
    if lost_w and not black_moves:
        return False
    if lost_b and not white_moves:
        return False
    # kings appear only by crowning a man (men leave the men count)
    if t.bk.bit_count() > bk.bit_count() + (nbm - t.nbm):
        return False
    if t.wk.bit_count() > wk.bit_count() + (nwm - t.nwm):
        return False
    return (_side_bound(bm, bk, t.bm, t.bk, t.b_goals, black_moves, lost_b, lost_w,
                        _AHEAD_BLACK, _BEHIND_BLACK, True, t.men_back, t.flying)
            and _side_bound(wm, wk, t.wm, t.wk, t.w_goals, white_moves, lost_w, lost_b,
                            _AHEAD_WHITE, _BEHIND_WHITE, False, t.men_back, t.flying))


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
    <= ``vacate_slack``.  A slack of 1 or more lets every move through."""
    if black:
        men, kings, tmen, tkings = bm, bk, t.bm, t.bk
        lost = (bm | bk).bit_count() - t.nb
    else:
        men, kings, tmen, tkings = wm, wk, t.wm, t.wk
        lost = (wm | wk).bit_count() - t.nw
    after = (remaining + 1) // 2 - 1  # the side's moves after this one
    fill = (tmen & ~men) | (tkings & ~kings)
    held = (men & tmen) | (kings & tkings)
    vacate = (men & ~tmen) | (kings & ~tkings)
    return (fill, held, after - fill.bit_count(), vacate, tmen | tkings,
            after - (vacate.bit_count() - lost))
