"""The texts a ballot votes on and an edition adopts, bound by their digests.

Every text is digested in one canonical form (:func:`~.canonical.text_record`: id,
member, kind, title, text):

* a ballot question records, when the ballot is opened, the digest of each option
  with a text (``digests``): the original as it stands in the ballot's edition, each
  proposal as filed. The chair's signature of the settings covers them
  (:mod:`.settings`), every vote signs the digests of the questions it answers
  (:mod:`.signing`), the seal covers the whole file;
* an adopted edition records the digest of every rule in force once it was adopted
  (``texts``) and of every proposal it adopted (``adopted[].digest``), under the
  adopter's signature and the chain (:mod:`.adopt`, :mod:`.edition_sig`).

:func:`text_mismatches` compares them with the texts in the folder now. A mismatch
does not stop the folder from loading (the app shows it, a referee reads that the
text is not the adopted one); ``rulesbook validate`` exits 1 on it and ``edition
show`` names it. An edition recorded before text digests (the seed's ``original``)
has nothing to compare: it is reported as such, never as verified.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from ..errors import Problem
from ..model import Edition, Proposal, Rule
from .canonical import text_digest, text_record
from .model import STATUS_QUO, Ballot, Question

if TYPE_CHECKING:
    from ..editions import RuleInForce
    from ..library import Library
    from ..yamlio import LoadedYaml


def entry_digest(entry: Rule | Proposal) -> str:
    """The digest of a rule's or a proposal's text record, as filed."""
    if isinstance(entry, Rule):
        return text_digest(text_record(entry.ref, None, "rule", entry.title, entry.text))
    return text_digest(text_record(entry.ref, entry.member, entry.kind, entry.title,
                                   entry.text))


def in_force_digest(library: Library, rule: RuleInForce) -> str:
    """The digest of a rule as it stands in an edition (its text in force, from the
    rule itself or from the proposal adopted for it)."""
    source = library.index.get(rule.source)
    member = source.member if isinstance(source, Proposal) else None
    return text_digest(text_record(rule.ref, member, "rule", rule.title, rule.text))


def rules_in_force(library: Library, edition_id: str | None) -> dict[str, RuleInForce]:
    """The rules as they stand in ``edition_id`` (default: the edition in force), by ref."""
    from ..editions import consolidate

    return {r.ref: r for r in consolidate(library, edition_id).rules}


def question_digests(library: Library, in_force: Mapping[str, RuleInForce],
                     question: Question) -> tuple[tuple[str, str], ...]:
    """(option, digest) of every option of ``question`` with a text, as it stands now:
    the original as in force (``in_force``: :func:`rules_in_force` of the ballot's
    edition), a proposal as filed."""
    out: list[tuple[str, str]] = []
    for option in question.options:
        if option == STATUS_QUO:
            continue
        entry = library.index.get(option)
        if isinstance(entry, Rule):
            rule = in_force.get(option)  # repealed in that edition: its own record
            out.append((option, in_force_digest(library, rule) if rule is not None
                        else entry_digest(entry)))
        elif isinstance(entry, Proposal):
            out.append((option, entry_digest(entry)))
    return tuple(out)


def with_digests(library: Library, ballot: Ballot) -> Ballot:
    """``ballot`` with every question's digests taken from the texts as they stand."""
    import dataclasses

    in_force = rules_in_force(library, ballot.edition)
    return dataclasses.replace(ballot, questions=tuple(
        dataclasses.replace(q, digests=question_digests(library, in_force, q))
        for q in ballot.questions))


def edition_texts(library: Library, rules: Iterable[RuleInForce]) -> dict[str, str]:
    """The ``texts`` of an edition record: the digest of every rule in force, by ref."""
    return {r.ref: in_force_digest(library, r) for r in rules}


class MismatchJson(TypedDict):
    """One mismatch of ``rulesbook edition show ID --json``."""

    ref: str
    source: str
    where: str
    recorded: str | None
    now: str | None
    message: str
    history: str


@dataclass(frozen=True)
class TextMismatch:
    """A text in the folder that is not the one a ballot or an edition recorded."""

    ref: str  # the rule (or, for new text, the proposal) whose text differs
    source: str  # the record whose text differs: see its changes with ``history``
    where: str  # "edition ID" or "ballot ID"
    recorded: str | None  # the digest recorded (None: the text was not in force then)
    now: str | None  # the digest of the text now (None: it is no longer there)
    message: str
    file: str = ""
    line: int = 0
    col: int = 0

    def to_dict(self) -> MismatchJson:
        return {"ref": self.ref, "source": self.source, "where": self.where,
                "recorded": self.recorded, "now": self.now, "message": self.message,
                "history": f"rulesbook history {self.source}"}

    def problem(self) -> Problem:
        return Problem(self.file, self.line, self.col, self.message)


def _short(digest: str | None) -> str:
    return digest.removeprefix("sha256:")[:12] if digest else "none"


def edition_mismatches(library: Library, edition: Edition) -> list[TextMismatch]:
    """The texts of the folder that differ from what ``edition`` recorded (none for an
    edition recorded before text digests: see :func:`records_texts`)."""
    if not edition.texts:
        return []
    recorded = dict(edition.texts)
    rules = rules_in_force(library, edition.id)
    out: list[TextMismatch] = []
    named: set[str] = set()
    where = f"edition {edition.id}"
    for ref, digest in recorded.items():
        rule = rules.get(ref)
        now = in_force_digest(library, rule) if rule is not None else None
        if now == digest:
            continue
        source = rule.source if rule is not None else ref
        named.add(source)
        what = f"{ref}" if source == ref else f"{ref} (the text of {source})"
        said = ("is no longer in force" if now is None else
                "differs from the text it adopted")
        out.append(TextMismatch(ref, source, where, digest, now,
                                f"{what} {said} in edition {edition.id!r} (recorded "
                                f"{_short(digest)}, now {_short(now)}): the text was changed "
                                f"after the edition was adopted; see the change with "
                                f"`rulesbook history {source}`", "editions.yaml"))
    for ref, rule in rules.items():
        if ref not in recorded:
            named.add(rule.source)
            out.append(TextMismatch(ref, rule.source, where, None,
                                    in_force_digest(library, rule),
                                    f"{ref} is in force in edition {edition.id!r}, but the "
                                    f"edition did not adopt it (added to the rulebook after "
                                    f"it was adopted); see `rulesbook history {rule.source}`",
                                    "editions.yaml"))
    for adoption in edition.adopted:
        if adoption.digest is None or adoption.proposal in named:
            continue
        entry = library.index.get(adoption.proposal)
        now = entry_digest(entry) if isinstance(entry, (Rule, Proposal)) else None
        if now != adoption.digest:
            out.append(TextMismatch(adoption.rule or adoption.proposal, adoption.proposal,
                                    where, adoption.digest, now,
                                    f"{adoption.proposal} is not the text edition "
                                    f"{edition.id!r} adopted (recorded "
                                    f"{_short(adoption.digest)}, now {_short(now)}); see the "
                                    f"change with `rulesbook history {adoption.proposal}`",
                                    "editions.yaml"))
    return out


def records_texts(edition: Edition) -> bool:
    """Whether ``edition`` recorded the digests of its texts (the seed's did not)."""
    return bool(edition.texts)


def ballot_mismatches(library: Library, ballot: Ballot, file: str = "",
                      where_of: Callable[[str], tuple[int, int]] | None = None
                      ) -> list[TextMismatch]:
    """The options of ``ballot`` whose text is no longer the one it was opened with;
    ``where_of(question_id)`` gives the (line, col) of the question's digests, asked
    only for a mismatch (finding a line reads the file a second time)."""
    out: list[TextMismatch] = []
    if not any(q.digests for q in ballot.questions):
        return out
    try:
        in_force = rules_in_force(library, ballot.edition)
    except (LookupError, ValueError):  # an unknown edition: a problem of the ballot
        return out
    fix = ("no vote is in yet: the chair or the secretary signs the ballot again to put "
           "the new text to the vote (`rulesbook ballot sign FILE --as L`)"
           if ballot.is_open and not ballot.votes and not ballot.history else
           "the votes are for the text as it was")
    for q in ballot.questions:
        if not q.digests:
            continue
        now = dict(question_digests(library, in_force, q))
        for option, digest in q.digests:
            if now.get(option) == digest:
                continue
            line, col = where_of(q.id) if where_of is not None else (0, 0)
            out.append(TextMismatch(
                q.rule or option, option, f"ballot {ballot.id}", digest, now.get(option),
                f"ballot {ballot.id!r}, question {q.id!r}: the text of {option} changed "
                f"after the ballot was opened (recorded {_short(digest)}, now "
                f"{_short(now.get(option))}): {fix}; see the change with `rulesbook "
                f"history {option}`", file, line, col))
    return out


def text_mismatches(library: Library) -> list[TextMismatch]:
    """Every text of the folder that differs from what a ballot of the folder or any
    adopted edition recorded."""
    from .io import ballot_from_doc

    out: list[TextMismatch] = []
    for doc in library.extra.get("ballot", ()):
        ballot, _ = ballot_from_doc(doc)

        def where(question: str, doc: LoadedYaml = doc) -> tuple[int, int]:
            for i, q in enumerate(doc.data.get("questions", ())):
                if isinstance(q, dict) and str(q.get("id")) == question:
                    return doc.where(("questions", i, "digests"))
            return (0, 0)

        out.extend(ballot_mismatches(library, ballot, doc.file, where))
    for edition in library.editions:
        out.extend(edition_mismatches(library, edition))
    return out


def text_problems(library: Library) -> list[Problem]:
    """:func:`text_mismatches` as problems (``rulesbook validate``)."""
    return [m.problem() for m in text_mismatches(library)]
