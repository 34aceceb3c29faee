"""Suggest and compare: which rulings apply to an incident, under an edition
or under every variant (original rule, proposals, other rulebooks)."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from ..editions import consolidate
from ..model import Proposal, Rule
from .catalogue import Fact, Incident, RulingSpec, condition_holds, get_incident, specs_for
from .governing import Governance, governance, ordered_books
from .vocabulary import OUTCOMES, Basis, FactValue

if TYPE_CHECKING:
    from ..draughts import Variant
    from ..library import Library

JSON_KEYS = ("ref", "rulebook", "outcome", "options", "summary", "matched_facts",
             "unknown_facts", "text", "quotes", "basis")


@dataclass(frozen=True, kw_only=True)
class Ruling:
    """One ruling that applies (or may apply) to an incident."""

    ref: str                 # the record whose ruling it is (``apca:10``, ``apca:10B``)
    rulebook: str
    incident: str
    outcome: str
    options: tuple[str, ...]
    summary: str
    matched_facts: dict[str, FactValue] = field(hash=False, compare=False)
    unknown_facts: tuple[str, ...] = ()
    text: str = ""
    title: str = ""
    rule: str = ""           # the rule it stands for (differs from ref for an adopted proposal)
    applies: bool = True     # every condition is met by a known fact
    in_force: bool = True    # False for guidance from another rulebook
    conditions: dict[str, object] = field(default_factory=dict, hash=False, compare=False)
    count: dict[str, int] = field(default_factory=dict, hash=False, compare=False)
    quotes: tuple[str, ...] = ()   # the words of ``text`` that establish it
    basis: Basis = Basis.STATED
    note: str = ""                 # what was inferred and why
    suggestion: bool = False       # an author's suggestion, not a rule of the book

    @property
    def meaning(self) -> str:
        return OUTCOMES.get(self.outcome, self.outcome)

    @property
    def inferred(self) -> bool:
        return self.basis is Basis.INFERRED

    def as_json(self) -> dict[str, object]:
        return {"ref": self.ref, "rulebook": self.rulebook, "outcome": self.outcome,
                "options": list(self.options), "summary": self.summary,
                "matched_facts": dict(self.matched_facts),
                "unknown_facts": list(self.unknown_facts), "text": self.text,
                "quotes": list(self.quotes), "basis": self.basis.value,
                "suggestion": self.suggestion}


@dataclass(frozen=True)
class Suggestions:
    """The answer to :func:`suggest`."""

    incident: Incident
    facts: dict[str, FactValue] = field(hash=False, compare=False)
    edition: str = ""
    rulings: tuple[Ruling, ...] = ()
    questions: tuple[Fact, ...] = ()   # unknown facts that would change the answer
    binding: bool = True               # False when only other rulebooks address it
    #: the game's variant and the rulebooks that govern it (None: not asked for a game)
    governance: Governance | None = None

    @property
    def best(self) -> Ruling | None:
        return self.rulings[0] if self.rulings and self.rulings[0].applies else None

    @property
    def variant(self) -> str | None:
        return self.governance.variant if self.governance is not None else None

    @property
    def rulebooks(self) -> tuple[str, ...]:
        """The rulebooks that govern the game's variant."""
        return self.governance.rulebooks if self.governance is not None else ()

    def governs(self, ruling: Ruling) -> bool:
        """The ruling's rulebook governs the game's variant (the Standard Laws an
        English game); True without a governance (a game of the edition's variant)."""
        return self.governance is None or self.governance.governs(ruling.rulebook)

    def as_json(self) -> list[dict[str, object]]:
        """Each ruling's JSON; with the governance, each also names the game's
        ``variant`` and the ``rulebooks`` that govern it. Every ruling says whether
        its rulebook ``governs`` the game's variant and whether it is ``guidance``
        only (not a rule in force for the game: another rulebook's, or the edition
        in force for a game of another variant)."""
        extra: dict[str, object] = {}
        if self.governance is not None:
            extra = {"variant": self.governance.variant,
                     "rulebooks": list(self.governance.rulebooks)}
        return [{**r.as_json(), **extra, "governs": self.governs(r),
                 "guidance": not r.in_force} for r in self.rulings]


class RulingSource(NamedTuple):
    """A record whose rulings may decide an incident: a rule in force, or the
    section of another rulebook (``in_force`` False: guidance only)."""

    ref: str
    rulebook: str
    rule: str
    text: str
    title: str
    specs: tuple[RulingSpec, ...]
    in_force: bool


def _evaluate(spec: RulingSpec, facts: dict[str, FactValue]
              ) -> tuple[str, dict[str, FactValue], tuple[str, ...]]:
    matched: dict[str, FactValue] = {}
    unknown: list[str] = []
    for fact_id, condition in spec.when.items():
        if fact_id not in facts:
            unknown.append(fact_id)
        elif condition_holds(condition, facts[fact_id]):
            matched[fact_id] = facts[fact_id]
        else:
            return "excluded", matched, ()
    return ("applies" if not unknown else "possible"), matched, tuple(unknown)


def _candidates(incident: Incident, facts: dict[str, FactValue],
                sources: Iterable[RulingSource], by_book: bool = False) -> list[Ruling]:
    """Rulings of ``sources`` for the incident, most specific first (applying
    before possible, more matched conditions first). ``by_book``: the rulebooks in
    the order of ``sources`` come first (the Standard Laws before the ACF guide for
    an English game: the laws before a director's guide)."""
    found: list[tuple[tuple[bool, bool, bool, int, int, int, int], Ruling]] = []
    order = 0
    books: list[str] = []
    for ref, rulebook, rule, text, title, specs, in_force in sources:
        if rulebook not in books:
            books.append(rulebook)
        rank = books.index(rulebook) if by_book else 0
        for spec in specs:
            if incident.id not in spec.incidents:
                continue
            status, matched, unknown = _evaluate(spec, facts)
            order += 1
            if status == "excluded":
                continue
            ruling = Ruling(ref=ref, rulebook=rulebook, incident=incident.id,
                            outcome=spec.outcome, options=spec.options, summary=spec.summary,
                            matched_facts=matched, unknown_facts=unknown, text=text,
                            title=title, rule=rule, applies=status == "applies",
                            in_force=in_force, conditions=dict(spec.when),
                            count=dict(spec.count), quotes=spec.all_quotes, basis=spec.basis,
                            note=spec.note, suggestion=spec.suggestion)
            # a general rule (a win for any violation) after every specific remedy,
            # even one that still needs a fact: the specific words decide first
            found.append(((spec.general, not ruling.applies, spec.suggestion, rank,
                           -len(matched), len(unknown), order), ruling))
    found.sort(key=lambda pair: pair[0])
    return [r for _, r in found]


def _questions(incident: Incident, rulings: list[Ruling]) -> tuple[Fact, ...]:
    if len({(r.outcome, r.options) for r in rulings}) <= 1:
        return ()
    wanted = {f for r in rulings for f in r.unknown_facts}
    return tuple(f for f in incident.facts if f.id in wanted)


def _addresses(specs: Iterable[RulingSpec], incident_id: str) -> bool:
    return any(incident_id in s.incidents for s in specs)


def in_force_sources(library: Library, edition: str | None = None) -> Iterator[RulingSource]:
    """The source of each rule in force in ``edition`` that has rulings (``in_force``
    True): an adopted proposal's rulings replace the original rule's."""
    book = consolidate(library, edition)
    for rif in book.rules:
        specs = specs_for(library, rif.source)
        if specs:
            yield RulingSource(rif.source, rif.source.partition(":")[0], rif.ref, rif.text,
                               rif.title, specs, True)


def other_sources(library: Library, home: str,
                  skip: tuple[str, ...] = ()) -> Iterator[RulingSource]:
    """The rules with rulings of every rulebook but ``home`` (and ``skip``): guidance."""
    for book in ordered_books(library):
        if book.id == home or book.id in skip:
            continue
        for rule in book.rules:
            specs = specs_for(library, rule.ref)
            if specs:
                yield RulingSource(rule.ref, book.id, rule.ref, rule.text, rule.title, specs,
                                   False)


def _book_sources(library: Library, books: tuple[str, ...]) -> Iterator[RulingSource]:
    """The rules with rulings of the rulebooks ``books`` (that govern the game)."""
    for book in ordered_books(library):
        if book.id not in books:
            continue
        for rule in book.rules:
            specs = specs_for(library, rule.ref)
            if specs:
                yield RulingSource(rule.ref, book.id, rule.ref, rule.text, rule.title, specs,
                                   True)


def governing_sources(library: Library, gov: Governance
                      ) -> tuple[list[RulingSource], list[RulingSource]]:
    """(binding, guidance) sources for a game under ``gov``: a game the edition
    governs takes the rules in force, the other rulebooks as guidance; a game of
    another variant the rulebooks that govern it, with the edition in force and
    the rest as guidance; a variant no rulebook governs, everything as guidance."""
    in_force = list(in_force_sources(library, gov.edition))
    if gov.edition_governs:
        return in_force, list(other_sources(library, gov.edition_rulebook))
    edition_guidance = [s._replace(in_force=False) for s in in_force]
    others = list(other_sources(library, gov.edition_rulebook, gov.rulebooks))
    return list(_book_sources(library, gov.rulebooks)), edition_guidance + others


def suggest(library: Library, incident: str, facts: dict[str, object] | None = None,
            edition: str | None = None, variant: str | Variant | None = None) -> Suggestions:
    """The rulings that apply to ``incident`` with ``facts`` under ``edition`` (the
    edition in force by default), most specific first, with the facts still unknown
    that would change the answer. When no rule in force addresses the case, the other
    rulebooks' rulings are given as guidance (``binding`` is False).

    ``variant``: the game's variant (:mod:`~rulesbook.rulings.governing`): a game the
    edition's rulebook does not govern (English checkers under the APCA rules) is
    ruled by the rulebooks that govern its variant, the edition only as guidance.
    None: a game of the edition's own variant (pool)."""
    inc = get_incident(library, incident)
    known = inc.check_facts(facts)
    ed = library.edition(edition)
    gov = governance(library, variant, ed.id)
    binding_sources, guidance = governing_sources(library, gov)
    rulings = _candidates(inc, known, binding_sources, by_book=not gov.edition_governs)
    binding = True
    if not rulings:
        others = _candidates(inc, known, guidance)
        if others:
            # of the guidance, the rulebooks that govern the game's variant first (the
            # Spanish pool rules before the Standard Laws for a pool game)
            others.sort(key=lambda r: not gov.governs(r.rulebook))
            rulings, binding = others, False
    return Suggestions(inc, known, ed.id, tuple(rulings), _questions(inc, rulings), binding,
                       gov)


# -- compare -----------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    """How one variant (a rule, a proposal, another rulebook's section) decides a case."""

    ref: str
    rulebook: str
    label: str
    kind: str                      # rule | replacement | addition | comment | endorsement
    outcome: str | None            # None: undecided on these facts
    options: tuple[str, ...] = ()
    summary: str = ""
    matched_facts: dict[str, FactValue] = field(default_factory=dict, hash=False,
                                                compare=False)
    unknown_facts: tuple[str, ...] = ()
    text: str = ""
    endorses: str | None = None
    differs: bool | None = None    # decides differently from the original APCA rules
    quotes: tuple[str, ...] = ()
    basis: Basis | None = None     # None when undecided
    note: str = ""
    suggestion: bool = False       # an author's suggestion, not a rule of the book

    def as_json(self) -> dict[str, object]:
        return {"ref": self.ref, "rulebook": self.rulebook, "outcome": self.outcome,
                "options": list(self.options), "summary": self.summary,
                "matched_facts": dict(self.matched_facts),
                "unknown_facts": list(self.unknown_facts), "text": self.text,
                "label": self.label, "kind": self.kind, "endorses": self.endorses,
                "differs": self.differs, "quotes": list(self.quotes),
                "basis": self.basis.value if self.basis is not None else None,
                "suggestion": self.suggestion}


@dataclass(frozen=True)
class Comparison:
    incident: Incident
    facts: dict[str, FactValue] = field(hash=False, compare=False)
    verdicts: tuple[Verdict, ...] = ()
    baseline: str | None = None          # ref of the original rule that sets the baseline
    baseline_outcome: str | None = None

    def verdict(self, ref: str) -> Verdict:
        for v in self.verdicts:
            if v.ref == ref:
                return v
        raise KeyError(ref)

    @property
    def outcomes(self) -> dict[str, str | None]:
        return {v.ref: v.outcome for v in self.verdicts}

    @property
    def disagreements(self) -> tuple[Verdict, ...]:
        return tuple(v for v in self.verdicts if v.differs)

    @property
    def agree(self) -> bool:
        return len({v.outcome for v in self.verdicts if v.outcome is not None}) <= 1

    def as_json(self) -> list[dict[str, object]]:
        return [v.as_json() for v in self.verdicts]


class _Variant(NamedTuple):
    """A record that addresses an incident; ``endorses`` the rule an endorsement
    decides with (its specs and text are that rule's)."""

    entry: Rule | Proposal
    kind: str
    specs: tuple[RulingSpec, ...]
    text: str
    endorses: str | None


def _variants(library: Library, incident_id: str,
              first: tuple[str, ...] = ()) -> Iterator[_Variant]:
    """Every record that addresses the incident, in the order variants are shown."""
    for book in ordered_books(library, first):
        for prop in book.preamble:
            specs = specs_for(library, prop.ref)
            if _addresses(specs, incident_id):
                yield _Variant(prop, prop.kind, specs, prop.text, None)
        for rule in book.rules:
            rule_specs = specs_for(library, rule.ref)
            rule_addresses = _addresses(rule_specs, incident_id)
            if rule_addresses:
                yield _Variant(rule, "rule", rule_specs, rule.text, None)
            for prop in rule.proposals:
                specs = specs_for(library, prop.ref)
                if _addresses(specs, incident_id):
                    yield _Variant(prop, prop.kind, specs, prop.text, None)
                elif prop.kind == "endorsement" and rule_addresses:
                    yield _Variant(prop, prop.kind, rule_specs, rule.text, rule.ref)


def _label(library: Library, entry: Rule | Proposal) -> str:
    if isinstance(entry, Proposal):
        try:
            who = library.member(entry.member).label
        except LookupError:
            who = entry.member
        return f"{entry.ref} ({who})"
    book = library.rulebook(entry.rulebook)
    return f"{entry.ref} {book.short_title}: {entry.title}"


def compare(library: Library, incident: str,
            facts: dict[str, object] | None = None,
            variant: str | Variant | None = None) -> Comparison:
    """How every variant decides ``incident`` with ``facts``: the original APCA rules,
    each proposal, the Standard Laws, the Spanish pool rules and the ACF guide. A variant
    that differs from the original APCA rules' decision is marked ``differs``.

    ``variant``: a game the APCA rules do not govern (English checkers) is compared
    with the first rulebook that governs it instead (the Standard Laws), shown first."""
    inc = get_incident(library, incident)
    known = inc.check_facts(facts)
    home = library.editions[0].rulebook if library.editions else "apca"
    first: tuple[str, ...] = ()
    if variant is not None and library.editions:
        gov = governance(library, variant)
        if not gov.edition_governs and gov.rulebooks:
            home, first = gov.rulebooks[0], gov.rulebooks
    raw: list[Verdict] = []
    for entry, kind, specs, text, endorses in _variants(library, inc.id, first):
        title = entry.title if isinstance(entry, Rule) else (entry.title or "")
        source = RulingSource(entry.ref, entry.rulebook, entry.ref, text, title, specs, True)
        rulings = _candidates(inc, known, [source])
        best = rulings[0] if rulings and rulings[0].applies else None
        if best is not None:
            v = Verdict(entry.ref, entry.rulebook, _label(library, entry), kind, best.outcome,
                        best.options, best.summary, best.matched_facts, (), text, endorses,
                        quotes=best.quotes, basis=best.basis, note=best.note,
                        suggestion=best.suggestion)
        else:
            unknown = tuple(dict.fromkeys(f for r in rulings for f in r.unknown_facts))
            v = Verdict(entry.ref, entry.rulebook, _label(library, entry), kind, None, (),
                        "Undecided on these facts." if rulings else
                        "Does not decide this case on these facts.", {}, unknown, text, endorses)
        raw.append(v)
    baseline = next((v for v in raw if v.kind == "rule" and v.rulebook == home
                     and v.outcome is not None), None)
    base_outcome = baseline.outcome if baseline else None
    verdicts: list[Verdict] = []
    for v in raw:
        differs = None
        if baseline is not None and v.outcome is not None:
            differs = (v.outcome, v.options) != (base_outcome, baseline.options)
        verdicts.append(Verdict(**{**v.__dict__, "differs": differs}))
    return Comparison(inc, known, tuple(verdicts), baseline.ref if baseline else None,
                      base_outcome)
