"""Editions: the text in force for every rule, and redlines between editions."""
from __future__ import annotations

import html
from dataclasses import dataclass

from .errors import RulesbookError
from .library import Library
from .model import Edition, Proposal
from .textdiff import WordDiff, word_diff


@dataclass(frozen=True)
class RuleInForce:
    """One rule as it stands in an edition."""

    ref: str  # the rule's reference (``apca:10``), or the added proposal's for new text
    number: int | None
    title: str
    text: str
    source: str  # the ref whose text is in force: the rule itself or an adopted proposal
    adopted_in: str | None = None  # the edition that adopted ``source``
    ballot: str | None = None


@dataclass(frozen=True)
class ConsolidatedRulebook:
    edition: Edition
    rules: tuple[RuleInForce, ...]

    def rule(self, ref: str) -> RuleInForce:
        for rule in self.rules:
            if rule.ref == ref:
                return rule
        raise KeyError(ref)

    def as_text(self) -> str:
        lines = [f"{self.edition.title} ({self.edition.id}, {self.edition.date})", ""]
        for rule in self.rules:
            head = f"Rule {rule.number}" if rule.number is not None else rule.ref
            lines.append(f"{head}. {rule.title}")
            lines.append(rule.text)
            if rule.source != rule.ref:
                lines.append(f"  [text of {rule.source}, adopted in {rule.adopted_in}]")
            lines.append("")
        return "\n".join(lines)


@dataclass(frozen=True)
class RedlineEntry:
    ref: str
    title: str
    status: str  # added | deleted | changed | unchanged
    old_text: str
    new_text: str
    diff: WordDiff
    old_source: str | None
    new_source: str | None


@dataclass(frozen=True)
class Redline:
    old: Edition
    new: Edition
    entries: tuple[RedlineEntry, ...]

    @property
    def changes(self) -> tuple[RedlineEntry, ...]:
        return tuple(e for e in self.entries if e.status != "unchanged")

    def as_text(self) -> str:
        lines = [f"Changes from {self.old.id} to {self.new.id}", ""]
        if not self.changes:
            lines.append("No changes.")
        for entry in self.changes:
            lines.append(f"{entry.ref} {entry.title}: {entry.status}")
            lines.append(entry.diff.plain())
            lines.append("")
        return "\n".join(lines)

    def as_html(self) -> str:
        parts = [f"<h2>Changes from {html.escape(self.old.title)} to "
                 f"{html.escape(self.new.title)}</h2>"]
        if not self.changes:
            parts.append("<p>No changes.</p>")
        for entry in self.changes:
            parts.append(f'<h3>{html.escape(entry.ref)} {html.escape(entry.title)} '
                         f'<small>({entry.status})</small></h3>')
            parts.append(f"<p>{entry.diff.html()}</p>")
        return "\n".join(parts)


class EditionError(RulesbookError):
    """An edition cannot be built (unknown edition, a cycle in its bases)."""


def edition_chain(library: Library, edition_id: str) -> list[Edition]:
    """The edition and its bases, oldest first."""
    chain: list[Edition] = []
    current: str | None = edition_id
    while current:
        edition = library.edition(current)
        if edition in chain:
            raise EditionError(f"edition {edition_id!r} has a cycle in its bases")
        chain.append(edition)
        current = edition.base
    return list(reversed(chain))


def consolidate(library: Library, edition_id: str | None = None) -> ConsolidatedRulebook:
    """The rulebook of an edition: every rule with the text in force."""
    edition = library.edition(edition_id)
    return _consolidate(library, edition, edition_chain(library, edition.id))


def consolidate_new(library: Library, edition: Edition) -> ConsolidatedRulebook:
    """The rulebook of an edition not yet in the library (one being adopted), on its
    base."""
    steps = edition_chain(library, edition.base) if edition.base else []
    return _consolidate(library, edition, [*steps, edition])


def _consolidate(library: Library, edition: Edition,
                 steps: list[Edition]) -> ConsolidatedRulebook:
    book = library.rulebook(edition.rulebook)
    in_force: dict[str, RuleInForce] = {}
    order: list[str] = []
    for rule in book.rules:
        in_force[rule.ref] = RuleInForce(rule.ref, rule.number, rule.title, rule.text, rule.ref)
        order.append(rule.ref)
    for step in steps:
        for adoption in step.adopted:
            proposal = library.index[adoption.proposal]
            assert isinstance(proposal, Proposal)
            if proposal.kind == "deletion":
                continue  # its rule goes with the edition's ``repealed`` entry
            target = adoption.rule or (proposal.rule if proposal.kind == "replacement" else None)
            if target and target in in_force:
                old = in_force[target]
                in_force[target] = RuleInForce(old.ref, old.number, old.title, proposal.text,
                                               proposal.ref, step.id, adoption.ballot)
            else:  # new text added to the rulebook
                if proposal.ref not in in_force:
                    order.append(proposal.ref)
                in_force[proposal.ref] = RuleInForce(
                    proposal.ref, None, proposal.title or proposal.id, proposal.text,
                    proposal.ref, step.id, adoption.ballot)
        for ref in step.repealed:
            if ref in in_force:
                del in_force[ref]
                order.remove(ref)
    return ConsolidatedRulebook(edition, tuple(in_force[r] for r in order))


def redline(library: Library, old_id: str, new_id: str) -> Redline:
    """Word-level changes between two editions: added, deleted, changed rules."""
    old = consolidate(library, old_id)
    new = consolidate(library, new_id)
    old_rules = {r.ref: r for r in old.rules}
    new_rules = {r.ref: r for r in new.rules}
    refs = [r.ref for r in old.rules] + [r.ref for r in new.rules if r.ref not in old_rules]
    entries = []
    for ref in refs:
        a, b = old_rules.get(ref), new_rules.get(ref)
        old_text = a.text if a else ""
        new_text = b.text if b else ""
        if a is None:
            status = "added"
        elif b is None:
            status = "deleted"
        elif a.text != b.text:
            status = "changed"
        else:
            status = "unchanged"
        shown = b or a
        assert shown is not None  # every ref is a rule of one edition or the other
        entries.append(RedlineEntry(ref, shown.title, status, old_text, new_text,
                                    word_diff(old_text, new_text, ignore_case=True),
                                    a.source if a else None, b.source if b else None))
    return Redline(old.edition, new.edition, tuple(entries))
