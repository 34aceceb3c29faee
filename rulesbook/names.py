"""Names compared as people read them (issue 34): two member names that look the
same on a screen are the same name.

:func:`comparison_key` is what two names are compared by: the name NFKC-normalised
(fullwidth ``Ａ`` is ``A``), stripped of invisible characters (zero-width spaces and
joiners, bidi controls, the byte-order mark: every format character) and of its
spaces (spacing is not read as part of a name), as read on screen when a bidi override turns it around
(``U+202E ecilA`` shows as ``Alice``), then case-folded and mapped to Unicode's
confusable skeleton (UTS #39: Greek ``Α`` and Cyrillic ``А`` are Latin ``A``), with
the data of Unicode's confusables.txt as the ``confusable-homoglyphs`` package
ships it (its table mapped back to one direction: :func:`_table`).
"""
from __future__ import annotations

import functools
import unicodedata

__all__ = ["comparison_key", "comparison_keys", "same_name"]

_RLO, _LRO, _PDF = "\u202e", "\u202d", "\u202c"
_ISOLATES_END = "\u2069"


_MARKS = str.maketrans("", "", "\u200e\u200f")


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    """UTS #39's table (confusables.txt) as character -> prototype, rebuilt from the
    ``confusable-homoglyphs`` package, whose data lists each line of the file both
    ways (the source under its prototype, the prototype under its source) with
    the left-to-right marks of the file's comments around right-to-left letters.

    A source is in one line of the file only and a prototype is never a source,
    so a character listing exactly one other is a source, unless the two list
    only each other (a prototype with one source: 1,440 pairs); then the lower
    code point stands for both. Multi-character prototypes are kept whole:
    ``m`` -> ``rn`` (so "Alice Srnith" is "Alice Smith")."""
    from confusable_homoglyphs import confusables

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    table: dict[str, str] = {}
    for key, entries in data.items():
        ch = key.translate(_MARKS)
        if len(ch) == 1 and len(entries) == 1:
            table[ch] = entries[0]["c"].translate(_MARKS)
    for ch, target in list(table.items()):
        if table.get(target) == ch:  # a pair: the lower one is the prototype
            table[max(ch, target)] = min(ch, target)
            table.pop(min(ch, target), None)
    return table


@functools.lru_cache(maxsize=4096)
def _prototype(ch: str, _seen: frozenset[str] = frozenset()) -> str:
    """What ``ch`` is confused with (UTS #39's prototype: Greek ``Α`` -> ``A``,
    ``I`` -> ``l``, ``m`` -> ``rn``), each of its characters mapped in turn
    (a pair's lower code point stands for both), or ``ch`` itself."""
    target = _table().get(ch)
    if target is None or ch in _seen:
        return ch
    seen = _seen | {ch}
    return "".join(_prototype(c, seen) for c in target)


def _as_shown(text: str) -> str:
    """The characters in the order they are shown: the left-to-right text inside a
    right-to-left override (U+202E … U+202C, or to the end) reversed."""
    if _RLO not in text:
        return text
    out: list[str] = []
    stack: list[list[str]] = []
    for ch in text:
        if ch == _RLO:
            stack.append([])
        elif ch in (_PDF, _ISOLATES_END) and stack:
            run = stack.pop()
            (stack[-1] if stack else out).extend(reversed(run))
        else:
            (stack[-1] if stack else out).append(ch)
    while stack:
        run = stack.pop()
        (stack[-1] if stack else out).extend(reversed(run))
    return "".join(out)


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cf", "Cc") or ch in "\u115f\u1160\u3164\uffa0"


def _visible_form(name: str, *, shown: bool = True) -> str:
    """``name`` NFKC-normalised without its invisible characters and spaces, in
    the order it is shown (``shown``) or typed."""
    text = unicodedata.normalize("NFKC", name)
    if shown:
        text = _as_shown(text)
    # spacing is not read: "Alice Smith", "Alice  Smith" and "Alice<ZWSP>Smith" are one
    return "".join(ch for ch in text if not (_invisible(ch) or ch.isspace()))


def comparison_keys(name: str) -> frozenset[str]:
    """What ``name`` is compared by (see the module's description): two names are
    the same when they share a key: the case-folded form, the skeleton (as UTS #39,
    case kept: ``I`` and ``l`` are one), or the skeleton of the case-folded form,
    each as the name is shown and as it is typed (``U+202E Alice Smith`` is
    "Alice Smith" stripped of its control, whatever a screen makes of it)."""
    keys: set[str] = set()
    for text in {_visible_form(name), _visible_form(name, shown=False)}:
        folded = text.casefold()
        keys.update((folded, _skeleton(text), _skeleton(folded)))
    return frozenset(keys)


def comparison_key(name: str) -> str:
    """One key of ``name``: its skeleton after case folding."""
    return _skeleton(_visible_form(name).casefold())


def _skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character as the one it is confused with, NFD."""
    mapped = "".join(_prototype(ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def same_name(a: str, b: str) -> bool:
    """``a`` and ``b`` read as the same name."""
    return bool(comparison_keys(a) & comparison_keys(b))
