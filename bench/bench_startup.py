"""The desktop app's figures of issue #29 Must 3, as users meet them, offscreen:

1. **start**: cold start to the first paint of the main window and to interactive
   (the event loop free again after it), in fresh processes (``ui.app
   --startup-probe``), wall and CPU seconds of the process; goal <= 1.5 s.
   Python's bytecode cache is on for the child (as on a user's machine; this
   machine's environment may set PYTHONDONTWRITEBYTECODE) in a private folder,
   filled by one untimed run.
2. **scan**: the game list's defect scan (:class:`ui.board.gamelist.GameListDialog`,
   its worker thread) of a ~10,000-game archive made of the real corpus
   (/work/shared/corpus, else tests/data/corpus: 1,508 games repeated), with a
   5 ms timer on the GUI thread as a probe: games per second (wall, and per
   CPU second of the whole process), the worst gap between two ticks of the probe
   and how many gaps exceeded 50 ms; goal >= 1,000 games/s, no stall > 50 ms.
3. **memory**: RSS growth over 200 file opens in one session (the Board's
   ``open_pdn`` of the corpus files, a different game each time, every other one
   chosen in the game list while its scan runs, after the gap
   kernel is loaded and 20 opens to warm up); goal <= 10 MB.

The machine may be shared: wall times are inflated then, CPU times much less.
Before #29: 5.7-6.7 s to a usable window, the scan 66 s for 9,377 games
(142 games/s) with stalls of up to 0.84 s, +1 MB per file opened.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_startup.py [RUNS] [--only start|scan|memory]
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL = 1.5
SCAN_GOAL = 1000.0
STALL_MS = 50.0
MEMORY_GOAL_MB = 10.0
BEFORE = {"start": 6.7, "scan games/s": 9377 / 66, "stall ms": 840.0}
ARCHIVE_GAMES = 10_000
OPENS, WARM_OPENS = 200, 20
IDLE_SECONDS = 3.0


def corpus_dir() -> Path:
    shared = Path("/work/shared/corpus")
    return shared if shared.is_dir() else ROOT / "tests" / "data" / "corpus"


def corpus_texts() -> list[tuple[Path, str]]:
    sys.path.insert(0, str(ROOT))
    from rulesbook.textio import read_text

    return [(p, read_text(p, max_bytes=50_000_000).text)
            for p in sorted(corpus_dir().glob("*.pdn"))]


# -- 1. start ------------------------------------------------------------------------

def one_start(settings_dir: str, pycache: str) -> tuple[float, float, float, float]:
    """(wall to first paint, wall to interactive, CPU to interactive, whole CPU) of one
    app process, wall from the spawn."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=settings_dir,
               RULESBOOK_LOG_DIR=settings_dir, RULESBOOK_AUTOSAVE_DIR=settings_dir,
               XDG_DATA_HOME=settings_dir,  # the user's rules folder: made by the first run
               PYTHONPYCACHEPREFIX=pycache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with subprocess.Popen([sys.executable, "-m", "ui.app", "--startup-probe"], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                          text=True) as proc:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        wall = time.perf_counter() - start
        proc.wait(timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not line.startswith("ready"):
        raise SystemExit(f"the app did not start: {line!r}")
    fields = line.split()
    figures = dict(zip(fields[::2], (float(f) for f in fields[1::2]), strict=True))
    # the probe's times count from the app module's start; the wall from the spawn
    offset = wall - figures["ready"]
    whole_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return figures["paint"] + offset, wall, figures["cpu"], whole_cpu


def bench_start(runs: int) -> None:
    with tempfile.TemporaryDirectory() as settings_dir, \
            tempfile.TemporaryDirectory() as pycache:
        one_start(settings_dir, pycache)  # the rules folder and the bytecode cache made
        results = [one_start(settings_dir, pycache) for _ in range(runs)]
    paint, ready, cpu, whole = (list(column) for column in zip(*results, strict=True))
    median = statistics.median(ready)
    print(f"start   : {runs} runs, from the spawn: first paint median {statistics.median(paint):.3f} s "
          f"(best {min(paint):.3f}), interactive median {median:.3f} s (best {min(ready):.3f}); "
          f"CPU to interactive median {statistics.median(cpu):.3f} s (best {min(cpu):.3f}), "
          f"whole process {statistics.median(whole):.3f} s; goal {GOAL:.1f} s -> "
          f"{'OK' if median <= GOAL else 'SLOW (wall; compare the CPU figure on a busy machine)'}"
          f"; before #29 {BEFORE['start']:.1f} s: {BEFORE['start'] / median:.1f}x")


# -- 2. scan ---------------------------------------------------------------------------

def archive(games: int = ARCHIVE_GAMES) -> str:
    """The corpus's games repeated to ``games`` games, one archive."""
    from rulesbook.reconstruct.gamelist import split_games

    blocks = [chunk.text.strip() for _, text in corpus_texts() for chunk in split_games(text)]
    return "\n\n".join(blocks[i % len(blocks)] for i in range(games)) + "\n"


class Probe:
    """A 5 ms timer on the GUI thread: the gaps between its ticks."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.gaps: list[float] = []
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self._last)
        self._last = now

    def stop(self) -> None:
        self.timer.stop()


def bench_scan() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication

    from rulesbook.reconstruct.gamelist import split_games
    from ui.board.gamelist import GameListDialog

    app = QApplication.instance() or QApplication([])
    chunks = split_games(archive())
    # the machine's own stalls: the probe with nothing to do (another process may
    # take the core from the GUI thread; no program of ours can prevent that)
    idle = Probe()
    until = time.perf_counter() + IDLE_SECONDS
    while time.perf_counter() < until:
        app.processEvents()
        time.sleep(0.001)
    idle.stop()
    idle_worst = max(idle.gaps) * 1000 if idle.gaps else 0.0
    dialog = GameListDialog(chunks)
    dialog.show()
    app.processEvents()
    marked: list[int] = []
    dialog.scanner.found.connect(lambda batch: marked.extend(g for g, _ in batch))
    probe = Probe()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu, start = time.process_time(), time.perf_counter()
    while not dialog.scanner.isFinished():
        app.processEvents()
        time.sleep(0.001)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    app.processEvents()
    probe.stop()
    dialog.stop_scan()  # the scan's process has ended: its CPU is counted now
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    worker = (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)
    worst = max(probe.gaps) * 1000 if probe.gaps else 0.0
    stalls = sum(1 for g in probe.gaps if g * 1000 > STALL_MS)
    rate, cpu_rate = len(chunks) / wall, len(chunks) / (cpu + worker)
    print(f"scan    : {len(chunks):,} games ({corpus_dir()} repeated) in {wall:.1f} s = "
          f"{rate:,.0f} games/s wall, {cpu_rate:,.0f} games per CPU second (the app's "
          f"process {cpu:.1f} s, the scan's {worker:.1f} s; read in a {dialog.scanner.where}); "
          f"{len(set(marked)):,} marked; goal {SCAN_GOAL:,.0f} -> "
          f"{'OK' if rate >= SCAN_GOAL else 'SLOW'}; before #29 {BEFORE['scan games/s']:.0f} "
          f"games/s: {rate / BEFORE['scan games/s']:.1f}x")
    print(f"stalls  : GUI probe every 5 ms, {len(probe.gaps):,} ticks: worst gap {worst:.0f} ms, "
          f"{stalls} over {STALL_MS:.0f} ms (before #29: {BEFORE['stall ms']:.0f} ms); the same "
          f"probe idle for {IDLE_SECONDS:.0f} s before the scan: worst gap {idle_worst:.0f} ms, "
          f"{sum(1 for g in idle.gaps if g * 1000 > STALL_MS)} over {STALL_MS:.0f} ms")
    dialog.deleteLater()


# -- 3. memory -----------------------------------------------------------------------

def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def bench_memory() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as home:
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "RULESBOOK_LOG_DIR",
                    "RULESBOOK_AUTOSAVE_DIR"):
            os.environ[var] = home
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        from rulesbook.reconstruct.gamelist import split_games
        from ui.app import Launcher

        app = QApplication.instance() or QApplication([])
        app.setOrganizationName("APCA-bench")
        launcher = Launcher()
        launcher.start(None, background=False)
        # the app loads the gap search's compiled kernel (numba, ~45 MB once) in the
        # background 2 s after start: loaded first here, it is not counted as growth
        from rulesbook.reconstruct.gap.compiled import warm_up

        warm_up()
        board = launcher.window.workspaces["board"]
        board.confirm_close = lambda: "discard"
        board.may_replace = lambda _what: True
        files = [(path, len(split_games(text))) for path, text in corpus_texts()]
        opened = 0

        def pick(game: int) -> None:
            from ui.board.gamelist import GameListDialog

            dialog = QApplication.activeModalWidget()
            if isinstance(dialog, GameListDialog):
                dialog._open_row(game)
            else:  # not shown yet
                QTimer.singleShot(10, lambda: pick(game))

        def open_some(count: int) -> None:
            nonlocal opened
            for _ in range(count):
                path, games = files[opened % len(files)]
                game = (opened // len(files)) % games
                if opened % 2 and games > 1:  # through the game list (its scan runs)
                    QTimer.singleShot(10, lambda g=game: pick(g))
                    assert board.open_pdn(path), path
                else:
                    assert board.open_pdn(path, game), path
                app.processEvents()
                opened += 1

        open_some(WARM_OPENS)
        before = rss_mb()
        open_some(OPENS)
        after = rss_mb()
        grown = after - before
        print(f"memory  : RSS {before:.0f} MB after {WARM_OPENS} opens, {after:.0f} MB after "
              f"{OPENS} more: +{grown:.1f} MB ({grown * 1000 / OPENS:.0f} kB an open); goal "
              f"<= {MEMORY_GOAL_MB:.0f} MB -> {'OK' if grown <= MEMORY_GOAL_MB else 'GROWS'}")
        launcher.window.close()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    numbers = [a for a in argv if a.isdigit()]
    runs = int(numbers[0]) if numbers else 5
    if only is None:  # each part in a process of its own
        bench_start(runs)
        for part in ("scan", "memory"):
            subprocess.run([sys.executable, __file__, "--only", part], check=True)
    elif only == "start":
        bench_start(runs)
    elif only == "scan":
        bench_scan()
    elif only == "memory":
        bench_memory()
    else:
        raise SystemExit(f"--only start, scan or memory, not {only!r}")
    return 0


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    sys.exit(main())
