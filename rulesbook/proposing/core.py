"""Writing the committee's record: a new member, a new proposal, an edit, a
withdrawal.

Each write is planned on the library as it stands, inserted into the YAML file
as text (:mod:`.yamltext`: nothing else in the file moves), and validated like
the shipped data (safe YAML, schema, references, topics, rulings' quotes) on a
copy of the data folder *before* it lands; then written atomically under the
file's lock. The rules-folder commit is the caller's (``recorded_change``).
"""
from __future__ import annotations

import datetime as _dt
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

import yaml

from ..ballots.keys import SigningKey
from ..errors import LibraryError, RulesbookError
from ..library import Library
from ..loading import load_library
from ..model import PROPOSAL_KINDS, Proposal, Rule
from ..names import comparison_keys
from ..storage import atomic_write_text, file_lock
from ..textio import visible_controls
from ..yamlio import read_data_text
from . import yamltext as yt
from .checks import proposal_records
from .signature import ACTING, SIGNED, sign_record

MEMBER_LETTER = re.compile(r"[A-Z]{1,3}")
MAX_NAME = 80
MAX_TITLE = 200
MAX_REASON = 2000
MAX_TEXT = 200_000  # the schema's limit for a text


class ProposalError(RulesbookError):
    """A member or proposal that cannot be written, with a message a member can act on."""


@dataclass(frozen=True)
class NewMember:
    id: str
    name: str


class DraftJson(TypedDict):
    """One proposal as `rulesbook propose --json` prints it."""

    ref: str
    member: str
    rule: str | None
    kind: str
    text: str


@dataclass(frozen=True)
class Draft:
    """A proposal as it will be written (its id allocated)."""

    ref: str
    id: str
    book: str
    member: str
    kind: str
    text: str
    topics: tuple[str, ...]
    rule: str | None = None  # the ref of the rule it is filed under (None: the preamble)
    title: str | None = None
    concerns: tuple[str, ...] = ()

    def to_json(self) -> DraftJson:
        """The `propose --json` contract."""
        return {"ref": self.ref, "member": self.member, "rule": self.rule,
                "kind": self.kind, "text": self.text}


@dataclass(frozen=True)
class Withdrawal:
    ref: str
    date: str
    reason: str


# -- cleaning what a user typed ---------------------------------------------------

def clean_text(text: str, what: str = "the text") -> str:
    """Line ends made ``\\n``, trailing spaces and blank edges removed; refused when
    empty, too long, or holding control characters other than new lines and tabs."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")
    if not text.strip():
        raise ProposalError(f"{what} is empty")
    if len(text) > MAX_TEXT:
        raise ProposalError(f"{what} has {len(text):,} characters; at most {MAX_TEXT:,} "
                            "are allowed")
    bad = next((c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F
                or 0xD800 <= ord(c) <= 0xDFFF or ord(c) in (0xFEFF, 0xFFFE, 0xFFFF)), None)
    if bad is not None:
        raise ProposalError(f"{what} holds the control character U+{ord(bad):04X}; "
                            "remove it (only new lines and tabs are allowed)")
    return text


def _one_line(text: str, what: str, limit: int) -> str:
    cleaned = clean_text(text, what)
    if "\n" in cleaned or "\t" in cleaned:
        raise ProposalError(f"{what} must be one line")
    if len(cleaned) > limit:
        raise ProposalError(f"{what} has {len(cleaned)} characters; at most {limit} are allowed")
    return cleaned.strip()


# -- members ------------------------------------------------------------------

def next_letter(taken: Sequence[str]) -> str:
    """The first free capital letter after the ones in use (F after A-E), then AA, AB, ..."""
    used = set(taken)
    letters = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    highest = max((letters.index(t) for t in used if t in letters), default=-1)
    for letter in letters[highest + 1:] + letters[:highest + 1]:
        if letter not in used:
            return letter
    for first in letters:
        for second in letters:
            if first + second not in used:
                return first + second
    raise ProposalError("every member letter is taken")  # pragma: no cover - 702 members


def plan_member(library: Library, name: str, letter: str | None = None) -> NewMember:
    name = _one_line(name, "the member's name", MAX_NAME)
    ids = [m.id for m in library.members]
    keys = comparison_keys(name)
    for m in library.members:
        if m.id == "unknown":
            continue
        if name.casefold() in {m.name.casefold(), *(a.casefold() for a in m.aliases)}:
            raise ProposalError(f"{name!r} is already member {m.id} ({m.name})")
        if any(keys & comparison_keys(n) for n in (m.name, m.full_name, *m.aliases) if n):
            raise ProposalError(
                f"'{visible_controls(name)}' is already member {m.id} "
                f"({visible_controls(m.name)}): the two names read the same (look-alike "
                f"letters, spacing or invisible characters)")
    if letter is None:
        letter = next_letter([i for i in ids if i != "unknown"])
    else:
        letter = letter.strip()
        if not MEMBER_LETTER.fullmatch(letter):
            raise ProposalError(f"{letter!r} is not a member letter: give one to three "
                                "capital letters, e.g. F")
        if letter in ids:
            raise ProposalError(f"the letter {letter} is already member "
                                f"{library.member(letter).name}")
    return NewMember(letter, name)


def add_member(root: Path, name: str, letter: str | None = None) -> NewMember:
    """Append a member to ``members.yaml`` (the next free letter unless ``letter``)."""
    root = Path(root)
    path = root / "members.yaml"
    with file_lock(path):
        library = load_library(root)
        member = plan_member(library, name, letter)
        text = read_data_text(path, "members.yaml")
        doc = yt.compose(text, "members.yaml")
        seq = yt.value(doc, "members")
        if not isinstance(seq, yaml.SequenceNode) or not seq.value:
            raise ProposalError("members.yaml has no list of members to add to")
        last = seq.value[-1]
        dash = max(last.start_mark.column - 2, 0)
        record = {"id": member.id, "name": member.name, "aliases": []}
        if isinstance(last, yaml.MappingNode) and last.flow_style:
            line = " " * dash + "- {id: " + member.id + ", name: " + _scalar(member.name) \
                + ", aliases: []}"
            lines: tuple[str, ...] = (line,)
        else:
            lines = yt.block_item(record, dash)
        new_text = yt.insert_lines(text, yt.Insertion(yt.last_line(last), lines))
        _land(root, path, new_text)
    return member


def _scalar(word: str) -> str:
    return word if yt.plain(word) else yt.quoted(word)


# -- proposals ------------------------------------------------------------------

def home_book(library: Library) -> str:
    """The rulebook proposals are made to: the one the editions are of (the APCA rules)."""
    if library.editions:
        return library.editions[0].rulebook
    with_props = [b.id for b in library.rulebooks if b.proposals]
    if with_props:
        return with_props[0]
    raise ProposalError("no rulebook takes proposals in this data folder")


def next_proposal_id(library: Library, book: str, rule_id: str | None, member: str) -> str:
    """By the source's convention: rule number + member letter (``28F``); a second one
    by the same member under the same rule ``28F2``, then ``28F3``. An addition not
    filed under a rule: the member letter and a number (``F1``, ``F2``). Ids are never
    reused, not even a withdrawn one's: the record keeps withdrawn proposals."""
    stem = f"{rule_id}{member}" if rule_id else member
    taken = {e.id for e in library.index.values() if e.rulebook == book}
    if rule_id and stem not in taken:
        return stem
    n = 2 if rule_id else 1
    while f"{stem}{n}" in taken:
        n += 1
    return f"{stem}{n}"


def suggest_topics(library: Library, text: str, rule: Rule | None = None,
                   limit: int = 3) -> tuple[str, ...]:
    """Topics for a text, ranked by the search index: the topics of the entries that
    match the text best, weighted by their score; the rule's own topics break ties
    and are the answer when the text matches nothing."""
    from ..search import search

    words = re.findall(r"[A-Za-z0-9]+", text)
    query = " ".join(list(dict.fromkeys(w.lower() for w in words))[:40])
    scores: dict[str, float] = {}
    hits = search(library, query, limit=15) if query else []
    for rank, hit in enumerate(h for h in hits if h.match != "reference"):
        entry = library.index.get(hit.ref)
        for topic in getattr(entry, "topics", ()):
            scores[topic] = scores.get(topic, 0.0) + 1.0 / (rank + 1)
    for topic in (rule.topics if rule else ()):
        scores[topic] = scores.get(topic, 0.0) + 0.5
    if not scores:
        return ()
    best = max(scores.values())
    ranked = sorted(scores, key=lambda t: (-scores[t], t))
    return tuple(t for t in ranked if scores[t] >= best / 2)[:limit]


def plan_proposal(library: Library, *, member: str, rule: str | None, kind: str, text: str,
                  title: str | None = None, concerns: Sequence[str] = (),
                  topics: Sequence[str] = ()) -> Draft:
    """Check everything a member gave and allocate the id; nothing is written."""
    if kind not in PROPOSAL_KINDS:
        raise ProposalError(f"unknown kind {kind!r}: give one of {', '.join(PROPOSAL_KINDS)}")
    ids = [m.id for m in library.members if m.id != "unknown"]
    if member not in ids:
        raise ProposalError(f"no member {member!r} (members: {', '.join(ids)}); add one with "
                            f"`rulesbook member add NAME`")
    book = home_book(library)
    target: Rule | None = None
    if rule is not None and rule.strip():
        entry = library.resolve(rule)
        if not isinstance(entry, Rule):
            raise ProposalError(f"{entry.ref} is a proposal, not a rule: file the proposal "
                                f"under {entry.rule or 'a rule'}")
        if entry.rulebook != book:
            raise ProposalError(f"{entry.ref} is in the rulebook {entry.rulebook!r}; proposals "
                                f"are made to the rulebook {book!r}")
        target = entry
    elif kind != "addition":
        raise ProposalError(f"a {kind} needs the rule it is about (--rule REF); only an "
                            "addition can stand outside the rules")
    text = clean_text(text)
    if title is not None:
        title = _one_line(title, "the title", MAX_TITLE)
    if target is None and not title:
        raise ProposalError("an addition not filed under a rule needs a title (--title T)")
    concern_refs = []
    for ref in concerns:
        entry = library.resolve(ref)
        if not isinstance(entry, Rule):
            raise ProposalError(f"--concerns names {entry.ref}, a proposal; name the rule it "
                                "is about")
        if entry.ref not in concern_refs:
            concern_refs.append(entry.ref)
    topic_ids = {t.id for t in library.topics}
    chosen = []
    for topic in topics:
        library.topic(topic.strip())  # an unknown topic: a message with "did you mean"
        if topic.strip() not in chosen:
            chosen.append(topic.strip())
    if not chosen:
        chosen = list(suggest_topics(library, text, target))
    chosen = [t for t in chosen if t in topic_ids]
    if not chosen:
        raise ProposalError("no topic could be suggested for this text: give one with --topic "
                            f"(topics: {', '.join(sorted(topic_ids))})")
    new_id = next_proposal_id(library, book, target.id if target else None, member)
    return Draft(ref=f"{book}:{new_id}", id=new_id, book=book, member=member, kind=kind,
                 text=text, topics=tuple(chosen), rule=target.ref if target else None,
                 title=title, concerns=tuple(concern_refs))


def rulebook_file(root: Path, book: str) -> Path:
    """The file of the rulebook ``book`` in the data folder."""
    candidate = root / book / "rulebook.yaml"
    if candidate.is_file():
        return candidate
    for path in sorted(root.rglob("rulebook.yaml")):
        try:
            doc = yt.compose(read_data_text(path), str(path))
        except RulesbookError:
            continue
        found = yt.value(doc, "id")
        if isinstance(found, yaml.ScalarNode) and found.value == book:
            return path
    raise ProposalError(f"no rulebook.yaml of the rulebook {book!r} in {root}")


def _record(draft: Draft) -> dict[str, str | list[str]]:
    record: dict[str, str | list[str]] = {"id": draft.id, "member": draft.member,
                                          "kind": draft.kind}
    if draft.title:
        record["title"] = draft.title
    record["text"] = draft.text
    record["topics"] = list(draft.topics)
    if draft.concerns:
        record["concerns"] = list(draft.concerns)
    return record


def insert_proposal(text: str, draft: Draft, file: str) -> str:
    """``text`` (a rulebook file) with the new proposal record inserted: after the last
    proposal of its rule (a ``proposals:`` list is started when the rule has none), or
    after the last entry of the preamble."""
    doc = yt.compose(text, file)
    if draft.rule is None:
        seq = yt.value(doc, "preamble")
        if isinstance(seq, yaml.SequenceNode) and seq.value:
            last = seq.value[-1]
            return yt.insert_lines(text, yt.Insertion(
                yt.last_line(last), yt.block_item(_record(draft), last.start_mark.column - 2)))
        rules_key = yt.key_node(doc, "rules")
        if rules_key is None or seq is not None:
            raise ProposalError(f"{file} has no preamble list to add to")
        indent = rules_key.start_mark.column
        lines = (" " * indent + "preamble:", *yt.block_item(_record(draft), indent + 2))
        return yt.insert_lines(text, yt.Insertion(rules_key.start_mark.line - 1, lines))
    rule_id = draft.rule.partition(":")[2]
    item = yt.item_with_id(yt.value(doc, "rules"), rule_id)
    if item is None:
        raise ProposalError(f"{file} has no rule {rule_id!r}")
    props = yt.value(item, "proposals")
    if isinstance(props, yaml.SequenceNode) and props.value:
        last = props.value[-1]
        return yt.insert_lines(text, yt.Insertion(
            yt.last_line(last), yt.block_item(_record(draft), last.start_mark.column - 2)))
    if props is not None:
        raise ProposalError(f"rule {rule_id} in {file} has an empty proposals list in a form "
                            "that cannot be added to; write `proposals:` as a block list")
    indent = item.start_mark.column
    lines = (" " * indent + "proposals:", *yt.block_item(_record(draft), indent + 2))
    return yt.insert_lines(text, yt.Insertion(yt.last_line(item), lines))


def propose(root: Path, *, member: str, rule: str | None, kind: str, text: str,
            title: str | None = None, concerns: Sequence[str] = (),
            topics: Sequence[str] = (), signer: SigningKey | None = None) -> Draft:
    """Write a new proposal (see :func:`plan_proposal` for the fields), signed by
    ``signer``: the author ``member``, or the secretary acting for them."""
    root = Path(root)
    library = load_library(root)
    book = home_book(library)
    path = rulebook_file(root, book)
    with file_lock(path):
        library = load_library(root)
        draft = plan_proposal(library, member=member, rule=rule, kind=kind, text=text,
                              title=title, concerns=concerns, topics=topics)
        at = check_author(root, draft.ref, draft.member, signer)
        current = read_data_text(path)
        written = insert_proposal(current, draft, _rel(root, path))
        _land(root, path, sign_into(written, path.name, book, draft.rule, draft.id,
                                    _required(signer), at))
    return draft


def _required(signer: SigningKey | None) -> SigningKey:
    if signer is None:  # check_author refused already
        raise ProposalError("a proposal is signed by its author")
    return signer


def check_author(root: Path, ref: str, author: str, signer: SigningKey | None) -> str:
    """The time to sign at, when ``signer`` may sign ``author``'s proposal ``ref`` (the
    author, or the secretary acting for them, with a valid key); ProposalError if not."""
    from ..ballots.registry import load_registry, now_utc

    if signer is None:
        raise ProposalError(f"{ref} is member {author}'s: it is signed with their key "
                            f"(--member {author}; create one with `rulesbook member keygen "
                            f"--member {author}`)")
    at = now_utc()
    registry = load_registry(root)
    why = registry.key_problem(signer.member, signer.public, at)
    if why:
        raise ProposalError(f"{signer.member} cannot sign {ref}: {why}")
    if signer.member != author and registry.role_at(signer.member, at) not in ACTING:
        raise ProposalError(f"{ref} is member {author}'s: only {author} (or the secretary "
                            f"acting for {author}) may write it, not member {signer.member}")
    return at


def sign_into(text: str, file: str, book: str, rule: str | None, prop_id: str,
              signer: SigningKey, at: str) -> str:
    """``text`` (a rulebook file) with the proposal ``prop_id`` (filed under ``rule``)
    signed by ``signer`` at ``at``: its ``signed:`` line replaced or added."""
    from ..yamlio import loads

    node = _node(yt.compose(text, file), rule, prop_id, file)
    old = yt.key_node(node, SIGNED)
    if old is not None:
        lines = text.splitlines(keepends=True)
        end = yt.last_line(yt.value(node, SIGNED) or old)
        text = "".join(lines[:old.start_mark.line] + lines[end + 1:])
        node = _node(yt.compose(text, file), rule, prop_id, file)
    data = loads(text, file).data
    record = next(r for b, ru, r, _ in proposal_records(data) if ru == rule
                  and r.get("id") == prop_id)
    signed = sign_record(book, rule, record, signer, at)
    line = " " * node.start_mark.column + f"{SIGNED}: " + yt.flow_mapping(signed)
    return yt.insert_lines(text, yt.Insertion(yt.last_line(node), (line,)))


def _node(doc: yaml.MappingNode, rule: str | None, prop_id: str,
          file: str) -> yaml.MappingNode:
    if rule is None:
        node = yt.item_with_id(yt.value(doc, "preamble"), prop_id)
    else:
        item = yt.item_with_id(yt.value(doc, "rules"), rule.partition(":")[2])
        node = yt.item_with_id(yt.value(item, "proposals"), prop_id) if item else None
    if node is None or node.flow_style:
        raise ProposalError(f"{prop_id} is not written as a block record in {file}")
    return node


def open_ballot_with_votes(library: Library, ref: str) -> str | None:
    """The first open ballot with votes that includes ``ref``, named with its file."""
    for doc in library.extra.get("ballot", ()):
        data = doc.data
        if data.get("status") != "open" or not data.get("votes"):
            continue
        for q in data.get("questions", ()):
            if ref in q.get("options", ()) or ref in q.get("endorsements", ()):
                return f"{data.get('id')!r} ({doc.file})"
    return None


# -- edit and withdraw ---------------------------------------------------------------

def closed_ballot_with(library: Library, ref: str) -> str | None:
    """The first closed ballot of the data folder that includes ``ref`` (as an option
    or an endorsement), named with its file; None when there is none."""
    for doc in library.extra.get("ballot", ()):
        data = doc.data
        if data.get("status") != "closed":
            continue
        for q in data.get("questions", ()):
            if ref in q.get("options", ()) or ref in q.get("endorsements", ()):
                return f"{data.get('id')!r} ({doc.file})"
    return None


def _editable(library: Library, ref: str, doing: str) -> Proposal:
    entry = library.resolve(ref)
    if not isinstance(entry, Proposal):
        raise ProposalError(f"{entry.ref} is a rule, not a proposal: only proposals can be "
                            f"{doing}")
    ballot = closed_ballot_with(library, entry.ref)
    if ballot:
        raise ProposalError(f"{entry.ref} cannot be {doing}: the closed ballot {ballot} "
                            "includes it; propose a new text instead")
    if entry.withdrawn is not None:
        raise ProposalError(f"{entry.ref} was withdrawn on {entry.withdrawn.date}; it can no "
                            f"longer be {doing}")
    return entry


def _refuse_while_voted_on(library: Library, ref: str, doing: str, why: str) -> None:
    """Refuse a change to proposal ``ref`` once an open ballot with votes includes it."""
    voting = open_ballot_with_votes(library, ref)
    if voting:
        raise ProposalError(f"{ref} cannot be {doing}: the open ballot {voting} includes it "
                            f"and has votes, {why}")


def _proposal_node(doc: yaml.MappingNode, prop: Proposal, file: str) -> yaml.MappingNode:
    if prop.rule is None:
        node = yt.item_with_id(yt.value(doc, "preamble"), prop.id)
    else:
        rule = yt.item_with_id(yt.value(doc, "rules"), prop.rule.partition(":")[2])
        node = yt.item_with_id(yt.value(rule, "proposals"), prop.id) if rule else None
    if node is None or node.flow_style:
        raise ProposalError(f"{prop.ref} is not written as a block record in {file}")
    return node


def edit_proposal(root: Path, ref: str, text: str,
                  signer: SigningKey | None = None) -> Proposal:
    """Replace the text of a proposal, signed by ``signer`` (its author, or the secretary
    acting for them); refused once a closed ballot, or an open ballot with votes,
    includes it."""
    root = Path(root)
    library = load_library(root)
    prop = _editable(library, ref, "edited")
    new = clean_text(text)
    if new == prop.text:
        raise ProposalError(f"the new text of {prop.ref} is the same as the old one")
    path = rulebook_file(root, prop.rulebook)
    with file_lock(path):
        library = load_library(root)
        prop = _editable(library, ref, "edited")
        _refuse_while_voted_on(library, prop.ref, "edited", "cast on this text; propose a "
                               "new text instead")
        at = check_author(root, prop.ref, prop.member, signer)
        old = read_data_text(path)
        node = yt.value(_proposal_node(yt.compose(old, path.name), prop, path.name), "text")
        if node is None:
            raise ProposalError(f"{prop.ref} has no text in {path.name}")
        updated = yt.replace_scalar(old, node, new)
        if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">") \
                and node.end_mark.column == 0:
            updated = updated[:node.start_mark.index + len(yt.quoted(new))] + "\n" + \
                updated[node.start_mark.index + len(yt.quoted(new)):]
        _land(root, path, sign_into(updated, path.name, prop.rulebook, prop.rule, prop.id,
                                    _required(signer), at))
    edited = load_library(root).resolve(prop.ref)
    if not isinstance(edited, Proposal):  # the file was validated as written: cannot be
        raise ProposalError(f"{prop.ref} is no longer a proposal after the edit")
    return edited


def withdraw_proposal(root: Path, ref: str, reason: str | None = None,
                      today: _dt.date | None = None,
                      signer: SigningKey | None = None) -> Withdrawal:
    """Mark a proposal withdrawn (it stays in the record, with its reason and date),
    signed by ``signer`` (its author, or the secretary acting for them)."""
    root = Path(root)
    why = _one_line(reason, "the reason", MAX_REASON) if reason and reason.strip() else ""
    date = (today or _dt.date.today()).isoformat()
    library = load_library(root)
    prop = _editable(library, ref, "withdrawn")
    path = rulebook_file(root, prop.rulebook)
    with file_lock(path):
        library = load_library(root)
        prop = _editable(library, ref, "withdrawn")
        _refuse_while_voted_on(library, prop.ref, "withdrawn", "cast with it as an option: "
                               "the count decides it now")
        at = check_author(root, prop.ref, prop.member, signer)
        old = read_data_text(path)
        node = _proposal_node(yt.compose(old, path.name), prop, path.name)
        pairs = {"date": date, **({"reason": why} if why else {})}
        line = " " * node.start_mark.column + "withdrawn: " + yt.flow_mapping(pairs)
        written = yt.insert_lines(old, yt.Insertion(yt.last_line(node), (line,)))
        _land(root, path, sign_into(written, path.name, prop.rulebook, prop.rule, prop.id,
                                    _required(signer), at))
    return Withdrawal(prop.ref, date, why)


# -- landing a change ------------------------------------------------------------------

def _rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _land(root: Path, path: Path, new_text: str) -> None:
    """Validate the folder with ``path`` holding ``new_text`` (on a copy), then write it."""
    with tempfile.TemporaryDirectory(prefix="rulesbook-check-") as tmp:
        copy = Path(tmp) / "data"
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".git", ".*.lock", "*~"),
                        symlinks=False)
        (copy / path.relative_to(root)).write_text(new_text, encoding="utf-8")
        try:
            load_library(copy)
        except LibraryError as exc:
            problems = "; ".join(str(p) for p in exc.problems[:5])
            raise ProposalError(f"the change was not written: it would leave the data "
                                f"invalid: {problems}") from None
    atomic_write_text(path, new_text)
