"""Retro moves for the gap search: the positions one ply before a position.

:func:`unmoves` over-generates (every candidate is played forward to check it)
and never misses a predecessor; :func:`frontier` keeps the checked ones with
the moves that lead from them to the board.  Variants whose men are crowned
in the middle of a capture and capture on as kings (Russian) are not
un-moved: the search goes forward all the way there.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rulesbook.draughts import Variant
from rulesbook.draughts.movegen import BIT, FULL, RAYS_BY_DIR, CompiledRules, apply, legal_raw_moves
from rulesbook.reconstruct.gap_bounds import (
    CROWN_ROW_BLACK,
    CROWN_ROW_WHITE,
    Target,
    bits,
    feasible,
)

__all__ = ["unmoves", "frontier", "next_layer", "can_unmove"]

Key = tuple[int, int, int, int, bool]
#: A raw move of the engine: ``(path, captures, crowns, capture_mask)``.
RawMove = tuple[Any, ...]
#: A variant's flags as :func:`~rulesbook.draughts.movegen.compile_rules` gives them.
Rules = CompiledRules  # the compiled variant flags the generator reads


def unmoves(bm: int, bk: int, wm: int, wk: int, black: bool, variant: Variant,
             room: int) -> set[tuple[int, int, int, int]]:
    """Candidate boards one ply before (bm, bk, wm, wk), ``black`` to move
    now, so the side that just moved is ``not black``: it un-moves one piece
    (un-captures put back up to ``room`` opposing pieces, men or kings).
    Over-generates (the caller plays each candidate forward to check it);
    never misses a predecessor."""
    mover_black = not black
    if mover_black:
        men, kings, omen, okings = bm, bk, wm, wk
    else:
        men, kings, omen, okings = wm, wk, bm, bk
    occ = bm | bk | wm | wk
    out: set[tuple[int, int, int, int]] = set()
    opp_no_men = CROWN_ROW_WHITE if mover_black else CROWN_ROW_BLACK
    own_crown = CROWN_ROW_BLACK if mover_black else CROWN_ROW_WHITE
    flying = variant.flying_kings

    def emit(nmen: int, nkings: int, restored: int) -> None:
        squares = bits(restored)
        for mask in range(1 << len(squares)):
            em, ek = omen, okings
            for idx, sq in enumerate(squares):
                if mask >> idx & 1:
                    ek |= BIT[sq]
                elif sq in opp_no_men:
                    break
                else:
                    em |= BIT[sq]
            else:
                if mover_black:
                    out.add((nmen, nkings, em, ek))
                else:
                    out.add((em, ek, nmen, nkings))

    for end_set, is_king in ((men, False), (kings, True)):
        for end in bits(end_set):
            kinds = [True, False] if is_king and end in own_crown else [is_king]
            free = (FULL ^ occ) | BIT[end]
            for was_king in kinds:
                base_men = men & ~BIT[end]
                base_kings = kings & ~BIT[end]
                far = was_king and flying

                def start_at(sq: int, restored: int, was_king: bool = was_king,
                             base_men: int = base_men, base_kings: int = base_kings) -> None:
                    if was_king:
                        emit(base_men, base_kings | BIT[sq], restored)
                    else:
                        emit(base_men | BIT[sq], base_kings, restored)

                # quiet un-moves
                for ray in RAYS_BY_DIR[end]:
                    for sq in (ray if far else ray[:1]):
                        if not free >> sq & 1:
                            break
                        if sq != end:
                            start_at(sq, 0)
                # un-captures
                if room > 0:
                    _retro_jumps(end, far, free, 0, room, start_at)
    return out


def _retro_jumps(here: int, far: bool, free: int, restored: int, room: int,
                 start_at: Callable[[int, int], None]) -> None:
    """Un-jumps into ``here``: the piece reached it by a jump from ``prev``
    over ``cap``; ``cap`` is empty now (the piece was taken up) and comes back
    (``restored``: the squares already given back, at most ``room``)."""
    for ray in RAYS_BY_DIR[here]:
        n = len(ray)
        for a in range(n if far else min(1, n)):
            cap = ray[a]
            blocked = restored >> cap & 1 or not free >> cap & 1
            if blocked:
                break
            nrest = restored | BIT[cap]
            for b in range(a + 1, n if far else min(a + 2, n)):
                prev = ray[b]
                if restored >> prev & 1 or not free >> prev & 1:
                    break
                start_at(prev, nrest)
                if nrest.bit_count() < room:
                    _retro_jumps(prev, far, free, nrest, room, start_at)


def frontier(t: Target, variant: Variant, rules: Rules, room: int
              ) -> dict[tuple[int, int, int, int, bool], list[RawMove]]:
    """{board one ply before the target: [raw moves leading to the target]}."""
    table: dict[tuple[int, int, int, int, bool], list[RawMove]] = {}
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
    """Whether :func:`unmoves` knows the variant (not Russian: its men crowned
    in the middle of a capture capture on as kings)."""
    return variant.mid_capture_crowning in ("no", "ends")


def next_layer(below: dict[Key, int], k: int, variant: Variant, rules: Rules, start: Key,
               plies: int, known: Mapping[int, Sequence[object]],
               tick: Callable[[], None] | None = None) -> dict[Key, int]:
    """The backward layer ``k`` from layer ``k - 1`` (``below``): every position
    from which the target is reached in exactly ``k`` plies (the last ``k`` of
    ``plies``, honouring the constraints ``known`` on them), with the number
    of such sequences, counted by playing every legal move of the position.
    Positions the ``start`` cannot reach in the plies before are left out
    (they are never looked up).  Layer 0 is ``{target: 1}``."""
    sb, sbk, sw, swk, _ = start
    start_black = (sb | sbk).bit_count()
    start_white = (sw | swk).bit_count()
    ply = plies - k + 1  # the ply of the move from this layer to the one below
    constraints = [c.matches for c in known.get(ply) or ()]  # type: ignore[attr-defined]
    layer: dict[Key, int] = {}
    seen: set[Key] = set()
    for x in below:
        if tick is not None:
            tick()
        bm, bk, wm, wk, black = x
        mover = not black
        # the mover may have taken pieces of the side to move now
        room = (start_black - (bm | bk).bit_count() if black
                else start_white - (wm | wk).bit_count())
        for q in unmoves(bm, bk, wm, wk, black, variant, max(room, 0)):
            key = (*q, mover)
            if key in seen:
                continue
            seen.add(key)
            if not feasible(*start, plies - k, Target(*key, men_back=variant.men_capture_backward,
                                                      flying=variant.flying_kings)):
                continue
            count = 0
            for mv in legal_raw_moves(*q, mover, rules):
                if constraints and not all(ok(tuple(i + 1 for i in mv[0])) for ok in constraints):
                    continue
                count += below.get((*apply(*q, mover, mv), black), 0)
            if count:
                layer[key] = count
    return layer
