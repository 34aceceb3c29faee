"""Compare: every variant of a rule or topic side by side, each diffed against
the original (word level, case-insensitive so the ALL-CAPITALS originals
compare with proposals written in ordinary case)."""
from __future__ import annotations

import re
from collections.abc import Container
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
    why: str  # how it was found: "original", "filed under", "concerns", "refers to", "topic"

    def to_dict(self) -> dict[str, object]:
        return {
            "ref": self.ref, "rulebook": self.rulebook, "kind": self.kind, "title": self.title,
            "text": self.text, "member": self.member, "member_name": self.member_name,
            "topics": list(self.topics), "shared_topics": list(self.shared_topics),
            "why": self.why, "similarity": round(self.diff.similarity, 3),
            "diff": self.diff.plain(), "diff_ops": self.diff.to_list(),
        }


@dataclass(frozen=True)
class FiledApart:
    """A proposal filed under a rule that it does not concern (it is an alternative to
    the rule(s) it concerns, not to this one)."""

    ref: str
    filed_under: str
    concerns: tuple[str, ...]
    member: str | None
    member_name: str | None

    @property
    def label(self) -> str:
        def num(ref: str) -> str:
            return ref.partition(":")[2]
        about = ", ".join(num(c) for c in self.concerns) or "no rule (new text)"
        return f"{self.ref}: filed under {num(self.filed_under)}, concerns {about}"

    def to_dict(self) -> dict[str, object]:
        return {"ref": self.ref, "filed_under": self.filed_under,
                "concerns": list(self.concerns), "member": self.member,
                "member_name": self.member_name, "label": self.label}


@dataclass(frozen=True)
class RefersTo:
    """A proposal of another rule that only names this one (``See Rule 29``): not an
    alternative to it, since it shares none of its topics."""

    ref: str
    filed_under: str | None
    member: str | None
    member_name: str | None

    @property
    def label(self) -> str:
        where = self.filed_under.partition(":")[2] if self.filed_under else "no rule"
        return f"{self.ref}: filed under {where}, refers to this rule"

    def to_dict(self) -> dict[str, object]:
        return {"ref": self.ref, "filed_under": self.filed_under, "member": self.member,
                "member_name": self.member_name, "label": self.label}


@dataclass(frozen=True)
class Comparison:
    subject: str  # the rule ref or "topic:ID"
    title: str
    original: Entry | None
    variants: tuple[Variant, ...]
    filed_apart: tuple[FiledApart, ...] = ()
    refers_apart: tuple[RefersTo, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"subject": self.subject, "title": self.title,
                "original": self.original.ref if self.original else None,
                "variants": [v.to_dict() for v in self.variants],
                "filed_apart": [f.to_dict() for f in self.filed_apart],
                "refers_apart": [r.to_dict() for r in self.refers_apart]}


_RULE_MENTION = re.compile(r"\brule\s+(?:number\s+)?(\d+)\b", re.IGNORECASE)


def mentions(text: str) -> set[str]:
    """The rule numbers a text names ("Rule 13", "rule number 9")."""
    return {m[1] for m in _RULE_MENTION.finditer(text)}


def _variant(library: Library, entry: Entry, base_text: str, base_topics: Container[str],
             why: str) -> Variant:
    member_id: str | None
    member_name: str | None
    if isinstance(entry, Proposal):
        kind = entry.kind
        member = library.member(entry.member)
        filed_under = library.index[entry.rule] if entry.rule else None
        title = entry.title or (filed_under.title if filed_under else None) or entry.id
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
    apart: list[FiledApart] = []
    referring: list[RefersTo] = []
    seen = {rule.ref}
    if isinstance(rule, Rule):
        for prop in rule.proposals:
            seen.add(prop.ref)
            misfiled = any(n.kind == "misfiled" for n in prop.notes)
            if (prop.concerns or misfiled) and rule.ref not in prop.concerns:
                member = library.member(prop.member)
                apart.append(FiledApart(prop.ref, rule.ref, prop.concerns, member.id,
                                        member.name))
                continue
            variants.append(_variant(library, prop, base_text, topics, "filed under"))
    for prop in (p for b in library.rulebooks for p in b.proposals):
        if rule.ref in prop.concerns and prop.ref not in seen:
            variants.append(_variant(library, prop, base_text, topics, "concerns"))
            seen.add(prop.ref)
    number = str(rule.number) if isinstance(rule, Rule) and rule.number is not None else None
    for prop in (p for b in library.rulebooks if b.id == rule.rulebook for p in b.proposals):
        if number and prop.ref not in seen and number in mentions(prop.text):
            seen.add(prop.ref)
            if topics.intersection(prop.topics):  # it speaks of this rule's subject
                variants.append(_variant(library, prop, base_text, topics, "refers to"))
            else:  # it only names the rule ("See Rule 29"): listed apart
                member = library.member(prop.member)
                referring.append(RefersTo(prop.ref, prop.rule, member.id, member.name))
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
    # the original's title as its variant shows it (a preamble proposal has no title)
    return Comparison(rule.ref, variants[0].title, rule, tuple(variants), tuple(apart),
                      tuple(referring))


def compare_topic(library: Library, topic_id: str) -> Comparison:
    """Every rule, proposal and section in every rulebook that addresses a topic."""
    topic = library.topic(topic_id)
    entries = library.entries_for_topic(topic_id)
    # The rule the topic is mainly about (topics.yaml ``baseline``); else the first rule.
    original = library.index.get(topic.baseline) if topic.baseline else None
    if original is None:
        original = next((e for e in entries if isinstance(e, Rule) and e.rulebook == "apca"),
                        None)
    if original is None:
        original = next((e for e in entries if isinstance(e, Rule)), None)
    if original is not None and original in entries:
        entries = [original] + [e for e in entries if e is not original]
    base_text = original.text if original else ""
    variants = [_variant(library, e, base_text, {topic_id}, "topic") for e in entries
                if not (isinstance(e, Proposal) and e.is_endorsement)]
    return Comparison(f"topic:{topic.id}", topic.title, original, tuple(variants))
