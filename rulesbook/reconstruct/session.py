"""The referee's work at the board, as data: the record being kept and the
session around it (the set-up position, the board now, the notes).

Both are frozen: every edit makes a new value, so undo is a list of old
values and the autosave is :meth:`BoardSession.to_dict`.  The case file
(:mod:`rulesbook.reconstruct.case`) reads and writes a session.

>>> rec = GameRecord.empty("pool").with_moves([RecordMove("11-15"), RecordMove("23-19")])
>>> [m.text for m in rec.moves], rec.ply_prefix(2)
(['11-15', '23-19'], '1…')
>>> GameRecord.from_dict(rec.to_dict()) == rec
True
"""
from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rulesbook.draughts import Position, Variant
from rulesbook.reconstruct.record import WrittenMove
from rulesbook.reconstruct.replay import move_number, replay

if TYPE_CHECKING:
    from rulesbook.draughts.pdn import PdnGame
    from rulesbook.draughts.pdn_variant import VariantGuess
    from rulesbook.reconstruct.replay import Replay

__all__ = ["RecordMove", "GameRecord", "BoardSession", "SessionError", "record_pdn",
           "record_case_text", "move_number"]

#: tags that only say how the record is read (they need no PDN to be kept)
_READING_TAGS = ("GameType", "Result", "FEN", "SetUp", "Setup")


class SessionError(ValueError):
    """A saved session (autosave) that cannot be read back, with the reason."""


@dataclass(frozen=True)
class RecordMove:
    """One move of the record as written (legal or not), with its PDN comment,
    its variations (as PDN text) and where it was read (1-based; 0 = typed)."""

    text: str
    comment: str = ""
    variations: tuple[str, ...] = ()
    line: int = 0
    col: int = 0

    @property
    def written(self) -> WrittenMove:
        """The move as :func:`~rulesbook.reconstruct.replay` reads it (made once: the
        replay after each edit of a record of 60,000 plies asks every move for it)."""
        try:
            return self.__dict__["_written"]  # type: ignore[no-any-return]
        except KeyError:
            made = WrittenMove(self.text, self.line, self.col)
            object.__setattr__(self, "_written", made)  # a cache, not a field
            return made

    @property
    def annotated(self) -> bool:
        return bool(self.comment or self.variations)

    def with_comment(self, comment: str) -> RecordMove:
        return dataclasses.replace(self, comment=comment)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text}
        if self.comment:
            out["comment"] = self.comment
        if self.variations:
            out["variations"] = list(self.variations)
        return out

    @property
    def _saved(self) -> dict[str, Any]:
        """:meth:`to_dict`, made once and shared: what :meth:`GameRecord.to_dict`
        lists (the autosave's JSON, written at every edit: 60,000 new dicts per
        typed move made it slow); read by the JSON writer, never changed."""
        try:
            return self.__dict__["_saved_dict"]  # type: ignore[no-any-return]
        except KeyError:
            made = self.to_dict()
            object.__setattr__(self, "_saved_dict", made)  # a cache, not a field
            return made

    @property
    def _saved_json(self) -> str:
        """:meth:`to_dict` as JSON text, made once (:meth:`GameRecord.moves_json`)."""
        try:
            return self.__dict__["_saved_text"]  # type: ignore[no-any-return]
        except KeyError:
            made = json.dumps(self._saved, ensure_ascii=False)
            object.__setattr__(self, "_saved_text", made)  # a cache, not a field
            return made

    @classmethod
    def from_dict(cls, data: object) -> RecordMove:
        """From :meth:`to_dict` or a bare move text; raises :class:`SessionError`."""
        if isinstance(data, str):
            return cls(data)
        if not isinstance(data, Mapping) or not isinstance(data.get("text"), str):
            raise SessionError(f"a move must be a text or have a text, not {data!r:.60}")
        variations = data.get("variations") or ()
        if not isinstance(variations, (list, tuple)) or \
                not all(isinstance(v, str) for v in variations):
            raise SessionError("the variations of a move must be a list of texts")
        return cls(data["text"], _text(data, "comment"), tuple(variations))


def _text(data: Mapping[str, Any], key: str, default: str = "") -> str:
    """``data[key]`` when it is a text (missing or null: ``default``)."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise SessionError(f"{key} must be a text, not {value!r:.40}")
    return value


def _frozen_tags(tags: Mapping[str, object] | None) -> Mapping[str, str]:
    return MappingProxyType({str(k): str(v) for k, v in (tags or {}).items()})


@dataclass(frozen=True)
class GameRecord:
    """One game as the referee keeps it: variant, start, the moves as written
    (with comments and variations), the PDN tags, the result and the game comment."""

    variant: Variant
    start: Position
    moves: tuple[RecordMove, ...] = ()
    tags: Mapping[str, str] = field(default_factory=lambda: _frozen_tags(None))
    result: str = "*"
    comment: str = ""

    def __post_init__(self) -> None:
        # a read-only view of a private copy: the record cannot change under its owner
        object.__setattr__(self, "tags", _frozen_tags(self.tags))
        object.__setattr__(self, "moves", tuple(self.moves))
        if self.start.variant != self.variant:
            object.__setattr__(self, "start",
                               Position(self.start.pieces(), self.start.turn, self.variant))

    @classmethod
    def empty(cls, variant: str | Variant = "pool", start: Position | None = None) -> GameRecord:
        chosen = Variant.named(variant)
        return cls(chosen, start if start is not None else Position.start(chosen))

    @classmethod
    def from_pdn_game(cls, game: PdnGame) -> GameRecord:
        """A game the PDN reader read: its main line as written, with the comments
        (variations are left out), tags, result and game comment."""
        start = game.start if game.start is not None else Position.start(game.variant)
        moves = tuple(RecordMove(n.text, n.comment, line=n.line, col=n.col)
                      for n in game.mainline)
        return cls(game.variant, start, moves, game.tags, game.result, game.comment)

    # -- reading --------------------------------------------------------------
    @property
    def written(self) -> list[WrittenMove]:
        """The moves as :func:`~rulesbook.reconstruct.replay` reads them."""
        return [m.written for m in self.moves]

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(m.text for m in self.moves)

    @property
    def starts_at_standard(self) -> bool:
        return self.start == Position.start(self.variant)

    def move_number(self, ply: int) -> int:
        return move_number(self.start, ply)

    def ply_prefix(self, ply: int, dots: str = "…") -> str:
        """``"4."`` when the first player made ``ply``, ``"4…"`` (``dots``) otherwise."""
        first_moves = (ply % 2 == 1) == (self.start.turn is self.variant.first_player)
        return f"{self.move_number(ply)}{'.' if first_moves else dots}"

    def tag(self, name: str) -> str:
        """A tag's value; empty when missing or unknown (``?``)."""
        value = self.tags.get(name, "")
        return "" if value.startswith("?") else value

    # -- editing (each returns a new record) -------------------------------------
    def replace(self, **changes: Any) -> GameRecord:
        return dataclasses.replace(self, **changes)

    def with_moves(self, moves: Iterable[RecordMove]) -> GameRecord:
        return dataclasses.replace(self, moves=tuple(moves))

    def spliced(self, at: int, moves: Iterable[RecordMove]) -> GameRecord:
        """The moves up to ply ``at`` kept, everything after replaced by ``moves``."""
        return self.with_moves(self.moves[:at] + tuple(moves))

    def with_comment(self, ply: int, comment: str) -> GameRecord:
        moves = list(self.moves)
        moves[ply - 1] = moves[ply - 1].with_comment(comment)
        return self.with_moves(moves)

    def in_variant(self, variant: str | Variant) -> GameRecord:
        """The record read under ``variant``; the standard start follows it."""
        new = Variant.named(variant)
        start = Position.start(new) if self.starts_at_standard else \
            Position(self.start.pieces(), self.start.turn, new)
        return dataclasses.replace(self, variant=new, start=start)

    # -- the autosave's JSON ---------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The record as JSON data (its moves' dicts are shared between calls: to be
        written out, not changed)."""
        return {"variant": self.variant.name, "start": self.start.fen(),
                "moves": [m._saved for m in self.moves], "tags": dict(self.tags),
                "result": self.result, "comment": self.comment}

    def moves_json(self) -> str:
        """The ``moves`` of :meth:`to_dict` as JSON text (compact, not ASCII-only),
        each move's text made once: the autosave of a record of 60,000 plies,
        written at every edit, encoded only the moves that changed (json.dumps of
        the whole list took 20-45 ms on the GUI thread each time)."""
        return "[" + ", ".join(m._saved_json for m in self.moves) + "]"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """From :meth:`to_dict`; raises :class:`SessionError` or a DraughtsError."""
        variant = Variant.named(_text(data, "variant", "pool") or "pool")
        fen = data.get("start") or Position.start(variant).fen()
        if not isinstance(fen, str):
            raise SessionError("the start position must be a FEN text")
        moves = data.get("moves") or []
        if not isinstance(moves, list):
            raise SessionError("the moves must be a list")
        tags = data.get("tags") or {}
        if not isinstance(tags, Mapping) or \
                not all(isinstance(v, str) for v in (*tags, *tags.values())):
            raise SessionError("the tags must be a mapping of texts to texts")
        return cls(variant, Position.from_fen(fen, variant, check=False),
                   tuple(RecordMove.from_dict(m) for m in moves), tags,
                   _text(data, "result", "*") or "*", _text(data, "comment"))


@dataclass(frozen=True)
class BoardSession:
    """The referee's work at the board: the record, the position being set up,
    the board now (the target of gap filling), the notes and whether illegal
    moves are let stand."""

    record: GameRecord
    setup: Position | None = None
    target: Position | None = None
    notes: str = ""
    let_stand: bool = False

    def replace(self, **changes: Any) -> BoardSession:
        return dataclasses.replace(self, **changes)

    def setup_position(self) -> Position:
        """The position being set up (the record's start until one is set up)."""
        base = self.setup if self.setup is not None else self.record.start
        return Position(base.pieces(), base.turn, self.record.variant)

    def in_variant(self, variant: str | Variant) -> BoardSession:
        new = Variant.named(variant)
        target = None if self.target is None else \
            Position(self.target.pieces(), self.target.turn, new)
        return dataclasses.replace(self, record=self.record.in_variant(new), target=target)

    def to_dict(self) -> dict[str, Any]:
        data = self.record.to_dict()
        data.update({"setup": self.setup_position().fen(),
                     "gap_target": self.target.fen() if self.target is not None else None,
                     "let_stand": self.let_stand, "notes": self.notes})
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BoardSession:
        """From :meth:`to_dict`; raises :class:`SessionError` or a DraughtsError."""
        record = GameRecord.from_dict(data)
        setup = data.get("setup")
        target = data.get("gap_target")
        for name, value in (("setup", setup), ("gap_target", target)):
            if value is not None and not isinstance(value, str):
                raise SessionError(f"{name} must be a FEN text")
        let_stand = data.get("let_stand", False)
        if not isinstance(let_stand, bool):
            raise SessionError("let_stand must be true or false")
        return cls(record,
                   Position.from_fen(setup, record.variant, check=False) if setup else None,
                   Position.from_fen(target, record.variant, check=False) if target else None,
                   _text(data, "notes"), let_stand)


def _variation_nodes(text: str) -> list[Any]:
    """A variation kept as PDN text, read back into nodes (moves as written)."""
    from rulesbook.draughts.pdn_syntax import SyntaxReader

    games = list(SyntaxReader(io.StringIO(text + " *")))
    return list(games[0].mainline) if games else []


def record_pdn(record: GameRecord, as_written: bool = False,
               variant_guess: VariantGuess | None = None, stamp_variant: bool = True,
               previous: Replay | None = None) -> str:
    """The record as PDN text: the legal moves in the standard form, for other
    programs (or, ``as_written``, every move as it was written), the rest as
    written. ``variant_guess``: the record had no GameType tag and its variant was
    read from its moves; then no GameType is written (the writer never stamps a
    guess, :func:`~rulesbook.draughts.pdn.write_game`); ``stamp_variant=False``: the
    GameType the record had, or none. ``previous``: a replay of the record (or of an
    earlier version of it) with illegal moves let stand, as the board keeps one:
    the moves it replayed are taken over, not replayed again (:func:`replay`'s
    ``previous``: the same text; saving a long record does not replay it)."""
    from rulesbook.draughts.pdn import PdnGame, PdnNode, write_game

    played = replay(record.written, start=record.start, variant=record.variant,
                    let_stand=True, result=record.result, previous=previous).played
    nodes = []
    resolved = True
    for i, m in enumerate(record.moves):
        move = played[i] if resolved and i < len(played) else None
        resolved = move is not None
        nodes.append(PdnNode(m.text, move=move, comment=m.comment,
                             variations=[_variation_nodes(v) for v in m.variations]))
    game = PdnGame(tags=dict(record.tags), variant=record.variant, start=record.start,
                   mainline=nodes, result=record.result, comment=record.comment,
                   variant_guess=variant_guess)
    return write_game(game, as_written, stamp_variant=stamp_variant)


def record_case_text(record: GameRecord, previous: Replay | None = None) -> str:
    """The record as a case file keeps it: a plain move list, or PDN text when
    the record has comments, variations or tags (so that nothing typed is lost),
    every move as it was written (how a scoresheet wrote a move is evidence), with the
    GameType the record had or none (the case file says the variant itself: a variant
    read from the moves is never stamped into the record). ``previous``: as for
    :func:`record_pdn`."""
    if record.comment or any(m.annotated for m in record.moves) or \
            any(k not in _READING_TAGS for k in record.tags):
        return record_pdn(record, as_written=True, stamp_variant=False, previous=previous)
    return " ".join(record.texts)
