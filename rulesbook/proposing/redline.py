"""A proposal against the text in force: the word redline a member sees while
writing (the app's editor) and that ``rulesbook show`` prints."""
from __future__ import annotations

from dataclasses import dataclass

from ..editions import consolidate
from ..library import Library
from ..model import Proposal
from ..textdiff import WordDiff, word_diff


@dataclass(frozen=True)
class InForce:
    """The text a proposal would change, as it stands in an edition."""

    ref: str  # the rule
    source: str  # the ref whose words are in force (the rule, or a proposal adopted for it)
    edition: str
    text: str


def text_in_force(library: Library, rule_ref: str | None,
                  edition: str | None = None) -> InForce | None:
    """The words in force for ``rule_ref`` (None for new text, or a rule the edition
    repealed)."""
    if rule_ref is None:
        return None
    book = consolidate(library, edition)
    try:
        rule = book.rule(rule_ref)
    except KeyError:
        return None
    return InForce(rule_ref, rule.source, book.edition.id, rule.text)


def redline(in_force: InForce | None, text: str) -> WordDiff:
    """The words of ``text`` against the text in force (all inserted for new text).
    Case is ignored, as in ``compare``: the original is written in capitals."""
    return word_diff(in_force.text if in_force else "", text, ignore_case=True)


def proposal_redline(library: Library, prop: Proposal,
                     edition: str | None = None) -> tuple[InForce | None, WordDiff]:
    """A proposal's text against the words in force of the rule it is about: the rule it
    concerns when misfiled, else the one it is filed under."""
    rules = [r for r in prop.concerns if r.partition(":")[0] == prop.rulebook]
    in_force = text_in_force(library, rules[0] if rules else prop.rule, edition)
    return in_force, redline(in_force, prop.text)
