"""The rulebook model: frozen value objects for rulebooks, rules, proposals,
members, topics and editions. References are written ``BOOK:ID``
(``apca:28``, ``apca:24B``, ``standard-laws:10``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PROPOSAL_KINDS = ("endorsement", "replacement", "comment", "addition", "deletion")
NOTE_KINDS = ("truncated", "misfiled", "refers-elsewhere", "attribution", "editorial")


def make_ref(book: str, item_id: str) -> str:
    return f"{book}:{item_id}"


def split_ref(ref: str) -> tuple[str, str]:
    book, sep, item_id = ref.partition(":")
    if not sep or not book or not item_id:
        raise ValueError(f"{ref!r} is not a reference of the form BOOK:ID (e.g. apca:28)")
    return book, item_id


@dataclass(frozen=True)
class Note:
    """A fact about the source text (a truncation, a misfiled number...)."""

    kind: str
    text: str


@dataclass(frozen=True)
class Member:
    id: str
    name: str
    full_name: str | None = None
    aliases: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``Pecan (A)``: how a member is shown beside a proposal."""
        return self.name if self.id == "unknown" else f"{self.name} ({self.id})"


@dataclass(frozen=True)
class Topic:
    id: str
    title: str
    description: str = ""
    keywords: tuple[str, ...] = ()
    baseline: str | None = None  # the rule the topic is mainly about (compare's original)


@dataclass(frozen=True)
class Withdrawn:
    """A proposal its member withdrew: it stays in the record, off every new ballot."""

    date: str
    reason: str = ""


@dataclass(frozen=True)
class Proposal:
    """A committee member's proposal: an endorsement, replacement, comment, addition or
    deletion (the rule it is filed under should go; its text says why)."""

    ref: str
    id: str
    rulebook: str
    member: str
    kind: str
    text: str
    topics: tuple[str, ...]
    rule: str | None = None  # ref of the rule it is filed under; None in the preamble
    title: str | None = None
    concerns: tuple[str, ...] = ()
    notes: tuple[Note, ...] = ()
    rulings: tuple[dict[str, Any], ...] = field(default=(), compare=False, hash=False)  # as in YAML
    withdrawn: Withdrawn | None = None

    @property
    def is_open(self) -> bool:
        """Not withdrawn: it goes on the next ballot."""
        return self.withdrawn is None

    @property
    def is_endorsement(self) -> bool:
        return self.kind == "endorsement"

    @property
    def offers_text(self) -> bool:
        """True for a proposal whose text could stand as the rule."""
        return self.kind in ("replacement", "addition")


@dataclass(frozen=True)
class Rule:
    """A rule or section of a rulebook, with the proposals filed under it."""

    ref: str
    id: str
    rulebook: str
    number: int | None
    title: str
    text: str
    topics: tuple[str, ...]
    notes: tuple[Note, ...] = ()
    see_also: tuple[str, ...] = ()
    proposals: tuple[Proposal, ...] = ()
    rulings: tuple[dict[str, Any], ...] = field(default=(), compare=False, hash=False)  # as in YAML

    @property
    def label(self) -> str:
        return f"{self.ref} {self.title}"


@dataclass(frozen=True)
class Rulebook:
    id: str
    title: str
    rules: tuple[Rule, ...]
    short_title: str = ""
    source: str = ""
    description: str = ""
    preamble: tuple[Proposal, ...] = ()
    #: how a sentence names it ("the Standard Laws"); the short title when not given
    called: str = ""
    #: the variants of the game it governs (engine names: "pool", "english")
    variants: tuple[str, ...] = ()
    #: the source's words that say which game it is for, and how they are read
    variants_quote: str = ""
    variants_note: str = ""

    @property
    def name(self) -> str:
        """The rulebook as a sentence names it: "the Standard Laws"."""
        return self.called or f"the {self.short_title or self.title}"

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)

    @property
    def proposals(self) -> tuple[Proposal, ...]:
        """Every proposal of the book: the preamble's, then each rule's in order."""
        return self.preamble + tuple(p for r in self.rules for p in r.proposals)


@dataclass(frozen=True)
class Adoption:
    """In an edition: ``proposal`` was adopted (for ``rule``, or as new text)."""

    proposal: str
    rule: str | None = None
    ballot: str | None = None
    question: str | None = None
    note: str | None = None
    #: ``sha256:`` digest of the proposal's text record when it was adopted (None: the
    #: edition was recorded before text digests)
    digest: str | None = None


@dataclass(frozen=True)
class Edition:
    id: str
    title: str
    date: str
    rulebook: str
    base: str | None = None
    description: str = ""
    adopted: tuple[Adoption, ...] = ()
    repealed: tuple[str, ...] = ()
    ballot: str | None = None  # the ballot that adopted this edition
    seal: str | None = None  # "sha256:<hex>": that ballot's seal
    #: the digest of the text record of every rule in force once this edition was
    #: adopted, by ref (``rulesbook.ballots.canonical.text_record``); empty for an
    #: edition recorded before text digests (the seed's)
    texts: tuple[tuple[str, str], ...] = ()


Entry = Rule | Proposal


def as_plain(obj: Any) -> Any:
    """A JSON-ready view of model objects (tuples become lists)."""
    if isinstance(obj, (list, tuple)):
        return [as_plain(o) for o in obj]
    if isinstance(obj, dict):
        return {k: as_plain(v) for k, v in obj.items()}
    if hasattr(obj, "__dataclass_fields__"):
        return {k: as_plain(getattr(obj, k)) for k in obj.__dataclass_fields__}
    return obj
