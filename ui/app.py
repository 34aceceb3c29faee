"""``rulesbook-app``: open the main window on the user's rules folder (or ``--data DIR``).

On first start the rules folder is created from the bundled seed data in the
platform's data location (QStandardPaths), the folder ``rulesbook where`` prints.

The library is loaded and indexed on a worker thread while the window is built;
the window appears once the data is ready. A data folder that fails validation
opens the list of its problems instead of the app.
"""
from __future__ import annotations

import argparse
import gc
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

_T0 = time.perf_counter()

from PySide6.QtCore import QEvent, QObject, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from .controller import AppController  # noqa: E402
from .errors import install_excepthook  # noqa: E402

if TYPE_CHECKING:
    from pathlib import Path

    from rulesbook import Library, Problem

    from .problems import ProblemsDialog

ORGANIZATION = "APCA"
APPLICATION = "Rulesbook"


class Launcher(QObject):
    """Starts the app: loads a folder, then shows the window or the problems."""

    def __init__(self, settings: QSettings | None = None, parent: QObject | None = None):
        super().__init__(parent)
        from .mainwindow import MainWindow

        self.controller = AppController(self)
        self.settings = settings if settings is not None else QSettings()
        self.window = MainWindow(self.controller, self.settings)
        self.problems_dialog: ProblemsDialog | None = None
        self.ready_at: float | None = None
        self._restored = False
        self.controller.libraryLoaded.connect(self._loaded)
        self.controller.loadFailed.connect(self._failed)

    def start(self, path: str | Path | None = None, background: bool = True) -> None:
        if background:
            self.controller.load_async(path)
        else:
            self.controller.load(path)

    def _loaded(self, _library: Library) -> None:
        if self.problems_dialog is not None:
            self.problems_dialog.hide()
            self.problems_dialog.deleteLater()
            self.problems_dialog = None
        if not self._restored:
            self._restored = True
            self.window.restore()
            # the gap search's compiled kernel, loaded (or compiled) while the
            # user reads the window, not when the players wait for a gap
            QTimer.singleShot(2000, _warm_gap_search)
        if not self.window.isVisible():
            self.window.show()
        self.ready_at = time.perf_counter()

    def _failed(self, problems: list[Problem]) -> None:
        from .problems import ProblemsDialog

        # set before every loadFailed; the words are for a caller that did not set it
        failed = self.controller.last_failed_root
        root = failed if failed is not None else "the data folder"
        dialog = self.problems_dialog
        if dialog is None:
            # While the app runs (a later "open"), the list shows over the window.
            parent = self.window if self.window.isVisible() else None
            dialog = ProblemsDialog(root, problems, parent)
            self.problems_dialog = dialog
            dialog.openFolder.connect(lambda path: self.start(path))
            dialog.rejected.connect(self._dialog_closed)
        else:
            dialog.set_problems(root, problems)
        dialog.show()
        dialog.raise_()

    def _dialog_closed(self) -> None:
        if not self.window.isVisible():
            QApplication.quit()


def _warm_gap_search() -> None:
    from rulesbook.reconstruct.gap.compiled import warm_up

    threading.Thread(target=warm_up, name="gap-warm-up", daemon=True).start()


class StartupProbe(QObject):
    """``--startup-probe``: one line ``ready I paint P shown S cpu C`` (seconds since
    the interpreter started the app's module, C the process's CPU seconds then),
    then quit. S: the window shown; P: its first paint; I: interactive, the event
    loop free again after the first paint (a zero timer queued then has fired)."""

    def __init__(self, app: QApplication, launcher: Launcher) -> None:
        super().__init__(launcher)
        self.app = app
        self.launcher = launcher
        self.painted: float | None = None
        launcher.window.installEventFilter(self)
        QTimer.singleShot(0, self._poll)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if self.painted is None and event.type() == QEvent.Type.Paint:
            self.painted = time.perf_counter()
            QTimer.singleShot(0, self._interactive)
        return False

    def _interactive(self) -> None:
        now, cpu = time.perf_counter(), time.process_time()
        shown = self.launcher.ready_at if self.launcher.ready_at is not None else now
        painted = self.painted if self.painted is not None else now
        _say(f"ready {now - _T0:.3f} paint {painted - _T0:.3f} shown {shown - _T0:.3f} "
             f"cpu {cpu:.3f}")
        self.app.quit()

    def _poll(self) -> None:
        if self.launcher.problems_dialog is not None:
            _say("failed")
            self.app.quit()
        elif self.painted is None:
            QTimer.singleShot(5, self._poll)


def _say(text: str) -> None:
    """A line on standard output, which the windowed app of the Windows bundle has
    not (sys.stdout is None there)."""
    if sys.stdout is not None:
        print(text, flush=True)


def parse_args(argv: list[str]) -> argparse.Namespace:
    from rulesbook.cli import VersionAction  # the command line's: one --version

    parser = argparse.ArgumentParser(prog="rulesbook-app", description=__doc__)
    parser.add_argument("--data", metavar="DIR", help="the rules data folder to open")
    parser.add_argument("--startup-probe", action="store_true",
                        help=argparse.SUPPRESS)  # print the time to a usable window and quit
    parser.add_argument("--version", action=VersionAction,
                        help="print the version of Rulesbook and exit")
    parser.add_argument("--smoke-test", nargs=2, metavar=("FILE", "OUTDIR"),
                        help="check this installation: open a PDN file, find its illegal "
                             "move, save the case and the report in OUTDIR, quit (ui/smoke.py)")
    parser.add_argument("--smoke-game", metavar="N", type=int, default=1,
                        help="the game of FILE the smoke test opens (from 1)")
    return parser.parse_args(argv)



def _resume_gc_when_started(launcher: Launcher) -> None:
    def started(*_args: object) -> None:
        launcher.controller.libraryLoaded.disconnect(started)
        launcher.controller.loadFailed.disconnect(started)
        from .board.reading import enable_collection

        gc.freeze()
        enable_collection()  # a reader started by the load (the autosave) ends first

    # after the Launcher's own slots: the window is shown by then
    launcher.controller.libraryLoaded.connect(started)
    launcher.controller.loadFailed.connect(started)


def _call_when_ready(callback: Callable[[QApplication, Launcher], None], app: QApplication,
                     launcher: Launcher) -> None:
    done: list[bool] = []

    def loaded(_library: Library) -> None:
        if not done:
            done.append(True)
            QTimer.singleShot(0, lambda: callback(app, launcher))

    launcher.controller.libraryLoaded.connect(loaded)  # after the Launcher's own slot


def main(argv: list[str] | None = None,
         when_ready: Callable[[QApplication, Launcher], None] | None = None) -> int:
    """Run the app. ``when_ready(app, launcher)`` is called once, after the first
    library load has shown the window (tests/ui/app_harness.py drives a real app
    process through it; nothing in the shipped app passes it)."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.smoke_test and when_ready is None:
        from .smoke import SmokeTest

        record, outdir = args.smoke_test
        when_ready = SmokeTest(record, outdir, game=args.smoke_game, started=_T0)
    QApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0]])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APPLICATION)
    install_excepthook()
    # No garbage collection while the window is built and the library loaded: the
    # start makes ~65,000 objects that live as long as the app, and collecting
    # them over and over costs ~50 ms of CPU. Once the window shows (or the
    # problems do) they are frozen, out of every later collection, so that none
    # stalls the window while it is used (the game list's defect scan allocates).
    gc.disable()
    launcher = Launcher()
    _resume_gc_when_started(launcher)
    if when_ready is not None:
        _call_when_ready(when_ready, app, launcher)
    launcher.start(args.data, background=True)
    if args.startup_probe:
        StartupProbe(app, launcher)
    code = app.exec()
    launcher.controller.wait()
    return code


if __name__ == "__main__":
    sys.exit(main())
