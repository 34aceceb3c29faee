"""PDN round trip over the shared corpus: every game whose main line was read
whole (every move resolved; a file's other defects, such as comments in
parentheses, do not matter) is written again (PDN 3.0) and read back by this
reader (the same moves, no error) and, for English and Russian, by
pydraughts (the same position after every move).

Prints the counts per file and the time pydraughts took beside ours.

Run: ``.venv/bin/python bench/bench_pdn_roundtrip.py [--max-games N]``
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesbook.draughts import algebraic_to_square  # noqa: E402
from rulesbook.draughts.pdn import read_games  # noqa: E402
from tests.datapaths import CORPUS  # noqa: E402 - the one place for test data paths

FILES = {  # file: (variant, encoding)
    "english-tinsley-1946-1960s.pdn": ("english", "utf-8"),
    "english-oca-2.0.pdn": ("english", "utf-8"),
    "english-british-computer-championship-2002.pdn": ("english", "utf-8"),
    "russian-abatsiev.pdn": ("russian", "utf-8"),
    "russian-world-championship-1998-short-notation.pdn": ("russian", "utf-8"),
    "russian-ussr-1947-cp866.pdn": ("russian", "cp866"),
    "russian-uppercase-squares-test.pdn": ("russian", "utf-8"),
    "pool-3-kings-vs-1-theory.pdn": ("pool", "utf-8"),
}


def _pieces(fen: str) -> tuple[str, frozenset]:
    turn, *sides = fen.strip().rstrip(".").split(":")
    out = set()
    for side in sides:
        for item in filter(None, side[1:].split(",")):
            king = item.startswith("K")
            name = item[1:] if king else item
            out.add((side[0], int(name) if name.isdigit() else algebraic_to_square(name), king))
    return turn, frozenset(out)


def pydraughts_agrees(text: str, game) -> bool:
    import draughts
    from draughts.PDN import PDNReader

    (read,) = PDNReader(pdn_text=text).games
    fen = read.tags.get("FEN")
    board = draughts.Board(game.variant.name, fen=fen) if fen else draughts.Board(game.variant.name)
    ours = [p.fen() for p in game.positions()]
    if len(read.moves) != len(ours) - 1:
        return False
    for move_text, mine in zip(read.moves, ours[1:], strict=True):
        board.push(draughts.Move(board, pdn_move=move_text))
        if _pieces(board.fen) != _pieces(mine):
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-games", type=int, default=None,
                        help="games per file checked with pydraughts (default: all)")
    args = parser.parse_args(argv)
    try:
        import draughts  # noqa: F401
        peer = True
    except ImportError:
        peer = False
    total = {"read": 0, "clean": 0, "ours": 0, "checked": 0, "theirs": 0}
    ours_time = theirs_time = 0.0
    for name, (variant, encoding) in FILES.items():
        path = CORPUS / name
        if not path.is_file():
            print(f"{name}: not found")
            continue
        games = read_games(path.read_text(encoding=encoding), variant=variant)
        clean = [g for g in games
                 if g.mainline and len(g.mainline_moves()) == len(g.mainline)]
        same = checked = agree = 0
        for n, game in enumerate(clean):
            began = time.perf_counter()
            text = game.to_pdn()
            (back,) = read_games(text)
            same += back.errors == [] and back.mainline_moves() == game.mainline_moves()
            ours_time += time.perf_counter() - began
            if peer and variant in ("english", "russian") and (
                    args.max_games is None or n < args.max_games):
                began = time.perf_counter()
                checked += 1
                try:
                    agree += pydraughts_agrees(text, game)
                except Exception:  # noqa: BLE001 - a reader that refuses counts as a mismatch
                    pass
                theirs_time += time.perf_counter() - began
        print(f"{name}: {len(games)} games, {len(clean)} read whole; written and read "
              f"back: {same} the same here" + (f", {agree}/{checked} the same in pydraughts"
                                               if checked else ""))
        for key, value in (("read", len(games)), ("clean", len(clean)), ("ours", same),
                           ("checked", checked), ("theirs", agree)):
            total[key] += value
    print(f"total: {total['read']} games, {total['clean']} read whole, {total['ours']} "
          f"round trips here, {total['theirs']}/{total['checked']} in pydraughts "
          f"(ours {ours_time:.1f} s, pydraughts {theirs_time:.1f} s)")
    return 0 if total["ours"] == total["clean"] and total["theirs"] == total["checked"] else 1


if __name__ == "__main__":
    sys.exit(main())
