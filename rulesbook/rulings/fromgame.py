"""Incidents taken from a game record: the first illegal move of a record
becomes an incident with its facts filled in.

The reconstruction core (``rulesbook.reconstruct``) reports, per first illegal
move, an ``incident`` id and a ``facts`` dict; :func:`incident_from_reconstruction`
accepts exactly that shape, and :func:`first_illegal_move` replays a record
with it."""
from __future__ import annotations

from dataclasses import dataclass, field

from .catalogue import get_incident
from .errors import GameRecordError


@dataclass(frozen=True)
class GameIncident:
    incident: str
    facts: dict = field(hash=False, compare=False)
    ply: int | None = None          # 1-based ply of the move in question
    move: str = ""
    explanation: str = ""
    source: str = "reconstruction"  # reconstruction | record


def incident_from_reconstruction(incident_id: str, facts: dict | None = None, library=None,
                                 ply: int | None = None, move: str = "",
                                 explanation: str = "") -> GameIncident:
    """An incident from the reconstruction core's ``incident`` id and ``facts`` dict.
    With a library, the id and facts are checked (and coerced to their types)."""
    facts = dict(facts or {})
    if library is not None:
        incident = get_incident(library, incident_id)
        facts = incident.check_facts(facts)
    return GameIncident(str(incident_id), facts, ply, move, explanation, "reconstruction")


def first_illegal_move(library, text: str) -> GameIncident | None:
    """The first illegal move of a record (PDN or a plain move list) as an incident,
    with the facts the reconstruction establishes; None if every move is legal."""
    from ..reconstruct import read_records, replay

    records = read_records(text)
    found = replay(records[0]).first_illegal
    if found is None:
        return None
    incident = get_incident(library, found.incident)
    # The reconstruction also reports facts of its own (ply, side...) that are not
    # questions of this incident: only the incident's facts go to the rulings.
    facts = {k: v for k, v in found.facts.items() if k in incident.fact_ids}
    return incident_from_reconstruction(found.incident, facts, library, found.ply,
                                        found.move, found.message)


def ensure_game_text(path) -> str:
    from pathlib import Path

    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GameRecordError(f"no such file: {p}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise GameRecordError(f"cannot read {p}: {exc}") from None
