"""The names people use for rulebooks and the everyday words of ``synonyms.yaml``:
the :class:`Vocabulary`, reading a reference written with a rulebook's name
(``SL 7``, ``ACF 3``), and the cross-check of ``synonyms.yaml``. Read by the
library (to resolve references) and by search (to widen queries)."""
from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import Problem

if TYPE_CHECKING:
    from .library import Library
    from .yamlio import LoadedYaml

__all__ = ["WORD", "Vocabulary", "check_library", "fts_term", "reference_from_names"]

#: a word of a query or a name: letters and digits
WORD = re.compile(r"[0-9A-Za-z]+")


@dataclass(frozen=True)
class Vocabulary:
    """The search vocabulary of ``synonyms.yaml``: rulebook names for references, and the
    everyday words (or phrases) that stand for words of the rule texts."""

    #: name (lower case) -> rulebook id
    books: dict[str, str] = field(default_factory=dict)
    #: tuple of words -> tuple of FTS terms
    words: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def from_library(cls, library: Library) -> Vocabulary:
        books: dict[str, str] = {}
        words: dict[tuple[str, ...], tuple[str, ...]] = {}
        for doc in library.extra.get("synonyms", ()):
            for book, names in doc.data.get("books", {}).items():
                for name in (book, *names):
                    books.setdefault(" ".join(WORD.findall(name.lower())), book)
            for key, values in doc.data.get("words", {}).items():
                tokens = tuple(WORD.findall(key.lower()))
                if tokens:
                    terms = [fts_term(v) for v in values]
                    words[tokens] = tuple(dict.fromkeys(t for t in terms if t))
        return cls(books, words)

    @property
    def longest(self) -> int:
        return max((len(k) for k in self.words), default=1)


def fts_term(text: str) -> str:
    """An FTS5 term for a word or phrase of the vocabulary (quoted: never query syntax)."""
    tokens = WORD.findall(text.lower())
    return '"' + " ".join(tokens) + '"' if tokens else ""


_REF_TAIL = re.compile(r"^(?P<name>.*?)[\s.:#-]*(?P<id>[0-9]+[A-Za-z]?)\.?$")
_NUMBER_WORDS = ("rule", "law", "section", "sec", "item", "no")
_LONGEST_REFERENCE = 60


def reference_from_names(library: Library, vocab: Vocabulary, query: str) -> str | None:
    """The reference meant by a rulebook's name and a number: ``SL 7``, ``Standard Laws 7``,
    ``ACF 3``, ``Spanish rule 6`` (None when ``query`` is not one)."""
    query = query.strip()
    if len(query) > _LONGEST_REFERENCE:  # a sentence, not a reference (and no slow regex)
        return None
    match = _REF_TAIL.match(query)
    if not match:
        return None
    words = WORD.findall(match["name"].lower())
    book = vocab.books.get(" ".join(words))
    if book is None and words and words[-1] in _NUMBER_WORDS:
        book = vocab.books.get(" ".join(words[:-1]))
    if book is None:
        return None
    return library.normalise_ref(f"{book}:{match['id']}")


def check_library(library: Library,
                  docs: Mapping[str, Sequence[LoadedYaml]]) -> list[Problem]:
    """Cross-checks of ``synonyms.yaml``: the books it names exist, and a name stands for
    one rulebook only."""
    problems: list[Problem] = []
    book_ids = [b.id for b in library.rulebooks]
    seen: dict[str, str] = {}
    for doc in docs.get("synonyms", ()):
        for book, names in doc.data.get("books", {}).items():
            if book_ids and book not in book_ids:
                guess = difflib.get_close_matches(book, book_ids, n=1, cutoff=0.6)
                hint = f" (did you mean {guess[0]!r}?)" if guess else ""
                problems.append(doc.problem(("books", book), f"unknown rulebook {book!r}{hint}; "
                                            f"the rulebooks are: {', '.join(book_ids)}"))
            for k, name in enumerate(names):
                key = " ".join(WORD.findall(name.lower()))
                if key in seen and seen[key] != book:
                    problems.append(doc.problem(("books", book, k),
                                                f"{name!r} already names {seen[key]}"))
                seen.setdefault(key, book)
    return problems
