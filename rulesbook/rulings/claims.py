"""Draw claims decided from the game itself: the 13-count, the long line, the
stronger side's count and repetition, computed from the draughts engine's count
state with the limits of the edition in force."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..draughts import CountRules, DraughtsError, Game, Move, Position, Variant
from ..draughts.pdn import PdnGame, read_games
from ..textio import counted, ordinal
from .engine import Suggestions, governing_sources, suggest
from .errors import GameRecordError
from .governing import governance

if TYPE_CHECKING:
    from ..draughts import Game, Move, Position
    from ..draughts.pdn import PdnGame
    from ..library import Library

#: the incidents of the draw claims decided from the game (:class:`DrawClaim`)
CLAIM_INCIDENTS = ("thirteen_count", "strong_side_count", "repetition")


def count_rules_for(library: Library, edition: str | None = None,
                    variant: str | Variant | None = None) -> tuple[CountRules, dict[str, str]]:
    """The CountRules of an edition, built from the ``count:`` of the rulings in force,
    and which record set each parameter. Counts no rule in force sets are off.
    ``variant``: a game the edition does not govern counts by the rulebooks that
    govern it (an English game: the Standard Laws' forty moves, no 13-count)."""
    params: dict[str, Any] = {}
    sources: dict[str, str] = {}
    gov = governance(library, variant, edition)
    binding, _ = governing_sources(library, gov)
    # the rules in force as ever (a later rule's count wins); of several rulebooks
    # that govern the game, the first one's (the Standard Laws before the ACF guide)
    for source in binding if gov.edition_governs else list(reversed(binding)):
        for spec in source.specs:
            for key, value in spec.count.items():
                params[key] = value
                sources[key] = source.ref
    return CountRules(**params), sources


def counts_source(library: Library, edition: str | None = None,
                  variant: str | Variant | None = None) -> str:
    """Which rules the counts of a game of ``variant`` come from, in words, for the
    referee: the rules that set a limit (``"Standard Laws 12 (Drawn Games)"``), and,
    when the edition in force does not govern the game, who does (an English game:
    "An English checkers game: the Standard Laws and the ACF guide govern it; the
    APCA edition in force is for pool checkers.")."""
    from ..model import split_ref

    _rules, sources = count_rules_for(library, edition, variant)
    gov = governance(library, variant, edition)
    by_book: dict[str, list[str]] = {}
    for ref in dict.fromkeys(sources.values()):
        book_id, rule_id = split_ref(ref)
        try:
            rule = library.rulebook(book_id).rule(rule_id)
            words = f"{rule.number if rule.number is not None else rule.id} ({rule.title})"
        except KeyError:
            words = rule_id
        by_book.setdefault(book_id, []).append(words)
    named = []
    for book_id, rules in by_book.items():
        book = library.rulebook(book_id)
        named.append(f"{book.short_title or book.title} {' and '.join(rules)}")
    where = "; ".join(named) if named else "no rule that governs the game sets a count"
    if gov.edition_governs:
        return f"{where}, in the edition in force"
    return f"{where}. {gov.sentence}"


@dataclass(frozen=True)
class DrawClaim:
    """Whether a draw claim holds at a ply, and the rulings that decide it."""

    incident: str           # thirteen_count | strong_side_count | repetition
    name: str               # "13-count", "long line", "stronger side", "repetition"
    applicable: bool        # the count is running (e.g. three kings against one)
    holds: bool
    moves: int
    limit: int | None
    remaining: int | None   # moves left before the limit (None: no limit in force)
    ref: str | None         # the rule in force that sets the limit
    explanation: str
    facts: dict[str, Any] = field(hash=False, compare=False)
    suggestions: Suggestions | None = field(default=None, hash=False, compare=False)

    def as_json(self) -> dict[str, Any]:
        return {"incident": self.incident, "claim": self.name, "applicable": self.applicable,
                "holds": self.holds, "moves": self.moves, "limit": self.limit,
                "remaining": self.remaining, "ref": self.ref, "explanation": self.explanation,
                "facts": dict(self.facts),
                "rulings": self.suggestions.as_json() if self.suggestions else []}


def replay(start: Position | None, moves: Iterable[Move | str], counts: CountRules,
           upto: int | None = None) -> Game:
    """A Game from ``start`` with ``moves`` (Move or text) up to ply ``upto``."""
    game = Game(start, counts=counts)
    moves = list(moves)
    if upto is not None and not 0 <= upto <= len(moves):
        raise GameRecordError(f"ply {upto} is outside the game (0-{len(moves)})")
    for i, move in enumerate(moves[:upto] if upto is not None else moves, start=1):
        try:
            game.push(move)
        except DraughtsError as exc:
            raise GameRecordError(f"move {i} cannot be played: {exc}") from None
    return game


def draw_claims(library: Library, start: Position | None, moves: Iterable[Move | str],
                ply: int | None = None,
                edition: str | None = None,
                notice_ply: int | None = None,
                variant: str | Variant | None = None) -> tuple[DrawClaim, ...]:
    """Every draw claim at ``ply`` (default: the end) of the game ``start`` + ``moves``,
    under ``edition``: whether it holds, how many moves remain, and the rulings.

    ``notice_ply``: the ply after which notice was given (the Standard Laws count
    the stronger side's moves "from the point at which notice was given"); without
    it the stronger side's moves count from the last capture or man move."""
    if variant is None and start is not None:
        variant = start.variant
    rules, sources = count_rules_for(library, edition, variant)
    game = replay(start, moves, rules, ply)
    if notice_ply is not None and not 0 <= notice_ply <= game.ply:
        raise GameRecordError(f"the notice at ply {notice_ply} is outside the game "
                              f"(0-{game.ply})")
    return claims_at(library, game, rules, sources, edition, notice_ply, variant)


def _count_words(n: int, limit: int) -> str:
    """A count as the referee counts it: "5 of 13 moves", "13 of 13 moves"; the count
    stops at its limit (the moves past it are :func:`_past_words`)."""
    return f"{min(n, limit)} of {limit} moves"


def _past_words(n: int, limit: int) -> str:
    """The moves made after the count was reached: ", and 1 more move since the count
    was reached at its 13th move" ("" when there are none)."""
    past = n - limit
    if past <= 0:
        return ""
    return (f", and {past} more move{'' if past == 1 else 's'} since the count was "
            f"reached at its {ordinal(limit)} move")


def claims_at(library: Library, game: Game, rules: CountRules, sources: dict[str, str],
              edition: str | None = None,
              notice_ply: int | None = None,
              variant: str | Variant | None = None,
              suggested: bool = True) -> tuple[DrawClaim, ...]:
    """Every draw claim at the current ply of ``game`` (played with the count
    ``rules``; ``sources``: which record set each parameter, as
    :func:`count_rules_for` gives them), under ``edition``. Without ``suggested``
    the claims have no rulings (``suggestions`` None: :func:`with_rulings` adds
    them), for a walk over every ply that needs the rulings of a few."""
    state = game.count_state()
    claims = []
    # 13-count / long line
    active = state.three_vs_one_active
    limit = state.three_vs_one_limit
    name = "long line" if state.long_line and rules.long_line_limit is not None else "13-count"
    ref = sources.get("long_line_limit" if name == "long line" else "three_vs_one_limit")
    n = state.three_vs_one_moves
    facts = {"three_kings_vs_one": active, "lone_king_moves": n, "long_line": state.long_line}
    if not active:
        why = "The 13-count does not apply: the position is not three kings against one king."
    elif limit is None:
        why = "No rule in force sets a count for three kings against one."
    else:
        why = (f"The lone king has made {_count_words(n, limit)}"
               + (" on the long line" if name == "long line" else "")
               + _past_words(n, limit) + ".")
    claims.append(_claim(library, edition, "thirteen_count", name, active and limit is not None,
                         bool(active and state.three_vs_one_reached), n, limit, ref, why, facts,
                         variant, suggested))
    # stronger side
    limit = state.strong_side_limit
    strong = state.strong_side
    if notice_ply is None:
        n = state.strong_side_moves
        reached = state.strong_side_reached
        since = ("without a capture or a man moved (counted from the last capture or man "
                 "move; give the ply of the notice to count from the referee's call)")
    else:
        # Each position before a move says who made it: count the stronger side's.
        n = sum(1 for p in game.positions[notice_ply:-1] if strong is not None
                and p.turn is strong)
        reached = limit is not None and n >= limit
        since = f"since the notice given after ply {notice_ply}"
    facts = {"strong_side_moves": n}
    if strong is None:
        why = "Neither side is stronger (material is even)."
    elif limit is None:
        why = "No rule in force sets a count for the stronger side."
    else:
        why = (f"{strong} is stronger and has made {_count_words(n, limit)} {since}"
               f"{_past_words(n, limit)}.")
        if rules.strong_side_extension and reached:
            why += (f" Rule extension: {rules.strong_side_extension} more moves if the win "
                    f"can be completed in them.")
    claims.append(_claim(library, edition, "strong_side_count", "stronger side",
                         strong is not None and limit is not None, reached,
                         n, limit, sources.get("strong_side_limit"), why, facts, variant,
                         suggested))
    # repetition
    n = state.repetitions
    limit = state.repetition_limit
    why = (f"The position has occurred {counted(n, 'time')}" + (f" of {limit}." if limit else
           "; no rule in force makes repetition a draw."))
    claims.append(_claim(library, edition, "repetition", "repetition", limit is not None,
                         state.repetition_reached, n, limit, sources.get("repetition_limit"),
                         why, {"repetitions": n}, variant, suggested))
    return tuple(claims)


def _claim(library: Library, edition: str | None, incident: str, name: str, applicable: bool,
           holds: bool, moves: int, limit: int | None, ref: str | None, why: str,
           facts: dict[str, Any], variant: str | Variant | None = None,
           suggested: bool = True) -> DrawClaim:
    remaining = max(0, limit - moves) if (limit is not None and applicable) else None
    return DrawClaim(incident, name, applicable, bool(holds), moves, limit, remaining, ref, why,
                     facts, suggest(library, incident, facts, edition, variant)
                     if suggested else None)


def with_rulings(library: Library, claim: DrawClaim, edition: str | None = None,
                 variant: str | Variant | None = None) -> DrawClaim:
    """``claim`` with the rulings that decide it (as :func:`claims_at` gives them)."""
    if claim.suggestions is not None:
        return claim
    return replace(claim, suggestions=suggest(library, claim.incident, claim.facts, edition,
                                              variant))


def draw_claims_from_pdn(library: Library, text: str, ply: int | None = None,
                         edition: str | None = None,
                         notice_ply: int | None = None) -> tuple[DrawClaim, ...]:
    """Draw claims from the first game of a PDN text (up to its first unplayable move)."""
    game = first_pdn_game(text)
    moves = game.mainline_moves()
    if ply is None:
        ply = len(moves)
    return draw_claims(library, game.start, moves, ply, edition, notice_ply)


def first_pdn_game(text: str) -> PdnGame:

    try:
        games = read_games(text)
    except ValueError as exc:
        raise GameRecordError(f"the record cannot be read: {exc}") from None
    if not games:
        raise GameRecordError("the file holds no game")
    return games[0]
