"""Ballot value objects.

A ballot is a frozen :class:`Ballot`; every change (a vote, an import,
closing) returns a new one, so a failed operation cannot leave half a change.

Encoding decisions (documented in ``rulesbook/ballots/__init__.py`` too):

* A question about a rule has ``rule`` = the rule's ref and ``options`` = the
  rule's ref (the original text) first, then the proposals that offer text.
* A question about new text (an ``addition``) has ``rule`` = None and
  ``options`` = ``[STATUS_QUO, <proposal ref>]``: ``status-quo`` ("no", keep
  the rulebook as it is) stands first, in the place of the original text.
* A vote's ``ranking`` lists options, best first; one option is a single
  choice; an empty ranking is an abstention.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeVar

from ..errors import Problem, RulesbookError

#: a data file's mapping as plain data, as ``yaml.safe_dump`` writes it and
#: :class:`~rulesbook.yamlio.LoadedYaml` holds it: its shape is the file's JSON schema
#: (``rulesbook/schema``), which validates it, so its values are typed by that schema
Document: TypeAlias = "dict[str, Any]"

STATUS_QUO = "status-quo"
# Words a person may type for the first option of a question (the original / "no").
ORIGINAL_ALIASES = ("original", "status-quo", "no", "keep")
# Words that, as a whole ranking, are an explicit abstention (an empty ranking).
# "none" is one of them: it used to be read as a vote for the original.
ABSTAIN_WORDS = ("none", "abstain", "abstains", "abstention", "-")

# ... and for the proposal of a yes/no (new text) question.
YES_ALIASES = ("yes", "adopt", "add")

METHODS = ("plurality", "irv", "schulze", "approval")
THRESHOLDS = ("plurality", "simple-majority", "two-thirds", "three-quarters")
THRESHOLD_BASES = ("cast", "roll")
STATUSES = ("open", "closed")


class BallotError(RulesbookError):
    """A ballot operation is refused; ``problems`` lists file:line:col problems if any."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        self.problems = list(problems or [])
        if self.problems:
            message = message + ":\n" + "\n".join(str(p) for p in self.problems)
        super().__init__(message)


@dataclass(frozen=True)
class Question:
    id: str
    rule: str | None  # the rule decided, or None for new text
    options: tuple[str, ...]  # the original (or STATUS_QUO) first
    title: str = ""
    endorsements: tuple[str, ...] = ()  # "OK" proposals: support for the original
    #: (option, ``sha256:`` digest of its text record) for every option with a text, as
    #: it stood when the ballot was opened (:mod:`rulesbook.ballots.texts`)
    digests: tuple[tuple[str, str], ...] = ()

    @property
    def original(self) -> str:
        return self.options[0]

    def digest_of(self, option: str) -> str | None:
        return dict(self.digests).get(option)

    @property
    def is_addition(self) -> bool:
        return self.rule is None

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"id": self.id, "rule": self.rule}
        if self.title:
            data["title"] = self.title
        data["options"] = list(self.options)
        if self.endorsements:
            data["endorsements"] = list(self.endorsements)
        if self.digests:
            data["digests"] = dict(self.digests)
        return data


@dataclass(frozen=True)
class Vote:
    """A vote, signed by its member (or, for a postal or telephone vote, by the
    secretary named in ``proxy_by``) over the ballot id, member, question, ranking
    and time (:func:`rulesbook.ballots.signing.vote_message`)."""

    member: str
    question: str
    ranking: tuple[str, ...]  # best first; empty = abstention
    at: str = ""
    key: str = ""  # the public key that signed it
    signature: str = ""
    proxy_by: str | None = None

    @property
    def abstains(self) -> bool:
        return not self.ranking

    def signed_fields(self) -> dict[str, str]:
        data = {"at": self.at}
        if self.proxy_by:
            data["proxy_by"] = self.proxy_by
        data.update({"key": self.key, "signature": self.signature})
        return data

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"member": self.member, "question": self.question,
                                   "ranking": list(self.ranking)}
        if self.signature or self.at:
            data.update(self.signed_fields())
        return data


@dataclass(frozen=True)
class Replaced:
    """A vote that a later vote of the same member on the same question replaced."""

    member: str
    question: str
    ranking: tuple[str, ...]
    replaced_at: str
    source: str = ""
    vote: Vote | None = field(default=None, compare=False)  # the signed vote replaced

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"member": self.member, "question": self.question,
                                   "ranking": list(self.ranking), "replaced_at": self.replaced_at}
        if self.source:
            data["source"] = self.source
        return data


@dataclass(frozen=True)
class Opened:
    """The ballot's settings signed when it was opened by the chair or secretary ``by``
    at ``at``: ``parts`` are the SHA-256 of each setting (the questions one by one),
    ``signature`` covers them (:mod:`rulesbook.ballots.settings`)."""

    by: str
    at: str
    key: str
    parts: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)
    signature: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"by": self.by, "at": self.at, "key": self.key, "parts": dict(self.parts),
                "signature": self.signature}


SEAL_ALGORITHM = "ed25519-sha256"


@dataclass(frozen=True)
class Seal:
    """SHA-256 of the canonical form of the whole closed ballot, signed with the
    closer's Ed25519 key; per-part digests say *what* changed when it no longer
    matches (see :mod:`rulesbook.ballots.seal`)."""

    digest: str
    closed_at: str
    parts: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    algorithm: str = SEAL_ALGORITHM
    closed_by: str = ""
    key: str = ""
    signature: str = ""

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"algorithm": self.algorithm, "digest": self.digest,
                                   "closed_at": self.closed_at}
        if self.closed_by or self.key:
            data.update({"closed_by": self.closed_by, "key": self.key})
        data["parts"] = self.parts
        if self.signature:
            data["signature"] = self.signature
        return data


@dataclass(frozen=True)
class Ballot:
    id: str
    title: str
    rulebook: str
    roll: tuple[str, ...]
    questions: tuple[Question, ...]
    votes: tuple[Vote, ...] = ()
    status: str = "open"
    method: str = "irv"
    threshold: str = "simple-majority"
    threshold_base: str = "cast"
    quorum: int = 0
    edition: str | None = None  # the edition in force when the ballot was built
    members: tuple[tuple[str, str], ...] = ()  # (id, name) of members not in members.yaml
    description: str = ""
    history: tuple[Replaced, ...] = ()
    seal: Seal | None = None
    opened: Opened | None = None  # the settings signed at open (None: an unsigned draft)
    #: the results stored when the ballot was closed (as read: checked against a recount)
    results: tuple[Mapping[str, object], ...] = field(default=(), compare=False, hash=False)

    @property
    def opened_at(self) -> str:
        """When the ballot was opened: the time its settings were signed (no vote may be
        dated before it); "" for an unsigned draft, which takes no vote."""
        return self.opened.at if self.opened is not None else ""

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    def question(self, question_id: str) -> Question:
        for q in self.questions:
            if q.id == question_id:
                return q
        raise BallotError(f"ballot {self.id!r} has no question {question_id!r}"
                          f"{_did_you_mean(question_id, [q.id for q in self.questions])}")

    def votes_on(self, question_id: str) -> list[Vote]:
        return [v for v in self.votes if v.question == question_id]

    def find_question(self, text: str) -> Question:
        """The question a person means: its id, its rule (``apca:10``, ``10``) or its proposal."""
        wanted = text.strip()
        for q in self.questions:
            if q.id == wanted:
                return q
        low = wanted.lower()
        for q in self.questions:
            if q.id.lower() == low or (q.rule or "").lower() == low:
                return q
        for q in self.questions:
            if q.is_addition and any(o.lower() == low or o.split(":", 1)[-1].lower() == low
                                     for o in q.options[1:]):
                return q
        return self.question(wanted)

    def head_dict(self) -> Document:
        """The start of :meth:`to_dict`: the settings, the questions and ``opened``,
        without the votes, history, signatures, seal and results (what the signed
        settings cover, :mod:`.settings`, read without writing out every vote)."""
        data: Document = {
            "schema_version": 1, "kind": "ballot", "id": self.id, "title": self.title,
        }
        if self.description:
            data["description"] = self.description
        data.update({"rulebook": self.rulebook})
        if self.edition:
            data["edition"] = self.edition
        data.update({
            "status": self.status, "method": self.method, "threshold": self.threshold,
            "threshold_base": self.threshold_base, "quorum": self.quorum,
            "roll": list(self.roll),
        })
        if self.members:
            data["members"] = dict(self.members)
        data["questions"] = [q.to_dict() for q in self.questions]
        if self.opened is not None:
            data["opened"] = self.opened.to_dict()
        return data

    def to_dict(self) -> Document:
        """The ballot file's document (kind ``ballot``)."""
        data = self.head_dict()
        table = signature_table(self)
        index = {row["signature"]: i for i, row in enumerate(table)}

        def signed(entry: dict[str, object], vote: Vote | None) -> dict[str, object]:
            if vote is not None and vote.signature:
                entry["signed"] = index[vote.signature]
            return entry

        # (the votes inline: 60,000 of them in a committee's ballot)
        data["votes"] = [{"member": v.member, "question": v.question,
                          "ranking": list(v.ranking), "signed": index[v.signature]}
                         if v.signature else
                         {"member": v.member, "question": v.question,
                          "ranking": list(v.ranking)} for v in self.votes]
        if self.history:
            data["history"] = [signed(h.to_dict(), h.vote) for h in self.history]
        if table:
            data["signatures"] = table
        if self.seal is not None:
            data["seal"] = self.seal.to_dict()
        if self.results:
            data["results"] = list(self.results)
        return data


def signature_table(ballot: Ballot) -> list[dict[str, str]]:
    """One row per signature of the ballot's votes (current and replaced): who signed,
    when, with which key, and the signature; a vote names its row (``signed: N``).
    Sorted by time, member and signature, so the order of the votes never matters."""
    rows: dict[str, dict[str, str]] = {}  # the first vote of each signature makes its row
    for vote in list(ballot.votes) + [h.vote for h in ballot.history if h.vote is not None]:
        if vote.signature and vote.signature not in rows:
            rows[vote.signature] = {"member": vote.member, **vote.signed_fields()}
    return sort_signature_rows(rows.values())


#: a row of a signatures table: written by a ballot (text values) or read from a file
#: being merged (any values: a row that does not sort raises TypeError)
_Row = TypeVar("_Row", bound=Mapping[str, Any])


def sort_signature_rows(rows: Iterable[_Row]) -> list[_Row]:
    """The rows of a signatures table (``{member, at, [proxy_by], key, signature}``),
    one per signature, in the table's order: by time, member and signature."""
    unique: dict[object, _Row] = {}
    for row in rows:
        unique.setdefault(row["signature"], row)
    return sorted(unique.values(), key=lambda r: (r["at"], r["member"], r["signature"]))


def match_option(question: Question, text: str) -> str:
    """The option of ``question`` that ``text`` names (``apca:10A``, ``10A``, ``original``)."""
    wanted = text.strip()
    if wanted in question.options:
        return wanted
    low = wanted.lower()
    for option in question.options:
        if option.lower() == low or option.split(":", 1)[-1].lower() == low:
            return option
    if low in ORIGINAL_ALIASES:
        return question.original
    if question.is_addition and low in YES_ALIASES:
        return question.options[1]
    raise BallotError(f"{text!r} is not an option of question {question.id!r} "
                      f"(options: {', '.join(question.options)})"
                      f"{_did_you_mean(wanted, list(question.options))}")


def _did_you_mean(word: str, options: list[str]) -> str:
    import difflib

    guess = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return f" (did you mean {guess[0]!r}?)" if guess else ""
