"""Gap filling a referee can finish (issue 30): the count of every sequence,
the first question and the interview, beside today's search, in one run.

Cases (``bench/gap_cases.py``): real English games (the Tinsley collection,
``tests/data/corpus``), the record cut ``k`` plies before the position after
ply 20, for k = 8, 12, 16, 20; with ``--pool`` also seeded random pool games.
"Now" is :func:`rulesbook.reconstruct.gap.fill_gap` of this tree (the compiled
count when numba is there): the time to the complete count and the first
question.  The interview answers each question with the move really played,
until one sequence is left (its answers are the "questions needed", checked
against ceil(log2(count)) + 2).  "Today" is the gap filler of commit
``BASELINE`` (the modules ``rulesbook/reconstruct/gap*.py`` of that commit,
loaded from git as the package ``gap_today`` on today's engine, its kernel
compiled for this run), which lists at most 200 sequences and says "more
than 200" past that.  A search not finished after ``--budget`` seconds is
stopped ("> budget"): CPU seconds of this process (``--wall``: of the wall
clock; on a shared machine the wall clock stops searches early).

The goal column (issue 30, Must 6) is read off the CPU times (the process's,
the compiled count's thread included: the machine may be shared).

Run: ``.venv/bin/python bench/bench_gap.py [--count 20] [--budget 60] [--plies 8 12 16 20]
[--no-today] [--no-interview] [--pool] [--counts] [--russian] [--no-english] [--before REV]``
(``--russian``: the Abatsiev games too; ``--before REV``: this tree's gap
package at REV timed case by case beside now, the same counts asserted).
"""
from __future__ import annotations

import argparse
import importlib
import math
import re
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

from gap_cases import GapCase, english_cases, pool_cases, russian_cases  # noqa: E402

from rulesbook.reconstruct.gap import CancelToken, fill_gap, parse_known  # noqa: E402
from rulesbook.reconstruct.gap import compiled as gap_compiled  # noqa: E402

BASELINE = "91cff0c"  # main before this branch: "today" in the table
LIMIT = 200
#: issue 30, Must 6: (median, worst) seconds to the complete count and first question
GOALS = {16: (1.0, None), 20: (5.0, 30.0)}


def load_baseline():
    """The gap filler of commit BASELINE as the package ``gap_today`` (None
    when git cannot give it: a copy without history)."""
    try:
        names = subprocess.run(["git", "-C", str(HERE.parent), "ls-tree", "--name-only",
                                BASELINE, "rulesbook/reconstruct/"], check=True,
                               capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return None
    modules = [Path(n).stem for n in names if re.fullmatch(r".*/gap(_\w+)?\.py", n)]
    folder = Path(tempfile.mkdtemp()) / "gap_today"
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    for name in modules:
        text = subprocess.run(["git", "-C", str(HERE.parent), "show",
                               f"{BASELINE}:rulesbook/reconstruct/{name}.py"],
                              check=True, capture_output=True, text=True).stdout
        for other in modules:
            text = re.sub(rf"rulesbook\.reconstruct\.{other}\b", f"gap_today.{other}", text)
            text = text.replace(f"from rulesbook.reconstruct import {other} ",
                                f"from gap_today import {other} ")
        (folder / f"{name}.py").write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder.parent))
    module = importlib.import_module("gap_today.gap")
    compiled = importlib.import_module("gap_today.gap_compiled")
    return module, compiled


def load_before(rev: str):
    """This tree's gap package as it was at ``rev`` (``rulesbook/reconstruct/gap/``),
    as the package ``gap_before``: to time a change against the tree before
    it, case by case in one run (the machine's load the same for both)."""
    names = subprocess.run(["git", "-C", str(HERE.parent), "ls-tree", "--name-only", rev,
                            "rulesbook/reconstruct/gap/"], check=True, capture_output=True,
                           text=True).stdout.split()
    folder = Path(tempfile.mkdtemp()) / "gap_before"
    folder.mkdir()
    for name in names:
        text = subprocess.run(["git", "-C", str(HERE.parent), "show", f"{rev}:{name}"],
                              check=True, capture_output=True, text=True).stdout
        text = text.replace("rulesbook.reconstruct.gap", "gap_before")
        (folder / Path(name).name).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder.parent))
    module = importlib.import_module("gap_before")
    compiled = importlib.import_module("gap_before.compiled")
    return module, compiled


class _Budget:
    """Calls ``stop()`` once the process has used ``seconds`` of CPU since it
    was made (or, with ``--wall``, of the wall clock): on a shared machine the
    wall clock cuts searches the CPU budget would let finish."""

    wall = False

    def __init__(self, seconds: float, stop) -> None:
        self._done = threading.Event()
        clock = time.perf_counter if self.wall else time.process_time
        until = clock() + seconds

        def watch() -> None:
            while not self._done.wait(0.05):
                if clock() >= until:
                    stop()
                    return

        threading.Thread(target=watch, daemon=True).start()

    def cancel(self) -> None:
        self._done.set()


def timed(fill, case: GapCase, plies: int, budget: float, token_class, cpu=None, **extra):
    """(seconds, result); seconds is inf when the budget ran out.  The CPU
    seconds are appended to ``cpu`` (inf when the budget ran out)."""
    token = token_class()
    timer = _Budget(budget, token.cancel)
    start, used = time.perf_counter(), time.process_time()
    try:
        result = fill(case.earlier, case.board, plies=plies, known=list(case.known),
                      limit=LIMIT, cancel=token, **extra)
    finally:
        timer.cancel()
    seconds = time.perf_counter() - start
    if cpu is not None:
        cpu.append(float("inf") if result.cancelled else time.process_time() - used)
    return (float("inf") if result.cancelled else seconds), result


def interview(case: GapCase, plies: int, first, budget: float) -> int | None:
    """Answers needed (each question answered with the move really played)
    until one sequence is left; None when a search ran out of budget."""
    known: list[str] = [f"{k.ply}:{k.text}" for k in case.known if k.text]
    result, answers = first, 0
    while result.count is not None and result.count > 1 and result.question is not None:
        q = result.question
        answer = [k for k in q.known if parse_known(k).matches(case.truth[q.ply - 1].path)]
        known.append(answer[0])
        answers += 1
        result = _with_known(case, plies, known, budget)
        if result.cancelled:
            return None
    if result.count != 1 or result.sequences != (case.truth,):
        return None
    return answers


def _with_known(case: GapCase, plies: int, known: list[str], budget: float):
    token = CancelToken()
    timer = _Budget(budget, token.cancel)
    try:
        result = fill_gap(case.earlier, case.board, plies=plies, known=known, limit=LIMIT,
                          cancel=token)
    finally:
        timer.cancel()
    return result


def fmt(x: float) -> str:
    return "> budget" if x == float("inf") else f"{x:.2f}"


def span(times: list[float]) -> str:
    """``median / worst`` seconds (a search stopped at the budget is "> budget")."""
    return f"{fmt(statistics.median(times))} / {fmt(max(times))} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="cases of each length")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="CPU seconds per search (of this process)")
    parser.add_argument("--wall", action="store_true",
                        help="the budget in seconds of the wall clock, not of CPU")
    parser.add_argument("--plies", type=int, nargs="+", default=[8, 12, 16, 20])
    parser.add_argument("--no-today", action="store_true", help="skip today's search")
    parser.add_argument("--no-interview", action="store_true",
                        help="skip the interview (the count and first question only)")
    parser.add_argument("--pool", action="store_true", help="seeded random pool games too")
    parser.add_argument("--russian", action="store_true",
                        help="real Russian games too (the Abatsiev collection)")
    parser.add_argument("--no-english", action="store_true", help="skip the English games")
    parser.add_argument("--before", metavar="REV",
                        help="also time this tree's gap package at REV, case by case")
    parser.add_argument("--counts", action="store_true",
                        help="print each case's count and times (to compare two trees)")
    args = parser.parse_args(argv)
    _Budget.wall = args.wall
    baseline = None if args.no_today else load_baseline()
    if gap_compiled.AVAILABLE:
        print(f"now: the compiled search (ready in {gap_compiled.warm_up():.1f} s)", flush=True)
    else:
        print(f"now: the Python search ({gap_compiled.why_unavailable()})", flush=True)
    if baseline is not None:
        print(f"today ({BASELINE}): kernel ready in {baseline[1].warm_up():.1f} s", flush=True)
    before = load_before(args.before) if args.before else None
    if before is not None:
        print(f"before ({args.before}): kernel ready in {before[1].warm_up():.1f} s", flush=True)
    before_lines: list[str] = []
    rows: list[tuple[str, int, list[GapCase]]] = [
        ("english", k, english_cases(k, args.count)) for k in args.plies
        if not args.no_english]
    if args.russian:
        rows += [("russian", k, russian_cases(k, args.count)) for k in args.plies]
    if args.pool:
        rows += [("pool", k, pool_cases(k, args.count)) for k in args.plies]
    table = ["| games | k | cases | count complete | median count | interview reached the "
             "game (≤ ⌈log2 count⌉ + 2) | answers median / most | now: count + first "
             "question, median / worst | now: CPU, median / worst | today (" + BASELINE + "): ≤ 200 listed, median / "
             "worst | today's answer complete | today / now (medians) | goal |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for kind, plies, cases in rows:
        now, counts, answers, reached, complete = [], [], [], 0, 0
        cpu: list[float] = []
        before_cpu: list[float] = []
        for case in cases:
            seconds, result = timed(fill_gap, case, plies, args.budget, CancelToken, cpu)
            if args.counts:
                print(f"  {case.name}: count {result.count}, {seconds:.2f} s, "
                      f"CPU {cpu[-1]:.2f} s", flush=True)
            if before is not None:
                _, old = timed(before[0].fill_gap, case, plies, args.budget,
                               before[0].CancelToken, before_cpu)
                assert old.count is None or result.count is None or old.count == result.count, (
                    case.name, old.count, result.count)
                if args.counts:
                    print(f"    before: count {old.count}, CPU {before_cpu[-1]:.2f} s",
                          flush=True)
            now.append(seconds)
            if result.count is not None:
                complete += 1
                counts.append(result.count)
                assert case.truth in result.sequences or result.truncated, case.name
            if not args.no_interview and result.count is not None:
                needed = interview(case, plies, result, args.budget)
                if needed is not None:
                    answers.append(needed)
                    if needed <= math.ceil(math.log2(result.count)) + 2:
                        reached += 1
        today_text, today_complete, ratio = "n/a", "n/a", "n/a"
        if baseline is not None:
            runs = [timed(baseline[0].fill_gap, case, plies, args.budget,
                          baseline[0].CancelToken) for case in cases]
            today = [s for s, _ in runs]
            today_text = span(today)
            today_complete = str(sum(1 for _, r in runs
                                     if not r.cancelled and not r.truncated))
            m_now, m_today = statistics.median(now), statistics.median(today)
            ratio = ("n/a" if math.isinf(m_now) or math.isinf(m_today)
                     else f"{m_today / m_now:.2f} x")
        goal = GOALS.get(plies) if kind in ("english", "russian") else None
        goal_text = ""
        if goal:
            med, worst = goal
            met = statistics.median(cpu) <= med and (worst is None or max(cpu) <= worst)
            goal_text = (f"median ≤ {med:g} s" + (f", worst ≤ {worst:g} s" if worst else "")
                         + (": met" if met else ": NOT met"))
        median_count = f"{statistics.median(counts):,.0f}" if counts else "n/a"
        answers_text = (f"{statistics.median(answers):g} / {max(answers)}" if answers
                        else "n/a")
        interview_text = ("skipped" if args.no_interview else f"{reached} of {complete}")
        line = (f"| {kind} | {plies} | {len(cases)} | {complete} | {median_count} | "
                f"{interview_text} | {answers_text} | {span(now)} | {span(cpu)} | {today_text} | "
                f"{today_complete} | {ratio} | {goal_text} |")
        table.append(line)
        print(line, flush=True)
        if before is not None:
            m_b, m_n = statistics.median(before_cpu), statistics.median(cpu)
            ratio_b = ("n/a" if math.isinf(m_b) or math.isinf(m_n) or not m_n
                       else f"{m_b / m_n:.2f} x")
            before_lines.append(f"| {kind} | {plies} | {span(before_cpu)} | {span(cpu)} | "
                                f"{ratio_b} |")
            print(before_lines[-1], flush=True)
    print(f"\nbudget {args.budget:g} {'wall' if args.wall else 'CPU'} s per search; today lists at most {LIMIT}\n")
    print("\n".join(table))
    if before_lines:
        print(f"\n| games | k | before ({args.before}): CPU, median / worst | now: CPU, "
              "median / worst | before / now (medians) |\n|---|---|---|---|---|")
        print("\n".join(before_lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
