"""Loading and validating a data folder into a :class:`Library`.

Validation happens in one place, in three stages: safe YAML reading, JSON
Schema, cross-references. Every problem of every file is collected and
reported together; nothing here raises anything but :class:`LibraryError`.

The cross-references this module checks are those of the files it reads into
the library (rulebooks, members, topics, editions, synonyms). The kinds of file
owned by the higher layers (incidents and case files, ballots) are checked by
the :class:`LibraryCheck` functions given to :meth:`Library.load`; this module
never imports them. :mod:`rulesbook.loading` is the one place that names them
all: open a folder for a user with its :func:`~rulesbook.loading.load_library`.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from .documents import DocumentError, DocumentStage, load_document
from .errors import LibraryError, Problem, UnknownReferenceError
from .gcpause import cycles_paused
from .model import (
    Adoption,
    Edition,
    Entry,
    Member,
    Note,
    Proposal,
    Rule,
    Rulebook,
    Topic,
    Withdrawn,
    make_ref,
)
from .refnames import Vocabulary, reference_from_names
from .refnames import check_library as check_synonyms
from .yamlio import LoadedYaml

_T = TypeVar("_T")


@dataclass(frozen=True)
class Library:
    """Everything in a data folder: rulebooks, members, topics and editions."""

    root: Path
    rulebooks: tuple[Rulebook, ...]
    members: tuple[Member, ...]
    topics: tuple[Topic, ...]
    editions: tuple[Edition, ...]
    in_force: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)  # other kinds
    #: every document read, by kind (the rulebooks and members.yaml too), for the checks
    #: run on the loaded folder after :meth:`load` (:func:`rulesbook.loading.record_problems`)
    documents: Mapping[str, Sequence[LoadedYaml]] = field(
        default_factory=dict, repr=False, compare=False, hash=False)
    #: every rule and proposal by reference (built from the rulebooks)
    index: dict[str, Entry] = field(init=False, repr=False, compare=False, hash=False)
    #: what :meth:`derived` built from this library, by builder (owned by the library:
    #: a reload, or a changed copy made with ``dataclasses.replace``, starts empty)
    _derived: dict[Callable[[Library], object], object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False)

    # -- lookups -----------------------------------------------------------
    def __post_init__(self) -> None:
        index: dict[str, Entry] = {}
        for book in self.rulebooks:
            for rule in book.rules:
                index[rule.ref] = rule
                for prop in rule.proposals:
                    index[prop.ref] = prop
            for prop in book.preamble:
                index[prop.ref] = prop
        object.__setattr__(self, "index", index)  # frozen: the one way to set a derived field

    @classmethod
    def load(cls, folder: Path, checks: Sequence[LibraryCheck]) -> Library:
        """Load and validate the data folder ``folder`` (which must exist): read and
        schema-check every file, check the references between them, then run
        ``checks``, the checks of the kinds of file owned by other layers.

        ``checks`` has no default on purpose: a caller that opens a folder for a user
        passes every check (:func:`rulesbook.loading.load_library` does); ``()`` says
        in the call that the rulings and ballots are not checked.

        Raises :class:`LibraryError` listing every problem when the folder is not clean.
        """
        loader = _Loader(folder)
        with cycles_paused():  # a million acyclic objects built (:mod:`.gcpause`)
            loader.read_all()
            library = loader.build(checks)
        if loader.unreadable:
            # a file that does not parse (a hand edit that broke the YAML) is the cause;
            # what follows from its absence (dozens of unknown members) is not shown
            raise LibraryError([p for p in loader.problems if p.file in loader.unreadable])
        if loader.problems:
            raise LibraryError(loader.problems, loader.docs)
        return library

    def derived(self, build: Callable[[Library], _T]) -> _T:
        """``build(self)``, built once on first use and kept with this library (the
        rulings catalogue, the search index): it goes when the library goes, and a
        reloaded library builds its own. Safe from several threads (at worst two build
        at once and the first stored is kept)."""
        try:
            return cast(_T, self._derived[build])
        except KeyError:
            return cast(_T, self._derived.setdefault(build, build(self)))

    def rulebook(self, book_id: str) -> Rulebook:
        for book in self.rulebooks:
            if book.id == book_id:
                return book
        raise UnknownReferenceError(
            f"no rulebook {book_id!r}{_did_you_mean(book_id, [b.id for b in self.rulebooks])}")

    def member(self, member_id: str) -> Member:
        for member in self.members:
            if member.id == member_id:
                return member
        raise UnknownReferenceError(f"no member {member_id!r}")

    def topic(self, topic_id: str) -> Topic:
        for topic in self.topics:
            if topic.id == topic_id:
                return topic
        raise UnknownReferenceError(
            f"no topic {topic_id!r}{_did_you_mean(topic_id, [t.id for t in self.topics])}")

    def edition(self, edition_id: str | None = None) -> Edition:
        """The edition ``edition_id``, or the one in force."""
        wanted = edition_id or self.in_force or (self.editions[-1].id if self.editions else None)
        for edition in self.editions:
            if edition.id == wanted:
                return edition
        raise UnknownReferenceError(
            f"no edition {wanted!r}{_did_you_mean(str(wanted), [e.id for e in self.editions])}")

    def resolve(self, text: str) -> Entry:
        """The rule or proposal a person means: ``apca:28``, ``28``, ``rule 28``, ``10B``,
        ``Rule 10B``, ``standard-laws:10``. Bare ids are looked up in the APCA book first."""
        ref = self.normalise_ref(text) or self.reference_from_names(text)
        if ref is None:
            raise UnknownReferenceError(
                f"{text!r} is not a rule reference{_did_you_mean(text.strip(), list(self.index))}")
        return self.index[ref]

    def reference_from_names(self, text: str) -> str | None:
        """The reference meant by a rulebook's name and a number (``SL 7``, ``ACF 3``), read
        with the names of ``synonyms.yaml`` by the same reader as search; or None."""
        return reference_from_names(self, Vocabulary.from_library(self), text)

    def normalise_ref(self, text: str) -> str | None:
        """The canonical reference for ``text``, or None."""
        cleaned = text.strip()
        if cleaned in self.index:
            return cleaned
        lowered = {ref.lower(): ref for ref in self.index}
        if cleaned.lower() in lowered:
            return lowered[cleaned.lower()]
        match = re.fullmatch(r"(?:(?P<book>[a-z0-9-]+):)?\s*(?:(?:rule|law|section|sec\.?|§)\s*[-.]?\s*)?"
                             r"(?P<id>[A-Za-z0-9?]+)\.?", cleaned, flags=re.IGNORECASE)
        if not match:
            return None
        if match["book"]:
            books = [match["book"].lower()]
        else:  # a bare id means the rulebook the editions are about (the APCA rules) first
            home = self.editions[0].rulebook if self.editions else None
            books = sorted((b.id for b in self.rulebooks), key=lambda b: b != home)
        for book in books:
            candidate = lowered.get(f"{book}:{match['id']}".lower())
            if candidate:
                return candidate
        return None

    def entries(self) -> list[Entry]:
        return list(self.index.values())

    def entries_for_topic(self, topic_id: str) -> list[Entry]:
        self.topic(topic_id)
        return [e for e in self.index.values() if topic_id in e.topics]

    def proposals_by_member(self, member_id: str) -> list[Proposal]:
        return [p for b in self.rulebooks for p in b.proposals if p.member == member_id]


def _did_you_mean(word: str, options: list[str]) -> str:
    guess = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return f" (did you mean {guess[0]!r}?)" if guess else ""


# -- loading ---------------------------------------------------------------

#: The schema-valid documents of a data folder, by kind (``"ballot"``, ``"case"``…).
DocumentsByKind = Mapping[str, Sequence[LoadedYaml]]


class LibraryCheck(Protocol):
    """A check across the files of a data folder, of kinds the library does not read
    itself (incidents, case files, ballots). It runs once every file has passed its
    schema and the library is built, and returns every problem it finds, each at
    file:line:col (none: the files are consistent). A check reports; it never raises.

    :func:`rulesbook.rulings.checks.check_library` and
    :func:`rulesbook.ballots.checks.check_library` are the two there are;
    :mod:`rulesbook.loading` passes them to :meth:`Library.load`."""

    def __call__(self, library: Library, docs: DocumentsByKind, /) -> Sequence[Problem]: ...


KNOWN_FILES = {"members.yaml": "members", "topics.yaml": "topics", "editions.yaml": "editions"}


def _discover(root: Path) -> list[tuple[Path, str | None]]:
    """(path, expected kind) for every YAML file of the folder, in a stable order."""
    found = []
    for path in sorted(root.rglob("*.yaml")) + sorted(root.rglob("*.yml")):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue
        kind = KNOWN_FILES.get(rel.as_posix())
        if rel.name == "rulebook.yaml":
            kind = "rulebook"
        found.append((path, kind))
    return found


def _not_a_folder(root: Path) -> str | None:
    """Why ``root`` cannot be read as a data folder (None: it is a folder)."""
    import errno
    import os
    import stat

    try:
        mode = os.stat(root).st_mode
    except FileNotFoundError:
        return "the data folder does not exist"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "its symbolic links go round in a loop, so it leads to no data folder"
        if exc.errno == errno.ENAMETOOLONG:
            return "the name is too long for the system (a file or folder name has at most " \
                   "255 bytes)"
        return f"the data folder cannot be read: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return None
    kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
            "a socket" if stat.S_ISSOCK(mode) else "a file")
    return f"it is {kind}, not a data folder"


def _display(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


#: Kinds other files refer to: when one fails its schema, cross-references are not checked.
_REFERENCED_KINDS = frozenset({"rulebook", "members", "topics", "editions", "incidents"})


@dataclass
class _Loader:
    root: Path
    problems: list[Problem] = field(default_factory=list)
    failed_kinds: set[str] = field(default_factory=set)  # kinds with a file failing its schema
    docs: dict[str, list[LoadedYaml]] = field(default_factory=dict)
    #: data files that could not be read or parsed (not UTF-8, bad YAML, too big):
    #: their problems are the real cause; their kind is unknown, so the cross-file
    #: checks, which may need them, are skipped rather than reported as ~190
    #: misleading "unknown incident" errors
    unreadable: list[str] = field(default_factory=list)

    def read_all(self) -> None:
        why = _not_a_folder(self.root)
        if why:
            self.problems.append(Problem(str(self.root), 0, 0, why))
            return
        for path, expected in _discover(self.root):
            name = _display(self.root, path)
            try:
                doc = load_document(path, expected, display=name)
            except DocumentError as exc:
                self.problems.extend(exc.problems)
                if exc.stage is DocumentStage.UNREADABLE:
                    if exc.problem.file not in self.unreadable:
                        self.unreadable.append(exc.problem.file)
                elif exc.stage is DocumentStage.SCHEMA and exc.kind is not None:
                    self.failed_kinds.add(exc.kind)
                continue
            kind = doc.data["kind"]
            self.docs.setdefault(kind, []).append(doc)
        for kind in ("members", "topics", "editions"):
            if kind not in self.docs and not any(
                    p.file == f"{kind}.yaml" for p in self.problems):
                self.problems.append(Problem(f"{kind}.yaml", 0, 0, "the file is missing"))
        if "rulebook" not in self.docs and not any(p.file.endswith("rulebook.yaml")
                                                   for p in self.problems):
            self.problems.append(Problem(str(self.root), 0, 0, "no rulebook.yaml found"))

    # -- building ------------------------------------------------------------
    def build(self, checks: Sequence[LibraryCheck]) -> Library:
        members = [Member(m["id"], m["name"], m.get("full_name"), tuple(m.get("aliases", ())))
                   for d in self.docs.get("members", []) for m in d.data["members"]]
        topics = [Topic(t["id"], t["title"], t.get("description", ""), tuple(t.get("keywords", ())),
                        t.get("baseline"))
                  for d in self.docs.get("topics", []) for t in d.data["topics"]]
        # When members.yaml or topics.yaml failed, that is reported once; the
        # references to them are then not checked (one problem, not hundreds).
        member_ids = [m.id for m in members]
        topic_ids = [t.id for t in topics]
        self._unique(self.docs.get("members", []), "members", "member")
        self._unique(self.docs.get("topics", []), "topics", "topic")
        books = []
        seen_books: dict[str, str] = {}
        for doc in self.docs.get("rulebook", []):
            book_id = doc.data["id"]
            if book_id in seen_books:
                self.problems.append(doc.problem(("id",), f"rulebook id {book_id!r} is already "
                                                 f"used by {seen_books[book_id]}"))
                continue
            seen_books[book_id] = doc.file
            books.append(self._rulebook(doc, member_ids, topic_ids))
        editions_docs = self.docs.get("editions", [])
        editions = []
        in_force = None
        for doc in editions_docs:
            in_force = doc.data.get("in_force", in_force)
            for e in doc.data["editions"]:
                editions.append(Edition(
                    id=e["id"], title=e["title"], date=str(e["date"]), rulebook=e["rulebook"],
                    base=e.get("base"), description=e.get("description", ""),
                    adopted=tuple(Adoption(a["proposal"], a.get("rule"), a.get("ballot"),
                                           a.get("question"), a.get("note"),
                                           a.get("digest"))
                                  for a in e.get("adopted", ())),
                    repealed=tuple(r["rule"] for r in e.get("repealed", ())),
                    ballot=e.get("ballot"), seal=e.get("seal"),
                    texts=tuple((str(k), str(v)) for k, v in e.get("texts", {}).items())))
        library = Library(self.root, tuple(books), tuple(members), tuple(topics),
                          tuple(editions), in_force,
                          extra={k: v for k, v in self.docs.items()
                                 if k not in ("members", "topics", "editions", "rulebook")},
                          documents=self.docs)
        if self.unreadable:  # the checks would report what the unread file holds
            self.problems.append(Problem(
                str(self.root), 0, 0,
                f"the checks across files were skipped until {', '.join(self.unreadable)} "
                "can be read"))
            return library
        if self.failed_kinds.intersection(_REFERENCED_KINDS):
            # A file others refer to failed its schema and was left out: every reference
            # to it would be reported missing (hundreds of follow-on errors burying the
            # real one), so the cross-reference checks wait until its schema errors are fixed.
            return library
        self._check_cross_refs(library)
        self.problems.extend(check_synonyms(library, self.docs))
        for check in checks:
            self.problems.extend(check(library, self.docs))
        return library

    def _unique(self, docs: list[LoadedYaml], key: str, what: str) -> None:
        for doc in docs:
            seen: set[str] = set()
            for i, item in enumerate(doc.data[key]):
                if item["id"] in seen:
                    self.problems.append(doc.problem((key, i, "id"),
                                                     f"{what} id {item['id']!r} is used twice"))
                seen.add(item["id"])

    def _notes(self, raw: Any) -> tuple[Note, ...]:
        return tuple(Note(n["kind"], n["text"]) for n in raw or ())

    def _proposal(self, doc: LoadedYaml, path: tuple[Any, ...], raw: Any, book_id: str,
                  rule_ref: str | None, member_ids: list[str],
                  topic_ids: list[str]) -> Proposal:
        if member_ids and raw["member"] not in member_ids:
            self.problems.append(doc.problem(path + ("member",), f"unknown member "
                                 f"{raw['member']!r}{_did_you_mean(raw['member'], member_ids)}"))
        self._check_topics(doc, path, raw["topics"], topic_ids)
        return Proposal(
            ref=make_ref(book_id, raw["id"]), id=raw["id"], rulebook=book_id,
            member=raw["member"], kind=raw["kind"], text=raw["text"],
            topics=tuple(raw["topics"]), rule=rule_ref, title=raw.get("title"),
            concerns=tuple(raw.get("concerns", ())), notes=self._notes(raw.get("notes")),
            rulings=tuple(raw.get("rulings", ())),
            withdrawn=(Withdrawn(str(raw["withdrawn"]["date"]),
                                 raw["withdrawn"].get("reason", ""))
                       if raw.get("withdrawn") else None))

    def _check_topics(self, doc: LoadedYaml, path: tuple[Any, ...], topics: Any,
                      topic_ids: list[str]) -> None:
        for j, topic in enumerate(topics):
            if topic_ids and topic not in topic_ids:
                self.problems.append(doc.problem(path + ("topics", j), f"unknown topic "
                                     f"{topic!r}{_did_you_mean(topic, topic_ids)}"))

    def _rulebook(self, doc: LoadedYaml, member_ids: list[str],
                  topic_ids: list[str]) -> Rulebook:
        data = doc.data
        book_id = data["id"]
        seen: dict[str, tuple[Any, ...]] = {}

        def claim(item_id: str, path: tuple[Any, ...]) -> None:
            if item_id in seen:
                line, _ = doc.where(seen[item_id])
                self.problems.append(doc.problem(path + ("id",), f"id {item_id!r} is already "
                                                 f"used at line {line}"))
            seen[item_id] = path + ("id",)

        preamble = []
        for i, raw in enumerate(data.get("preamble", ())):
            claim(raw["id"], ("preamble", i))
            preamble.append(self._proposal(doc, ("preamble", i), raw, book_id, None,
                                           member_ids, topic_ids))
        rules = []
        for i, raw in enumerate(data["rules"]):
            path = ("rules", i)
            claim(raw["id"], path)
            self._check_topics(doc, path, raw["topics"], topic_ids)
            ref = make_ref(book_id, raw["id"])
            proposals = []
            for j, praw in enumerate(raw.get("proposals", ())):
                claim(praw["id"], path + ("proposals", j))
                proposals.append(self._proposal(doc, path + ("proposals", j), praw, book_id, ref,
                                                member_ids, topic_ids))
            rules.append(Rule(
                ref=ref, id=raw["id"], rulebook=book_id, number=raw.get("number"),
                title=raw["title"], text=raw["text"], topics=tuple(raw["topics"]),
                notes=self._notes(raw.get("notes")), see_also=tuple(raw.get("see_also", ())),
                proposals=tuple(proposals), rulings=tuple(raw.get("rulings", ()))))
        return Rulebook(id=book_id, title=data["title"], rules=tuple(rules),
                        short_title=data.get("short_title", data["title"]),
                        source=data.get("source", ""), description=data.get("description", ""),
                        preamble=tuple(preamble), called=data.get("called", ""),
                        variants=tuple(data.get("variants", ())),
                        variants_quote=data.get("variants_quote", ""),
                        variants_note=data.get("variants_note", ""))

    def _check_cross_refs(self, library: Library) -> None:
        refs = list(library.index)
        by_file = {d.data["id"]: d for d in self.docs.get("rulebook", [])}
        for book in library.rulebooks:
            doc = by_file.get(book.id)
            if doc is None:
                continue
            for i, rule in enumerate(book.rules):
                for j, target in enumerate(rule.see_also):
                    if target not in library.index:
                        self.problems.append(doc.problem(("rules", i, "see_also", j),
                                             f"see_also names {target!r}, which does not exist"
                                             f"{_did_you_mean(target, refs)}"))
                for j, prop in enumerate(rule.proposals):
                    for k, target in enumerate(prop.concerns):
                        if target not in library.index:
                            self.problems.append(doc.problem(
                                ("rules", i, "proposals", j, "concerns", k),
                                f"concerns names {target!r}, which does not exist"
                                f"{_did_you_mean(target, refs)}"))
        for doc in self.docs.get("topics", []):
            for i, t in enumerate(doc.data["topics"]):
                base = t.get("baseline")
                if base is None:
                    continue
                entry = library.index.get(base)
                if not isinstance(entry, Rule):
                    self.problems.append(doc.problem(("topics", i, "baseline"), f"baseline "
                                         f"{base!r} is not a rule{_did_you_mean(base, refs)}"))
                elif t["id"] not in entry.topics:
                    self.problems.append(doc.problem(("topics", i, "baseline"), f"baseline "
                                         f"{base} does not have the topic {t['id']!r}"))
        edition_ids: set[str] = set()
        for doc in self.docs.get("editions", []):
            if doc.data.get("in_force") and doc.data["in_force"] not in [
                    e["id"] for e in doc.data["editions"]]:
                self.problems.append(doc.problem(("in_force",), f"in_force names edition "
                                                 f"{doc.data['in_force']!r}, which does not exist"))
            for i, e in enumerate(doc.data["editions"]):
                path = ("editions", i)
                if e["id"] in edition_ids:
                    self.problems.append(doc.problem(path + ("id",),
                                                     f"edition id {e['id']!r} is used twice"))
                if e["rulebook"] not in [b.id for b in library.rulebooks]:
                    self.problems.append(doc.problem(path + ("rulebook",), f"unknown rulebook "
                                         f"{e['rulebook']!r}"))
                if e.get("base") and e["base"] not in edition_ids:
                    self.problems.append(doc.problem(path + ("base",), f"base edition "
                                         f"{e['base']!r} must be listed before this one"))
                edition_ids.add(e["id"])
                for j, adoption in enumerate(e.get("adopted", ())):
                    adopted = library.index.get(adoption["proposal"])
                    if not isinstance(adopted, Proposal):
                        self.problems.append(doc.problem(
                            path + ("adopted", j, "proposal"),
                            f"adopted names {adoption['proposal']!r}, which is not a proposal"
                            f"{_did_you_mean(adoption['proposal'], refs)}"))
                    elif not adopted.offers_text and not (adopted.kind == "deletion"
                                                         and adoption.get("rule")):
                        self.problems.append(doc.problem(
                            path + ("adopted", j, "proposal"),
                            f"{adopted.ref} is a {adopted.kind}, which has no rule text to adopt"))
                    rule = adoption.get("rule")
                    if rule and not isinstance(library.index.get(rule), Rule):
                        self.problems.append(doc.problem(
                            path + ("adopted", j, "rule"),
                            f"adopted for rule {rule!r}, which does not exist"
                            f"{_did_you_mean(rule, refs)}"))
                for j, rep in enumerate(e.get("repealed", ())):
                    if not isinstance(library.index.get(rep["rule"]), Rule):
                        self.problems.append(doc.problem(path + ("repealed", j, "rule"),
                                             f"repealed rule {rep['rule']!r} does not exist"))

