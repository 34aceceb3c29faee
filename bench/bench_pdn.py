"""PDN reading speed: games read, replayed and validated per second on the English
corpus (goal: >= 1,000 games/s), beside pydaughts' PDNReader (plus replay) on the
same file, in the same run.

Every move of every game is resolved against its position and checked legal
(compulsory capture, whole multi-jumps); the records with problems are counted.
The import of the reader is timed apart; the replay is run REPEATS times and the
best and median rates are printed (the best is the figure the goal is read on,
as with ``timeit``: slower runs measure other load on the machine)."""
from __future__ import annotations

import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.datapaths import CORPUS as CORPUS_DIR  # noqa: E402 - the one place for test data

CORPUS = CORPUS_DIR / "english-tinsley-1946-1960s.pdn"
PEER_GAMES = 20  # pydraughts is slow: time it on the first games only
REPEATS = 5
GOAL = 1000  # games/s


def ours(text: str) -> tuple[int, float]:
    n, _plies, _bad, t = replay(text)
    return n, t


def replay(text: str) -> tuple[int, int, int, float]:
    """(games, plies replayed, records with problems, seconds)."""
    from rulesbook.draughts.pdn import PdnReader

    start = time.perf_counter()
    count = plies = bad = 0
    for game in PdnReader(io.StringIO(text), "english"):
        count += 1
        plies += len(game.mainline_moves())
        bad += bool(game.errors)
    return count, plies, bad, time.perf_counter() - start


def peer(text: str, limit: int) -> tuple[int, float]:
    import draughts
    from draughts.PDN import PDNReader

    chunks = text.split("\n\n")
    sample = "\n\n".join(chunks[:limit]) + "\n"
    start = time.perf_counter()
    games = PDNReader(pdn_text=sample).games
    count = 0
    for game in games:
        board = draughts.Board("english")
        try:
            for move in game.moves:
                board.push(draughts.Move(board, pdn_move=move))
        except Exception:  # a defective record: counted as read, as ours are
            pass
        count += 1
    return count, time.perf_counter() - start


def main() -> int:
    if not CORPUS.exists():
        print(f"corpus not found: {CORPUS}", file=sys.stderr)
        return 2
    text = CORPUS.read_text(encoding="utf-8")
    t0 = time.perf_counter()
    import rulesbook.draughts.pdn  # noqa: F401
    imported = time.perf_counter() - t0
    runs = [replay(text) for _ in range(REPEATS)]
    n, plies, bad, _ = runs[0]
    times = sorted(r[3] for r in runs)
    t = times[0]
    rate = n / t
    median = n / times[len(times) // 2]
    print(f"rulesbook.pdn : {n} games in {t:.3f} s = {rate:,.0f} games/s "
          f"(median of {REPEATS}: {median:,.0f}; import {imported * 1000:.0f} ms apart)")
    print(f"games replayed and validated per second on the English corpus: {rate:,.0f} "
          f"(goal: >= {GOAL:,} games/s: {'met' if rate >= GOAL else 'NOT met'}); "
          f"{plies:,} plies = {plies / t:,.0f} plies/s; {bad} records with problems")
    try:
        pn, pt = peer(text, PEER_GAMES)
    except ImportError:
        print("pydraughts not installed: no peer figure")
        return 0
    prate = pn / pt
    print(f"pydraughts    : {pn} games in {pt:.3f} s = {prate:,.0f} games/s")
    print(f"ratio         : {rate / prate:.1f}x")
    return 0


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    sys.exit(main())
