"""Building the committee's ballot from the library.

One question per rule that has alternative proposals, one per added text:

* The options of a rule are its original text (first), then every
  ``replacement`` that concerns it: those filed under it with no ``concerns``
  (or whose ``concerns`` name it), then those filed elsewhere whose
  ``concerns`` name it. A misfiled proposal belongs to the question of the
  rule(s) it concerns, not the one it is filed under; a proposal that
  concerns several rules is an option on each of them.
* An ``endorsement`` ("OK") supports the original: it is listed under
  ``endorsements``, never as an option. Comments are not options.
* Every ``addition`` (in the preamble or filed under a rule) is a yes/no
  question: ``rule: null``, ``options: [status-quo, PROPOSAL]``.
* A ``deletion`` is an option of its rule's question like a replacement: adopted,
  it repeals the rule.
* A withdrawn proposal is on no new ballot (it stays in the record).
"""
from __future__ import annotations

from ..library import Library
from ..model import Proposal, Rule
from .keys import SigningKey
from .model import STATUS_QUO, Ballot, BallotError, Question
from .registry import Registry

#: the kinds that are options of their rule's question: a text to replace it, or to
#: delete it (adopted, a deletion repeals the rule)
_OPTIONS = ("replacement", "deletion")


def _concerned_rules(library: Library, prop: Proposal) -> list[str]:
    """The rules of its book a proposal is really about."""
    rules = [ref for ref in prop.concerns if isinstance(library.index.get(ref), Rule)
             and library.index[ref].rulebook == prop.rulebook]
    if rules:
        return rules
    return [prop.rule] if prop.rule else []


def build_questions(library: Library, book_id: str) -> tuple[Question, ...]:
    book = library.rulebook(book_id)
    options: dict[str, list[str]] = {r.ref: [] for r in book.rules}
    endorsements: dict[str, list[str]] = {r.ref: [] for r in book.rules}
    for rule in book.rules:  # filed under the rule first...
        for prop in (p for p in rule.proposals if p.is_open):
            if prop.kind in _OPTIONS and rule.ref in _concerned_rules(library, prop):
                options[rule.ref].append(prop.ref)
            elif prop.kind == "endorsement" and rule.ref in _concerned_rules(library, prop):
                endorsements[rule.ref].append(prop.ref)
    for prop in book.proposals:  # ...then from elsewhere, in book order
        if prop.kind not in (*_OPTIONS, "endorsement") or not prop.is_open:
            continue
        for target in _concerned_rules(library, prop):
            if target != prop.rule:
                bucket = options if prop.kind in _OPTIONS else endorsements
                if prop.ref not in bucket[target]:
                    bucket[target].append(prop.ref)

    def addition(prop: Proposal) -> Question:
        about = f" (filed under {prop.rule})" if prop.rule else ""
        return Question(prop.id, None, (STATUS_QUO, prop.ref),
                        f"Add new text {prop.title or prop.id}{about}")

    questions = [addition(p) for p in book.preamble if p.kind == "addition" and p.is_open]
    for rule in book.rules:
        if options[rule.ref]:
            questions.append(Question(rule.id, rule.ref, (rule.ref, *options[rule.ref]),
                                      rule.title, tuple(endorsements[rule.ref])))
        questions.extend(addition(p) for p in rule.proposals
                         if p.kind == "addition" and p.is_open)
    return tuple(questions)


def build_ballot(library: Library, ballot_id: str, *, title: str | None = None,
                 method: str = "irv", threshold: str = "simple-majority",
                 threshold_base: str = "cast", quorum: int | None = None,
                 roll: tuple[str, ...] | None = None, signer: SigningKey | None = None,
                 at: str | None = None, registry: Registry | None = None) -> Ballot:
    """The committee's open ballot, with no votes, for the edition in force: every
    question records the digests of its texts (:mod:`.texts`); with ``signer`` (the
    chair or the secretary) its settings are signed at ``at`` (default now), else it is
    an unsigned draft that takes no vote until signed (:mod:`.settings`); ``registry``:
    the members' keys and roles (default: the library's members.yaml). The default quorum
    is a majority of the roll's members who hold a confirmed key
    (:func:`~.roll.default_quorum`)."""
    from .registry import load_registry
    from .roll import default_quorum

    edition = library.edition()
    book = library.rulebook(edition.rulebook)
    if roll is None:
        roll = tuple(m.id for m in library.members if m.id != "unknown")
    if quorum is None:
        quorum = default_quorum(roll, load_registry(library.root))
    ballot = Ballot(
        id=ballot_id, title=title or f"{book.short_title or book.title}: committee ballot",
        rulebook=book.id, edition=edition.id, roll=tuple(roll),
        questions=build_questions(library, book.id), method=method, threshold=threshold,
        threshold_base=threshold_base, quorum=quorum,
        description=("One question per rule with alternative proposals (options: the "
                     "original text first) and one yes/no question per added text "
                     "(options: status-quo, then the proposal)."))
    from .ops import validate_settings

    validate_settings(ballot)
    if not ballot.questions:
        raise BallotError(f"the rulebook {book.id!r} has no proposals to vote on")
    return open_ballot(library, ballot, signer, at, registry)


def open_ballot(library: Library, ballot: Ballot, signer: SigningKey | None,
                at: str | None = None, registry: Registry | None = None) -> Ballot:
    """``ballot`` (with no votes) with its texts' digests taken now and, with
    ``signer``, its settings signed by them (the chair or the secretary)."""
    from .registry import load_registry, now_utc
    from .settings import sign_settings
    from .texts import with_digests

    ballot = with_digests(library, ballot)
    if signer is None:
        return ballot
    return sign_settings(ballot, signer, registry or load_registry(library.root),
                         at or now_utc())
