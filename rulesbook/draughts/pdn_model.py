"""What the PDN reader reads into, and its limits: raw games (:class:`RawGame`),
the tree of moves as written (:class:`PdnNode`), syntax problems
(:class:`PdnError`), the results as written in real files, move-strength marks.
The syntax layer (:mod:`.pdn_syntax`) fills them; :mod:`.pdn` resolves the moves.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "MARK_NAGS", "MAX_COMMENT_CHARS", "MAX_ERRORS", "MAX_GAMES", "MAX_LINE_CHARS",
    "MAX_MESSAGE_CHARS", "MAX_PLIES", "MAX_TAGS", "MAX_TAG_CHARS", "MAX_TOKEN_CHARS",
    "MAX_VARIATION_DEPTH", "NAG_SYMBOLS", "RESULTS", "PdnError", "PdnLimitError", "PdnNode",
    "RawGame", "normalize_result",
]

# -- reader limits -----------------------------------------------------------
# Every limit keeps the reader linear in time and bounded in memory whatever the
# input (see docs/limits.md). Past the limits marked "error" the game gets one
# error naming the limit and where it was hit, and the reader goes on; past
# MAX_GAMES the reader stops with PdnLimitError.

#: Deepest nesting of ``( )`` variations that is read; deeper ones are an error.
MAX_VARIATION_DEPTH = 64
#: Longest line read whole; the rest of a longer line is skipped (bounded memory
#: on binary junk or a file without line breaks).
MAX_LINE_CHARS = 1_000_000
#: Longest tag value kept (a longer one is cut, with an error).
MAX_TAG_CHARS = 10_000
#: Most tags kept in one game (the others are skipped, with an error).
MAX_TAGS = 1_000
#: Longest comment kept, per move or game (the rest is skipped, with an error).
MAX_COMMENT_CHARS = 100_000
#: Most moves read in one game, main line and variations together (the rest
#: are skipped, with an error).
MAX_PLIES = 100_000
#: Most errors kept per game (then one "too many errors" error).
MAX_ERRORS = 1_000
#: Most games read from one stream: past it the reader stops (PdnLimitError).
MAX_GAMES = 200_000
#: Longest unreadable text kept whole in its error (``PdnError.token``).
MAX_TOKEN_CHARS = 10_000
#: Longest error message kept (messages quote the text they are about).
MAX_MESSAGE_CHARS = 300


class PdnLimitError(ValueError):
    """The stream is past :data:`MAX_GAMES`: reading stops here."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message

#: Results as written in real files -> the PDN 3.0 form.
RESULTS: dict[str, str] = {
    "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "2-0": "2-0", "0-2": "0-2",
    "1-1": "1-1", "0-0": "0-0", "*": "*",
    "1:0": "1-0", "0:1": "0-1", "1/2:1/2": "1/2-1/2", "2:0": "2-0", "0:2": "0-2",
    "1:1": "1-1", "0:0": "0-0",
}

#: Move-strength marks and their NAG numbers (as in PGN).
MARK_NAGS: dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
NAG_SYMBOLS: dict[int, str] = {v: k for k, v in MARK_NAGS.items()}


def normalize_result(text: str) -> str:
    """The PDN 3.0 spelling of a result token (``0:1`` -> ``0-1``)."""
    return RESULTS.get(text, text)


@dataclass(frozen=True)
class PdnError:
    """A problem in a PDN file, at a 1-based line and column.

    ``token`` is set on an "unreadable text" error (text in the move section
    that is no move, number, comment, NAG or result): the text as written,
    whole (the message quotes it, cut short when long); None on every other
    error.
    """

    line: int
    col: int
    message: str
    token: str | None = None

    def __post_init__(self) -> None:
        if len(self.message) > MAX_MESSAGE_CHARS:
            object.__setattr__(self, "message", self.message[:MAX_MESSAGE_CHARS - 1] + "…")

    def __str__(self) -> str:
        return f"line {self.line} col {self.col}: {self.message}"


@dataclass(eq=False)
class PdnNode:
    """One move as written, in the main line or in a variation.

    ``move`` is the resolved engine move, or None when the text could not be
    resolved (illegal, ambiguous, unreadable, or after an earlier error).
    ``pre_comment`` is a comment written before the move at the start of a
    line (a variation's opening comment); ``comment`` is the one after it.
    """

    text: str
    line: int = 0
    col: int = 0
    move: Any = None
    comment: str = ""
    pre_comment: str = ""
    nags: list[int] = field(default_factory=list)
    variations: list[list[PdnNode]] = field(default_factory=list)

    def __repr__(self) -> str:
        extra = f", move={self.move!r}" if self.move is not None else ""
        return f"PdnNode({self.text!r}, line={self.line}, col={self.col}{extra})"


@dataclass(eq=False)
class RawGame:
    """One game as read by the syntax layer (moves not yet resolved)."""

    tags: dict[str, str] = field(default_factory=dict)
    tag_pos: dict[str, tuple[int, int]] = field(default_factory=dict)
    comment: str = ""
    mainline: list[PdnNode] = field(default_factory=list)
    result: str = "*"
    result_text: str = ""
    result_pos: tuple[int, int] | None = None
    errors: list[PdnError] = field(default_factory=list)
    line: int = 0
