"""Incidents taken from a game record: the first illegal move of a record
becomes an incident with its facts filled in.

The reconstruction core (``rulesbook.reconstruct``) reports, per first illegal
move, an ``incident`` id and a ``facts`` dict; :func:`incident_from_reconstruction`
accepts exactly that shape. Until that core exists, :func:`first_illegal_move`
classifies the first unplayable move of a PDN record itself (illegal move,
failure to capture, incomplete jump)."""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from .catalogue import get_incident
from .claims import first_pdn_game
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


def _reconstruct_module():
    try:
        return importlib.import_module("rulesbook.reconstruct")
    except ModuleNotFoundError as exc:
        if exc.name and "rulesbook.reconstruct".startswith(exc.name):
            return None
        raise


def first_illegal_move(library, text: str) -> GameIncident | None:
    """The first illegal move of a PDN record as an incident, or None if every move is legal."""
    module = _reconstruct_module()
    finder = getattr(module, "first_illegal_move", None) if module else None
    if finder is not None:
        found = finder(text)
        if found is None:
            return None
        return incident_from_reconstruction(
            found.incident, found.facts, library, getattr(found, "ply", None),
            str(getattr(found, "move", "") or ""), str(getattr(found, "explanation", "") or ""))
    return _from_record(library, text)


def _from_record(library, text: str) -> GameIncident | None:
    game = first_pdn_game(text)
    position = game.start
    nodes = game.mainline
    for i, node in enumerate(nodes, start=1):
        if node.move is not None:
            position = position.play(node.move)
            continue
        legal = position.legal_moves()
        squares = _squares(node.text)
        captures = [m for m in legal if m.is_capture]
        incident = "illegal_move"
        why = f"{node.text} is not a legal move in this position"
        if captures and squares:
            partial = [m for m in captures if m.start == squares[0]
                       and squares[-1] in m.path[1:-1]]
            if partial:
                incident = "incomplete_jump"
                why = (f"{node.text} stops short: the capture must go on "
                       f"({partial[0].full_text()})")
            elif "x" not in node.text:
                incident = "failure_to_capture"
                why = (f"{node.text} ignores a compulsory capture "
                       f"({', '.join(m.full_text() for m in captures[:3])})")
        discovered = "at_once" if i == len(nodes) else "later_in_game"
        return GameIncident(incident, {"discovered": discovered}, i, node.text, why, "record")
    return None


def _squares(text: str) -> list[int]:
    import re

    try:
        return [int(s) for s in re.split(r"[-x:]", text) if s]
    except ValueError:
        return []


def ensure_game_text(path) -> str:
    from pathlib import Path

    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GameRecordError(f"no such file: {p}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise GameRecordError(f"cannot read {p}: {exc}") from None
