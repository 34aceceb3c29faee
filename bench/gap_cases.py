"""The gap-filling cases of issue 21, shared by ``bench_gap.py`` and the tests.

* English: the position after ply 20 of real games (the Tinsley collection,
  ``tests/data/corpus``) and the board N plies later;
* pool: the same from seeded random pool games (random legal moves);
* pool with two moves known: the same gaps with the first move of each side
  given (``Known`` at plies 1 and 2);
* the pool three-kings-against-one endgame (the corpus' theory file).
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

from rulesbook.draughts import Move, Position
from rulesbook.draughts.pdn import read_games
from rulesbook.reconstruct.gap import Known

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.datapaths import CORPUS  # noqa: E402 - the one place for test data paths

TINSLEY = CORPUS / "english-tinsley-1946-1960s.pdn"
#: Russian draughts (flying kings, men capturing backwards): issue 30, Must 6
ABATSIEV = CORPUS / "russian-abatsiev.pdn"
THREE_KINGS = CORPUS / "pool-3-kings-vs-1-theory.pdn"
FIRST_PLY = 20


@dataclass(frozen=True)
class GapCase:
    """One gap: the earlier position, the board, the moves really played."""

    name: str
    earlier: Position
    board: Position
    truth: tuple[Move, ...]
    known: tuple[Known, ...] = ()


def english_cases(plies: int, count: int) -> list[GapCase]:
    """From ply 20 of the first ``count`` Tinsley games long enough and clean."""
    return _corpus_cases(TINSLEY, "english", "tinsley game", plies, count)


def russian_cases(plies: int, count: int) -> list[GapCase]:
    """From ply 20 of the first ``count`` Abatsiev games long enough and clean."""
    return _corpus_cases(ABATSIEV, "russian", "abatsiev game", plies, count)


def _corpus_cases(path: Path, variant: str, label: str, plies: int, count: int
                  ) -> list[GapCase]:
    games = read_games(path.read_text(encoding="utf-8"), variant=variant)
    out = []
    for number, game in enumerate(games, 1):
        moves = game.mainline_moves()
        if game.errors or len(moves) < FIRST_PLY + plies:
            continue
        positions = game.positions()
        out.append(GapCase(f"{label} {number}", positions[FIRST_PLY],
                           positions[FIRST_PLY + plies],
                           tuple(moves[FIRST_PLY:FIRST_PLY + plies])))
        if len(out) == count:
            break
    return out


def pool_cases(plies: int, count: int, known_moves: int = 0, seed: int = 21) -> list[GapCase]:
    """From ply 20 of seeded random pool games (games that last long enough)."""
    rng = random.Random(f"{seed}-{plies}")
    out = []
    while len(out) < count:
        position = Position.start("pool")
        played = []
        history = [position]
        for _ in range(FIRST_PLY + plies):
            legal = position.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            played.append(move)
            position = position.play(move)
            history.append(position)
        else:
            truth = tuple(played[FIRST_PLY:])
            known = tuple(Known(ply + 1, truth[ply].start, truth[ply].end, truth[ply].path[1:-1])
                          for ply in range(known_moves))
            out.append(GapCase(f"random pool game {len(out) + 1}", history[FIRST_PLY],
                               history[-1], truth, known))
    return out


def three_kings_case(plies: int) -> GapCase | None:
    """The main line of the three-kings theory file, ``plies`` plies from its start."""
    if not THREE_KINGS.is_file():
        return None
    (game,) = read_games(THREE_KINGS.read_text(encoding="utf-8"))
    moves = game.mainline_moves()
    if len(moves) < plies:
        return None
    positions = game.positions()
    return GapCase("pool three kings against one", positions[0], positions[plies],
                   tuple(moves[:plies]))
