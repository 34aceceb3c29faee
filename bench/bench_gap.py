"""Gap filling while the players wait (issue 21): today's search beside the
new one, and pydraughts' perft(4) from the English start, all in one run.

Cases (``bench/gap_cases.py``): from ply 20 of real English games (Tinsley)
and of seeded random pool games, nothing known in between; the same pool gaps
with the first move of each side known; the pool three-kings-against-one
endgame.  "Today" is the gap filler (``rulesbook/reconstruct/gap*.py``) as it
was at commit ``BASELINE`` (loaded from git), run on the same engine; both keep
at most 200 sequences (the command line's default).  A search that has not finished
after ``--budget`` seconds is stopped and counted as "> budget".  The positions
searched (summed over a row's gaps, up to where a search stopped) do not
depend on the machine's load, as the times do; a search stopped at the budget
has searched fewer than it would have.

Run: ``.venv/bin/python bench/bench_gap.py [--count 20] [--budget 30] [--quick | --goals |
--others]`` (``--goals``: the two rows with a goal; ``--others``: the rest).
"""
from __future__ import annotations

import argparse
import importlib
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

from bench_reconstruct import pydraughts_perft4  # noqa: E402 - the same peer, one way
from gap_cases import GapCase, english_cases, pool_cases, three_kings_case  # noqa: E402

from rulesbook.reconstruct.gap import CancelToken, fill_gap  # noqa: E402
from rulesbook.reconstruct.gap import compiled as gap_compiled  # noqa: E402

BASELINE = "a656899"  # main before this branch: "today" in the tables
LIMIT = 200
GOALS = {("pool", 16): (2.0, 5.0), ("english", 20): (5.0, None)}


MODULES = ("gap_bounds", "gap_retro", "gap_search", "gap")


def load_baseline():
    """The gap filler of commit BASELINE (its four modules, loaded from git as
    the package ``gap_today`` on today's engine), or None when git cannot
    give it (a copy without history)."""
    folder = Path(tempfile.mkdtemp()) / "gap_today"
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    for name in MODULES:
        try:
            text = subprocess.run(["git", "-C", str(HERE.parent), "show",
                                   f"{BASELINE}:rulesbook/reconstruct/{name}.py"],
                                  check=True, capture_output=True, text=True).stdout
        except (OSError, subprocess.CalledProcessError):
            return None
        for other in MODULES:
            text = text.replace(f"rulesbook.reconstruct.{other} ", f"gap_today.{other} ")
        # the square geometry it read has moved to the one geometry module
        # (the same ``coords``) since that commit
        text = text.replace("rulesbook.reconstruct.geometry ", "rulesbook.draughts.geometry ")
        (folder / f"{name}.py").write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder.parent))
    return importlib.import_module("gap_today.gap")


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


def fmt(x: float) -> str:
    return "> budget" if x == float("inf") else f"{x:.2f} s"


def span(times: list[float]) -> str:
    """``0.12–2.61 s, median 0.42 s`` (a search stopped at the budget is "> budget")."""
    unfinished = sum(1 for t in times if t == float("inf"))
    low, high = min(times), max(times)
    text = (f"{low:.2f}–{fmt(high)}" if high != float("inf") else f"{low:.2f} s – > budget")
    text += f", median {fmt(statistics.median(times))}"
    return text + (f" ({unfinished} unfinished)" if unfinished else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="positions of each kind")
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per search")
    parser.add_argument("--quick", action="store_true", help="a few short gaps only")
    parser.add_argument("--goals", action="store_true",
                        help="only the rows with a goal (pool 16 plies, English 20)")
    parser.add_argument("--others", action="store_true",
                        help="only the rows without a goal (the rest of the issue's table)")
    parser.add_argument("--no-today", action="store_true", help="skip today's search")
    args = parser.parse_args(argv)
    baseline = None if args.no_today else load_baseline()
    # "now" is the compiled count when numba is there (compiled or loaded from
    # its cache here, before any search is timed), the Python search if not
    if gap_compiled.AVAILABLE:
        print(f"now: the compiled search (ready in {gap_compiled.warm_up():.1f} s)", flush=True)
    else:
        print(f"now: the Python search ({gap_compiled.why_unavailable()})", flush=True)
    peer = pydraughts_perft4()
    print("pydraughts perft(4), English start: "
          + (f"{peer:.3f} s" if peer else "n/a (pydraughts not installed)"), flush=True)
    rows: list[tuple[str, int, list[GapCase]]] = []
    if args.goals:
        rows = [("pool", 16, pool_cases(16, args.count)),
                ("english", 20, english_cases(20, args.count))]
    else:
        for plies in ((12, 14) if args.quick else (12, 14, 16, 18, 20)):
            rows.append(("english", plies, english_cases(plies, args.count)))
        for plies in ((12, 14) if args.quick else (12, 14, 16)):
            rows.append(("pool", plies, pool_cases(plies, args.count)))
            rows.append(("pool, 2 moves known", plies,
                         pool_cases(plies, args.count, known_moves=2)))
        kings = three_kings_case(14)
        if kings is not None:
            rows.append(("pool three kings v one", 14, [kings]))
        if args.others:
            rows = [row for row in rows if (row[0], row[1]) not in GOALS]
    table = ["| gap | plies | positions | today (main " + BASELINE + ") | now | "
             "now median / pydraughts perft(4) | goal | positions searched, today / now |",
             "|---|---|---|---|---|---|---|---|"]
    for kind, plies, cases in rows:
        now = []
        nodes_now = 0
        for case in cases:
            seconds, result = timed(fill_gap, case, plies, args.budget, CancelToken)
            if seconds != float("inf"):
                check(case, result)
            now.append(seconds)
            nodes_now += result.nodes  # type: ignore[attr-defined]
        today_text = nodes_text = "n/a"
        if baseline is not None:
            runs = [timed(baseline.fill_gap, case, plies, args.budget, baseline.CancelToken)
                    for case in cases]
            today_text = span([seconds for seconds, _ in runs])
            nodes_today = sum(result.nodes for _, result in runs)  # type: ignore[attr-defined]
            nodes_text = f"{nodes_today:,} / {nodes_now:,}"
        median_now = statistics.median(now)
        ratio = ("n/a" if not peer else "> budget" if median_now == float("inf")
                 else f"{median_now / peer:.2f} x")
        goal = GOALS.get((kind, plies))
        goal_text = ""
        if goal:
            med_goal, worst_goal = goal
            met = statistics.median(now) <= med_goal and (worst_goal is None
                                                          or max(now) <= worst_goal)
            goal_text = (f"median ≤ {med_goal:g} s" + (f", worst ≤ {worst_goal:g} s"
                                                       if worst_goal else "")
                         + (": met" if met else ": NOT met"))
        line = (f"| {kind} | {plies} | {len(cases)} | {today_text} | {span(now)} | {ratio} | "
                f"{goal_text} | {nodes_text} |")
        table.append(line)
        print(line, flush=True)
    print(f"\nbudget {args.budget:g} s per search, at most {LIMIT} sequences kept\n")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
