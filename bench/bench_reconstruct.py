"""Gap filling speed (goal: an 8-ply gap in no more than pydraughts' perft(4)).

Midgame positions of the English corpus (Tinsley, 1946-1960s): for each gap
length (6, 8, 10 plies) the position after ply 16-30 of a game is the known
earlier position and the position N plies later is the board; the missing
plies are searched for.  The peer measured in the same run is pydraughts'
perft(4) from the start position (``draughts.Board``: legal_moves / push /
pop), the time a referee already waits for a slow but complete search.

Run: ``.venv/bin/python bench/bench_reconstruct.py``
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesbook.draughts.pdn import read_games  # noqa: E402
from rulesbook.reconstruct.gap import fill_gap  # noqa: E402
from tests.datapaths import CORPUS as CORPUS_DIR  # noqa: E402 - the one place for test data

CORPUS = CORPUS_DIR / "english-tinsley-1946-1960s.pdn"
GAMES = 12
GAPS = (6, 8, 10)
LIMIT = 5000  # sequences kept (king shuffles in endgames can give thousands)


def pydraughts_perft4() -> float | None:
    try:
        from draughts import Board
    except ImportError:
        return None

    def perft(board, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in board.legal_moves():
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total

    start = time.perf_counter()
    count = perft(Board(variant="english"), 4)
    elapsed = time.perf_counter() - start
    assert count == 1469, count
    return elapsed


def midgame_cases(gap: int) -> list:
    text = CORPUS.read_text(encoding="utf-8")
    cases = []
    for index, game in enumerate(read_games(text, variant="english")):
        positions = game.positions()
        moves = game.mainline_moves()
        first = 16 + index % 15
        if game.errors or len(moves) < first + gap:
            continue
        cases.append((positions[first], positions[first + gap],
                      tuple(moves[first:first + gap])))
        if len(cases) == GAMES:
            break
    return cases


def main() -> None:
    if not CORPUS.is_file():
        print(f"corpus not found: {CORPUS}", file=sys.stderr)
        sys.exit(2)
    peer = pydraughts_perft4()
    peer_text = f"{peer:.3f} s" if peer is not None else "n/a (pydraughts not installed)"
    print(f"pydraughts perft(4) from the start (english): {peer_text}")
    for gap in GAPS:
        times = []
        nodes = []
        several = 0
        for earlier, board, truth in midgame_cases(gap):
            start = time.perf_counter()
            result = fill_gap(earlier, board, plies=gap, limit=LIMIT)
            times.append(time.perf_counter() - start)
            nodes.append(result.nodes)
            assert result.truncated or truth in result.sequences, result.explanation
            several += result.status == "several"
        ratio = (f", worst = {max(times) / peer:.2f} x perft(4)" if peer else "")
        print(f"gap of {gap:2d} plies over {len(times)} midgame positions: "
              f"median {statistics.median(times):.3f} s, worst {max(times):.3f} s, "
              f"median nodes {int(statistics.median(nodes))}, {several} with several "
              f"answers{ratio}")
    if peer:
        eight = [fill_gap(e, b, plies=8, limit=LIMIT).seconds for e, b, _ in midgame_cases(8)]
        verdict = "met" if max(eight) <= peer else "NOT met"
        print(f"goal (8-ply gap <= pydraughts perft(4)): {verdict}")


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    main()
