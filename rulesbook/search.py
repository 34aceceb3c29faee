"""Full-text search over every rulebook: SQLite FTS5 (porter stemming, BM25
ranking, highlighted snippets), exact rule references, and a typo-tolerant
fallback. The index is built in memory when the library is loaded."""
from __future__ import annotations

import difflib
import html
import sqlite3
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .model import Proposal
from .refnames import WORD, Vocabulary, fts_term, reference_from_names

if TYPE_CHECKING:
    from .library import Library

_HL_OPEN, _HL_CLOSE = "\x02", "\x03"
_STOPWORDS = frozenset(
    "a an and are as at be but by did didn didnt do does doesn don for from had has have he her how "
    "him his i if in into is it its me my no not of on or our she should so t than that the "
    "their them then there they this to was we were what when where which who why will with "
    "would you your can cant won wont isn".split())
# Ranking multipliers: the rules in force first, then other rulebooks, then proposals.
_KIND_WEIGHT = {"rule": 1.5, "section": 1.1, "proposal": 1.0}
# Column weights for bm25: ref, rulebook, title, text, topics, member.
_WEIGHTS = (4.0, 0.5, 6.0, 1.0, 3.0, 1.0)


@dataclass(frozen=True)
class SearchHit:
    ref: str
    rulebook: str
    title: str
    snippet: str  # with [matched words] in brackets
    snippet_html: str  # escaped, with <b>matched words</b>
    score: float
    kind: str  # rule | proposal | section
    match: str  # reference | fulltext | fuzzy

    def to_dict(self) -> dict[str, object]:
        return {"ref": self.ref, "rulebook": self.rulebook, "title": self.title,
                "snippet": self.snippet, "score": round(self.score, 4), "kind": self.kind,
                "match": self.match}


class SearchIndex:
    """An FTS5 index of a library. Thread-safe for queries (one lock)."""

    def __init__(self, library: Library):
        self.library = library
        self.vocabulary = Vocabulary.from_library(library)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE entries USING fts5(ref, rulebook, title, text, topics, member, "
            "kind UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2')")
        rows = []
        topics = {t.id: t for t in library.topics}
        for entry in library.entries():
            if isinstance(entry, Proposal) and entry.is_endorsement:
                continue  # "OK" carries no text of its own; the rule page shows it
            topic_text = " ".join(
                f"{topics[t].title} {' '.join(topics[t].keywords)}" for t in entry.topics
                if t in topics)
            if isinstance(entry, Proposal):
                member = library.member(entry.member)
                member_text = " ".join((member.name, member.id, *member.aliases))
                title = entry.title or ((library.index[entry.rule].title or entry.id)
                                        if entry.rule else entry.id)
                kind = "proposal"
            else:
                member_text = ""
                title = entry.title
                kind = "rule" if entry.rulebook == "apca" else "section"
            rows.append((entry.ref, entry.rulebook, title, entry.text, topic_text,
                         member_text, kind))
        self._db.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        self._db.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(entries, 'row')")
        self._vocab = [row[0] for row in self._db.execute("SELECT term FROM vocab")]
        self._titles = {ref: title for ref, _, title, *_ in rows}
        self._kinds = {ref: kind for ref, *_, kind in rows}

    # -- queries ---------------------------------------------------------
    def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        """Best first: an exact reference, then full-text hits, then fuzzy ones."""
        query = query.strip()
        if not query or limit <= 0:
            return []
        hits: list[SearchHit] = []
        ref = (self.library.normalise_ref(query)
               or reference_from_names(self.library, self.vocabulary, query))
        if ref is not None:
            entry = self.library.index[ref]
            text = entry.text
            snippet = text if len(text) <= 160 else text[:157] + "…"
            hits.append(SearchHit(ref, entry.rulebook, self._title(ref), snippet,
                                  html.escape(snippet), 1000.0,
                                  self._kinds.get(ref, "proposal"), "reference"))
        groups = self._groups(query)
        if groups:
            found = self._fts(groups, limit + len(hits), "fulltext")
            if not found:
                words = [self._correct(g[0].strip('"')) for g in groups]
                corrected = [[f'"{w}"'] for w in words if w]
                if corrected:
                    found = self._fts(corrected, limit + len(hits), "fuzzy")
            hits.extend(h for h in found if h.ref not in {x.ref for x in hits})
        return hits[:limit]

    def _title(self, ref: str) -> str:
        if ref in self._titles:
            return self._titles[ref]
        entry = self.library.index[ref]
        if isinstance(entry, Proposal):
            return (self.library.index[entry.rule].title or entry.id) if entry.rule else entry.id
        return entry.title or entry.id

    def _groups(self, query: str) -> list[list[str]]:
        """The query as groups of FTS terms, one group per word or known phrase: the word
        itself and what the vocabulary says it stands for. Stopwords are left out unless
        the query has nothing else."""
        words = [w.lower() for w in WORD.findall(query)]
        vocab = self.vocabulary.words
        groups: list[list[str]] = []
        i = 0
        while i < len(words):
            for n in range(min(self.vocabulary.longest, len(words) - i), 0, -1):
                key = tuple(words[i:i + n])
                if key in vocab and (n > 1 or key[0] not in _STOPWORDS):
                    groups.append(list(dict.fromkeys([fts_term(" ".join(key)), *vocab[key]])))
                    i += n
                    break
            else:
                word = words[i]
                if word not in _STOPWORDS and (len(word) > 1 or word.isdigit()):
                    groups.append([fts_term(word)])
                i += 1
        if not groups:
            groups = [[fts_term(w)] for w in words if len(w) > 1]
        return groups

    def _fts(self, groups: list[list[str]], limit: int, how: str) -> list[SearchHit]:
        expanded = ["(" + " OR ".join(group) + ")" for group in groups]
        # Every term must match if possible; otherwise any term may.
        queries = [" AND ".join(expanded)]
        if len(expanded) > 1:
            queries.append(" OR ".join(expanded))
        results: list[SearchHit] = []
        seen: set[str] = set()
        weights = ", ".join(str(w) for w in _WEIGHTS)
        with self._lock:
            for match in queries:
                rows = self._db.execute(
                    f"SELECT ref, rulebook, title, kind, bm25(entries, {weights}) AS rank, "
                    f"snippet(entries, 3, ?, ?, '…', 16) FROM entries WHERE entries MATCH ? "
                    f"ORDER BY rank LIMIT ?",
                    (_HL_OPEN, _HL_CLOSE, match, limit * 4 + 20)).fetchall()
                for ref, book, title, kind, rank, snip in rows:
                    if ref in seen:
                        continue
                    seen.add(ref)
                    bonus = 0.0 if match is queries[0] else -100.0
                    # The rules a referee applies come before the proposals to change them.
                    rank *= _KIND_WEIGHT.get(kind, 1.0)
                    results.append(SearchHit(
                        ref, book, title, snip.replace(_HL_OPEN, "[").replace(_HL_CLOSE, "]"),
                        html.escape(snip).replace(_HL_OPEN, "<b>").replace(_HL_CLOSE, "</b>"),
                        -rank + bonus if how == "fulltext" else -rank - 200.0, kind, how))
                if len(results) >= limit:
                    break
        results.sort(key=lambda h: -h.score)
        return results[:limit]

    def _correct(self, word: str) -> str | None:
        guess = difflib.get_close_matches(word, self._vocab, n=1, cutoff=0.75)
        return guess[0] if guess else None


def index_for(library: Library) -> SearchIndex:
    """The search index of a library, built once on first use and kept with the
    library (so it goes when the library goes: a reload does not pile up indexes)."""
    return library.derived(SearchIndex)


def search(library: Library, query: str, limit: int = 10) -> list[SearchHit]:
    return index_for(library).search(query, limit)
