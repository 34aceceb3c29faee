"""Names compared as people read them (issue 34): two member names that look the
same on a screen are the same name.

:func:`comparison_key` is what two names are compared by: the name NFKC-normalised
(fullwidth ``Ａ`` is ``A``), stripped of invisible characters (zero-width spaces and
joiners, bidi controls, the byte-order mark: every format character) and of its
spaces (spacing is not read as part of a name), as read on screen when a bidi override turns it around
(``U+202E ecilA`` shows as ``Alice``), then case-folded and mapped to Unicode's
confusable skeleton (UTS #39: Greek ``Α`` and Cyrillic ``А`` are Latin ``A``), with
the data of Unicode's confusables.txt as the ``confusable-homoglyphs`` package
ships it.
"""
from __future__ import annotations

import functools
import unicodedata

__all__ = ["comparison_key", "comparison_keys", "same_name"]

_RLO, _LRO, _PDF = "\u202e", "\u202d", "\u202c"
_ISOLATES_END = "\u2069"


@functools.lru_cache(maxsize=1)
def _confusables() -> dict[str, list[dict[str, str]]]:
    from confusable_homoglyphs import confusables

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    return data


@functools.lru_cache(maxsize=4096)
def _prototype(ch: str) -> str:
    """The character ``ch`` is confused with (UTS #39's prototype: Greek ``Α`` ->
    ``A``, ``I`` -> ``l``), or ``ch`` itself. In the package's table a character
    that has a prototype lists that one only; a prototype lists its look-alikes."""
    seen = {ch}
    while True:
        entries = _confusables().get(ch, ())
        if len(entries) != 1 or len(entries[0].get("c", "")) != 1 or entries[0]["c"] in seen:
            return ch
        ch = entries[0]["c"]
        seen.add(ch)


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


def _visible_form(name: str) -> str:
    text = _as_shown(unicodedata.normalize("NFKC", name))
    # spacing is not read: "Alice Smith", "Alice  Smith" and "Alice<ZWSP>Smith" are one
    return "".join(ch for ch in text if not (_invisible(ch) or ch.isspace()))


def comparison_keys(name: str) -> frozenset[str]:
    """What ``name`` is compared by (see the module's description): two names are
    the same when they share a key: the case-folded form, the skeleton (as UTS #39,
    case kept: ``I`` and ``l`` are one), or the skeleton of the case-folded form."""
    text = _visible_form(name)
    folded = text.casefold()
    return frozenset((folded, _skeleton(text), _skeleton(folded)))


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
