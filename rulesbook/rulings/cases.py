"""The case library (``rules_data/cases/*.yaml``): disputes with their facts,
position or record, and the expected outcome under each variant. They are
tests, and the case law the committee browses."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..documents import DocumentError, DocumentStage, load_document
from ..errors import Problem
from ..yamlio import LoadedYaml
from .catalogue import RulingSpec, catalogue_of, condition_holds, did_you_mean, specs_for
from .checks import check_case
from .engine import Comparison, compare
from .errors import UnknownCaseError
from .quotes import normalise
from .vocabulary import facts_words, outcome_words

if TYPE_CHECKING:
    from ..library import Library


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    incident: str
    facts: dict[str, Any] = field(hash=False, compare=False)
    expected: dict[str, str | None] = field(hash=False, compare=False)  # ref -> outcome
    quotes: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)  # ref -> words
    # ref -> note, for expected outcomes that rest on an inferred ruling (no quote states them)
    inferred: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    description: str = ""
    sources: tuple[str, ...] = ()
    fen: str | None = None
    moves: str = ""
    disputed_ply: int | None = None
    claim_ply: int | None = None
    event: str = ""
    round: str = ""
    date: str = ""
    players: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    decision: str = ""
    notes: str = ""
    file: str = ""
    #: the game's variant (engine name); None: the edition's own (pool)
    variant: str | None = None

    @classmethod
    def from_data(cls, data: Mapping[str, Any], file: str = "") -> Case:
        return cls(id=data["id"], title=data["title"], incident=data["incident"],
                   facts=dict(data["facts"]), expected=dict(data["expected"]),
                   quotes=dict(data.get("quotes") or {}),
                   inferred=dict(data.get("inferred") or {}),
                   description=data.get("description", "").strip(),
                   sources=tuple(data.get("sources", ())), fen=data.get("fen"),
                   moves=data.get("moves", ""), disputed_ply=data.get("disputed_ply"),
                   claim_ply=data.get("claim_ply"), event=data.get("event", ""),
                   round=str(data.get("round", "")),
                   date=str(data.get("date", "")), players=dict(data.get("players", {})),
                   decision=data.get("decision", "").strip(), notes=data.get("notes", "").strip(),
                   file=file, variant=data.get("variant"))


def load_cases(library: Library) -> tuple[Case, ...]:
    """Every case of the data folder, sorted by id."""
    docs = library.extra.get("case", ())
    return tuple(sorted((Case.from_data(d.data, d.file) for d in docs), key=lambda c: c.id))


def get_case(library: Library, case_id: str) -> Case:
    cases = load_cases(library)
    for case in cases:
        if case.id == case_id or Path(case.file).stem == case_id:
            return case
    raise UnknownCaseError(f"no case {case_id!r}{did_you_mean(case_id, [c.id for c in cases])}")


def load_case_file(library: Library, path: str | os.PathLike[str]) -> Case:
    """A case from a file (validated like the library's own cases)."""
    p = Path(path)

    def checked(doc: LoadedYaml) -> list[Problem]:
        problems: list[Problem] = []
        check_case(library, doc, catalogue_of(library).incidents, {}, problems)
        return problems

    try:
        doc = load_document(p, "case", [checked])
    except DocumentError as exc:
        if exc.stage is DocumentStage.UNREADABLE:
            raise
        if exc.stage in (DocumentStage.NOT_A_MAPPING, DocumentStage.WRONG_KIND):
            raise UnknownCaseError(f"{p} is not a case file (kind: case)") from None
        raise UnknownCaseError(str(exc)) from None
    return Case.from_data(doc.data, str(p))


@dataclass(frozen=True)
class CaseResult:
    case: Case
    comparison: Comparison
    mismatches: tuple[tuple[str, str | None, str | None], ...]  # (ref, expected, got)
    #: expectations that the case's own quotes do not give on its facts (see
    #: :func:`quoted_outcomes`), each in words
    quote_problems: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return not self.mismatches and not self.quote_problems


def _ruling_specs(library: Library, ref: str, incident: str) -> tuple[RulingSpec, ...]:
    """The rulings of ``ref`` for ``incident``; an endorsement decides with its rule's."""
    from ..model import Proposal

    specs = tuple(s for s in specs_for(library, ref) if incident in s.incidents)
    entry = library.index.get(ref)
    if not specs and isinstance(entry, Proposal) and entry.kind == "endorsement":
        rule = entry.ref.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ") or entry.ref
        specs = tuple(s for s in specs_for(library, rule) if incident in s.incidents)
    return specs


def quoted_outcomes(library: Library, case: Case, ref: str) -> tuple[set[str], list[str]]:
    """What the words a case quotes for ``ref`` decide on the case's facts, recomputed
    from the rulings that carry those words: (outcomes, why not). A ruling carries
    the quote when one of its quotes stands in the case's words or they in it. The
    outcomes are those of such rulings whose every condition holds on the case's
    facts; ``why not`` says, for each that does not apply, the condition it needs."""
    quote = case.quotes.get(ref)
    if not isinstance(quote, str):
        return set(), []
    words = normalise(quote)
    incident = catalogue_of(library).incidents.get(case.incident)
    carrying = [s for s in _ruling_specs(library, ref, case.incident)
                if any(normalise(q) in words or words in normalise(q) for q in s.all_quotes)]
    outcomes: set[str] = set()
    why: list[str] = []
    for spec in carrying:
        needs = {k: c for k, c in spec.when.items()
                 if k not in case.facts or not condition_holds(c, case.facts[k])}
        if needs:  # in words: "How many times ...? at most 2", not repetitions={'max': 2}
            why.append(f"the ruling with these words needs {facts_words(incident, needs)}")
        else:
            outcomes.add(spec.outcome)
    if not carrying:
        why.append("no ruling of it carries these words")
    return outcomes, why


def run_case(library: Library, case: Case) -> CaseResult:
    """Decide the case under every variant and compare with its expected outcomes;
    each expectation is also recomputed from the words the case quotes for it
    (:func:`quoted_outcomes`), so a case whose expectation its quotes do not give
    on its facts is never ok, whatever the engine answers."""
    comparison = compare(library, case.incident, case.facts, case.variant)
    got = comparison.outcomes
    mismatches = tuple((ref, want, got.get(ref)) for ref, want in case.expected.items()
                       if got.get(ref) != want)
    problems: list[str] = []
    for ref, want in case.expected.items():
        if want is None or ref not in case.quotes:
            continue
        outcomes, why = quoted_outcomes(library, case, ref)
        if want not in outcomes:
            # in words, as the command line prints it (the case's codes are its keys)
            said = (f"the quoted words give "
                    f"{'; '.join(outcome_words(o) for o in sorted(outcomes))}"
                    if outcomes else "; ".join(why))
            problems.append(f"{ref}: expected {outcome_words(want)}, but {said}")
    return CaseResult(case, comparison, mismatches, tuple(problems))


@dataclass(frozen=True)
class CaseDifference:
    """A case a proposal decides differently from the original rules."""

    case: Case
    proposal: str
    original: str | None
    original_ref: str | None
    proposed: str | None


def cases_for_proposal(library: Library, proposal: str) -> tuple[CaseDifference, ...]:
    """The cases ``proposal`` would decide differently from the original APCA rules."""
    from ..model import Proposal

    entry = library.resolve(proposal)
    if not isinstance(entry, Proposal):
        raise UnknownCaseError(f"{entry.ref} is a rule, not a proposal")
    out = []
    for case in load_cases(library):
        comp = compare(library, case.incident, case.facts)
        try:
            verdict = comp.verdict(entry.ref)
        except KeyError:
            continue
        # differs from the original's decision, or decides where the original is silent
        if verdict.differs or (comp.baseline is None and verdict.outcome is not None):
            out.append(CaseDifference(case, entry.ref, comp.baseline_outcome, comp.baseline,
                                      verdict.outcome))
    return tuple(out)
