"""Cross-checks of ballot files against the library (called by the loader).

:func:`check_library` is a :class:`rulesbook.library.LibraryCheck`:
:mod:`rulesbook.loading` passes it to :meth:`rulesbook.library.Library.load` for
every data folder opened; :func:`check_ballot` checks one document.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from ..errors import Problem
from ..model import Proposal, Rule
from ..yamlio import LoadedYaml
from .chain import SealedBallot, check_chain
from .io import ballot_from_doc
from .model import STATUS_QUO, Ballot
from .registry import Registry, load_registry, registry_from_doc
from .times import time_findings

if TYPE_CHECKING:
    from ..library import Library


def check_ballot(library: Library, doc: LoadedYaml,
                 registry: Registry | None = None) -> list[Problem]:
    """Every problem of a schema-valid ballot document: its own consistency (roll,
    options, one vote per member per question...), its references into the library,
    and, once closed, its seal and signatures (against ``registry``, by default the
    one of the library's members.yaml). An open ballot's votes are checked too: each
    signed by its member's key (or a proxy's), dated within the ballot's opening and
    close (:mod:`.times`), so a forged vote fails ``validate`` (and so ``sync``)
    before the close."""
    ballot, problems = ballot_from_doc(doc)
    data = doc.data
    member_ids = {m.id for m in library.members}
    declared = set(data.get("members", {}))
    books = {b.id for b in library.rulebooks}
    if "rulebook" in data and data["rulebook"] not in books:
        problems.append(doc.problem(("rulebook",), f"unknown rulebook {data['rulebook']!r}"))
    if data.get("edition") and data["edition"] not in {e.id for e in library.editions}:
        problems.append(doc.problem(("edition",), f"unknown edition {data['edition']!r}"))
    for i, member in enumerate(data["roll"]):
        if member not in member_ids and member not in declared:
            problems.append(doc.problem(("roll", i), f"member {member!r} is neither in "
                                        f"members.yaml nor declared in the ballot's members"))
    for i, q in enumerate(data["questions"]):
        path = ("questions", i)
        if q["rule"] is not None and not isinstance(library.index.get(q["rule"]), Rule):
            problems.append(doc.problem(path + ("rule",), f"rule {q['rule']!r} does not exist"))
        for k, option in enumerate(q["options"][1:], start=1):
            if option == STATUS_QUO:
                continue
            target = library.index.get(option)
            if not isinstance(target, Proposal):
                problems.append(doc.problem(path + ("options", k),
                                            f"option {option!r} is not a proposal"))
            elif not target.offers_text and not (target.kind == "deletion" and q["rule"]):
                problems.append(doc.problem(path + ("options", k), f"option {option} is a "
                                            f"{target.kind}, which offers no text to adopt"))
        for k, ref in enumerate(q.get("endorsements", ())):
            target = library.index.get(ref)
            if not isinstance(target, Proposal) or target.kind != "endorsement":
                problems.append(doc.problem(path + ("endorsements", k),
                                            f"{ref!r} is not an endorsement"))
    if problems:
        return problems
    if registry is None:
        registry = load_registry(library.root)
    if ballot.seal is not None:  # each failure at its line: a vote's, the seal's...
        from .seal import failure_problems, verify_ballot

        problems.extend(failure_problems(doc, verify_ballot(ballot, registry),
                                         prefix="the ballot does not verify: "))
    else:  # open: signed settings, every vote signed by its member within its times
        from .seal import vote_findings
        from .signing import batches

        problems.extend(_open_settings_problems(ballot, doc, registry, library))
        signed = batches(ballot)
        problems.extend(doc.problem(place, f"ballot {ballot.id!r}: {failure}")
                        for place, failure in vote_findings(ballot, registry, signed=signed)
                        + time_findings(ballot, signed=signed))
    return problems


def _open_settings_problems(ballot: Ballot, doc: LoadedYaml, registry: Registry | None,
                            library: Library) -> list[Problem]:
    """An open ballot's signed settings: unsigned is a draft (no vote may be in it);
    signed, every setting must still match (the field named)."""
    from .settings import settings_findings

    if ballot.opened is None:
        if any(v.signature for v in ballot.votes):
            return [doc.problem(("votes",), f"ballot {ballot.id!r} holds signed votes but "
                                f"its settings were never signed by the chair or the "
                                f"secretary: votes were added to an unsigned draft")]
        return []
    if registry is None:
        registry = load_registry(library.root)
    return [doc.problem((field,) if field in doc.data else ("opened",), message)
            for field, message in settings_findings(ballot, registry)]


def check_member_ballot(library: Library, doc: LoadedYaml,
                        declared: Collection[str] = ()) -> list[Problem]:
    member_ids = {m.id for m in library.members} | set(declared)
    if doc.data["member"] not in member_ids:
        return [doc.problem(("member",), f"unknown member {doc.data['member']!r}")]
    return []


def check_library(library: Library,
                  docs: Mapping[str, Sequence[LoadedYaml]]) -> list[Problem]:
    """The loader hook: check every ballot and member-ballot document of the folder."""
    problems: list[Problem] = []
    members = docs.get("members", [])
    registry = registry_from_doc(members[0]) if members else Registry()
    problems.extend(registry.problems)
    sealed: dict[str, SealedBallot | None] = {}
    for doc in docs.get("ballot", []):
        found = check_ballot(library, doc, registry)
        problems.extend(found)
        ballot, _ = ballot_from_doc(doc)
        if ballot.seal is not None:
            sealed[ballot.id] = SealedBallot(ballot, ballot.seal, doc) if not found else None
    for doc in docs.get("editions", []):
        problems.extend(check_chain(doc, sealed, registry))
    declared = {m for doc in docs.get("ballot", []) for m in doc.data.get("members", {})}
    for doc in docs.get("member-ballot", []):
        problems.extend(check_member_ballot(library, doc, declared))
    return problems
