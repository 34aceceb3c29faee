"""PDN reading speed: games read, replayed and validated per second on the English
corpus, beside pydaughts' PDNReader (plus replay) on the same file, in the same run."""
from __future__ import annotations

import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "english-tinsley-1946-1960s.pdn"
PEER_GAMES = 20  # pydraughts is slow: time it on the first games only


def ours(text: str) -> tuple[int, float]:
    from rulesbook.draughts.pdn import PdnReader

    start = time.perf_counter()
    count = plies = 0
    for game in PdnReader(io.StringIO(text), "english"):
        count += 1
        plies += len(game.mainline_moves())
    return count, time.perf_counter() - start


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
    n, t = ours(text)
    rate = n / t
    print(f"rulesbook.pdn : {n} games in {t:.3f} s = {rate:,.0f} games/s")
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
    sys.exit(main())
