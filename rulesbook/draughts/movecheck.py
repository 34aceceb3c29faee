"""Checking one written move without generating every legal move: is ``i-j``
a legal step, is a written path one whole capture (:func:`quiet_step`,
:func:`capture_path`)?  Both give the generator's own raw move, so
:class:`~rulesbook.draughts.position.Position` can read a move in O(its length)
and fall back to :func:`~rulesbook.draughts.movegen.legal_raw_moves` only when
these cannot tell (flying kings, "most" precedence).  The generator stays the
reference: the tests compare both with it on random positions."""
from __future__ import annotations

from rulesbook.draughts.geometry import BETWEEN, BIT
from rulesbook.draughts.movegen import (
    CROWN_BLACK,
    CROWN_WHITE,
    FULL,
    JUMPS_ALL,
    JUMPS_BLACK,
    JUMPS_WHITE,
    MODE_CONTINUES,
    MODE_ENDS,
    STEPS_ALL,
    STEPS_BLACK,
    STEPS_WHITE,
    CompiledRules,
    Jumps,
    RawMove,
)

__all__ = ["quiet_step", "capture_path"]


def _step_masks(steps: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    return tuple(sum(BIT[j] for j in s) for s in steps)


STEPMASK_BLACK = _step_masks(STEPS_BLACK)
STEPMASK_WHITE = _step_masks(STEPS_WHITE)
STEPMASK_ALL = _step_masks(STEPS_ALL)


def quiet_step(men: int, kings: int, occ: int, black: bool, rules: CompiledRules, i: int,
               j: int) -> RawMove | None:
    """The generated tuple of the quiet move ``i``-``j`` (bit indices) of the side
    owning ``men``/``kings`` if it is a legal step ignoring captures, else None."""
    bj = BIT[j]
    if occ & bj:
        return None
    bi = BIT[i]
    if men & bi:
        if (STEPMASK_BLACK if black else STEPMASK_WHITE)[i] & bj:
            return RawMove((i, j), (), bool((CROWN_BLACK if black else CROWN_WHITE) & bj), 0)
        return None
    if kings & bi:
        if rules.flying_kings:
            between = BETWEEN.get((i, j))
            if between is not None and not occ & between:
                return RawMove((i, j), (), False, 0)
        elif STEPMASK_ALL[i] & bj:
            return RawMove((i, j), (), False, 0)
    return None


def _jump_to(jumps: Jumps) -> tuple[dict[int, int], ...]:
    """Per origin: {landing square: jumped square} of the single jumps in ``jumps``."""
    return tuple({land: o for _ob, _lb, o, land in js} for js in jumps)


JUMP_TO_ALL = _jump_to(JUMPS_ALL)
JUMP_TO_BLACK = _jump_to(JUMPS_BLACK)
JUMP_TO_WHITE = _jump_to(JUMPS_WHITE)


def capture_path(men: int, kings: int, opp: int, occ: int, black: bool, rules: CompiledRules,
                 path: tuple[int, ...]) -> RawMove | None:
    """The generated tuple of the capture that stops on ``path`` (bit indices)
    if it is one of ``captures(...)`` with exactly that path, else None.

    Only short-range pieces under "free" precedence are checked here; for a
    flying king or "most" precedence the answer is None (generate instead)."""
    back, flying, most, mode = rules
    if most:
        return None
    i = path[0]
    bi = BIT[i]
    if men & bi:
        king = False
        table = JUMPS_ALL if back else (JUMPS_BLACK if black else JUMPS_WHITE)
        jump_to = JUMP_TO_ALL if back else (JUMP_TO_BLACK if black else JUMP_TO_WHITE)
    elif kings & bi and not flying:
        king = True
        table = JUMPS_ALL
        jump_to = JUMP_TO_ALL
    else:
        return None
    empty = (FULL ^ occ) | bi
    crown = CROWN_BLACK if black else CROWN_WHITE
    capmask = 0
    caps: list[int] = []
    crowned = False
    last = len(path) - 1
    for k in range(1, last + 1):
        land = path[k]
        o = jump_to[i].get(land)
        if o is None:
            return None
        ob = BIT[o]
        lb = BIT[land]
        if not opp & ob or capmask & ob or not empty & lb:
            return None
        capmask |= ob
        caps.append(o)
        i = land
        if not king and crown & lb:
            if mode == MODE_ENDS:
                if k != last:
                    return None
                return RawMove(tuple(path), tuple(caps), True, capmask)
            if mode == MODE_CONTINUES:
                if flying:
                    return None
                king = crowned = True
                table = JUMPS_ALL
                jump_to = JUMP_TO_ALL
    for ob, lb, _o, _land in table[i]:
        if opp & ob and not capmask & ob and empty & lb:
            return None  # the capture goes on: this path is not a whole move
    if not king:
        crowned = bool(crown & BIT[i])
    return RawMove(tuple(path), tuple(caps), crowned, capmask)
