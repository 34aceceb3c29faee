"""Gap filling while the players wait (issue 21): today's search beside the
new one, and pydraughts' perft(4) from the English start, all in one run.

Cases (``bench/gap_cases.py``): from ply 20 of real English games (Tinsley)
and of seeded random pool games, nothing known in between; the same pool gaps
with the first move of each side known; the pool three-kings-against-one
endgame.  "Today" is ``rulesbook/reconstruct/gap.py`` as it was at commit
``BASELINE`` (loaded from git), run on the same engine; both keep at most 200
sequences (the command line's default).  A search that has not finished
after ``--budget`` seconds is stopped and counted as "> budget".

Run: ``.venv/bin/python bench/bench_gap.py [--count 20] [--budget 30] [--quick]``
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from gap_cases import GapCase, english_cases, pool_cases, three_kings_case  # noqa: E402

from rulesbook.reconstruct.gap import CancelToken, fill_gap  # noqa: E402

BASELINE = "65706c1"  # the gap search before issue 21
LIMIT = 200
GOALS = {("pool", 16): (2.0, 5.0), ("english", 20): (5.0, None)}


def load_baseline():
    """The gap module of commit BASELINE, or None when git cannot give it."""
    try:
        text = subprocess.run(["git", "-C", str(HERE.parent), "show",
                               f"{BASELINE}:rulesbook/reconstruct/gap.py"],
                              check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    path = Path(tempfile.mkdtemp()) / "gap_baseline.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("gap_baseline", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["gap_baseline"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


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
    assert perft(Board(variant="english"), 4) == 1469
    return time.perf_counter() - start


def timed(fill, case: GapCase, plies: int, budget: float, token_class) -> tuple[float, object]:
    """(seconds, result); seconds is inf when the budget ran out."""
    token = token_class()
    timer = threading.Timer(budget, token.cancel)
    timer.start()
    start = time.perf_counter()
    try:
        result = fill(case.earlier, case.board, plies=plies, known=list(case.known),
                      limit=LIMIT, cancel=token)
    finally:
        timer.cancel()
    seconds = time.perf_counter() - start
    return (float("inf") if result.cancelled else seconds), result


def check(case: GapCase, result) -> None:
    """Every sequence listed replays to the board; the true one is there
    unless more than LIMIT exist."""
    for seq in result.sequences:
        position = case.earlier
        for move in seq:
            position = position.play(move)
        assert position == case.board, (case.name, seq)
    if not result.truncated:
        assert case.truth in result.sequences, (case.name, result.explanation)


def show(times: list[float]) -> str:
    """``median 0.42 s, worst 3.10 s`` (a search stopped at the budget is "> budget")."""
    def fmt(x: float) -> str:
        return "> budget" if x == float("inf") else f"{x:.2f} s"

    unfinished = sum(1 for t in times if t == float("inf"))
    text = f"median {fmt(statistics.median(times))}, worst {fmt(max(times))}"
    return text + (f" ({unfinished} unfinished)" if unfinished else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="positions of each kind")
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per search")
    parser.add_argument("--quick", action="store_true", help="a few short gaps only")
    parser.add_argument("--no-today", action="store_true", help="skip today's search")
    args = parser.parse_args(argv)
    baseline = None if args.no_today else load_baseline()
    peer = pydraughts_perft4()
    print("pydraughts perft(4), English start: "
          + (f"{peer:.3f} s" if peer else "n/a (pydraughts not installed)"))
    rows: list[tuple[str, int, list[GapCase]]] = []
    gaps = ((12, 14) if args.quick else (12, 14, 16, 18, 20))
    for plies in gaps:
        rows.append(("english", plies, english_cases(plies, args.count)))
    for plies in ((12, 14) if args.quick else (12, 14, 16)):
        rows.append(("pool", plies, pool_cases(plies, args.count)))
        rows.append(("pool, 2 moves known", plies, pool_cases(plies, args.count, known_moves=2)))
    kings = three_kings_case(14)
    if kings is not None:
        rows.append(("pool three kings v one", 14, [kings]))
    status = 0
    for kind, plies, cases in rows:
        now = []
        for case in cases:
            seconds, result = timed(fill_gap, case, plies, args.budget, CancelToken)
            if seconds != float("inf"):
                check(case, result)
            now.append(seconds)
        line = f"{kind:24s} {plies:2d} plies, {len(cases):2d} positions: now {show(now)}"
        if baseline is not None:
            today = [timed(baseline.fill_gap, case, plies, args.budget, baseline.CancelToken)[0]
                     for case in cases]
            line += f" | today {show(today)}"
        if peer:
            line += f" | now median = {statistics.median(now) / peer:.2f} x perft(4)"
        goal = GOALS.get((kind, plies))
        if goal:
            med_goal, worst_goal = goal
            met = statistics.median(now) <= med_goal and (worst_goal is None
                                                          or max(now) <= worst_goal)
            line += f" | goal {'met' if met else 'NOT met'}"
        print(line, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
