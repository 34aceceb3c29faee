"""Word-level diffs (difflib) rendered as plain text and as HTML."""
from __future__ import annotations

import difflib
import html
import re
from collections.abc import Callable
from dataclasses import dataclass

_TOKEN = re.compile(r"\s+|\S+\s*")


@dataclass(frozen=True)
class DiffOp:
    """One run of a word diff: ``equal``, ``delete``, ``insert``."""

    op: str
    text: str


@dataclass(frozen=True)
class WordDiff:
    ops: tuple[DiffOp, ...]

    @property
    def changed(self) -> bool:
        return any(op.op != "equal" for op in self.ops)

    @property
    def similarity(self) -> float:
        """Share of the words kept (0..1)."""
        kept = sum(len(op.text.split()) for op in self.ops if op.op == "equal")
        total = kept + sum(len(op.text.split()) for op in self.ops if op.op != "equal")
        return kept / total if total else 1.0

    def plain(self) -> str:
        """``[-old words-]{+new words+}`` marks, as ``git diff --word-diff`` writes them."""
        out = []
        for op in self.ops:
            if op.op == "equal":
                out.append(op.text)
            elif op.op == "delete":
                out.append(f"[-{op.text}-]")
            else:
                out.append(f"{{+{op.text}+}}")
        return "".join(out)

    def html(self) -> str:
        """``<del>``/``<ins>`` marks; every text is escaped."""
        out = []
        for op in self.ops:
            text = html.escape(op.text)
            if op.op == "equal":
                out.append(text)
            elif op.op == "delete":
                out.append(f'<del class="del">{text}</del>')
            else:
                out.append(f'<ins class="ins">{text}</ins>')
        return "".join(out)

    def to_list(self) -> list[dict[str, str]]:
        return [{"op": op.op, "text": op.text} for op in self.ops]


def _words(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _norm(token: str, key: Callable[[str], str]) -> str:
    return key(token.strip())


def word_diff(old: str, new: str, ignore_case: bool = False) -> WordDiff:
    """The word-level difference from ``old`` to ``new``.

    Each token is a word with the whitespace that follows it; whitespace
    differences alone are not changes. With ``ignore_case`` (used to compare
    an ALL-CAPITALS original with a proposal in ordinary case) words are
    matched case-insensitively. Like diff-match-patch's semantic clean-up,
    a stray common word (``the``) between two changes is folded into them, so
    two unrelated texts read as one deletion and one insertion, not a
    word-by-word zigzag.
    """
    a, b = _words(old), _words(new)
    key = str.lower if ignore_case else (lambda s: s)
    matcher = difflib.SequenceMatcher(None, [_norm(t, key) for t in a],
                                      [_norm(t, key) for t in b], autojunk=False)
    raw: list[tuple[str, str, str]] = []  # (op, old text, new text)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        old_text, new_text = "".join(a[i1:i2]), "".join(b[j1:j2])
        raw.append(("equal" if tag == "equal" else "change", old_text, new_text))
    # Fold short equal runs that sit between two changes into the change.
    cleaned: list[list[str]] = []
    for i, (op, old_text, new_text) in enumerate(raw):
        short = op == "equal" and len(new_text.split()) <= 2 and 0 < i < len(raw) - 1
        if short:
            op = "change"
        if cleaned and cleaned[-1][0] == op == "change":
            cleaned[-1][1] += old_text
            cleaned[-1][2] += new_text
        else:
            cleaned.append([op, old_text, new_text])
    ops: list[DiffOp] = []
    for op, old_text, new_text in cleaned:
        if op == "equal":
            ops.append(DiffOp("equal", new_text))
            continue
        if old_text:
            ops.append(DiffOp("delete", old_text))
        if new_text:
            ops.append(DiffOp("insert", new_text))
    return WordDiff(tuple(ops))
