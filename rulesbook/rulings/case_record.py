"""A case's game record (its ``fen`` and ``moves``) replayed on the engine: what the
case checks (:mod:`.checks`) and the case library (:mod:`.cases`) both read."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..draughts import DraughtsError, Game, Position
from ..reconstruct.record import parse_moves_text
from .errors import GameRecordError

__all__ = ["CaseRecord", "case_game", "move_tokens"]



def move_tokens(moves: str) -> list[str]:
    """The move texts of a record ("1. 11-15 23-19 2. 8-11" -> ["11-15", "23-19", "8-11"]),
    read by the one reader of written moves,
    :func:`rulesbook.reconstruct.record.parse_moves_text` (comments, move numbers and
    results are not moves)."""
    return [move.text for move in parse_moves_text(moves)]


@dataclass(frozen=True)
class CaseRecord:
    """A case's game: the engine game as far as it is legal, and every move text."""

    game: Game
    texts: tuple[str, ...]
    illegal_at: int | None  # 1-based ply of the first move that cannot be played


def case_game(data: Mapping[str, object]) -> CaseRecord:
    """Replay a case's ``fen`` and ``moves``. A move that cannot be played is only
    allowed as the disputed move (``disputed_ply``); raises GameRecordError otherwise."""
    fen = data.get("fen")
    variant = str(data.get("variant") or "pool")  # the schema allows only known names
    try:
        start = Position.from_fen(str(fen), variant) if fen else Position.start(variant)
    except DraughtsError as exc:
        raise GameRecordError(f"the position cannot be read: {exc}") from None
    game = Game(start)
    texts = tuple(move_tokens(str(data.get("moves", "") or "")))
    illegal_at = None
    for i, text in enumerate(texts, start=1):
        try:
            game.push(text)
        except DraughtsError as exc:
            if data.get("disputed_ply") != i:
                raise GameRecordError(f"move {i} ({text}) cannot be played: {exc}") from None
            illegal_at = i
            break
    ply = data.get("claim_ply")
    if isinstance(ply, int) and ply > game.ply:
        raise GameRecordError(f"claim_ply {ply} is beyond the {game.ply} moves of the record")
    return CaseRecord(game, texts, illegal_at)
