"""Library commands: validate, export, show, compare, search, edition."""
from __future__ import annotations

import argparse
import sys
from typing import TypedDict

from ..ballots.texts import MismatchJson
from ..compare import compare_rule, compare_topic
from ..datafolder import resolve_data_dir
from ..editions import consolidate, redline
from ..library import Library
from ..loading import validate_folder
from ..model import Edition, Proposal, Rule
from ..proposing.redline import proposal_redline
from ..search import search
from ..textio import counted
from .common import Subparsers, fail, int_range, print_json, with_library

# -- serialisation (the `export --json` contract) ---------------------------

class NoteJson(TypedDict):
    kind: str
    text: str


class ProposalJson(TypedDict):
    ref: str
    id: str
    member: str
    member_name: str
    kind: str
    text: str
    topics: list[str]
    notes: list[NoteJson]
    rule: str | None
    concerns: list[str]


class RuleJson(TypedDict):
    ref: str
    id: str
    number: int | None
    title: str
    text: str
    topics: list[str]
    notes: list[NoteJson]
    see_also: list[str]
    proposals: list[ProposalJson]


class AdoptionJson(TypedDict):
    proposal: str
    rule: str | None
    ballot: str | None
    question: str | None


class EditionJson(TypedDict):
    id: str
    title: str
    date: str
    rulebook: str
    base: str | None
    description: str
    adopted: list[AdoptionJson]
    repealed: list[str]
    ballot: str | None
    seal: str | None


class RulebookJson(TypedDict):
    id: str
    title: str
    short_title: str
    source: str
    description: str
    preamble: list[ProposalJson]
    rules: list[RuleJson]


class MemberJson(TypedDict):
    id: str
    name: str
    full_name: str | None
    aliases: list[str]


class TopicJson(TypedDict):
    id: str
    title: str
    keywords: list[str]


class ShownRuleJson(RuleJson):
    """``rulesbook show RULE --json``."""

    rulebook: str


class WithdrawnJson(TypedDict):
    date: str
    reason: str


class InForceJson(TypedDict):
    ref: str
    source: str
    edition: str
    text: str


class ShownProposalJson(ProposalJson):
    """``rulesbook show PROPOSAL --json``: with the words in force it would change."""

    rulebook: str
    title: str | None
    withdrawn: WithdrawnJson | None
    in_force: InForceJson | None
    redline: list[dict[str, str]]


class RuleInForceJson(TypedDict):
    ref: str
    number: int | None
    title: str
    text: str
    source: str
    adopted_in: str | None
    ballot: str | None


class EditionShowJson(TypedDict):
    """``rulesbook edition show ID --json``: the rules as they stand in it; ``verified``:
    the edition recorded the digests of its texts and every text in the folder matches
    them (false, with no mismatch, for an edition recorded before text digests:
    ``texts_recorded`` false); ``mismatches``: each text that differs."""

    edition: EditionJson
    rules: list[RuleInForceJson]
    verified: bool
    texts_recorded: bool
    mismatches: list[MismatchJson]


class RedlineJson(TypedDict):
    ref: str
    title: str
    status: str
    old_text: str
    new_text: str
    diff: str
    old_source: str | None
    new_source: str | None


class EditionDiffJson(TypedDict):
    """``rulesbook edition diff OLD NEW --json``."""

    old: str
    new: str
    changes: list[RedlineJson]


class LibraryJson(TypedDict):
    """``rulesbook export --json``."""

    rulebooks: list[RulebookJson]
    members: list[MemberJson]
    topics: list[TopicJson]
    editions: list[EditionJson]
    in_force: str | None


def proposal_json(library: Library, prop: Proposal) -> ProposalJson:
    member = library.member(prop.member)
    return {
        "ref": prop.ref, "id": prop.id, "member": prop.member, "member_name": member.name,
        "kind": prop.kind, "text": prop.text, "topics": list(prop.topics),
        "notes": [{"kind": n.kind, "text": n.text} for n in prop.notes],
        "rule": prop.rule, "concerns": list(prop.concerns),
    }


def rule_json(library: Library, rule: Rule) -> RuleJson:
    return {
        "ref": rule.ref, "id": rule.id, "number": rule.number, "title": rule.title,
        "text": rule.text, "topics": list(rule.topics),
        "notes": [{"kind": n.kind, "text": n.text} for n in rule.notes],
        "see_also": list(rule.see_also),
        "proposals": [proposal_json(library, p) for p in rule.proposals],
    }


def edition_json(edition: Edition) -> EditionJson:
    return {
        "id": edition.id, "title": edition.title, "date": edition.date,
        "rulebook": edition.rulebook, "base": edition.base, "description": edition.description,
        "adopted": [{"proposal": a.proposal, "rule": a.rule, "ballot": a.ballot,
                     "question": a.question} for a in edition.adopted],
        "repealed": list(edition.repealed),
        "ballot": edition.ballot, "seal": edition.seal,
    }


def library_json(library: Library) -> LibraryJson:
    return {
        "rulebooks": [{
            "id": book.id, "title": book.title, "short_title": book.short_title,
            "source": book.source, "description": book.description,
            "preamble": [proposal_json(library, p) for p in book.preamble],
            "rules": [rule_json(library, r) for r in book.rules],
        } for book in library.rulebooks],
        "members": [{"id": m.id, "name": m.name, "full_name": m.full_name,
                     "aliases": list(m.aliases)} for m in library.members],
        "topics": [{"id": t.id, "title": t.title, "keywords": list(t.keywords)}
                   for t in library.topics],
        "editions": [edition_json(e) for e in library.editions],
        "in_force": library.in_force,
    }


# -- handlers ---------------------------------------------------------------

def cmd_validate(args: argparse.Namespace) -> int:
    where = resolve_data_dir(args.dir or args.data)
    problems = validate_folder(where)
    if args.json:
        print_json({"folder": str(where), "ok": not problems,
                     "problems": [p.to_dict() for p in problems]})
    elif problems:
        for problem in problems:
            print(problem)
        print(f"{counted(len(problems), 'problem')} in {where}")
    else:
        print(f"{where}: OK")
    return 1 if problems else 0


def cmd_export(args: argparse.Namespace, library: Library) -> int:
    data = library_json(library)
    if args.json:
        print_json(data)
    else:
        for book in library.rulebooks:
            print(f"{book.id}: {book.title} ({len(book.rules)} rules, "
                  f"{len(book.proposals)} proposals)")
    return 0


def cmd_show(args: argparse.Namespace, library: Library) -> int:
    entry = library.resolve(args.ref)
    data: ShownRuleJson | ShownProposalJson
    if isinstance(entry, Rule):
        data = {**rule_json(library, entry), "rulebook": entry.rulebook}
    else:
        in_force, diff = proposal_redline(library, entry)
        data = {
            **proposal_json(library, entry), "rulebook": entry.rulebook, "title": entry.title,
            "withdrawn": (None if entry.withdrawn is None else
                          {"date": entry.withdrawn.date, "reason": entry.withdrawn.reason}),
            "in_force": None if in_force is None else {
                "ref": in_force.ref, "source": in_force.source, "edition": in_force.edition,
                "text": in_force.text},
            "redline": diff.to_list(),
        }
    if args.json:
        print_json(data)
        return 0
    if isinstance(entry, Rule):
        print(f"{entry.ref}  {entry.title}")
        print(entry.text)
        for note in entry.notes:
            print(f"  note ({note.kind}): {note.text}")
        for prop in entry.proposals:
            member = library.member(prop.member)
            print(f"\n  {prop.ref} — {member.label}, {prop.kind}")
            print("  " + prop.text.replace("\n", "\n  "))
    else:
        member = library.member(entry.member)
        print(f"{entry.ref}  {member.label}, {entry.kind}"
              + (f", filed under {entry.rule}" if entry.rule else ""))
        print(entry.text)
        for note in entry.notes:
            print(f"  note ({note.kind}): {note.text}")
        if entry.withdrawn is not None:
            why = f": {entry.withdrawn.reason}" if entry.withdrawn.reason else ""
            print(f"  withdrawn on {entry.withdrawn.date}{why}")
        in_force, diff = proposal_redline(library, entry)
        if in_force is not None and not entry.is_endorsement:
            print(f"\nagainst the text in force ({in_force.source}, edition "
                  f"{in_force.edition}):")
            print(diff.plain())
    print(f"topics: {', '.join(entry.topics)}")
    return 0


def cmd_compare(args: argparse.Namespace, library: Library) -> int:
    if args.topic:
        comparison = compare_topic(library, args.topic)
    elif args.ref:
        comparison = compare_rule(library, args.ref)
    else:
        return fail("give a rule reference or --topic TOPIC")
    if args.json:
        print_json(comparison.to_dict())
        return 0
    print(f"{comparison.subject}: {comparison.title}")
    for v in comparison.variants:
        who = f" — {v.member_name} ({v.member})" if v.member else ""
        print(f"\n== {v.ref} [{v.kind}]{who}  similarity {v.diff.similarity:.0%}")
        print(v.diff.plain() if v.kind != "original" else v.text)
    if comparison.filed_apart:
        print("\nFiled under this rule, but about another (not an alternative to it):")
        for f in comparison.filed_apart:
            who = f" — {f.member_name} ({f.member})" if f.member else ""
            print(f"  {f.label}{who}")
    if comparison.refers_apart:
        print("\nOnly naming this rule (about another, not an alternative to it):")
        for r in comparison.refers_apart:
            who = f" — {r.member_name} ({r.member})" if r.member else ""
            print(f"  {r.label}{who}")
    return 0


def cmd_search(args: argparse.Namespace, library: Library) -> int:
    hits = search(library, args.query, limit=args.limit)
    if args.json:
        print_json([h.to_dict() for h in hits])
        return 0
    if not hits:
        print("no results")
        return 0
    for hit in hits:
        print(f"{hit.ref:22} {hit.title}\n    {hit.snippet}")
    return 0


def cmd_edition(args: argparse.Namespace, library: Library) -> int:
    if args.action == "list":
        if args.json:
            print_json([dict(edition_json(e), in_force=e.id == library.edition().id)
                         for e in library.editions])
        else:
            current = library.edition().id
            for e in library.editions:
                mark = "*" if e.id == current else " "
                print(f"{mark} {e.id:20} {e.date}  {e.title}")
        return 0
    if args.action == "show":
        if len(args.ids) != 1:
            return fail("edition show takes one edition id")
        from ..ballots.texts import edition_mismatches, records_texts

        book = consolidate(library, args.ids[0])
        mismatches = edition_mismatches(library, book.edition)
        recorded = records_texts(book.edition)
        if args.json:
            shown: EditionShowJson = {"edition": edition_json(book.edition), "rules": [
                {"ref": r.ref, "number": r.number, "title": r.title, "text": r.text,
                 "source": r.source, "adopted_in": r.adopted_in, "ballot": r.ballot}
                for r in book.rules], "verified": recorded and not mismatches,
                "texts_recorded": recorded,
                "mismatches": [m.to_dict() for m in mismatches]}
            print_json(shown)
        else:
            print(book.as_text())
            if not recorded:
                print(f"Edition {book.edition.id} was recorded before text digests: its "
                      f"texts cannot be verified against what was adopted.")
            elif not mismatches:
                print(f"Verified: every text is the one edition {book.edition.id} adopted.")
        for m in mismatches:
            print(f"NOT THE ADOPTED TEXT: {m.message}", file=sys.stderr)
        return 1 if mismatches else 0
    if len(args.ids) != 2:
        return fail("edition diff takes two edition ids: OLD NEW")
    diff = redline(library, *args.ids)
    if args.json:
        changes: EditionDiffJson = {"old": diff.old.id, "new": diff.new.id, "changes": [
            {"ref": e.ref, "title": e.title, "status": e.status, "old_text": e.old_text,
             "new_text": e.new_text, "diff": e.diff.plain(), "old_source": e.old_source,
             "new_source": e.new_source} for e in diff.changes]}
        print_json(changes)
    elif args.html:
        print(diff.as_html())
    else:
        print(diff.as_text())
    return 0


def register(sub: Subparsers) -> None:
    p = sub.add_parser("validate", help="check a data folder; exit 1 with the problems")
    p.add_argument("dir", nargs="?", default=None, help="data folder (default: bundled data)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("export", help="the whole library")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=with_library(cmd_export))

    p = sub.add_parser("show", help="one rule or proposal, e.g. apca:28 or 10B")
    p.add_argument("ref")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=with_library(cmd_show))

    p = sub.add_parser("compare", help="every variant of a rule or a topic side by side")
    p.add_argument("ref", nargs="?")
    p.add_argument("--topic", metavar="T")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=with_library(cmd_compare))

    p = sub.add_parser("search", help="full-text search over every rulebook")
    p.add_argument("query")
    p.add_argument("--limit", type=int_range(1, 10_000), default=10,
                   help="most results shown (1 to 10,000; default 10)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=with_library(cmd_search))

    p = sub.add_parser("edition", help="list, show or diff editions")
    p.add_argument("action", choices=["list", "show", "diff"])
    p.add_argument("ids", nargs="*")
    p.add_argument("--json", action="store_true")
    p.add_argument("--html", action="store_true", help="diff as HTML")
    p.set_defaults(func=with_library(cmd_edition))
