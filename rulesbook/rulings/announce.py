"""Draw counts announced as the game reaches them: the 13-count, the long line,
the stronger side's count and repetition, each at the first ply where the
edition in force decides the claim (the count is *reached*) or, before that,
where a proposal or another rulebook would decide a draw.

The counts are the engine's (:class:`~rulesbook.draughts.Game` with the limits
of the edition in force) and each claim is the one :func:`draw_claims` gives
(``rulings --from-game … --ply N``): this module only walks the game once and
says where each claim first holds, in the words a referee reads out::

    13-count reached at the lone king's 13th move (White's move 25): draw under apca:28 — and under 28A, 24B
"""
from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..draughts import Game, Move, Position, Variant
from ..draughts.pdn_variant import variant_title
from ..reconstruct.replay import move_number
from ..textio import counted, ordinal
from .claims import DrawClaim, claims_at, count_rules_for, with_rulings
from .engine import Comparison, compare
from .fromgame import GameIncident, IncidentSource
from .governing import Governance
from .vocabulary import outcome_words

if TYPE_CHECKING:
    from ..library import Library

__all__ = ["AnnouncementLevel", "DrawAnnouncement", "draw_announcements",
           "announcement_words"]

DRAW = "draw"
PLAY_ON = "play_on"


class AnnouncementLevel(enum.Enum):
    """Who decides the claim at the ply announced."""

    IN_FORCE = "in_force"     # the edition in force: the count is reached
    PROPOSALS = "proposals"   # only proposals (or other rulebooks) would draw here


@dataclass(frozen=True)
class DrawAnnouncement:
    """A draw claim at the first ply where it is decided (see the module text)."""

    level: AnnouncementLevel
    ply: int                       # 1-based: the claim holds after this ply
    side: str                      # who made that move: "White"
    move_number: int               # that move's number on the scoresheet
    move: str                      # that move as written
    claim: DrawClaim               # the claim under the edition in force at ``ply``
    outcome: str | None            # the in-force ruling's outcome (None: undecided)
    ruling_ref: str | None         # the in-force ruling that decides it
    needs: tuple[str, ...]         # facts the in-force rulings still need (words)
    also: tuple[str, ...]          # other variants deciding a draw too (short refs)
    text: str                      # the sentence the board shows

    @property
    def reached(self) -> bool:
        """The edition in force decides the claim here (not only a proposal)."""
        return self.level is AnnouncementLevel.IN_FORCE

    @property
    def incident(self) -> GameIncident:
        """The claim as an incident with its facts, for the rulings."""
        return GameIncident(self.claim.incident, dict(self.claim.facts), self.ply, self.move,
                            self.text, IncidentSource.RECORD)


def _short(ref: str, home: str) -> str:
    """``apca:28A`` -> ``28A`` in the edited rulebook; other books keep their name."""
    book, _, rule = ref.partition(":")
    return rule if book == home and rule else ref


def _same_rule_first(refs: tuple[str, ...], rule: str) -> tuple[str, ...]:
    """The proposals to ``rule`` (``28A`` for ``28``) first, then the others as given."""
    number = re.match(r"\d+", rule)
    if number is None:
        return refs
    own = tuple(r for r in refs if re.fullmatch(rf"{number.group()}[A-Z]", r))
    return own + tuple(r for r in refs if r not in own)


def _head(claim: DrawClaim, reached: bool) -> str:
    """The count in the referee's terms: the lone king's own moves are counted ("the
    lone king's 13th move"), never the scoresheet's move number."""
    facts = claim.facts
    if claim.incident == "thirteen_count":
        at = f"at the lone king's {ordinal(claim.moves)} move"
        if reached:
            return (f"Long-line count reached {at}" if claim.name == "long line"
                    else f"13-count reached {at}")
        where = " on the long line" if facts.get("long_line") else ""
        return f"Lone king{where}, its {ordinal(claim.moves)} move"
    if claim.incident == "strong_side_count":
        if reached and claim.limit is not None:
            return f"Stronger side's {claim.limit}-move count reached"
        return f"Stronger side's count: {claim.moves} moves"
    return f"Position repeated {claim.moves} times"


def _guidance_part(library: Library, gov: Governance, refs: Sequence[str]) -> str:
    """The refs of rulebooks that do not govern the game, named with their rulebook
    and said to be guidance: "guidance only, not rules of English checkers: the APCA
    rules (pool checkers) 24B, 28". "" without such refs."""
    by_book: dict[str, list[str]] = {}
    for ref in refs:
        book_id, _, rule = ref.partition(":")
        by_book.setdefault(book_id, []).append(rule or ref)
    named = []
    for book_id, rules in by_book.items():
        try:
            book = library.rulebook(book_id)
        except LookupError:
            named.append(", ".join(f"{book_id}:{r}" for r in rules))
            continue
        kinds = " and ".join(variant_title(Variant.named(v)) for v in book.variants)
        named.append(f"{book.name}{f' ({kinds})' if kinds else ''} {', '.join(rules)}")
    return f"guidance only, not rules of {gov.variant_title}: {'; '.join(named)}" \
        if named else ""


def _foreign_words(library: Library, gov: Governance, outcome: str | None,
                   drawing: Sequence[str], ref: str | None) -> str:
    """The end of the line for a game the edition in force does not govern (an English
    game): the rulebooks that govern it first, each ref with its rulebook; the other
    rulebooks' draws named with their rulebook as guidance (never as this game's
    ruling: "APCA 24B, 28" alone read as the ruling of an English game)."""
    own = [r for r in drawing if r != ref and gov.governs(r.partition(":")[0])]
    other = [r for r in drawing if r != ref and not gov.governs(r.partition(":")[0])]
    text = ""
    if own:
        text += (" — and under " if outcome == DRAW else " — a draw under ") + ", ".join(own)
    if other:
        text += f" — {_guidance_part(library, gov, other)} would draw"
    return text


def announcement_words(claim: DrawClaim, home: str, drawing: Sequence[str],
                       reached: bool, side: str, number: int,
                       library: Library | None = None
                       ) -> tuple[str, str | None, str | None, tuple[str, ...],
                                  tuple[str, ...]]:
    """(text, outcome, ruling ref, needs, also) of a claim announced after ``side``'s
    move numbered ``number`` on the scoresheet (a move number, not an ordinal: from a
    set-up position Black's first move may be move 2); ``drawing``: the refs of
    every variant deciding a draw. With ``library``, a game the edition in force does
    not govern (its claim's governance) names the rulebooks that govern it, and any
    other rulebook's ruling with that rulebook, as guidance only."""
    best = claim.suggestions.best if claim.suggestions is not None else None
    binding = claim.suggestions.binding if claim.suggestions is not None else False
    outcome = best.outcome if best is not None and binding else None
    ref = best.ref if best is not None and binding else None
    needs: tuple[str, ...] = ()
    if ref is None and claim.suggestions is not None and binding:
        needs = tuple(f.id.replace("_", " ") for f in claim.suggestions.questions) or \
            tuple(dict.fromkeys(u.replace("_", " ") for r in claim.suggestions.rulings
                                for u in r.unknown_facts))
    also = _same_rule_first(tuple(_short(r, home) for r in drawing if r != ref),
                            _short(ref or claim.ref or "", home))
    text = f"{_head(claim, reached)} ({side}'s move {number}): "
    gov = claim.suggestions.governance if claim.suggestions is not None else None
    foreign = library is not None and gov is not None and not gov.edition_governs
    if outcome is not None and ref is not None:
        said = {DRAW: DRAW, PLAY_ON: "play goes on"}.get(outcome) or outcome_words(outcome)
        text += f"{said} under {ref}"
        if outcome != DRAW and claim.remaining:
            text += (f" ({counted(claim.remaining, 'move')} "
                     f"{'remains' if claim.remaining == 1 else 'remain'})")
    elif needs:
        rulers = claim.ref or (claim.suggestions.rulings[0].ref
                               if claim.suggestions and claim.suggestions.rulings else "")
        text += f"{rulers} decides it; it needs: {', '.join(needs)}"
    elif foreign and gov is not None:
        names = " or ".join(library.rulebook(b).name for b in gov.rulebooks) \
            if library is not None and gov.rulebooks else "no rulebook of the library"
        text += f"no rule of {names} decides a draw"
    else:
        text += "no rule in force decides a draw"
    if foreign and library is not None and gov is not None:
        text += _foreign_words(library, gov, outcome, drawing, ref)
    elif also:
        joined = ", ".join(also)
        text += (f" — and under {joined}" if outcome == DRAW
                 else f" — a draw under {joined}")
    return text, outcome, ref, needs, also


def _drawing(comparison: Comparison) -> tuple[str, ...]:
    return tuple(v.ref for v in comparison.verdicts if v.outcome == DRAW)


def draw_announcements(library: Library, start: Position, moves: Iterable[Move | str],
                       edition: str | None = None,
                       variant: str | Variant | None = None, *,
                       after: Game | None = None,
                       earlier: Sequence[DrawAnnouncement] = ()
                       ) -> tuple[DrawAnnouncement, ...]:
    """Every draw claim of the game ``start`` + ``moves`` at the first ply where it is
    decided, in the order of the plies: once where the edition in force decides it
    (the count reached) and, when that comes later or never, once where a proposal
    or another rulebook would already decide a draw. A move that cannot be played
    ends the walk (the counts follow legal play only).

    ``after`` and ``earlier``: the walk goes on from an earlier one (a record edited
    after its first plies is not walked again from the start): ``after`` is the game
    of the first ``after.ply`` moves of ``moves`` (played on by this walk) and
    ``earlier`` what this function announced up to that ply; the result is the same
    as a walk from the start. They are ignored (the walk starts at the beginning)
    when ``after`` is not a game from ``start`` counted under the rules in force or
    ``earlier`` announces a claim after its ply."""
    from ..draughts import DraughtsError

    # the counts and rulings of the rulebooks that govern the game's variant
    variant = variant if variant is not None else start.variant
    rules, sources = count_rules_for(library, edition, variant)
    ed = library.edition(edition)
    home = ed.rulebook
    game = Game(start, counts=rules)
    found: list[DrawAnnouncement] = []
    if after is not None and after.counts == rules and after.start == start \
            and all(a.ply <= after.ply for a in earlier):
        game, found = after, list(earlier)
        moves = itertools.islice(moves, after.ply, None)
    # each claim is announced once per level: what was announced before is not again
    seen: set[tuple[str, AnnouncementLevel]] = {(a.claim.incident, a.level) for a in found}
    comparisons: dict[tuple[str, tuple[tuple[str, Any], ...]], tuple[str, ...]] = {}
    for ply, move in enumerate(moves, start=game.ply + 1):
        before = game.board
        try:
            played = game.push(move)
        except DraughtsError:
            break
        # the rulings of a claim are worked out only for the claims announced: most
        # plies announce nothing, and the rulings were most of a long record's time
        for claim in claims_at(library, game, rules, sources, ed.id, variant=variant,
                               suggested=False):
            if (claim.incident, AnnouncementLevel.IN_FORCE) in seen or (
                    not claim.holds and (claim.incident, AnnouncementLevel.PROPOSALS) in seen):
                continue
            key = (claim.incident, tuple(sorted(claim.facts.items())))
            if key not in comparisons:
                comparisons[key] = _drawing(compare(library, claim.incident, claim.facts,
                                                    variant))
            drawing = comparisons[key]
            if claim.holds:
                level = AnnouncementLevel.IN_FORCE
            elif drawing and (claim.incident, AnnouncementLevel.PROPOSALS) not in seen:
                level = AnnouncementLevel.PROPOSALS
            else:
                continue
            seen.add((claim.incident, level))
            claim = with_rulings(library, claim, ed.id, variant)
            side = before.turn.title
            number = move_number(start, ply)
            text, outcome, ref, needs, also = announcement_words(
                claim, home, drawing, level is AnnouncementLevel.IN_FORCE, side, number,
                library)
            found.append(DrawAnnouncement(level, ply, side, number, before.move_text(played),
                                          claim, outcome, ref, needs, also, text))
    return tuple(found)
