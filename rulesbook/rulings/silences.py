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

import dataclasses
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, TypeAlias

from ..model import Proposal
from .catalogue import Fact, Incident, RulingSpec, catalogue_of, condition_holds, incidents
from .engine import in_force_sources
from .errors import RulingsError
from .governing import Governance, governance
from .vocabulary import FactValue, facts_words

if TYPE_CHECKING:
    from ..library import Library


class _Wild(Enum):
    ANY = "any"


ANY = _Wild.ANY  # a fact whose value does not matter in a merged combination

_Facts: TypeAlias = dict[str, FactValue]
_Row: TypeAlias = tuple[FactValue | _Wild, ...]  # a combination's values in catalogue order
_Decided: TypeAlias = set[tuple[str, tuple[str, ...]]]  # {(outcome, options)}


class ConflictKind(str, Enum):
    """How two rules decide the same facts differently."""

    IN_FORCE = "in_force"        # two rules in force decide the same facts differently
    GENERAL = "general"          # a general rule in force contradicts a specific remedy
    SAME_POSITION = "same_position"  # two incidents of one position, decided differently
    IF_ADOPTED = "if_adopted"    # proposals (or a proposal and a rule in force) would

    def __str__(self) -> str:
        return self.value


#: the words for each kind, as the command line and the app print them
CONFLICT_WORDS = {
    ConflictKind.IN_FORCE: "two rules in force decide it differently",
    ConflictKind.GENERAL: "a general rule in force contradicts the specific remedy",
    ConflictKind.SAME_POSITION: "the same position is decided differently by two rules in force",
    ConflictKind.IF_ADOPTED: "would conflict if adopted",
}


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
    kind: ConflictKind | None = None                 # a conflict's kind (None: a silence)
    #: ref -> the words that decide it there (both sides of a conflict)
    quotes: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    #: a silence of the specific rules that only a general rule decides (its refs)
    general: tuple[str, ...] = ()
    #: a conflict across incidents: the other incident (``same_position``)
    other_incident: str = ""
    #: a conflict among the rulebooks that govern a variant the edition does not (an
    #: English game: the Standard Laws and the ACF guide): the variant and those
    #: rulebooks ("" and () for the edition's own rules)
    variant: str = ""
    rulebooks: tuple[str, ...] = ()

    @property
    def is_conflict(self) -> bool:
        return bool(self.conflict)

    def describe(self, incident: Incident | None = None) -> str:
        """The facts in words: each question and its answer ("Is the touched piece
        playable? no; ...", :func:`~rulesbook.rulings.vocabulary.facts_words`; the
        fact ids in words without ``incident``), or "whatever the facts"."""
        if not self.facts:
            return "whatever the facts"
        return facts_words(incident, self.facts)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"incident": self.incident, "facts": dict(self.facts),
               "rules_considered": list(self.rules_considered)}
        if self.conflict:
            out["conflict"] = list(self.conflict)
            out["kind"] = str(self.kind)
            out["decisions"] = dict(self.decisions)
            out["quotes"] = dict(self.quotes)
            if self.other_incident:
                out["other_incident"] = self.other_incident
            if self.variant:
                out["variant"] = self.variant
                out["rulebooks"] = list(self.rulebooks)
        if self.general:
            out["general"] = list(self.general)
        return out


@dataclass(frozen=True)
class Fill:
    """A silence that a proposal would settle, and how."""

    proposal: str
    silence: Silence
    outcomes: tuple[str, ...]      # what the proposal decides there
    partly: bool = False           # it decides only some of the combinations


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


def _combinations(library: Library, incident: Incident, other: Incident | None = None,
                  mapping: dict[str, str] | None = None) -> Iterator[_Facts]:
    """Every combination of the incident's fact values; with ``other`` and ``mapping``
    (other's fact -> this fact) a mapped number fact also takes the values on both
    sides of the other incident's thresholds."""
    facts = incident.facts
    values = [fact_values(library, incident, f) for f in facts]
    if other is not None and mapping:
        for theirs, ours in mapping.items():
            for i, f in enumerate(facts):
                if f.id == ours and f.type == "number":
                    extra = _thresholds(library, theirs, other.id)
                    values[i] = sorted(set(values[i]) | set(extra))
    for combo in itertools.product(*values):
        yield dict(zip([f.id for f in facts], combo, strict=True))


def _decisions(specs_by_ref: Iterable[tuple[str, tuple[RulingSpec, ...]]], incident_id: str,
               facts: _Facts, general: bool | None = None) -> dict[str, _Decided]:
    """ref -> {(outcome, options)} of the rulings that apply to ``facts`` (``general``:
    only the general rulings, True, or only the specific ones, False)."""
    out: dict[str, _Decided] = {}
    for ref, specs in specs_by_ref:
        for spec in specs:
            if general is not None and spec.general is not general:
                continue
            if incident_id in spec.incidents and _applies(spec, facts):
                out.setdefault(ref, set()).add((spec.outcome, spec.options))
    return out


def _words(specs_by_ref: Iterable[tuple[str, tuple[RulingSpec, ...]]], incident_id: str,
           facts: _Facts, refs: Iterable[str]) -> dict[str, str]:
    """ref -> the quoted words of its ruling that applies to ``facts``."""
    wanted = set(refs)
    out: dict[str, str] = {}
    for ref, specs in specs_by_ref:
        if ref not in wanted:
            continue
        for spec in specs:
            if incident_id in spec.incidents and _applies(spec, facts) and spec.quotes:
                out.setdefault(ref, said(spec))
    return out


def said(spec: RulingSpec) -> str:
    """The words of a ruling's rule that say it: its quotes in the text's order, joined
    by an ellipsis ("A draw is the result if: … Both players agree to this decision"),
    never a lead-in alone; "" without a quote."""
    return " … ".join(spec.quotes)


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


_Key: TypeAlias = tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...]


def _differ(decided: dict[str, _Decided]) -> _Key | None:
    by_ref = {ref: tuple(sorted(d)) for ref, d in decided.items()}
    return tuple(sorted(by_ref.items())) if len(set(by_ref.values())) > 1 else None


def silences(library: Library, edition: str | None = None,
             incident: str | None = None, adopted_too: bool = True) -> tuple[Silence, ...]:
    """Every silence and conflict of ``edition`` (the edition in force by default), incident
    by incident in catalogue order; ``incident`` limits it to one.

    Conflicts, each with the words of both sides (``quotes``): two rules in force that
    decide the same facts differently; a general rule in force (Rule 26: a win when
    any rule is violated) that contradicts a specific remedy; one position that two
    incidents cover (three kings against one is also a stronger side) decided
    differently; and, with ``adopted_too``, proposals of different rules that would
    decide the same facts differently if both were adopted (or one and a rule in
    force). A combination only a general rule decides is still a silence of the
    specific rules (``general`` names the rule)."""
    ed = library.edition(edition)
    sources = _sources(library, ed.id)
    by_id = {i.id: i for i in incidents(library)}
    others = _variant_sources(library, ed.id)
    out: list[Silence] = []
    for inc in incidents(library):
        if incident is not None and inc.id != incident:
            continue
        considered = tuple(ref for ref, specs in sources
                           if any(inc.id in s.incidents for s in specs))
        out.extend(_silences_of(library, inc, sources, considered))
        out.extend(_overlap_conflicts(library, inc, by_id, sources, considered))
        if adopted_too:
            out.extend(_adoption_conflicts(library, inc, ed.rulebook, sources, considered))
        # the rules of the rulebooks that govern another variant conflict too: two
        # rules in force for an English game that decide the same facts differently
        for gov, book_sources in others:
            refs = tuple(ref for ref, specs in book_sources
                         if any(inc.id in s.incidents for s in specs))
            if len(refs) < 2:
                continue
            mark = {"variant": gov.variant, "rulebooks": gov.rulebooks}
            out.extend(dataclasses.replace(c, **mark)  # type: ignore[arg-type]
                       for c in _silences_of(library, inc, book_sources, refs,
                                             silences_too=False))
            out.extend(dataclasses.replace(c, **mark)  # type: ignore[arg-type]
                       for c in _overlap_conflicts(library, inc, by_id, book_sources, refs))
    return tuple(out)


def conflict_scope(library: Library, silence: Silence) -> str:
    """Where a conflict is, in words: "" for the edition's own rules; "among the
    rulebooks that govern English checkers (the Standard Laws and the ACF guide)" for
    the rules in force for a game of another variant."""
    if not silence.variant:
        return ""
    from ..draughts import Variant
    from ..draughts.pdn_variant import variant_title

    names = " and ".join(library.rulebook(b).name for b in silence.rulebooks)
    return (f"among the rulebooks that govern {variant_title(Variant.named(silence.variant))}"
            f" ({names})")


def _variant_sources(library: Library, edition: str
                     ) -> list[tuple[Governance, list[tuple[str, tuple[RulingSpec, ...]]]]]:
    """For each variant the edition in force does not govern and some rulebooks do
    (English checkers: the Standard Laws and the ACF guide), its governance and the
    rules with rulings of those rulebooks: the rules in force for such a game."""
    from .engine import governing_sources

    variants = dict.fromkeys(v for book in library.rulebooks for v in book.variants)
    found = []
    for variant in variants:
        try:
            gov = governance(library, variant, edition)
        except RulingsError:
            continue  # a variant the engine does not know: no game is of it
        if gov.edition_governs or not gov.rulebooks:
            continue
        binding, _ = governing_sources(library, gov)
        found.append((gov, [(source.ref, source.specs) for source in binding]))
    return found


def _silences_of(library: Library, inc: Incident,
                 sources: list[tuple[str, tuple[RulingSpec, ...]]],
                 considered: tuple[str, ...], silences_too: bool = True) -> Iterator[Silence]:
    """The silences (``silences_too``) and conflicts of ``sources`` for ``inc``: two
    rules that decide the same facts differently, and a general rule that
    contradicts a specific remedy, each with the words of both sides."""
    silent: dict[tuple[str, ...], list[_Facts]] = {}
    conflicts: dict[tuple[ConflictKind, _Key], list[_Facts]] = {}
    for combo in _combinations(library, inc):
        specific = _decisions(sources, inc.id, combo, general=False)
        general = _decisions(sources, inc.id, combo, general=True)
        if not specific:
            silent.setdefault(tuple(general), []).append(combo)
        key = _differ(specific)
        if key is not None:
            conflicts.setdefault((ConflictKind.IN_FORCE, key), []).append(combo)
        for ref, decided in general.items():
            for other, theirs in specific.items():
                if other != ref and theirs != decided:
                    key = _differ({ref: decided, other: theirs})
                    if key is not None:
                        conflicts.setdefault((ConflictKind.GENERAL, key), []).append(combo)
    if silences_too:
        for general_refs, combos in silent.items():
            for facts in _merge(combos, inc, library):
                yield Silence(inc.id, facts, considered,
                              combinations=_count(facts, inc, library), general=general_refs)
    for (kind, key), combos in conflicts.items():
        refs = tuple(ref for ref, _ in key)
        decisions = {ref: "/".join(o for o, _ in d) for ref, d in key}
        for facts in _merge(combos, inc, library):
            words = _words(sources, inc.id, _full(facts, combos), refs)
            yield Silence(inc.id, facts, considered, refs, decisions,
                          _count(facts, inc, library), kind, words)


def _full(facts: _Facts, combos: list[_Facts]) -> _Facts:
    """A whole combination that the merged ``facts`` stand for."""
    return next(c for c in combos if all(c.get(k) == v for k, v in facts.items()))


def _overlap_conflicts(library: Library, inc: Incident, by_id: dict[str, Incident],
                       sources: list[tuple[str, tuple[RulingSpec, ...]]],
                       considered: tuple[str, ...]) -> Iterator[Silence]:
    """One position that ``inc`` and another incident both cover (``overlaps:`` of the
    catalogue), decided differently by rules in force of each."""
    for overlap in inc.overlaps:
        other = by_id.get(overlap.incident)
        if other is None:
            continue
        found: dict[_Key, list[_Facts]] = {}
        for combo in _combinations(library, inc, other, overlap.facts):
            if not all(k in combo and condition_holds(c, combo[k])
                       for k, c in overlap.when.items()):
                continue
            mapped = {theirs: combo[ours] for theirs, ours in overlap.facts.items()
                      if ours in combo}
            here = _decisions(sources, inc.id, combo, general=False)
            there = _decisions(sources, other.id, mapped, general=False)
            for ref, decided in here.items():
                for ref2, theirs in there.items():
                    if ref2 != ref and theirs != decided:
                        key = _differ({ref: decided, ref2: theirs})
                        if key is not None:
                            found.setdefault(key, []).append(combo)
        for key, combos in found.items():
            refs = tuple(ref for ref, _ in key)
            decisions = {ref: "/".join(o for o, _ in d) for ref, d in key}
            first = combos[0]
            mapped = {theirs: first[ours] for theirs, ours in overlap.facts.items()
                      if ours in first}
            words = {**_words(sources, inc.id, first, refs),
                     **_words(sources, other.id, mapped, refs)}
            facts = _merge(combos, inc, library)[0] if combos else {}
            yield Silence(inc.id, facts, considered, refs, decisions, len(combos),
                          ConflictKind.SAME_POSITION, words, other_incident=other.id)


def _adoption_conflicts(library: Library, inc: Incident, home: str,
                        sources: list[tuple[str, tuple[RulingSpec, ...]]],
                        considered: tuple[str, ...]) -> Iterator[Silence]:
    """Proposals of different rules of the edition's rulebook (or a proposal and a rule
    in force of another number) that would decide the same facts differently if
    adopted: the committee should not adopt both as they stand."""
    book = library.rulebook(home)
    specs_of = catalogue_of(library).specs
    candidates: list[tuple[str, str, tuple[RulingSpec, ...]]] = []  # (rule id, ref, specs)
    for rule in book.rules:
        for prop in rule.proposals:
            specs = tuple(s for s in specs_of.get(prop.ref, ()) if inc.id in s.incidents
                          and not s.general and not s.suggestion)
            if specs:
                # a misfiled proposal is an alternative to the rule it concerns
                concerns = [c.partition(":")[2] for c in prop.concerns if c.startswith(home + ":")]
                candidates.append((concerns[0] if concerns else rule.id, prop.ref, specs))
    in_force = [(ref.partition(":")[2].rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), ref,
                 tuple(s for s in specs if inc.id in s.incidents and not s.general))
                for ref, specs in sources]
    pairs = [(a, b) for i, a in enumerate(candidates) for b in candidates[i + 1:]
             if a[0] != b[0]]
    pairs += [(a, b) for a in candidates for b in in_force if b[2] and a[0] != b[0]]
    for (_, ref_a, specs_a), (_, ref_b, specs_b) in pairs:
        found: dict[_Key, list[_Facts]] = {}
        for combo in _combinations(library, inc):
            da = _decisions([(ref_a, specs_a)], inc.id, combo)
            db = _decisions([(ref_b, specs_b)], inc.id, combo)
            if da and db:
                key = _differ({**da, **db})
                if key is not None:
                    found.setdefault(key, []).append(combo)
        for key, combos in found.items():
            refs = tuple(ref for ref, _ in key)
            decisions = {ref: "/".join(o for o, _ in d) for ref, d in key}
            words = _words([(ref_a, specs_a), (ref_b, specs_b)], inc.id, combos[0], refs)
            for facts in _merge(combos, inc, library):
                yield Silence(inc.id, facts, considered, refs, decisions,
                              _count(facts, inc, library), ConflictKind.IF_ADOPTED, words)


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


def guidance(library: Library, silence: Silence,
             edition: str | None = None) -> tuple[tuple[str, str, str], ...]:
    """Where the rules in force are silent, what the other rulebooks say (the ACF guide,
    the Standard Laws, the Spanish pool rules): ``(ref, outcome, words)`` of each of
    their rulings that decides the silence's facts (every value of the facts that do
    not matter), in the order the rulebooks are shown."""
    from .engine import other_sources

    ed = library.edition(edition)
    by_id = {i.id: i for i in incidents(library)}
    inc = by_id[silence.incident]
    combos = list(_expand(silence, inc, library))
    out: list[tuple[str, str, str]] = []
    for source in other_sources(library, ed.rulebook):
        for spec in source.specs:
            if inc.id not in spec.incidents or spec.suggestion and not spec.quotes:
                continue
            if combos and any(_applies(spec, c) for c in combos):
                entry = (source.ref, spec.outcome, said(spec))
                if entry not in out:
                    out.append(entry)
    return tuple(out)
