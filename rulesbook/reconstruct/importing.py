"""Importing a record into the board: the games of a PDN file (split quickly,
for a chooser) and one game read as a :class:`~rulesbook.reconstruct.session.GameRecord`
with its comments and variations, or a plain list of moves.

>>> imported = import_record("1. 11-15 {good} 23-19 *")
>>> [m.text for m in imported.record.moves], imported.problems
(['11-15', '23-19'], ())
"""
from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesbook.draughts import DraughtsError, Variant
from rulesbook.draughts.notation import TokenKind, tokenize
from rulesbook.draughts.pdn import iter_games
from rulesbook.draughts.pdn_model import RawGame
from rulesbook.draughts.pdn_syntax import SyntaxReader
from rulesbook.draughts.pdn_variant import VariantGuess, settled
from rulesbook.reconstruct.record import (
    RecordError,
    check_importable,
    looks_like_pdn,
    parse_moves_text,
    read_records,
)
from rulesbook.reconstruct.session import GameRecord, RecordMove
from rulesbook.textio import visible_controls

__all__ = ["GameChunk", "ImportedRecord", "split_games", "node_line_text", "import_record",
           "plain_text_notes", "file_variant_guess"]


@dataclass(frozen=True)
class GameChunk:
    """One game of a PDN file: a title for the chooser and its text."""

    index: int
    title: str
    text: str
    first_line: int
    tags: dict[str, str] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class ImportedRecord:
    """A record read for the board, and the record's own problems (syntax, a bad
    FEN or game type) as ``"line L col C: message"``.  ``variant_guess``: why a
    PDN game without a GameType tag was read in its variant (None when the tag
    or the caller chose it; :meth:`variant_note` says it in words)."""

    record: GameRecord
    problems: tuple[str, ...] = ()
    variant_guess: VariantGuess | None = None
    #: True when the record is PDN without a (known) GameType tag: its variant
    #: was guessed or chosen by the caller, and may be changed
    untyped: bool = False


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]')


def split_games(text: str) -> list[GameChunk]:
    """The games of a PDN text without resolving any move (fast for big files):
    a game starts at a tag line that follows a non-tag line."""
    lines = text.splitlines(keepends=True)
    starts: list[int] = []
    prev_tag = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        is_tag = stripped.startswith("[") and _TAG.match(stripped) is not None
        if is_tag and not prev_tag:
            starts.append(i)
        prev_tag = is_tag
    if not starts:
        return [GameChunk(0, "Game 1", text, 1)] if text.strip() else []
    starts[0] = 0  # a comment block before the first tags belongs to the first game
    out = []
    for k, begin in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        chunk = "".join(lines[begin:end])
        tags = {m.group(1): m.group(2) for m in _TAG.finditer(chunk[:4000])}
        players = " – ".join(visible_controls(tags.get(t, "?")) for t in ("Black", "White"))
        bits = [f"{k + 1}.", players]
        for key in ("Event", "Date"):
            value = tags.get(key, "")
            if value and value != "?" and not value.startswith("?"):
                bits.append(f"· {visible_controls(value)}")
        result = tags.get("Result", "")
        if result and result != "*":
            bits.append(f"· {result}")
        out.append(GameChunk(k, " ".join(bits), chunk, begin + 1, tags))
    return out


def node_line_text(nodes: Any, depth: int = 0) -> str:
    """A variation (list of PdnNode) as PDN-like text, nested variations in brackets."""
    words = []
    for node in nodes:
        if node.pre_comment:
            words.append("{" + node.pre_comment + "}")
        words.append(node.text)
        if node.comment:
            words.append("{" + node.comment + "}")
        if depth < 8:
            for sub in node.variations:
                if sub:
                    words.append("(" + node_line_text(sub, depth + 1) + ")")
    return " ".join(words)


Notes = dict[tuple[int, int], tuple[str, tuple[str, ...]]]


def plain_text_notes(text: str) -> tuple[Notes, str]:
    """The comments and variations of a plain list of moves, as a PDN game keeps
    them: ``{(line, col) of a move: (its comment, its variations)}`` (the
    comments and ``( )`` written after the move, as
    :func:`rulesbook.draughts.notation.tokenize` finds them), and the comment
    written before the first move (the game's)."""
    comments: dict[tuple[int, int], list[str]] = {}
    variations: dict[tuple[int, int], list[str]] = {}
    before: list[str] = []
    last: tuple[int, int] | None = None
    for token in tokenize(text):
        if token.is_move:
            last = (token.line, token.col)
        elif token.kind is TokenKind.COMMENT:
            body = (token.text[1:-1] if token.text.startswith("{") else token.text[1:]).strip()
            if body:
                (before if last is None else comments.setdefault(last, [])).append(body)
        elif token.kind is TokenKind.VARIATION and last is not None:
            variations.setdefault(last, []).append(token.text[1:-1].strip())
    notes = {key: (" ".join(comments.get(key, ())), tuple(variations.get(key, ())))
             for key in comments.keys() | variations.keys()}
    return notes, " ".join(before)


def typed_moves(text: str) -> tuple[tuple[RecordMove, ...], str]:
    """The moves a user typed or pasted into the move entry (``11-15 {the
    usual} 23-19 (22-18) 8-11``), each with the comment and variations written
    after it, and the comment written before the first move: nothing typed is
    lost.  The moves keep no place (they were typed, not read from a file)."""
    notes, before = plain_text_notes(text)
    moves = tuple(RecordMove(w.text, *notes.get((w.line, w.col), ("", ())))
                  for w in parse_moves_text(text))
    return moves, before


def import_record(text: str, index: int = 0,
                  variant: str | Variant | None = None) -> ImportedRecord:
    """Game ``index`` of a PDN text, or a plain move list, as the board keeps it.
    A PDN game without a GameType tag is read as ``variant``; when that is None,
    in the variant in which the whole record is legal (pool first, see
    :func:`~rulesbook.draughts.pdn_variant.guess_variant`). A plain move list is
    read as ``variant`` (default pool).  Raises
    :class:`~rulesbook.reconstruct.record.RecordError` (a DraughtsError) when there
    is no such game, no move of it can be read or its start position cannot be read."""
    chosen = Variant.named(variant) if variant is not None else None
    notes: Notes = {}
    comment = ""
    untyped = False
    if looks_like_pdn(text):
        chunks = split_games(text)
        if not chunks:
            raise RecordError("the file has no game")
        if not 0 <= index < len(chunks):
            raise RecordError(f"the file has {len(chunks)} games; there is no game "
                              f"{index + 1}")
        chunk = chunks[index]
        line = chunk.first_line  # errors and moves keep the file's line numbers
        read = read_records(chunk.text, chosen, first_line=line)[0]
        guess = read.variant_guess
        if chosen is None and guess is not None and len(guess.contenders) > 1 \
                and len(chunks) > 1:
            # legal in several variants (or, legal in none, going furthest in several):
            # the one the file's other games need, as the command line reads the file
            # (then the app's default); the note says why
            settled_guess = file_variant_guess(chunks, index)
            if settled_guess is not None:
                if settled_guess.chosen != read.variant:
                    read = read_records(chunk.text, settled_guess.chosen, first_line=line)[0]
                read = dataclasses.replace(read, variant_guess=settled_guess)
        untyped = read.variant_guess is not None or not _known_gametype(read.tags)
        game = next(iter(iter_games(chunk.text, read.variant, first_line=line)), None)
        if game is not None:
            comment = game.comment
            for node in game.mainline:
                variations = tuple(node_line_text(v) for v in node.variations if v)
                notes[(node.line, node.col)] = (node.comment, variations)
    else:
        read = read_records(text, chosen or Variant.named("pool"))[0]
        notes, comment = plain_text_notes(text)
    check_importable(read)  # at least one readable move (or a set-up position)
    if read.start is None:
        raise RecordError("; ".join(read.problems) or "the start position cannot be read")
    moves = tuple(RecordMove(m.text, *notes.get((m.line, m.col), ("", ())), m.line, m.col)
                  for m in read.moves)
    record = GameRecord(read.variant, read.start, moves, read.tags, read.result, comment)
    return ImportedRecord(record, read.problems, read.variant_guess, untyped)


def _chunk_games(chunks: Sequence[GameChunk]) -> Iterator[RawGame]:
    """The raw game of each chunk, in the file's order (an empty game for a part of
    the file that holds none: it tells no variant, and the numbering stays the chooser's)."""
    for chunk in chunks:
        raw = SyntaxReader(io.StringIO(chunk.text), first_line=chunk.first_line).read()
        yield raw if raw is not None else RawGame(line=chunk.first_line)


def file_variant_guess(chunks: Sequence[GameChunk], index: int) -> VariantGuess | None:
    """The variant game ``index`` of a file is read in when its GameType tag does not
    name one, settled by the file's other games as the command line settles it
    (:func:`~rulesbook.draughts.pdn_variant.settled`: a game legal in several variants
    takes the one the file's other games need, every game of the file that tells the
    variants apart counted; on a tie, or when none tells, the app's default). None
    when the game's GameType tag is there.

    Every game of the file is read once (each untyped one played in every variant):
    linear in the file."""
    for i, (_raw, guess) in enumerate(settled(_chunk_games(chunks))):
        if i == index:
            return guess
    raise RecordError(f"the file has {len(chunks)} games; there is no game {index + 1}")


def _known_gametype(tags: dict[str, str]) -> bool:
    gametype = tags.get("GameType", "")
    if not gametype.strip():
        return False
    try:
        Variant.from_gametype(gametype)
    except DraughtsError:
        return False
    return True
