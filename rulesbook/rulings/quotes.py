"""Quotes: the words of a rule text that establish a ruling. A quote is found in
its text with whitespace and case normalised (the originals are in capitals, the
proposals in ordinary case, and line breaks of the source are not meaningful);
:func:`quote_spans` gives where the words stand in the text, for highlighting.

>>> quote_spans("THE DECISION OF THE  TOURNAMENT COMMITTEE IS FINAL", ["committee is final"])
(QuoteSpan(start=32, end=50, quote='committee is final'),)
"""
from __future__ import annotations

import re
from array import array
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

_SPACE = re.compile(r"\s+")
#: the ASCII characters ``str.isspace`` counts as whitespace (``\s`` under re.ASCII
#: leaves out the separators 0x1C-0x1F)
_ASCII_SPACE = "".join(ch for ch in map(chr, range(128)) if ch.isspace())


class QuoteSpan(NamedTuple):
    """Where one quote stands in a text: ``text[start:end]`` are its words."""

    start: int
    end: int
    quote: str


def normalise(text: str) -> str:
    """``text`` lower-cased, with every run of whitespace one space, stripped."""
    return _SPACE.sub(" ", text).strip().casefold()


@lru_cache(maxsize=1024)
def _folded(text: str) -> tuple[str, array[int]]:
    """The normalised text and, for each of its characters, its index in ``text``
    (kept for the last texts searched: the rules' texts, each searched for each of
    its quotes, in each commit a sync or a push checks)."""
    out: list[str] = []
    where = array("l")
    pending_space = False
    for i, ch in enumerate(text):
        if ch.isspace():
            pending_space = bool(out)
            continue
        if pending_space:
            out.append(" ")
            where.append(i - 1)
            pending_space = False
        folded = ch.casefold()
        out.append(folded)
        if len(folded) == 1:
            where.append(i)
        else:
            where.extend([i] * len(folded))
    return "".join(out), where


@lru_cache(maxsize=4096)
def _ascii_pattern(wanted: str) -> re.Pattern[str]:
    """``wanted`` (normalised, ASCII) as a pattern matching it in an ASCII text: its
    words with any run of whitespace between them, letters in either case."""
    gap = "[" + re.escape(_ASCII_SPACE) + "]+"
    return re.compile(gap.join(map(re.escape, wanted.split(" "))), re.IGNORECASE | re.ASCII)


def find_quote(text: str, quote: str) -> QuoteSpan | None:
    """The first place ``quote`` stands in ``text`` (whitespace and case normalised)."""
    wanted = normalise(quote)
    if not wanted:
        return None
    if text.isascii() and wanted.isascii():  # case folding is lower-casing: a search
        found = _ascii_pattern(wanted).search(text)
        return None if found is None else QuoteSpan(found.start(), found.end(), quote)
    folded, where = _folded(text)
    at = folded.find(wanted)
    if at < 0:
        return None
    return QuoteSpan(where[at], where[at + len(wanted) - 1] + 1, quote)


def quote_spans(text: str, quotes: Iterable[str]) -> tuple[QuoteSpan, ...]:
    """Where each quote found in ``text`` stands, in text order (quotes not found are left
    out; the validator reports them)."""
    spans = [s for s in (find_quote(text, q) for q in quotes) if s is not None]
    return tuple(sorted(spans))


def merged_spans(text: str, quotes: Iterable[str]) -> tuple[tuple[int, int], ...]:
    """The quoted stretches of ``text`` with overlapping quotes joined, for highlighting."""
    merged: list[list[int]] = []
    for span in quote_spans(text, quotes):
        if merged and span.start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], span.end)
        else:
            merged.append([span.start, span.end])
    return tuple((a, b) for a, b in merged)
