"""Benchmark: CPU seconds of whole `rulesbook` processes, as users run them (issue #29),
each against the figure measured before #29 on this machine class (the issue's
table: every command imported numba and built the gap tables).

    rulesbook --help                           before 1.45 s
    rulesbook show 28                          before 1.96 s
    rulesbook moves --fen START                before 1.62 s
    rulesbook perft --depth 6                  (whole process; pydraughts in bench_engine)
    rulesbook reconstruct (an 8-ply gap)       before 3.4 s (goal <= 0.5 s)
    rulesbook pdn check (10,000 games)         before 300 games/s (goal >= 1,000 games/s)

Each command runs in a fresh process with a private data folder (nothing to
initialise); the best of RUNS runs is printed.

Run: .venv/bin/python bench/bench_cli_startup.py [RUNS]
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BEFORE = {"--help": 1.45, "show 28": 1.96, "moves": 1.62, "reconstruct 8 plies": 3.4}
GAP_GOAL = 0.5
GAMES = 10_000
GAMES_BEFORE = 300.0  # games per CPU second before #29
_GAME = '[Event "g{n}"]\n[Black "A"]\n[White "B"]\n[Result "*"]\n\n1. 11-15 23-19 2. 8-11 22-17 ' \
        '3. 4-8 17-13 4. 15-18 24-20 *\n\n'


def cpu_of(argv: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one child process running ``rulesbook ARGV``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "rulesbook", *argv], env=env,
                          capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"rulesbook {' '.join(argv)} failed: {proc.stderr[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    runs = int(argv[0]) if argv else 3
    sys.path.insert(0, str(REPO))
    from rulesbook.draughts import Position

    position = Position.start("pool")
    for _ in range(8):
        position = position.play(position.legal_moves()[0])
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(REPO / "rules_data", data)
        games = Path(tmp) / "games.pdn"
        games.write_text("".join(_GAME.format(n=n) for n in range(GAMES)), encoding="utf-8")
        env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp, RULESBOOK_CONFIG=tmp)
        commands = {
            "--help": ["--help"],
            "show 28": ["--data", str(data), "show", "28"],
            "moves": ["moves", "--fen", "B:W21-32:B1-12"],
            "perft --depth 6": ["perft", "--depth", "6"],
            "reconstruct 8 plies": ["reconstruct", "--from", "start", "--to", position.fen(),
                                    "--plies", "8"],
            "pdn check 10,000 games": ["pdn", "check", str(games)],
        }
        ok = True
        for name, args in commands.items():
            best = min(cpu_of(args, env) for _ in range(runs))
            if name in BEFORE:
                line = f"before #29 {BEFORE[name]:.2f} s: {BEFORE[name] / best:.1f}x less CPU"
            elif name.startswith("pdn"):
                rate = GAMES / best
                line = (f"{rate:,.0f} games per CPU second (before #29 {GAMES_BEFORE:.0f}: "
                        f"{rate / GAMES_BEFORE:.1f}x; goal >= 1,000)")
                ok = ok and rate >= 1000
            else:
                line = "whole process"
            if name.startswith("reconstruct"):
                line += f"; goal <= {GAP_GOAL} s"
                ok = ok and best <= GAP_GOAL
            print(f"rulesbook {name:24} {best:6.2f} s CPU  ({line})", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    raise SystemExit(main())
