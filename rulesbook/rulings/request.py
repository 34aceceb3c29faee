"""What the board asks the rulings for: a :class:`RulingsRequest` names the
incident of a game (a :class:`~rulesbook.rulings.fromgame.GameIncident`: the
illegal move a record check found, or a draw claim), the record it happened in
(variant, start, the moves as written, its event, round, date and players) and
where the question came from (:class:`RequestOrigin`).

:func:`rulings_request` is the one place that builds it, for the Board's Check
Record and draw-claim bar and for ``rulesbook rulings --from-game FILE --ply N``::

    >>> from rulesbook.datapath import bundled_data_dir
    >>> from rulesbook.library import load_library
    >>> from rulesbook.reconstruct import import_record, replay
    >>> library = load_library(bundled_data_dir())
    >>> record = import_record('[Event "Club night"] 1. 11-15 22-18 2. 10-14 *').record
    >>> found = replay(record.written, start=record.start).first_illegal
    >>> request = rulings_request(library, record, found, RequestOrigin.CHECK_RECORD)
    >>> request.incident.incident, request.incident.ply, request.incident.move
    ('failure_to_capture', 3, '10-14')
    >>> request.side, request.tags.event, request.moves_text
    (Color.BLACK, 'Club night', '11-15 22-18 10-14')
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..draughts import Color, Position, Variant
from ..reconstruct.case import RecordTags
from ..reconstruct.replay import IllegalMove
from ..textio import shorten
from .announce import DrawAnnouncement
from .claims import DrawClaim
from .errors import GameRecordError
from .fromgame import GameIncident, IncidentSource, illegal_incident

if TYPE_CHECKING:
    from ..library import Library
    from ..reconstruct.session import GameRecord

__all__ = ["RequestOrigin", "RulingsRequest", "rulings_request", "verdict_line"]


class RequestOrigin(enum.Enum):
    """Where a request for rulings came from."""

    #: Check Record's rulings button: the first illegal move (or, when every move
    #: is legal, the draw claim the record reached)
    CHECK_RECORD = "check_record"
    #: a draw claim at a ply: the Board's draw-claim bar ("Draw Rulings…",
    #: Ctrl+Shift+R) or ``rulesbook rulings --from-game FILE --ply N``
    DRAW_CLAIM = "draw_claim"


@dataclass(frozen=True)
class RulingsRequest:
    """A dispute of a game to rule on (see the module text).

    ``start`` is None (and ``moves`` empty) when the incident comes without its
    record; ``side`` is who made the move in question (None before any move);
    ``claim`` the draw claim with its counts when the incident is one."""

    incident: GameIncident
    origin: RequestOrigin
    variant: Variant | None = None
    start: Position | None = None
    moves: tuple[str, ...] = ()
    tags: RecordTags = RecordTags()
    side: Color | None = None
    claim: DrawClaim | None = None

    @property
    def moves_text(self) -> str:
        """The moves as written, one space between them (how a case file keeps them)."""
        return " ".join(self.moves)

    @property
    def fen(self) -> str:
        """The start position as FEN ("" without a record)."""
        return self.start.fen() if self.start is not None else ""


def _mover(start: Position, ply: int) -> Color | None:
    """Who made the move of ``ply`` (1-based) from ``start``; None at ply 0."""
    if ply < 1:
        return None
    return start.turn if ply % 2 == 1 else start.turn.opponent


def rulings_request(library: Library, record: GameRecord,
                    found: IllegalMove | DrawAnnouncement | DrawClaim,
                    origin: RequestOrigin, ply: int | None = None) -> RulingsRequest:
    """The request for the rulings on what ``record`` shows:

    * an :class:`IllegalMove` its replay found: the incident with the facts of
      that incident the replay establishes (checked against the catalogue);
    * a :class:`DrawAnnouncement`: the claim at the ply where it is decided;
    * a :class:`DrawClaim` at ``ply`` (default: the end of the record), as
      :func:`~rulesbook.rulings.draw_claims` gives it for that ply.

    Raises :class:`GameRecordError` for a ``ply`` outside the record."""
    claim: DrawClaim | None = None
    side: Color | None = None
    if isinstance(found, IllegalMove):
        incident, side = illegal_incident(library, found), found.side
    elif isinstance(found, DrawAnnouncement):
        incident, claim = found.incident, found.claim
    else:
        at = len(record.moves) if ply is None else ply
        if not 0 <= at <= len(record.moves):
            raise GameRecordError(f"ply {at} is outside the game (0-{len(record.moves)})")
        move = shorten(record.moves[at - 1].text) if at else ""
        incident = GameIncident(found.incident, dict(found.facts), at, move,
                                found.explanation, IncidentSource.RECORD)
        claim = found
    if side is None and incident.ply is not None:
        side = _mover(record.start, incident.ply)
    return RulingsRequest(incident, origin, record.variant, record.start, record.texts,
                          RecordTags.of(record), side, claim)


def verdict_line(library: Library, request: RulingsRequest, edition: str | None = None) -> str:
    """The ruling of a request in one line, as the Check panel shows it under the
    illegal move: the rulebook that governs the game, the outcome in words and its
    rule beside it ("Under the Standard Laws (English checkers): the offending
    player forfeits the game - standard-laws:10")."""
    from .engine import suggest
    from .governing import guidance_words
    from .vocabulary import outcome_words

    incident = request.incident
    result = suggest(library, incident.incident, dict(incident.facts), edition, request.variant)
    gov = result.governance
    assert gov is not None
    books = [library.rulebook(b).name for b in gov.rulebooks]
    under = (" and ".join(books) if gov.rulebooks and not gov.edition_governs
             else edition_title(library, result.edition))
    head = f"Under {under} ({gov.variant_title})"
    best = result.best
    if best is None:
        return f"{head}: not decided on these facts - open the rulings"
    words = outcome_words(best.outcome)
    if best.options:
        words += ": " + ", ".join(o.replace("_", " ") for o in best.options)
    said = guidance_words(library, gov, best.rulebook, best.in_force)
    guidance = f" ({said})" if said else ""
    return f"{head}: {words} \u2014 {best.ref}{guidance}"


def edition_title(library: Library, edition: str) -> str:
    """The edition in force as a referee reads it: its title, not its id."""
    try:
        return library.edition(edition).title
    except (KeyError, LookupError):
        return f"edition {edition}"
