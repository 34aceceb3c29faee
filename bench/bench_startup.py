"""Cold start of the desktop app to a usable window (library loaded and indexed,
main window shown), measured in fresh subprocesses, offscreen.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_startup.py [RUNS]
Goal: <= 1.5 s.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

GOAL = 1.5


def one_run(settings_dir: str) -> tuple[float, float]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=settings_dir,
               RULESBOOK_LOG_DIR=settings_dir, RULESBOOK_AUTOSAVE_DIR=settings_dir,
               XDG_DATA_HOME=settings_dir)  # the user's rules folder: made by the first run
    start = time.perf_counter()
    with subprocess.Popen([sys.executable, "-m", "ui.app", "--startup-probe"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                          text=True) as proc:
        line = proc.stdout.readline().strip()
        wall = time.perf_counter() - start
        proc.wait(timeout=30)
    if not line.startswith("ready"):
        raise SystemExit(f"the app did not start: {line!r}")
    return wall, float(line.split()[1])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    runs = int(argv[0]) if argv else 5
    with tempfile.TemporaryDirectory() as settings_dir:
        results = [one_run(settings_dir) for _ in range(runs)]
    walls = [w for w, _ in results]
    inner = [i for _, i in results]
    best, median = min(walls), statistics.median(walls)
    print(f"startup: cold start to a usable window (process spawn to window shown, "
          f"{runs} runs): median {median:.3f} s, best {best:.3f} s; in-process after "
          f"interpreter start: median {statistics.median(inner):.3f} s; goal {GOAL:.1f} s "
          f"-> {'OK' if median <= GOAL else 'SLOW'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
