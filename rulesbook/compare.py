"""Compare: every variant of a rule or topic side by side, each diffed against
the original (word level, case-insensitive so the ALL-CAPITALS originals
compare with proposals written in ordinary case)."""
from __future__ import annotations

from dataclasses import dataclass

from .library import Library
from .model import Entry, Proposal, Rule
from .textdiff import WordDiff, word_diff


@dataclass(frozen=True)
class Variant:
    ref: str
    rulebook: str
    kind: str  # original | replacement | comment | endorsement | addition | section
    title: str
    text: str
    member: str | None
    member_name: str | None
    topics: tuple[str, ...]
    shared_topics: tuple[str, ...]
    diff: WordDiff
    why: str  # how it was found: "filed under", "concerns", "topic"

    def to_dict(self) -> dict:
        return {
            "ref": self.ref, "rulebook": self.rulebook, "kind": self.kind, "title": self.title,
            "text": self.text, "member": self.member, "member_name": self.member_name,
            "topics": list(self.topics), "shared_topics": list(self.shared_topics),
            "why": self.why, "similarity": round(self.diff.similarity, 3),
            "diff": self.diff.plain(), "diff_ops": self.diff.to_list(),
        }


@dataclass(frozen=True)
class Comparison:
    subject: str  # the rule ref or "topic:ID"
    title: str
    original: Entry | None
    variants: tuple[Variant, ...]

    def to_dict(self) -> dict:
        return {"subject": self.subject, "title": self.title,
                "original": self.original.ref if self.original else None,
                "variants": [v.to_dict() for v in self.variants]}


def _variant(library: Library, entry: Entry, base_text: str, base_topics, why: str) -> Variant:
    if isinstance(entry, Proposal):
        kind = entry.kind
        member = library.member(entry.member)
        title = entry.title or (library.index[entry.rule].title if entry.rule else entry.id)
        member_id, member_name = member.id, member.name
    else:
        kind = "original" if entry.rulebook == "apca" else "section"
        title = entry.title
        member_id = member_name = None
    text = entry.text
    if isinstance(entry, Proposal) and entry.is_endorsement and entry.rule:
        diff = word_diff(base_text, base_text)  # "OK": the original, unchanged
    else:
        diff = word_diff(base_text, text, ignore_case=True)
    shared = tuple(t for t in entry.topics if t in base_topics)
    return Variant(entry.ref, entry.rulebook, kind, title, text, member_id, member_name,
                   tuple(entry.topics), shared, diff, why)


def compare_rule(library: Library, ref: str, other_books: bool = True) -> Comparison:
    """The original rule, its proposals (wherever they were filed), and the
    corresponding sections of the other rulebooks, each diffed against the original."""
    entry = library.resolve(ref)
    rule = library.index[entry.rule] if isinstance(entry, Proposal) and entry.rule else entry
    base_text = rule.text
    topics = set(rule.topics)
    variants = [_variant(library, rule, base_text, topics, "original")]
    seen = {rule.ref}
    if isinstance(rule, Rule):
        for prop in rule.proposals:
            variants.append(_variant(library, prop, base_text, topics, "filed under"))
            seen.add(prop.ref)
    for prop in (p for b in library.rulebooks for p in b.proposals):
        if rule.ref in prop.concerns and prop.ref not in seen:
            variants.append(_variant(library, prop, base_text, topics, "concerns"))
            seen.add(prop.ref)
    if other_books:
        scored = []
        for book in library.rulebooks:
            if book.id == rule.rulebook:
                continue
            for section in book.rules:
                shared = topics.intersection(section.topics)
                if shared:
                    scored.append((-len(shared), book.id, section))
        for _, _, section in sorted(scored, key=lambda s: (s[0], s[1])):
            variants.append(_variant(library, section, base_text, topics, "topic"))
    return Comparison(rule.ref, rule.title, rule, tuple(variants))


def compare_topic(library: Library, topic_id: str) -> Comparison:
    """Every rule, proposal and section in every rulebook that addresses a topic."""
    topic = library.topic(topic_id)
    entries = library.entries_for_topic(topic_id)
    original = next((e for e in entries if isinstance(e, Rule) and e.rulebook == "apca"), None)
    if original is None:
        original = next((e for e in entries if isinstance(e, Rule)), None)
    base_text = original.text if original else ""
    variants = [_variant(library, e, base_text, {topic_id}, "topic") for e in entries
                if not (isinstance(e, Proposal) and e.is_endorsement)]
    return Comparison(f"topic:{topic.id}", topic.title, original, tuple(variants))
