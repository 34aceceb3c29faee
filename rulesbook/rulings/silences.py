"""Where the rules are silent: for each incident, the combinations of fact values for
which no rule in force of an edition decides, and those that two rules in force decide
differently. This is the committee's list of what the next amendments should settle;
:func:`fills` says which silences a proposal would settle.

Every fact takes each of its values: yes and no, each choice, and for a number the
values on both sides of every threshold a ruling of the library uses (``max: 12``
gives 12 and 13). Combinations that differ only in a fact that does not matter are
merged, so ``{"piece_playable": False, "notice_given": True}`` stands for every value
of the incident's other facts.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, TypeAlias

from ..model import Proposal
from .catalogue import Fact, Incident, RulingSpec, catalogue_of, condition_holds, incidents
from .engine import in_force_sources
from .vocabulary import FactValue

if TYPE_CHECKING:
    from ..library import Library


class _Wild(Enum):
    ANY = "any"


ANY = _Wild.ANY  # a fact whose value does not matter in a merged combination

_Facts: TypeAlias = dict[str, FactValue]
_Row: TypeAlias = tuple[FactValue | _Wild, ...]  # a combination's values in catalogue order
_Decided: TypeAlias = set[tuple[str, tuple[str, ...]]]  # {(outcome, options)}


@dataclass(frozen=True)
class Silence:
    """A combination of facts that no rule in force decides (``conflict`` empty), or that
    two or more rules in force decide differently (``conflict`` lists them)."""

    incident: str
    facts: _Facts = field(hash=False, compare=False)  # only the facts that matter
    rules_considered: tuple[str, ...] = ()           # the rules in force that address it
    conflict: tuple[str, ...] = ()
    decisions: dict[str, str] = field(default_factory=dict, hash=False,
                                      compare=False)  # ref -> outcome
    combinations: int = 1                            # full combinations it stands for

    @property
    def is_conflict(self) -> bool:
        return bool(self.conflict)

    def describe(self) -> str:
        """The facts in words: ``piece_playable=no, notice_given=yes`` (or "any facts")."""
        if not self.facts:
            return "whatever the facts"
        return ", ".join(f"{k}={_show(v)}" for k, v in self.facts.items())

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"incident": self.incident, "facts": dict(self.facts),
               "rules_considered": list(self.rules_considered)}
        if self.conflict:
            out["conflict"] = list(self.conflict)
        return out


@dataclass(frozen=True)
class Fill:
    """A silence that a proposal would settle, and how."""

    proposal: str
    silence: Silence
    outcomes: tuple[str, ...]      # what the proposal decides there
    partly: bool = False           # it decides only some of the combinations


def _show(value: FactValue) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _thresholds(library: Library, fact_id: str, incident_id: str) -> list[float]:
    points: set[float] = set()
    for specs in catalogue_of(library).specs.values():
        for spec in specs:
            if incident_id not in spec.incidents or fact_id not in spec.when:
                continue
            cond = spec.when[fact_id]
            for item in cond if isinstance(cond, list) else [cond]:
                if isinstance(item, dict):
                    for key, t in item.items():
                        points.update({"min": (t - 1, t), "max": (t, t + 1),
                                       "over": (t, t + 1), "under": (t - 1, t)}[key])
                elif isinstance(item, (int, float)) and not isinstance(item, bool):
                    points.update((item - 1, item, item + 1))
    return sorted(p for p in points if p >= 0) or [1]


def fact_values(library: Library, incident: Incident, fact: Fact) -> list[FactValue]:
    """The values a fact takes in the enumeration."""
    if fact.type == "yes/no":
        return [True, False]
    if fact.type == "choice":
        return list(fact.choices)
    return list(_thresholds(library, fact.id, incident.id))


def _combinations(library: Library, incident: Incident) -> Iterator[_Facts]:
    facts = incident.facts
    values = [fact_values(library, incident, f) for f in facts]
    for combo in itertools.product(*values):
        yield dict(zip([f.id for f in facts], combo, strict=True))


def _decisions(specs_by_ref: Iterable[tuple[str, tuple[RulingSpec, ...]]], incident_id: str,
               facts: _Facts) -> dict[str, _Decided]:
    """ref -> {(outcome, options)} of the rulings that apply to ``facts``."""
    out: dict[str, _Decided] = {}
    for ref, specs in specs_by_ref:
        for spec in specs:
            if incident_id in spec.incidents and _applies(spec, facts):
                out.setdefault(ref, set()).add((spec.outcome, spec.options))
    return out


def _applies(spec: RulingSpec, facts: _Facts) -> bool:
    return all(k in facts and condition_holds(c, facts[k]) for k, c in spec.when.items())


def _merge(combos: list[_Facts], incident: Incident, library: Library) -> list[_Facts]:
    """Join combinations that differ only in one fact taking all its values, repeatedly."""
    order = [f.id for f in incident.facts]
    domain = {f.id: fact_values(library, incident, f) for f in incident.facts}
    current: list[_Row] = [tuple(c[k] for k in order) for c in combos]
    changed = True
    while changed:
        changed = False
        for i, fact_id in enumerate(order):
            # rows grouped by their other values (the key holds ANY for fact i)
            groups: dict[_Row, set[FactValue | _Wild]] = {}
            for row in current:
                groups.setdefault(row[:i] + (ANY,) + row[i + 1:], set()).add(row[i])
            merged: set[_Row] = set()
            keep: list[_Row] = []
            for key, seen in groups.items():
                if ANY not in seen and all(v in seen for v in domain[fact_id]):
                    merged.add(key)
            if not merged:
                continue
            changed = True
            for row in current:
                key = row[:i] + (ANY,) + row[i + 1:]
                if key in merged:
                    continue
                keep.append(row)
            keep.extend(merged)
            current = list(dict.fromkeys(keep))
    return [{k: v for k, v in zip(order, row, strict=True) if not isinstance(v, _Wild)}
            for row in current]


def _count(facts: _Facts, incident: Incident, library: Library) -> int:
    n = 1
    for f in incident.facts:
        if f.id not in facts:
            n *= len(fact_values(library, incident, f))
    return n


def _sources(library: Library, edition: str | None) -> list[tuple[str, tuple[RulingSpec, ...]]]:
    return [(source.ref, source.specs) for source in in_force_sources(library, edition)]


def silences(library: Library, edition: str | None = None,
             incident: str | None = None) -> tuple[Silence, ...]:
    """Every silence and conflict of ``edition`` (the edition in force by default), incident
    by incident in catalogue order; ``incident`` limits it to one."""
    ed = library.edition(edition)
    sources = _sources(library, ed.id)
    out: list[Silence] = []
    for inc in incidents(library):
        if incident is not None and inc.id != incident:
            continue
        considered = tuple(ref for ref, specs in sources
                           if any(inc.id in s.incidents for s in specs))
        silent: list[_Facts] = []
        conflicts: dict[tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...],
                        list[_Facts]] = {}
        for combo in _combinations(library, inc):
            decided = _decisions(sources, inc.id, combo)
            if not decided:
                silent.append(combo)
                continue
            by_ref = {ref: tuple(sorted(d)) for ref, d in decided.items()}
            if len(set(by_ref.values())) > 1:
                key = tuple(sorted(by_ref.items()))
                conflicts.setdefault(key, []).append(combo)
        for facts in _merge(silent, inc, library):
            out.append(Silence(inc.id, facts, considered,
                               combinations=_count(facts, inc, library)))
        for key, combos in conflicts.items():
            refs = tuple(ref for ref, _ in key)
            decisions = {ref: "/".join(o for o, _ in d) for ref, d in key}
            for facts in _merge(combos, inc, library):
                out.append(Silence(inc.id, facts, considered, refs, decisions,
                                   _count(facts, inc, library)))
    return tuple(out)


def _expand(silence: Silence, incident: Incident, library: Library) -> Iterator[_Facts]:
    for combo in _combinations(library, incident):
        if all(combo[k] == v for k, v in silence.facts.items()):
            yield combo


def fills(library: Library, proposal: str, edition: str | None = None) -> tuple[Fill, ...]:
    """The silences of ``edition`` that the proposal ``proposal`` would settle: those of
    its incidents where one of its rulings decides."""
    entry = library.resolve(proposal)
    if not isinstance(entry, Proposal):
        from .errors import RulingsError
        raise RulingsError(f"{entry.ref} is a rule, not a proposal")
    specs = catalogue_of(library).specs.get(entry.ref, ())
    if not specs:
        return ()
    by_id = {i.id: i for i in incidents(library)}
    wanted = {i for s in specs for i in s.incidents}
    out: list[Fill] = []
    for silence in silences(library, edition):
        if silence.incident not in wanted or silence.conflict:
            continue
        inc = by_id[silence.incident]
        decided, total = 0, 0
        outcomes: list[str] = []
        for combo in _expand(silence, inc, library):
            total += 1
            got = _decisions([(entry.ref, specs)], inc.id, combo)
            if got:
                decided += 1
                outcomes.extend(o for o, _ in got[entry.ref])
        if decided:
            out.append(Fill(entry.ref, silence, tuple(dict.fromkeys(outcomes)),
                            partly=decided < total))
    return tuple(out)


def open_proposals(library: Library, edition: str | None = None) -> tuple[str, ...]:
    """The proposals of the edition's rulebook that carry rulings and are not adopted."""
    ed = library.edition(edition)
    adopted = {a.proposal for e in library.editions for a in e.adopted}
    book = library.rulebook(ed.rulebook)
    return tuple(p.ref for p in book.proposals
                 if p.ref not in adopted and catalogue_of(library).specs.get(p.ref))
