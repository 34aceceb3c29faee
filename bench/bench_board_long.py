"""Opening long records in the Board (issue #34, Must 3: 1k / 2k / 4k / 8k plies
took 7.6 / 18 / 55 / 212 s on the GUI thread, 60,000 plies over 500 s): pool
records of two kings shuffling (tests/long_record.py, played by the engine) with
an illegal move at the middle ply, opened in a shown Board workspace offscreen.

For each size: the time from the import to the record shown (the worker's read,
replay, counts and draw claims, then the lazy move list), the longest stall of the
GUI thread meanwhile (a 10 ms timer's longest gap between ticks), and Check Record
(on the GUI thread). "before" is the issue's figure for the code before the
change (a run of this script on it, ``git archive`` + ``PYTHONPATH``, gave 7.5 /
12.3 / 73 s for 1k / 2k / 4k plies, Check Record 7.4 / 32 / 249 s, on a loaded
machine); the wait falls back to ``load_text`` returning when the record is shown.

    python bench/bench_board_long.py [PLIES ...]
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZES = (1000, 2000, 4000, 8000, 60000)
#: seconds to open each size before the change, all of it on the GUI thread: the
#: issue's figures (1k-8k; 60,000 plies "ran past 500 s")
BEFORE = {1000: 7.6, 2000: 18.0, 4000: 55.0, 8000: 212.0, 60000: 500.0}


def open_probed(app, ws, pdn: str, source: str) -> tuple[float, int]:
    """Import ``pdn`` and wait until it is shown: (seconds, the GUI thread's longest
    stall in ms, as a 10 ms timer sees it)."""
    from PySide6.QtCore import QElapsedTimer, QTimer

    files = ws.board_controller.files
    clock, since = QElapsedTimer(), QElapsedTimer()
    stalls = [0]

    def tick() -> None:
        stalls[0] = max(stalls[0], since.restart())

    probe = QTimer()
    probe.setInterval(10)
    probe.timeout.connect(tick)
    clock.start()
    since.start()
    probe.start()
    ws.import_text(pdn, source=source)
    tick()  # import_text's own time on the GUI thread
    while getattr(files, "reading", None) is not None:  # None before the change
        app.processEvents()
        time.sleep(0.002)
    app.processEvents()
    tick()
    probe.stop()
    return clock.elapsed() / 1000, stalls[0]


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    tmp = tempfile.mkdtemp(prefix="bench-board-long-")
    os.environ["RULESBOOK_AUTOSAVE_DIR"] = f"{tmp}/autosave"
    os.environ["RULESBOOK_LOG_DIR"] = f"{tmp}/logs"
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication

    from tests.long_record import long_record
    from ui.controller import AppController
    from ui.workspaces.board import BoardWorkspace

    app = QApplication.instance() or QApplication([])
    controller = AppController()
    assert controller.load().ok
    ws = BoardWorkspace(controller)
    ws.confirm_close = lambda: "discard"
    ws.resize(1024, 700)
    ws.show()
    app.processEvents()
    sizes = [int(a) for a in (argv if argv is not None else sys.argv[1:])] or list(SIZES)
    print(f"{'plies':>6} {'shown (s)':>10} {'longest GUI stall (ms)':>23} {'check (s)':>10} "
          f"{'before (s)':>11} {'ratio':>7}")
    for plies in sizes:
        record = long_record(plies)
        shown, stall = open_probed(app, ws, record.pdn, f"long-{plies}.pdn")
        assert len(ws.board_controller.moves) == plies, ws.status_text()
        start = time.perf_counter()
        ws.board_controller.check.run()
        app.processEvents()
        check = time.perf_counter() - start
        before = BEFORE.get(plies)
        ratio = f"{before / shown:>6.0f}x" if before and shown else f"{'-':>7}"
        print(f"{plies:>6} {shown:>10.2f} {stall:>23} {check:>10.2f} "
              f"{before if before else '-':>11} {ratio}", flush=True)
    ws.board_controller.shutdown()
    return 0


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    sys.exit(main())
