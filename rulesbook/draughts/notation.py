"""How a move is written: the one place that reads and writes move texts.

Three notations for the 8x8 board (square 1 is ``b8``, 4 is ``h8``, 29 is ``a1``,
32 is ``g1``: see :mod:`rulesbook.draughts.squares`):

- numeric, as English and pool records write it: ``11-15``, ``9x18x27``; also
  ``11 - 15``, ``11:15``, ``11×18``, ``11X18`` and a typographic dash ``11–15``;
- algebraic, as Russian and Brazilian records write it: ``c3-d4``, ``C3:E5``;
- short algebraic: the file the piece leaves and the square it reaches, ``ed4``
  (``ed4:f6`` with the squares it stops on).

:func:`read_move` reads one written move into a :class:`MoveText` (the squares as
written, legal or not: the position decides that); :func:`write_squares`,
:func:`full_form` and :func:`short_form` write one; :func:`tokenize` splits a
moves text as a user types or pastes it (move numbers, comments, variations,
results) into :class:`Token` values.  :data:`MOVE_PATTERN` is the regular
expression of a move as a PDN file writes it, for the PDN tokenizer.

>>> read_move("9x18x27")
MoveText(start=9, end=27, via=(18,), capture=True, notation=<Notation.NUMERIC: 'numeric'>, start_file='')
>>> write_squares((9, 18, 27), capture=True, algebraic=True)
'b6xd4xf2'
"""
from __future__ import annotations

import bisect
import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from rulesbook.draughts.errors import DraughtsError, NotationError
from rulesbook.draughts.pdn_model import RESULTS
from rulesbook.draughts.squares import parse_square, square_to_algebraic

# one place for a count and its noun ("1 sequence", "12,345 positions"): the module
# imports nothing, so the engine stays free of the rest of the library
from rulesbook.plural import counted as count_text

if TYPE_CHECKING:
    from rulesbook.draughts.move import Move

__all__ = [
    "plies_text",
    "count_text",
    "bare",
    "CAPTURE_MARK",
    "MAX_MOVE_CHARS",
    "MOVE_PATTERN",
    "MoveText",
    "MovePattern",
    "Notation",
    "NotationError",
    "PLACEHOLDERS",
    "QUIET_MARK",
    "Token",
    "TokenKind",
    "full_form",
    "read_move",
    "read_move_pattern",
    "separator",
    "short_form",
    "tokenize",
    "write_squares",
]

#: The separators a writer uses: ``x`` between the squares of a capture, ``-`` of a step.
CAPTURE_MARK = "x"
QUIET_MARK = "-"

# What readers accept: a capture is written with x, X, : (Russian records) or ×;
# a step with a hyphen or any typographic dash a word processor puts in its place
# (hyphen, non-breaking hyphen, figure dash, en dash, em dash, minus sign).
_CAPTURE_SEPARATORS = "xX:\u00d7"
_QUIET_SEPARATORS = "-\u2010\u2011\u2012\u2013\u2014\u2212"
_SEPARATOR_CLASS = "[" + re.escape(_QUIET_SEPARATORS + _CAPTURE_SEPARATORS) + "]"
_SEPARATOR_NAMES = {":": "colon", "\u00d7": "\u00d7", "x": "x", "X": "x"}

#: A square in a move text: a number of one or two digits, or algebraic (``c3``, ``C3``).
SQUARE_PATTERN = r"(?:[0-9]{1,2}|[a-hA-H][1-8])"
_SHORT_PATTERN = r"[a-hA-H][a-hA-H][1-8](?:" + _SEPARATOR_CLASS + r"[a-hA-H][1-8])*"
#: A move as a PDN file writes it (no spaces inside): ``11-15``, ``c3xe5xg3``, ``ed4``.
MOVE_PATTERN = (r"(?:" + SQUARE_PATTERN + r"(?:" + _SEPARATOR_CLASS + SQUARE_PATTERN + r")+"
                + r"|" + _SHORT_PATTERN + r")")

_SPLIT = re.compile(r"\s*(" + _SEPARATOR_CLASS + r")\s*")
_SHORT_HEAD = re.compile(r"([a-hA-H])([a-hA-H][1-8])")
#: What a record writes in a move's place when the move was not recorded.
PLACEHOLDERS = frozenset(("-", "--"))
#: Marks a scoresheet puts after a move (good, bad, check-like signs): not part of it.
_TRAILING_MARKS = "!?+#*"
#: Longest text read as one move (a capture of 12 pieces with every stop is ~40 characters).
MAX_MOVE_CHARS = 200

_FROM_TO = "write a move as from-to or fromxto, e.g. 11-15 or 15x24"
_BRACKETS = {"(": "it opens a variation that is never closed",
             ")": "it closes no variation (no '(' before it)",
             "{": "it opens a comment that is never closed",
             "}": "it closes no comment (no '{' before it)"}


class Notation(enum.Enum):
    """How a move text names its squares."""

    NUMERIC = "numeric"  #: ``11-15``
    ALGEBRAIC = "algebraic"  #: ``c3-d4``
    SHORT = "short"  #: ``ed4``: the file left and the square reached


@dataclass(frozen=True)
class MoveText:
    """One written move, read as written (legal or not).

    ``start`` is the square the piece leaves (None in the short form, which
    gives only its file, ``start_file``), ``end`` the square it reaches,
    ``via`` the squares written between, in order; ``capture`` whether it is
    written as a capture (``x``, ``:``, ``×``)."""

    start: int | None
    end: int
    via: tuple[int, ...]
    capture: bool
    notation: Notation
    start_file: str = ""

    @property
    def squares(self) -> tuple[int, ...]:
        """Every square written, in order (the start first when it is written)."""
        head = () if self.start is None else (self.start,)
        return (*head, *self.via, self.end)


@dataclass(frozen=True)
class MovePattern:
    """A move written with squares not known (``?`` or ``*``): ``11-?`` (started
    on 11), ``?-15`` (ended on 15), ``9x?x27``.  None stands for a square not
    known; ``via`` holds the known squares between, in order."""

    start: int | None
    end: int | None
    via: tuple[int, ...]
    capture: bool


def plies_text(count: int) -> str:
    """A number of plies as a referee reads it: "1 ply", "4 plies"."""
    return count_text(count, "ply", "plies")


def separator(capture: bool) -> str:
    """The separator a writer puts between the squares of a capture or of a step."""
    return CAPTURE_MARK if capture else QUIET_MARK


def write_squares(squares: Iterable[int], capture: bool, *, algebraic: bool = False) -> str:
    """The squares of a move written out: ``(9, 18, 27), True`` -> ``"9x18x27"``
    (``"b6xd4xf2"`` algebraic)."""
    if algebraic:
        return separator(capture).join(square_to_algebraic(s) for s in squares)
    return separator(capture).join(str(s) for s in squares)


def full_form(move: Move, *, algebraic: bool = False) -> str:
    """Every square the move stops on: ``"9-14"``, ``"9x18x27"``."""
    return write_squares(move.path, move.is_capture, algebraic=algebraic)


def short_form(move: Move, *, algebraic: bool = False) -> str:
    """The start and the end only: ``"9x27"`` (may stand for several moves)."""
    return write_squares((move.start, move.end), move.is_capture, algebraic=algebraic)


def _separator_name(sep: str) -> str:
    return _SEPARATOR_NAMES.get(sep, "dash")


def bare(text: str) -> str:
    """The move text without the spaces around it and the marks a scoresheet puts
    after a move (``" 11-15!? "`` -> ``"11-15"``)."""
    return text.strip().rstrip(_TRAILING_MARKS).strip()


def _shape(text: str, raw: str) -> tuple[list[str], list[str]]:
    """The square words and the separators of ``raw`` (``text`` stripped);
    NotationError for an empty square word or a text with no separator."""
    parts = _SPLIT.split(raw)
    words, seps = parts[0::2], parts[1::2]
    if raw in _BRACKETS:
        raise NotationError(text, _BRACKETS[raw])
    if raw.startswith("("):
        raise NotationError(text, "a variation in parentheses is not a move played")
    if raw.startswith("{"):
        raise NotationError(text, "a comment in braces is not a move")
    if not seps:
        if any(c.isspace() for c in raw):
            raise NotationError(text, "there is no separator between its squares: " + _FROM_TO)
        try:
            parse_square(raw)
        except DraughtsError:
            raise NotationError(text, "it is not written as a move: " + _FROM_TO) from None
        raise NotationError(text, "it names one square only: " + _FROM_TO)
    for k, word in enumerate(words):
        if word:
            continue
        if k == 0:
            raise NotationError(text, f"there is no square before the {_separator_name(seps[0])}")
        if k == len(words) - 1:
            raise NotationError(text, f"there is no square after the {_separator_name(seps[-1])}")
        raise NotationError(text, f"there are two separators in a row "
                                  f"({seps[k - 1]}{seps[k]}) with no square between")
    return words, seps


def _square(text: str, word: str, words: Sequence[str]) -> int:
    if not any(c.isdigit() for w in words for c in w):
        raise NotationError(text, "it is not written as a move: " + _FROM_TO)
    try:
        return parse_square(word)
    except DraughtsError as exc:
        raise NotationError(text, str(exc)) from None


def _words(text: str, raw: str, *, short: bool) -> tuple[list[str], bool]:
    """The square words of ``raw`` (``text`` stripped) and whether it is written as
    a capture; with ``short``, a lone ``ed4`` is one word (the short form)."""
    if not raw:
        raise NotationError(text, "the move is empty: " + _FROM_TO)
    if len(raw) > MAX_MOVE_CHARS:
        raise NotationError(text, f"it is longer than any move ({len(raw):,} characters)")
    if short and _SHORT_HEAD.fullmatch(raw):
        return [raw], False
    words, seps = _shape(text, raw)
    return words, any(s in _CAPTURE_SEPARATORS for s in seps)


def _squares(text: str, words: Sequence[str]) -> tuple[int, ...]:
    """The squares ``words`` name, all numbers or all letters."""
    squares = tuple(_square(text, w, words) for w in words)
    numeric = [w.isdigit() for w in words]
    if any(numeric) and not all(numeric):
        number = words[numeric.index(True)]
        letters = words[numeric.index(False)]
        raise NotationError(text, f"it mixes a square number ({number}) with a square in "
                                  f"letters ({letters}): write every square the same way, "
                                  f"e.g. 11-15 or c3-d4")
    return squares


def _read(text: str) -> MoveText:
    words, capture = _words(text, bare(text), short=True)
    head = _SHORT_HEAD.fullmatch(words[0])
    if head is not None:
        squares = _squares(text, [head.group(2), *words[1:]])
        return MoveText(None, squares[-1], squares[:-1], capture, Notation.SHORT,
                        head.group(1).lower())
    squares = _squares(text, words)
    notation = Notation.NUMERIC if words[0].isdigit() else Notation.ALGEBRAIC
    return MoveText(squares[0], squares[-1], squares[1:-1], capture, notation)


#: Texts up to this long are read once and remembered (records repeat their moves).
_CACHED_CHARS = 64
_read_cached = lru_cache(maxsize=4096)(_read)


def read_move(text: str) -> MoveText:
    """The squares the move text ``text`` names, read as written (whether the move
    is legal is for the position to say).  Marks after the move (``!``, ``?``)
    and spaces around it or around its separators are not part of it.

    Raises :class:`NotationError` saying what is wrong: an empty text, one
    square only, a separator with no square after it, two separators in a row,
    a square that does not exist (``33``, a light square), square numbers and
    letters mixed, a variation or comment instead of a move."""
    if not isinstance(text, str):
        raise NotationError(repr(text), "a move is written as text, e.g. 11-15")
    return _read_cached(text) if len(text) <= _CACHED_CHARS else _read(text)


def read_move_pattern(text: str, unknown: Iterable[str] = ("?", "*")) -> MovePattern:
    """A move written with squares not known, each written as one of ``unknown``:
    ``11-?`` (started on 11), ``?-15`` (ended on 15), ``9x18x?``.  Raises
    :class:`NotationError` as :func:`read_move` does."""
    wild = frozenset(unknown)
    # no marks to strip: "?" may be a square not known
    words, capture = _words(text, text.strip(), short=False)
    found = iter(_squares(text, [w for w in words if w not in wild]))
    squares = [None if w in wild else next(found) for w in words]
    via = tuple(s for s in squares[1:-1] if s is not None)
    return MovePattern(squares[0], squares[-1], via, capture)


# --------------------------------------------------------------------------- tokens

class TokenKind(enum.Enum):
    """What a piece of a moves text is."""

    MOVE = "move"  #: a word in a move's place (a move text, perhaps unreadable: see read_move)
    MOVE_NUMBER = "move number"  #: ``12.``, ``12...``, ``...``
    COMMENT = "comment"  #: ``{...}`` or ``; to the end of the line``
    VARIATION = "variation"  #: ``( ... )``, nested: moves not played
    RESULT = "result"  #: ``1-0 0-1 1/2-1/2 2-0 0-2 1-1 *`` (and their ``:`` forms)
    ANNOTATION = "annotation"  #: a NAG (``$1``) or a mark (``!``, ``?!``) standing alone
    UNMATCHED = "unmatched"  #: a ``(`` or ``{`` never closed, a ``)`` or ``}`` never opened


class Token(NamedTuple):
    """One piece of a moves text, as written, and where it starts (1-based)."""

    kind: TokenKind
    text: str
    line: int
    col: int

    @property
    def is_move(self) -> bool:
        """A move of the game as played: a word in a move's place, or a bracket
        never matched (which no reader can take for anything else)."""
        return self.kind is TokenKind.MOVE or self.kind is TokenKind.UNMATCHED


_STOP = r"(?=[\s,{}();]|$)"
_RESULT_WORDS = "|".join(re.escape(r) for r in sorted(RESULTS, key=len, reverse=True))
# Spaces and commas before a token are skipped by the same match (the token starts
# at ``m.start(m.lastgroup)``); only trailing spaces fail to match.
_SCAN = re.compile(
    r"[\s,]*(?:(?P<special>[{};()])"
    r"|(?P<result>(?:" + _RESULT_WORDS + r")" + _STOP + ")"
    r"|(?P<number>[0-9]+\.+)"
    r"|(?P<dots>\.{2,})"  # 12. ...11-15: the dots of Black's move skipped, as 12... is
    r"|(?P<annotation>(?:\$[0-9]{1,3}|!!|\?\?|!\?|\?!|!|\?)" + _STOP + ")"
    # a move with spaces around its separators (11 - 15) is one move; a move
    # written without them ends at the first space (11-15 - 23-19: a lone dash)
    r"|(?P<move>" + SQUARE_PATTERN + r"(?:" + _SEPARATOR_CLASS + SQUARE_PATTERN + r")+" + _STOP
    + r"|" + SQUARE_PATTERN + r"(?:[ \t]*" + _SEPARATOR_CLASS + r"[ \t]*" + SQUARE_PATTERN + r")+"
    + _STOP + ")"
    r"|(?P<word>[^\s,{}();]+))"
)
_KINDS = {"result": TokenKind.RESULT, "number": TokenKind.MOVE_NUMBER,
          "dots": TokenKind.MOVE_NUMBER, "annotation": TokenKind.ANNOTATION,
          "move": TokenKind.MOVE, "word": TokenKind.MOVE}


class _Lines:
    """Where the lines of a text start, lines broken as ``str.splitlines`` breaks them."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        for line in text.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def end_of_line(self, offset: int) -> int:
        """The offset of the line break ending the line of ``offset`` (or the text's end)."""
        k = bisect.bisect_right(self.starts, offset)
        return self.starts[k] if k < len(self.starts) else self.starts[-1]


_BRACKET_OR_COMMENT = re.compile(r"[(){};]")


def _closing(text: str, lines: _Lines) -> dict[int, int]:
    """``{offset of "(": offset of its ")"}`` for every variation that is closed,
    brackets inside comments not counted.  One pass, an explicit stack."""
    out: dict[int, int] = {}
    stack: list[int] = []
    last_brace = text.rfind("}")
    pos, n = 0, len(text)
    while pos < n:
        m = _BRACKET_OR_COMMENT.search(text, pos)
        if m is None:
            break
        c, pos = m.group(), m.start()
        if c == "{":
            close = text.find("}", pos) if pos < last_brace else -1
            pos = close + 1 if close >= 0 else pos + 1
        elif c == ";":
            pos = max(lines.end_of_line(pos), pos + 1)
        elif c == "(":
            stack.append(pos)
            pos += 1
        elif c == ")":
            if stack:
                out[stack.pop()] = pos
            pos += 1
        else:
            pos += 1
    return out


def tokenize(text: str) -> list[Token]:
    """Every piece of the moves text ``text`` in order, each with its line and
    column: moves (:attr:`TokenKind.MOVE`: every word in a move's place, readable
    or not; :func:`read_move` says), move numbers (``12.``, ``12...``), comments
    (``{...}``, ``; ...`` to the end of the line), variations (``( ... )``, nested,
    as one token: moves not played), results and annotations.  Commas and spaces
    separate; a ``(`` or ``{`` never closed and a ``)`` or ``}`` never opened is
    an :attr:`TokenKind.UNMATCHED` token, and what follows it is read on.

    >>> [(t.kind.name, t.text) for t in tokenize("12. 11-15 (24-20) 23-19 {ok} 1-0")]
    [('MOVE_NUMBER', '12.'), ('MOVE', '11-15'), ('VARIATION', '(24-20)'), ('MOVE', '23-19'), \
('COMMENT', '{ok}'), ('RESULT', '1-0')]
    """
    lines = _Lines(text)
    closing = _closing(text, lines)
    last_brace = text.rfind("}")
    starts = lines.starts
    out: list[Token] = []
    append = out.append
    line = 0  # the index in starts of the line being read
    pos = 0
    scan = _SCAN.match
    while True:
        m = scan(text, pos)
        if m is None:
            return out
        group = m.lastgroup
        assert group is not None  # every alternative is a group
        begin, pos = m.start(group), m.end()
        while starts[line + 1] <= begin:
            line += 1
        col = begin - starts[line] + 1
        if group != "special":
            append(Token(_KINDS[group], m.group(group), line + 1, col))
            continue
        c = text[begin]
        kind = TokenKind.UNMATCHED
        if c == "{":
            close = text.find("}", begin) if begin < last_brace else -1
            if close >= 0:
                kind, pos = TokenKind.COMMENT, close + 1
        elif c == ";":
            kind = TokenKind.COMMENT
            pos = begin + len(text[begin:lines.end_of_line(begin)].splitlines()[0])
        elif c == "(":
            close = closing.get(begin, -1)
            if close >= 0:
                kind, pos = TokenKind.VARIATION, close + 1
        append(Token(kind, text[begin:pos], line + 1, col))
