"""What the board's move entry adds: the moves typed up to the first word that
cannot be read as a move.

A move typed that is legal or not is kept as written (Check Record says what
is wrong with it); a word that no notation reads (``garbage``, ``11-33``,
``22-18x``) is no move at all.  It is not added, nor is anything typed after
it (the moves after it would fall to the wrong side): :func:`typed_entry`
names it with the notation module's reason and gives back the text from it on,
for the user to correct.

>>> entry = typed_entry("11-15 23-19 8-1l 22-17")
>>> [m.text for m in entry.moves], entry.unreadable.text, entry.rest
(['11-15', '23-19'], '8-1l', '8-1l 22-17')
>>> print(entry.unreadable)
'8-1l' cannot be read as a move: unknown square '1l': use 1-32 or a1-h8
"""
from __future__ import annotations

from dataclasses import dataclass

from rulesbook.draughts.notation import NotationError, read_move, tokenize
from rulesbook.reconstruct.importing import typed_moves
from rulesbook.reconstruct.session import RecordMove

__all__ = ["TypedEntry", "UnreadableMove", "typed_entry"]


@dataclass(frozen=True)
class UnreadableMove:
    """A word typed in a move's place that cannot be read as a move: ``text`` as
    typed, ``reason`` what is wrong with it (the notation module's words),
    ``offset`` where it starts in the text typed."""

    text: str
    reason: str
    offset: int

    def __str__(self) -> str:
        return str(NotationError(self.text, self.reason))


@dataclass(frozen=True)
class TypedEntry:
    """The moves to add (each with the comments typed after it), the comment
    typed before the first one, and the first word that cannot be read as a
    move (None: every word could be) with ``rest``, the text typed from that
    word on ("" when there is none)."""

    moves: tuple[RecordMove, ...]
    before: str
    unreadable: UnreadableMove | None = None
    rest: str = ""


def _line_starts(text: str) -> list[int]:
    """The offset of each line's first character, lines broken as ``tokenize``
    breaks them (``str.splitlines``)."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def typed_entry(text: str) -> TypedEntry:
    """The moves of ``text`` (typed or pasted into the move entry) up to the first
    word that cannot be read as a move, as :func:`typed_moves` reads them."""
    starts: list[int] | None = None
    for token in tokenize(text):
        if not token.is_move:
            continue
        try:
            read_move(token.text)
        except NotationError as exc:
            starts = starts or _line_starts(text)
            offset = starts[token.line - 1] + token.col - 1
            moves, before = typed_moves(text[:offset])
            return TypedEntry(moves, before, UnreadableMove(token.text, exc.explanation, offset),
                              text[offset:])
    moves, before = typed_moves(text)
    return TypedEntry(moves, before)
