"""Reading a game record as written: a PDN file or a plain list of moves.

A referee's record is often a scoresheet typed in by hand (``11-15 23-19 8-11
22-17``, with or without move numbers) or a PDN file.  Either way the result
is a list of :class:`Record` whose moves are kept *as written* (with their
line and column), so that :func:`rulesbook.reconstruct.replay` can say which
one is wrong and why; nothing is resolved against the rules here.

>>> [m.text for m in parse_moves_text("1. 11-15 23-19 2. 8-11 22-17 *")]
['11-15', '23-19', '8-11', '22-17']
"""
from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol, TextIO, cast

from rulesbook.draughts import DraughtsError, Position, Variant
from rulesbook.draughts.notation import NotationError, Token, TokenKind, read_move, tokenize
from rulesbook.draughts.pdn import build_game
from rulesbook.draughts.pdn_syntax import (
    MAX_PLIES,
    PdnNode,
    RawGame,
    SyntaxReader,
    normalize_result,
)
from rulesbook.draughts.pdn_variant import VariantGuess, settled
from rulesbook.textio import shorten

__all__ = ["WrittenMove", "Record", "RecordError", "parse_moves_text", "read_records",
           "iter_records", "looks_like_pdn", "MAX_MOVES_TEXT_CHARS", "is_move_text",
           "check_importable", "no_move_problem", "written_squares"]


class RecordError(DraughtsError):
    """A record that cannot be used at all (no moves, no games)."""


@dataclass(frozen=True)
class WrittenMove:
    """One move as written on the scoresheet, and where (1-based; 0 = unknown)."""

    text: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Record:
    """One game as written: its tags, variant, start position and moves.

    ``problems`` are the record's own errors (syntax, a bad FEN or game type)
    as ``"line L col C: message"``; illegal moves are not problems of the
    record, :func:`~rulesbook.reconstruct.replay` finds them.  ``start`` is
    None when the start position could not be read (see ``problems``).
    ``variant_guess`` says why a PDN game without a GameType tag is read in its
    variant (None when the tag or the caller chose it).
    """

    moves: tuple[WrittenMove, ...]
    variant: Variant = field(default_factory=lambda: Variant.named("pool"))
    start: Position | None = None
    tags: dict[str, str] = field(default_factory=dict, compare=False)
    result: str = "*"
    problems: tuple[str, ...] = ()
    variant_guess: VariantGuess | None = field(default=None, compare=False)

    @property
    def texts(self) -> list[str]:
        return [m.text for m in self.moves]


def written_squares(text: str) -> tuple[int, ...] | None:
    """The squares a move text names (``9-13``, ``10x19x26``, ``c3-d4``), read as
    written whether legal or not (by :func:`rulesbook.draughts.notation.read_move`);
    None when it cannot be read or gives no start square (the short form ``ed4``).

    >>> written_squares("10x19x26"), written_squares("good")
    ((10, 19, 26), None)
    """
    try:
        written = read_move(text)
    except NotationError:
        return None
    return None if written.start is None else written.squares


def _moves(tokens: Iterable[Token]) -> list[WrittenMove]:
    return [WrittenMove(t.text, t.line, t.col) for t in tokens if t.is_move]


def parse_moves_text(text: str) -> list[WrittenMove]:
    """The moves of a plain text record, as written, split by
    :func:`rulesbook.draughts.notation.tokenize`: move numbers (``12.``,
    ``12...``), results, ``{comments}``, ``; comments``, ``(variations)`` (moves
    not played), annotations and commas are skipped; every other word is a move
    text (possibly unreadable, which replay reports), and so is a bracket never
    matched."""
    return _moves(tokenize(text))


def looks_like_pdn(text: str) -> bool:
    """True when ``text`` has PDN tags (``[Event "..."]``)."""
    return re.search(r'^\s*\[\s*[A-Za-z0-9_]+\s*"', text, re.MULTILINE) is not None


def _span(nodes: Iterable[PdnNode], acc: list[tuple[tuple[int, int], tuple[int, int]]]) -> None:
    for node in nodes:
        for line in node.variations:
            if line:
                positions: list[tuple[int, int]] = []
                stack = list(line)
                while stack:
                    n = stack.pop()
                    positions.append((n.line, n.col))
                    for sub in n.variations:
                        stack.extend(sub)
                acc.append((min(positions), max(positions)))


#: Characters read first to tell a PDN file from a plain list of moves.
PDN_SNIFF_CHARS = 1_000_000
#: Longest plain list of moves (one game, read whole).
MAX_MOVES_TEXT_CHARS = 4_000_000


class TextSource(Protocol):
    """What :func:`iter_records` reads from: an open text file or a StringIO."""

    def read(self, size: int = -1, /) -> str: ...
    def readline(self, size: int = -1, /) -> str: ...


class _Prefixed:
    """A text stream whose first characters were already read (``head``)."""

    def __init__(self, head: str, rest: TextSource) -> None:
        self._head = io.StringIO(head)
        self._head_left = bool(head)
        self._rest = rest

    def readline(self, limit: int = -1) -> str:
        if self._head_left:
            line = self._head.readline(limit)
            if line.endswith("\n") or (limit >= 0 and len(line) >= limit):
                return line
            self._head_left = False
            more = self._rest.readline(limit - len(line) if limit >= 0 else -1)
            return line + more
        return self._rest.readline(limit)


def _record(raw: RawGame, default: Variant | None,
            guess: VariantGuess | None = None) -> Record:
    syntax_errors = list(raw.errors)
    game = build_game(raw, default, guess)
    tag_places = set(raw.tag_pos.values())
    problems: list[str] = []
    junk: list[WrittenMove] = []
    for error in syntax_errors:
        if error.token is not None:  # unreadable text: a move replay will reject
            junk.append(WrittenMove(error.token, error.line, error.col))
        else:
            problems.append(f"line {error.line} col {error.col}: {error.message}")
    for error in game.errors:
        if error in syntax_errors:
            continue
        if (error.line, error.col) in tag_places:  # bad FEN or GameType
            problems.append(f"line {error.line} col {error.col}: {error.message}")
    spans: list[tuple[tuple[int, int], tuple[int, int]]] = []
    _span(raw.mainline, spans)
    moves = [WrittenMove(n.text, n.line, n.col) for n in raw.mainline]
    for item in junk:
        where = (item.line, item.col)
        if any(lo <= where <= hi for lo, hi in spans):
            continue  # inside a variation: not part of the game
        if item.text.lstrip().startswith("["):  # a broken tag (cut by a limit): no move
            problems.append(f"line {item.line} col {item.col}: broken tag "
                            f"{shorten(item.text)!r}: it is not a move")
            continue
        moves.append(item)
    moves.sort(key=lambda m: (m.line, m.col))
    start = game.start
    fen_at = raw.tag_pos.get("FEN")
    if fen_at is not None and any((e.line, e.col) == fen_at for e in game.errors):
        start = None
    return Record(tuple(moves), game.variant, start, dict(raw.tags), game.result,
                  tuple(problems), game.variant_guess)


def _start(handle: TextSource) -> int | None:
    """Where ``handle`` is now when it can be read again from there (a file), else None."""
    try:
        if getattr(handle, "seekable", lambda: False)():
            return int(handle.tell())  # type: ignore[attr-defined]
    except (OSError, ValueError):
        pass
    return None


def iter_records(handle: TextSource, variant: str | Variant | None = None, *,
                 first_line: int = 1) -> Iterator[Record]:
    """Every game of the text stream ``handle``, one at a time (memory does not
    grow with the number of games): PDN when the first
    :data:`PDN_SNIFF_CHARS` characters have tags, otherwise one plain list of
    moves of at most :data:`MAX_MOVES_TEXT_CHARS` characters.

    ``variant`` is for games without a ``GameType`` tag; None: a PDN game is read
    in the variant in which the whole record is legal (pool first, see
    :func:`~rulesbook.draughts.pdn_variant.guess_variant`), a plain list of moves
    (no tags to tell) as pool.

    Raises :class:`RecordError` when there is no game at all or a plain list
    is too long, and :class:`~rulesbook.draughts.pdn_syntax.PdnLimitError`
    past the PDN reader's game limit.  ``first_line``: the file's line number of
    the text's first line (a part of a file keeps the file's line numbers)."""
    given = Variant.named(variant) if variant is not None else None
    default = given if given is not None else Variant.named("pool")
    start_at = _start(handle)
    head = handle.read(PDN_SNIFF_CHARS)
    if not looks_like_pdn(head):
        rest = handle.read(MAX_MOVES_TEXT_CHARS + 1 - len(head)) if \
            len(head) == PDN_SNIFF_CHARS else ""
        text = head + rest
        if len(text) > MAX_MOVES_TEXT_CHARS:
            raise RecordError(f"a list of moves without PDN tags may be at most "
                              f"{MAX_MOVES_TEXT_CHARS:,} characters (the limit); this one "
                              f"is longer")
        tokens = tokenize(text)
        moves = _moves(tokens)
        results = [t.text for t in tokens if t.kind is TokenKind.RESULT]
        if not moves:
            raise RecordError("the record has no moves")
        if len(moves) > MAX_PLIES:
            raise RecordError(f"more than {MAX_PLIES:,} moves in one game (the limit): move "
                              f"{MAX_PLIES + 1:,} is at line {moves[MAX_PLIES].line} col "
                              f"{moves[MAX_PLIES].col}")
        yield Record(tuple(moves), default, Position.start(default), {},
                     normalize_result(results[-1]) if results else "*", ())
        return
    found = False
    prefixed = cast(TextIO, _Prefixed(head, handle))  # SyntaxReader reads lines only
    # a game legal in several variants takes the one the file's other games need
    again = None
    if start_at is not None:
        def again() -> Iterable[RawGame]:
            handle.seek(start_at)  # type: ignore[attr-defined]
            return SyntaxReader(cast(TextIO, handle), first_line=first_line)
    for raw, guess in settled(SyntaxReader(prefixed, first_line=first_line),
                              lambda: given is None, again):
        found = True
        yield _record(raw, given, guess)
    if not found:
        raise RecordError("the file has no game")


def read_records(text: str, variant: str | Variant | None = None, *,
                 first_line: int = 1) -> list[Record]:
    """Every game of ``text``: PDN when it has tags, otherwise one plain list of moves.

    ``variant`` is used for games without a ``GameType`` tag (None: as
    :func:`iter_records` says).  Raises :class:`RecordError` when there is no game at all (see
    :func:`iter_records`, which reads a stream game by game).
    """
    return list(iter_records(io.StringIO(text), variant, first_line=first_line))


def is_move_text(text: str) -> bool:
    """True when ``text`` is written as a move could be (``11-15``, ``15x24x31``,
    ``c3-d4``, ``ed4``): :func:`rulesbook.draughts.notation.read_move` reads it.
    Whether it is legal is for :func:`~rulesbook.reconstruct.replay` to say."""
    try:
        read_move(text)
    except NotationError:
        return False
    return True


def no_move_problem(record: Record) -> str | None:
    """Why ``record`` cannot be used at all, or None: it holds no move that can be
    read (random bytes, ``hello world 99-100``) and no set-up position. The
    message says what was found, at which line and column. A record with one
    readable move is usable (its bad moves are for replay to show). The one
    check of the app's import and of ``replay`` / ``rulings --from-game``."""
    if any(is_move_text(m.text) for m in record.moves):
        return None
    if "FEN" in record.tags:
        return None  # a position to start from, with no move yet
    if not record.moves:
        return ("no move can be read in it: it holds no move text (moves are "
                "written 11-15 or 15x24)")
    first = record.moves[0]
    where = f"line {first.line} col {first.col}: " if first.line else ""
    more = len(record.moves) - 1
    return (f"no move can be read in it: {where}{shorten(first.text)!r} is not a move"
            + (f" (nor are the {more} other word(s))" if more else "")
            + "; moves are written 11-15 or 15x24")


def check_importable(record: Record) -> None:
    """Raise :class:`RecordError` with :func:`no_move_problem`'s message when
    ``record`` holds no move that can be read and no set-up position."""
    problem = no_move_problem(record)
    if problem is not None:
        raise RecordError(problem)
