"""The rulings controller: the dispute being ruled on (incident, facts, the
report's fields) and the answers computed from it.

Signals:
  incidentChanged(str)        another incident was chosen
  factsChanged(dict)          the facts changed (coerced values, known facts only)
  resultsChanged(object, object)  (Suggestions | None, Comparison | None)
  fieldsChanged()             a report field changed (autosaved in this state)
  statusMessage(str)          a short message for the status bar
"""
from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QObject, Signal

from rulesbook import Library
from rulesbook.rulings import (
    CLAIM_INCIDENTS,
    Case,
    CaseDifference,
    Comparison,
    Incident,
    Ruling,
    RulingsError,
    RulingsRequest,
    Suggestions,
    cases_for_proposal,
    compare,
    get_incident,
    incidents,
    load_cases,
    suggest,
)

#: A fact's value once checked against its type (what ``Fact.coerce`` returns).
FactValue = bool | int | float | str

#: The referee's editable report fields, in form order.
REPORT_FIELDS = ("title", "event", "round", "date", "black", "white", "description", "fen", "moves",
                 "disputed_ply", "decision", "notes")


def outcome_words(ruling: Ruling) -> str:
    """The outcome in plain words, capitalised, with the options when there are some."""
    text = ruling.meaning
    text = text[:1].upper() + text[1:]
    options = ruling.options
    if options:
        text += ": " + ", ".join(o.replace("_", " ") for o in options)
    return text


class RulingsController(QObject):
    incidentChanged = Signal(str)
    factsChanged = Signal(dict)
    resultsChanged = Signal(object, object)
    fieldsChanged = Signal()
    statusMessage = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.library: Library | None = None
        self.edition: str | None = None
        self.incident_id: str | None = None
        self.facts: dict[str, FactValue] = {}
        self.context: dict[str, object] = {}
        self.fields: dict[str, str] = {k: "" for k in REPORT_FIELDS}
        self.suggestions: Suggestions | None = None
        self.comparison: Comparison | None = None
        self.case_id: str | None = None
        #: the game's variant (engine name), from the record in dispute; None: pool
        self.variant: str | None = None

    # -- library and edition ---------------------------------------------
    def set_library(self, library: Library | None) -> None:
        self.library = library
        self.edition = library.edition().id if library is not None and library.editions else None
        if self.incident_id is not None:
            try:
                known = library is not None and bool(get_incident(library, self.incident_id))
            except RulingsError:
                known = False
            if not known:
                self.incident_id, self.facts = None, {}
        self._recompute()

    def set_edition(self, edition_id: str | None) -> None:
        if edition_id != self.edition:
            self.edition = edition_id
            self._recompute()

    def incidents(self) -> tuple[Incident, ...]:
        return incidents(self.library) if self.library is not None else ()

    @property
    def incident(self) -> Incident | None:
        if self.library is None or self.incident_id is None:
            return None
        return get_incident(self.library, self.incident_id)

    # -- the dispute -----------------------------------------------------------
    def select_incident(self, incident_id: str, facts: Mapping[str, object] | None = None,
                        keep_facts: bool = False) -> bool:
        """Choose ``incident_id``; ``facts`` replace the current facts. Unknown or
        ill-typed facts are dropped with a status message, never raised."""
        if self.library is None:
            return False
        try:
            incident = get_incident(self.library, incident_id)
        except RulingsError as exc:
            self.statusMessage.emit(str(exc))
            return False
        changed = incident.id != self.incident_id
        self.incident_id = incident.id
        if facts is not None or (changed and not keep_facts):
            self.facts, self.context = self._known(incident, facts or {}), {}
        else:
            self.facts = {k: v for k, v in self.facts.items() if k in incident.fact_ids}
        if changed:
            self.incidentChanged.emit(incident.id)
        self.factsChanged.emit(dict(self.facts))
        self._recompute()
        return True

    def _known(self, incident: Incident, facts: Mapping[str, object]) -> dict[str, FactValue]:
        known: dict[str, FactValue] = {}
        dropped: list[str] = []
        for key, value in dict(facts).items():
            if key in incident.fact_ids:
                try:
                    known[key] = incident.fact(key).coerce(value, incident.id)
                except RulingsError:
                    dropped.append(key)
            elif value is not None:
                dropped.append(key)
        if dropped:
            self.statusMessage.emit("Not used as facts: " + ", ".join(dropped))
        return known

    def take_request(self, request: RulingsRequest) -> bool:
        """A dispute of a game sent by the board: its incident and facts, and the
        record it travels with (moves, start, the disputed ply, the record's event,
        round, date and players) in the report fields, replacing what they held (the
        record in dispute is this one now); a request without a record leaves them."""
        incident = request.incident
        # the record's variant chooses the rulebooks, before the rulings are computed
        self.variant = request.variant.name if request.variant is not None else None
        if not self.select_incident(incident.incident, incident.facts):
            return False
        self.context = {key: value for key, value in (("move", incident.move),
                                                      ("explanation", incident.explanation))
                        if value}
        tags = request.tags
        record = {"moves": request.moves_text, "fen": request.fen,
                  "disputed_ply": "" if incident.ply is None else str(incident.ply),
                  "event": tags.event, "round": tags.round, "date": tags.date,
                  "black": tags.black, "white": tags.white}
        if request.moves_text or request.fen:
            # every field of the record, blank ones too: a tag the new game lacks
            # must not keep the last game's value (a report naming the wrong players)
            self.fields.update(record)
            self.fieldsChanged.emit()
        return True

    def set_fact(self, fact_id: str, value: object) -> None:
        """Set one fact (None: unknown again)."""
        incident = self.incident
        if incident is None:
            return
        if value is None or value == "":
            if fact_id not in self.facts:
                return
            del self.facts[fact_id]
        else:
            try:
                value = incident.fact(fact_id).coerce(value, incident.id)
            except RulingsError as exc:
                self.statusMessage.emit(str(exc))
                return
            if self.facts.get(fact_id, object()) == value and \
                    type(self.facts.get(fact_id)) is type(value):
                return
            self.facts[fact_id] = value
        self.factsChanged.emit(dict(self.facts))
        self._recompute()

    def clear_facts(self) -> None:
        self.facts = {}
        self.factsChanged.emit({})
        self._recompute()

    def _recompute(self) -> None:
        if self.library is None or self.incident_id is None:
            self.suggestions = self.comparison = None
        else:
            facts: dict[str, object] = dict(self.facts)
            self.suggestions = suggest(self.library, self.incident_id, facts, self.edition,
                                       self.variant)
            self.comparison = compare(self.library, self.incident_id, facts, self.variant)
        self.resultsChanged.emit(self.suggestions, self.comparison)

    # -- the case library --------------------------------------------------------
    def cases(self, proposal: str | None = None) -> list[Case] | list[CaseDifference]:
        """Every case, or (for a proposal) the CaseDifferences it decides differently."""
        if self.library is None:
            return []
        if proposal:
            return list(cases_for_proposal(self.library, proposal))
        return list(load_cases(self.library))

    def proposals_with_rulings(self) -> list[tuple[str, str]]:
        """(ref, label) of the proposals that decide some incident (for the case browser)."""
        from rulesbook.rulings.catalogue import specs_for

        out: list[tuple[str, str]] = []
        if self.library is None:
            return out
        for book in self.library.rulebooks:
            for prop in book.proposals:
                if specs_for(self.library, prop.ref):
                    try:
                        who = self.library.member(prop.member).label
                    except LookupError:
                        who = prop.member
                    out.append((prop.ref, f"{prop.ref} ({who})"))
        return out

    def load_case(self, case: Case) -> None:
        """Take a case of the library as the dispute: its incident, facts and report fields."""
        self.case_id = case.id
        self.variant = case.variant
        self.fields.update({
            "title": case.title, "event": case.event, "round": case.round, "date": case.date,
            "black": case.players.get("black", ""), "white": case.players.get("white", ""),
            "description": case.description, "fen": case.fen or "", "moves": case.moves or "",
            "disputed_ply": str(case.disputed_ply or ""), "decision": case.decision,
            "notes": case.notes})
        self.select_incident(case.incident, dict(case.facts))
        self.fieldsChanged.emit()

    # -- report fields (autosaved here as they are typed) ---------------------------
    def set_field(self, name: str, value: str) -> None:
        if name not in self.fields:
            raise KeyError(name)
        value = str(value)
        if self.fields[name] != value:
            self.fields[name] = value
            self.fieldsChanged.emit()

    def report_case(self) -> Case:
        """The dispute as a core :class:`Case`, for :mod:`rulesbook.report`."""
        incident = self.incident
        if incident is None:
            raise RulingsError("choose an incident first")
        f = self.fields
        try:
            ply = int(f["disputed_ply"]) if f["disputed_ply"].strip() else None
        except ValueError:
            ply = None
        description = f["description"]
        move = self.context.get("move")
        explanation = self.context.get("explanation")
        if not description and move and incident.id in CLAIM_INCIDENTS and explanation:
            description = str(explanation)  # a draw claim: no move is disputed
        elif not description and move and (ply is None or not f["moves"].strip()):
            # with the record and the ply, the report states the move and the reason in
            # words itself; a bare reason code (failure_to_capture) is never shown
            description = f"Disputed move: {move}" + (f". {explanation}" if explanation else "")
        return Case(id=self.case_id or "dispute", title=f["title"] or incident.title,
                    incident=incident.id, facts=dict(self.facts), expected={},
                    description=description, fen=f["fen"].strip() or None,
                    moves=f["moves"].strip(), disputed_ply=ply, event=f["event"],
                    round=f["round"],
                    date=f["date"], players={"black": f["black"], "white": f["white"]},
                    decision=f["decision"], notes=f["notes"], variant=self.variant)

    def report_html(self) -> str:
        """The standalone report (rulesbook.report); a record that cannot be replayed is
        left out of the diagram rather than failing the report."""
        from rulesbook.report import report_html

        library = self.library
        if library is None:
            raise RulingsError("no rules library is loaded")
        case = self.report_case()
        if self.library is None:
            return ""
        try:
            return report_html(library, case, self.edition)
        except RulingsError as exc:
            import dataclasses

            self.statusMessage.emit(f"The record is left out of the report: {exc}")
            bare = dataclasses.replace(case, fen=None, moves="", disputed_ply=None)
            return report_html(library, bare, self.edition)

    # -- persistence of the draft ----------------------------------------------------
    def draft(self) -> dict[str, object]:
        return {"incident": self.incident_id, "facts": dict(self.facts),
                "context": dict(self.context), "fields": dict(self.fields),
                "case": self.case_id, "variant": self.variant}

    def restore_draft(self, draft: Mapping[str, object]) -> None:
        """Take back a :meth:`draft` read from the settings file. The file may have been
        edited: a part that is not of the type :meth:`draft` writes is left out."""
        if not isinstance(draft, Mapping):
            return
        fields = draft.get("fields")
        if isinstance(fields, Mapping):
            for key in REPORT_FIELDS:
                value = fields.get(key)
                if isinstance(value, str):
                    self.fields[key] = value
        context = draft.get("context")
        saved_context = dict(context) if isinstance(context, Mapping) else {}
        self.context = dict(saved_context)
        case = draft.get("case")
        self.case_id = case if isinstance(case, str) and case else None
        variant = draft.get("variant")
        from rulesbook.rulings.governing import variant_name

        try:
            self.variant = variant_name(variant) if isinstance(variant, str) else None
        except RulingsError:
            self.variant = None
        incident = draft.get("incident")
        if isinstance(incident, str) and incident and self.library is not None:
            facts = draft.get("facts")
            self.select_incident(incident, dict(facts) if isinstance(facts, Mapping) else {})
            self.context.update(saved_context)
        self.fieldsChanged.emit()
