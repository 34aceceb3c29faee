"""The list of the games of a PDN file, for a chooser: built from the tags alone
(no move is resolved, so 10,000 games list at once), filtered as the user types
and sorted by any column; each game's record defects (:func:`record_defect`:
syntax, set-up, a move that cannot be played) found one game at a time, so a
caller can do it off the GUI thread and mark the rows as it goes.

>>> chunks = split_games('[White "Tinsley"]\\n[Black "Long"]\\n1. 11-15 *\\n\\n'
...                      '[White "Oldbury"]\\n[Event "Ohio 1946"]\\n1. 11-15 *\\n')
>>> entries = game_list(chunks)
>>> [entries[i].white for i in filter_games(entries, "ohio")]
['Oldbury']
"""
from __future__ import annotations

import enum
import io
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from rulesbook.draughts.notation import CAPTURE_MARK, QUIET_MARK
from rulesbook.draughts.pdn import build_game
from rulesbook.draughts.pdn_model import PdnError
from rulesbook.draughts.pdn_syntax import RawGame, SyntaxReader
from rulesbook.draughts.pdn_variant import guess_variant
from rulesbook.reconstruct.importing import GameChunk, split_games
from rulesbook.textio import shorten, visible_controls

__all__ = ["Column", "GameListEntry", "game_list", "filter_games", "sort_games", "columns_of",
           "opening", "PLAYER_COLUMNS", "MOVES_COLUMNS",
           "record_defect", "defect_of", "scan_defects", "yield_to_others", "split_games"]

#: the longest cell shown (a tag may be 10,000 characters)
CELL_CHARS = 120
#: how much lower a background scan process runs (:func:`yield_to_others`)
BACKGROUND_NICE = 10


class Column(enum.IntEnum):
    """The columns of the list, in order; ``tag`` is the PDN tag each shows (the
    first moves and the game's comment are read from the moves text)."""

    WHITE = 0
    BLACK = 1
    EVENT = 2
    DATE = 3
    ROUND = 4
    RESULT = 5
    MOVES = 6
    COMMENT = 7

    @property
    def tag(self) -> str:
        return self.name.capitalize()

    @property
    def title(self) -> str:
        return "First moves" if self is Column.MOVES else self.tag

    @property
    def key(self) -> str:
        """The word before ``:`` that filters by this column (``result:1-0``)."""
        return self.name.lower()


#: the columns shown for a file with players, and for one without (the ACF archive
#: writes no White/Black tags): then the first moves and the comment say which game
PLAYER_COLUMNS = (Column.WHITE, Column.BLACK, Column.EVENT, Column.DATE, Column.ROUND,
                  Column.RESULT)
MOVES_COLUMNS = (Column.MOVES, Column.COMMENT, Column.EVENT, Column.DATE, Column.ROUND,
                 Column.RESULT)
#: the columns a free word of the filter looks in (with the game's number): the
#: ones a user means, not the result's digits ("1" is not in "0-1": ``result:0-1``)
WORD_COLUMNS = frozenset({Column.WHITE, Column.BLACK, Column.EVENT, Column.DATE,
                          Column.ROUND})
#: the first moves shown (plies) and how much of the moves text is read for them
OPENING_PLIES = 6
MOVETEXT_CHARS = 600


@dataclass(frozen=True)
class GameListEntry:
    """One game of the list: its number in the file (0-based ``index``), the
    cells of every :class:`Column` (unknown ones ``""``), the other tags
    (casefolded: ``site:`` filters them) and the record's defect, ``""`` when none is
    known (see :func:`record_defect`)."""

    index: int
    cells: tuple[str, ...]
    tags: Mapping[str, str] = field(default_factory=dict, compare=False)
    first_line: int = 1
    defect: str = ""
    #: what a free word of the filter is looked for in: the columns shown that a
    #: user means and the game's number, casefolded, one a line (:func:`game_list`)
    haystack: str = field(default="", compare=False, repr=False)
    #: the game's text, for the first moves and comment of a file with players
    #: (worked out only when a ``moves:`` or ``comment:`` filter asks)
    text: str = field(default="", compare=False, repr=False)

    def cell(self, column: Column) -> str:
        return self.cells[column]

    @property
    def white(self) -> str:
        return self.cells[Column.WHITE]

    @property
    def black(self) -> str:
        return self.cells[Column.BLACK]

    @property
    def has_players(self) -> bool:
        return bool(self.cells[Column.WHITE] or self.cells[Column.BLACK])

    def with_defect(self, defect: str) -> GameListEntry:
        return replace(self, defect=defect)

    def folded(self, column: Column) -> str:
        """The cell casefolded (the first moves and comment read when first asked)."""
        if column >= Column.MOVES and self.text and not any(self.cells[Column.MOVES:]):
            object.__setattr__(self, "cells", self.cells[:Column.MOVES] + opening(self.text))
            object.__setattr__(self, "text", "")
        return self.cells[column].casefold()


def _cell(tags: Mapping[str, str], tag: str) -> str:
    value = tags.get(tag, "").strip()
    if not value or set(value) <= set("?."):  # "?", "????.??.??": unknown
        return ""
    return shorten(visible_controls(value), CELL_CHARS)


#: the tags shown in a column (the others are kept for ``tag:value`` filters)
_CELL_TAGS = frozenset(column.tag for column in Column if column < Column.MOVES)
_COMMENT = re.compile(r"\{([^}]*)\}|;([^\n]*)")
_VARIATION = re.compile(r"\([^()]*\)")
_MOVE_NUMBER = re.compile(r"^(\d+\.+)(.*)$")
_RESULTS = frozenset({"*", "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0"})


def opening(text: str) -> tuple[str, str]:
    """The first moves (``1. 11-15 23-19 2. 8-11 …``, :data:`OPENING_PLIES` of them)
    and the first comment of a game's PDN text, read from the start of its moves
    text without resolving a move (a cheap look for the list, not the reader's).

    >>> opening('[Event "x"]\\n{Scored by hand} 1. 11-15 23-19 (22-18) 2. 8-11 *')
    ('1. 11-15 23-19 2. 8-11', 'Scored by hand')
    """
    start = text.rfind("]", 0, 4000) + 1  # after the tags (none: from the start)
    body = text[start:start + MOVETEXT_CHARS]
    comment = ""
    found = _COMMENT.search(body)
    if found is not None:
        comment = " ".join((found.group(1) or found.group(2) or "").split())
    elif "{" in body:  # a comment longer than what is read
        comment = " ".join(body[body.index("{") + 1:].split())
        body = body[:body.index("{")]
    body = _VARIATION.sub(" ", _COMMENT.sub(" ", body))
    if "{" in body:
        body = body[:body.index("{")]
    words: list[str] = []
    plies = 0
    for word in body.split():
        number = _MOVE_NUMBER.match(word)
        if number is not None:
            words.append(number.group(1))
            word = number.group(2)
            if not word:
                continue
        if word in _RESULTS or plies >= OPENING_PLIES:
            break
        words.append(word)
        plies += 1
    while words and words[-1].endswith("."):
        words.pop()
    return (shorten(visible_controls(" ".join(words)), CELL_CHARS),
            shorten(visible_controls(comment), CELL_CHARS))


#: the move numbers of the first moves ("3." "3..."): a free word "3" means game 3, not
#: the third move of every game (found by the #33 retest)
_NUMBERS_OF_MOVES = re.compile(r"(?<!\S)\d+\.+(?=\s|$)")


def game_list(chunks: Sequence[GameChunk]) -> list[GameListEntry]:
    """The list's entries of the games ``chunks`` (from :func:`split_games`)."""
    tagged = [tuple(_cell(chunk.tags, column.tag) for column in Column
                    if column < Column.MOVES) for chunk in chunks]
    players = any(cells[Column.WHITE] or cells[Column.BLACK] for cells in tagged)
    looked = [c for c in (PLAYER_COLUMNS if players else MOVES_COLUMNS)
              if c in WORD_COLUMNS or c in (Column.MOVES, Column.COMMENT)]
    out = []
    for chunk, cells in zip(chunks, tagged, strict=True):
        cells = cells + (("", "") if players else opening(chunk.text))
        others = {k.casefold(): v.casefold() for k, v in chunk.tags.items()
                  if k not in _CELL_TAGS}
        haystack = "\n".join([_NUMBERS_OF_MOVES.sub("", cells[c]) if c is Column.MOVES
                              else cells[c] for c in looked]
                             + [str(chunk.index + 1)]).casefold()
        out.append(GameListEntry(chunk.index, cells, others, chunk.first_line, "", haystack,
                                 chunk.text if players else ""))
    return out


def columns_of(entries: Sequence[GameListEntry]) -> tuple[Column, ...]:
    """The columns to show: the players' when some game has a White or Black tag,
    else the first moves and the comment in their place (:data:`MOVES_COLUMNS`)."""
    return PLAYER_COLUMNS if not entries or any(e.has_players for e in entries) \
        else MOVES_COLUMNS


class _Term:
    """A word of the filter (:func:`_term`): a substring test first, the pattern
    only on the texts that have it."""

    def __init__(self, word: str) -> None:
        self.word = word
        self.pattern = _term(word)

    def search(self, text: str) -> bool:
        return self.word in text and self.pattern.search(text) is not None


#: the marks between a move's squares (as the filter's casefolded text has them)
_MOVE_MARKS = re.escape(CAPTURE_MARK + QUIET_MARK)


def _term(word: str) -> re.Pattern[str]:
    """A word of the filter as it must be found: at the start of a word of the
    text (``tins`` finds Tinsley), and when it ends in a figure, at the end of a
    number (``1`` finds "Example 1", "Round 1", not 10, 1946, "0-1", nor the square 8
    of a move 8-11: a move is found typed whole, ``8-11``)."""
    tail = r"(?![\d" + _MOVE_MARKS + "])" if word[-1:].isdigit() else ""
    return re.compile(r"(?<!\w)" + re.escape(word) + tail)


def _parse_query(query: str, keys: frozenset[str]
                 ) -> tuple[list[_Term], list[tuple[str, _Term]], str]:
    """The free words, the ``column:value`` filters and the free words as one phrase."""
    free: list[str] = []
    scoped: list[tuple[str, _Term]] = []
    for word in query.casefold().split():
        key, colon, value = word.partition(":")
        if colon and key in keys:
            if value:
                scoped.append((key, _Term(value)))
            continue  # "result:" being typed: no filter yet
        free.append(word)
    return [_Term(w) for w in free], scoped, " ".join(free)


def _field(entry: GameListEntry, key: str) -> str:
    if key == "game":
        return str(entry.index + 1)
    for column in Column:
        if column.key == key:
            return entry.folded(column)
    return entry.tags.get(key, "")


def filter_games(entries: Sequence[GameListEntry], query: str) -> list[int]:
    """The positions in ``entries`` of the games that match ``query``.

    A free word must be found (case-insensitive, from the start of a word; a
    number whole) in one of the columns shown that a user means: the players,
    event, date, round, the first moves and the comment when those are shown,
    or the game's number; ``column:value`` (``result:1-0``, ``site:ohio``,
    ``moves:11-15``, ``game:12``, any column or tag) looks in that one only.
    Every word must match; the games whose free words are found together, as
    typed, in one column come first ("Example 1" before "Example 10, round 1"),
    the rest in the file's order. An empty query matches all."""
    keys = frozenset([c.key for c in Column] + ["game"]
                     + [k for e in entries[:1000] for k in e.tags])
    free, scoped, phrase = _parse_query(query, keys)
    if not free and not scoped:
        return list(range(len(entries)))
    together = _Term(phrase) if len(free) > 1 else None
    first: list[int] = []
    rest: list[int] = []
    for i, entry in enumerate(entries):
        haystack = entry.haystack
        if not all(t.search(haystack) for t in free):
            continue
        if not all(t.search(_field(entry, key)) for key, t in scoped):
            continue
        (first if together is not None and together.search(haystack) else rest).append(i)
    return first + rest


_DIGITS = re.compile(r"(\d+)")


def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """``"Round 10"`` after ``"Round 9"``."""
    return tuple((0, int(part)) if part.isdigit() else (1, part.casefold())
                 for part in _DIGITS.split(text) if part)


def sort_games(entries: Sequence[GameListEntry], rows: Sequence[int], column: Column,
               descending: bool = False) -> list[int]:
    """``rows`` (positions in ``entries``) sorted by ``column``, numbers in the text
    read as numbers; empty cells last either way; ties keep the file's order."""
    in_file_order = sorted(rows, key=lambda i: entries[i].index)
    filled = [i for i in in_file_order if entries[i].cells[column]]
    empty = [i for i in in_file_order if not entries[i].cells[column]]
    return sorted(filled, key=lambda i: _natural(entries[i].cells[column]),
                  reverse=descending) + empty  # a stable sort: ties stay in file order


def _errors(raw: RawGame) -> list[PdnError]:
    """The errors :func:`~rulesbook.draughts.pdn.build_game` finds in ``raw``,
    found sooner without a GameType tag: the variant guessed as the reader guesses
    it, without playing the record in the variants after the first that makes its
    main line legal (the reader plays it in every one, to say which fit), and a
    record without variations that it makes legal not played again (then only the
    syntax's errors remain)."""
    if (raw.tags.get("GameType") or "").strip():
        return build_game(raw).errors
    guess = guess_variant(raw, stop_at_whole=True)
    if guess.fits[-1].whole and not any(node.variations for node in raw.mainline):
        return list(raw.errors)
    return build_game(raw, guess.chosen).errors


def record_defect(chunk: GameChunk) -> str:
    """The first defect of the record of ``chunk``: a text that is no move, an
    unterminated comment, a bad FEN, a move that cannot be played (in the GameType
    tag's variant, or without one in the variant that fits best), no move at all;
    as ``"line L col C: message"`` with the file's line, plus how many more;
    ``""`` when none. One game read whole: a caller scans a file off the GUI thread."""
    raw = SyntaxReader(io.StringIO(chunk.text), first_line=chunk.first_line).read()
    if raw is None:
        return "no game in this part of the file"
    errors = _errors(raw)
    if errors:
        first = errors[0]
        more = len(errors) - 1
        return (f"line {first.line} col {first.col}: {first.message}"
                + (f" (and {more} more)" if more else ""))
    if not raw.mainline and "FEN" not in raw.tags:
        return "no moves"
    return ""


def defect_of(chunk: GameChunk) -> str:
    """:func:`record_defect`, and a record the reader fails on as a defect too
    (``"cannot be read: ..."``): a scan shows it and goes on, never stops."""
    try:
        return record_defect(chunk)
    except Exception as exc:  # noqa: BLE001 - a defect shown, never a crash
        return f"cannot be read: {type(exc).__name__}: {exc}"


def scan_defects(chunks: Sequence[GameChunk]) -> list[tuple[int, str]]:
    """``(chunk.index, defect)`` of the games of ``chunks`` that have one
    (:func:`defect_of`), in order: one batch of a file's scan; its argument and
    its answer are plain data, so that the app runs it in another process."""
    out = []
    for chunk in chunks:
        defect = defect_of(chunk)
        if defect:
            out.append((chunk.index, defect))
    return out


def yield_to_others() -> None:
    """Lower the calling process's priority (where the system has ``nice``): a
    process that scans a file in the background gives the core to the program a
    user is waiting for. Meant as the scan process's initializer."""
    if hasattr(os, "nice"):
        try:
            os.nice(BACKGROUND_NICE)
        except OSError:  # not allowed: the scan runs at the same priority
            pass
