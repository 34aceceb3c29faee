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
from collections.abc import Sequence
from dataclasses import dataclass

from rulesbook.draughts.pdn import build_game
from rulesbook.draughts.pdn_model import PdnError
from rulesbook.draughts.pdn_syntax import RawGame, SyntaxReader
from rulesbook.draughts.pdn_variant import guess_variant
from rulesbook.reconstruct.importing import GameChunk, split_games
from rulesbook.textio import shorten, visible_controls

__all__ = ["Column", "GameListEntry", "game_list", "filter_games", "sort_games",
           "record_defect", "defect_of", "scan_defects", "yield_to_others", "split_games"]

#: the longest cell shown (a tag may be 10,000 characters)
CELL_CHARS = 120
#: how much lower a background scan process runs (:func:`yield_to_others`)
BACKGROUND_NICE = 10


class Column(enum.IntEnum):
    """The columns of the list, in order; ``tag`` is the PDN tag each shows."""

    WHITE = 0
    BLACK = 1
    EVENT = 2
    DATE = 3
    ROUND = 4
    RESULT = 5

    @property
    def tag(self) -> str:
        return self.name.capitalize()

    @property
    def title(self) -> str:
        return self.tag


@dataclass(frozen=True)
class GameListEntry:
    """One game of the list: its number in the file (0-based ``index``), the
    tags shown (unknown ones ``""``) and the record's defect, ``""`` when none is
    known (see :func:`record_defect`)."""

    index: int
    cells: tuple[str, ...]
    haystack: str
    first_line: int = 1
    defect: str = ""

    def cell(self, column: Column) -> str:
        return self.cells[column]

    @property
    def white(self) -> str:
        return self.cells[Column.WHITE]

    @property
    def black(self) -> str:
        return self.cells[Column.BLACK]

    def with_defect(self, defect: str) -> GameListEntry:
        return GameListEntry(self.index, self.cells, self.haystack, self.first_line, defect)


def _cell(tags: dict[str, str], tag: str) -> str:
    value = tags.get(tag, "").strip()
    if not value or set(value) <= set("?."):  # "?", "????.??.??": unknown
        return ""
    return shorten(visible_controls(value), CELL_CHARS)


def game_list(chunks: Sequence[GameChunk]) -> list[GameListEntry]:
    """The list's entries of the games ``chunks`` (from :func:`split_games`)."""
    out = []
    for chunk in chunks:
        cells = tuple(_cell(chunk.tags, column.tag) for column in Column)
        haystack = "\n".join(cells).casefold()
        out.append(GameListEntry(chunk.index, cells, haystack, chunk.first_line))
    return out


def filter_games(entries: Sequence[GameListEntry], query: str) -> list[int]:
    """The positions in ``entries`` of the games that match ``query``: every word
    of it is found in some column (case-insensitive); an empty query matches all."""
    words = query.casefold().split()
    if not words:
        return list(range(len(entries)))
    return [i for i, entry in enumerate(entries)
            if all(word in entry.haystack for word in words)]


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
