"""Incidents taken from a game record: the first illegal move of a record
becomes an incident with its facts filled in.

The reconstruction core (``rulesbook.reconstruct``) reports, per first illegal
move, an ``incident`` id and a ``facts`` dict; :func:`incident_from_reconstruction`
accepts exactly that shape, and :func:`first_illegal_move` replays a record
with it."""
from __future__ import annotations

import enum
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .catalogue import get_incident
from .errors import GameRecordError
from .vocabulary import FactValue

if TYPE_CHECKING:
    from ..library import Library
    from ..reconstruct.record import Record
    from ..reconstruct.replay import IllegalMove


class IncidentSource(enum.Enum):
    """How a game incident was established."""

    RECONSTRUCTION = "reconstruction"  # the replay of the record found an illegal move
    RECORD = "record"                  # the counts of the game as recorded (a draw claim)


@dataclass(frozen=True)
class GameIncident:
    """What happened in a game, for the rulings engine: the incident id, its facts,
    the 1-based ply of the move in question, that move as written and the sentence
    that says what happened."""

    incident: str
    facts: dict[str, FactValue] = field(hash=False, compare=False)
    ply: int | None = None
    move: str = ""
    explanation: str = ""
    source: IncidentSource = IncidentSource.RECONSTRUCTION


def incident_from_reconstruction(incident_id: str, facts: Mapping[str, FactValue] | None = None,
                                 library: Library | None = None,
                                 ply: int | None = None, move: str = "",
                                 explanation: str = "") -> GameIncident:
    """An incident from the reconstruction core's ``incident`` id and ``facts`` dict.
    With a library, the id and facts are checked (and coerced to their types)."""
    known = dict(facts or {})
    if library is not None:
        incident = get_incident(library, incident_id)
        known = incident.check_facts(known)
    return GameIncident(str(incident_id), known, ply, move, explanation,
                        IncidentSource.RECONSTRUCTION)


def first_illegal_move(library: Library, text: str) -> GameIncident | None:
    """The first illegal move of a record (PDN or a plain move list) as an incident,
    with the facts the reconstruction establishes; None if every move is legal."""
    from ..reconstruct import read_records

    return _incident(library, read_records(text)[0])


@dataclass(frozen=True)
class GameFinding:
    """What a record says about one game: its record errors (``problems``,
    ``"line L col C: message"``), whether it could be replayed at all
    (``readable``: False when its start position cannot be read), and its
    first illegal move as an incident (None when every move is legal)."""

    game: int
    title: str
    problems: tuple[str, ...] = ()
    readable: bool = True
    incident: GameIncident | None = None
    #: the record's variant (engine name): the rulings are those of its rulebooks
    variant: str = "pool"
    #: why the variant was chosen when the record has no GameType tag ("" with one)
    variant_note: str = ""

    @property
    def sound(self) -> bool:
        """The record has no error of its own: a ruling may rest on it."""
        return self.readable and not self.problems


def _title(record: Record) -> str:
    tags = record.tags
    if not tags:
        return "moves"
    from ..textio import visible_controls

    return " - ".join(visible_controls(tags.get(k, "?")) for k in ("Black", "White"))


def illegal_incident(library: Library, found: IllegalMove) -> GameIncident:
    """An illegal move the reconstruction found, as an incident: the incident's own
    facts (checked), the ply, the move as written (shortened) and the sentence."""
    from ..textio import shorten

    incident = get_incident(library, found.incident)
    # The reconstruction also reports facts of its own (ply, side...) that are not
    # questions of this incident: only the incident's facts go to the rulings.
    facts = {k: v for k, v in found.facts.items() if k in incident.fact_ids}
    return incident_from_reconstruction(found.incident, facts, library, found.ply,
                                        shorten(found.move), found.message)


def _incident(library: Library, record: Record) -> GameIncident | None:
    from ..reconstruct import replay

    found = replay(record).first_illegal
    return None if found is None else illegal_incident(library, found)


def findings_from_file(library: Library, path: str | os.PathLike[str], game: int | None = None,
                       warnings: list[str] | None = None) -> Iterator[GameFinding]:
    """Every game of the record file ``path`` (or only the ``game``-th, from 1),
    read as a stream under the decoding policy and limits of the readers
    (:mod:`rulesbook.textio`, :mod:`rulesbook.limits`); a decoding warning goes
    to ``warnings``. Raises :class:`GameRecordError` when the file cannot be
    used (unreadable, too large, no game, fewer than ``game`` games)."""
    from ..limits import GAME_FILE, MAX_GAME_FILE_BYTES
    from ..reconstruct import iter_records, no_move_problem
    from ..textio import open_text

    count = 0
    try:
        with open_text(path, max_bytes=MAX_GAME_FILE_BYTES, what=GAME_FILE,
                       warnings=warnings) as handle:
            for number, record in enumerate(iter_records(handle), 1):
                count = number
                if game is not None and number != game:
                    continue
                readable = record.start is not None
                # the app's import check: text with no readable move is a record
                # error, never a player's illegal move (never a ruling)
                unusable = no_move_problem(record)
                problems = record.problems + ((unusable,) if unusable else ())
                guess = record.variant_guess
                yield GameFinding(number, _title(record), problems, readable,
                                  _incident(library, record)
                                  if readable and unusable is None else None,
                                  record.variant.name,
                                  guess.sentence() if guess is not None else "")
                if game is not None:
                    return
    except GameRecordError:
        raise
    except ValueError as exc:  # RulesbookError, DraughtsError, limits, decoding
        raise GameRecordError(str(exc) if str(path) in str(exc) else f"{path}: {exc}") \
            from None
    if game is not None and count < game:
        raise GameRecordError(f"--game {game}: {path} has {count} game(s)")


def ensure_game_text(path: str | os.PathLike[str]) -> str:
    """The text of a record file, decoded and bounded like every game file."""
    from ..limits import GAME_FILE, MAX_GAME_FILE_BYTES
    from ..textio import read_text

    try:
        return read_text(path, max_bytes=MAX_GAME_FILE_BYTES, what=GAME_FILE).text
    except ValueError as exc:
        raise GameRecordError(str(exc)) from None
