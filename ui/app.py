"""``rulesbook-app``: open the main window on the user's rules folder (or ``--data DIR``).

On first start the rules folder is created from the bundled seed data in the
platform's data location (QStandardPaths), the folder ``rulesbook where`` prints.

The library is loaded and indexed on a worker thread while the window is built;
the window appears once the data is ready. A data folder that fails validation
opens the list of its problems instead of the app.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

_T0 = time.perf_counter()

from PySide6.QtCore import QObject, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from .controller import AppController  # noqa: E402
from .errors import install_excepthook  # noqa: E402

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
        self.problems_dialog = None
        self.ready_at: float | None = None
        self._restored = False
        self.controller.libraryLoaded.connect(self._loaded)
        self.controller.loadFailed.connect(self._failed)

    def start(self, path=None, background: bool = True) -> None:
        if background:
            self.controller.load_async(path)
        else:
            self.controller.load(path)

    def _loaded(self, _library) -> None:
        if self.problems_dialog is not None:
            self.problems_dialog.hide()
            self.problems_dialog.deleteLater()
            self.problems_dialog = None
        if not self._restored:
            self._restored = True
            self.window.restore()
        if not self.window.isVisible():
            self.window.show()
        self.ready_at = time.perf_counter()

    def _failed(self, problems) -> None:
        from .problems import ProblemsDialog

        root = self.controller.last_failed_root
        if self.problems_dialog is None:
            # While the app runs (a later "open"), the list shows over the window.
            parent = self.window if self.window.isVisible() else None
            self.problems_dialog = ProblemsDialog(root, problems, parent)
            self.problems_dialog.openFolder.connect(lambda path: self.start(path))
            self.problems_dialog.rejected.connect(self._dialog_closed)
        else:
            self.problems_dialog.set_problems(root, problems)
        self.problems_dialog.show()
        self.problems_dialog.raise_()

    def _dialog_closed(self) -> None:
        if not self.window.isVisible():
            QApplication.instance().quit()


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rulesbook-app", description=__doc__)
    parser.add_argument("--data", metavar="DIR", help="the rules data folder to open")
    parser.add_argument("--startup-probe", action="store_true",
                        help=argparse.SUPPRESS)  # print the time to a usable window and quit
    return parser.parse_args(argv)


def _run_test_script(path: str, app: QApplication, launcher: Launcher) -> None:
    """TEST-ONLY hook (``$RULESBOOK_TEST_SCRIPT``): once the window is shown, run the
    Python file ``path`` with ``app``, ``launcher`` and ``window`` in its globals, so
    that a test can drive a real app process (tests/ui/test_recovery.py kills one and
    checks that the next finds the work). A failing script ends the app with code 3."""
    done = []

    def run() -> None:
        try:
            code = compile(open(path, encoding="utf-8").read(), path, "exec")
            exec(code, {"__name__": "__rulesbook_test__", "app": app,  # noqa: S102
                        "launcher": launcher, "window": launcher.window})
        except BaseException:  # noqa: BLE001 - report it to the test, never a dialog
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
            app.exit(3)

    def loaded(_library) -> None:
        if not done:
            done.append(True)
            QTimer.singleShot(0, run)

    launcher.controller.libraryLoaded.connect(loaded)  # after the Launcher's own slot


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    QApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APPLICATION)
    install_excepthook()
    launcher = Launcher()
    if os.environ.get("RULESBOOK_TEST_SCRIPT"):
        _run_test_script(os.environ["RULESBOOK_TEST_SCRIPT"], app, launcher)
    launcher.start(args.data, background=True)
    if args.startup_probe:
        def probe() -> None:
            if launcher.ready_at is not None:
                print(f"ready {launcher.ready_at - _T0:.3f}", flush=True)
                app.quit()
            elif launcher.problems_dialog is not None:
                print("failed", flush=True)
                app.quit()
            else:
                QTimer.singleShot(5, probe)
        QTimer.singleShot(0, probe)
    code = app.exec()
    launcher.controller.wait()
    return code


if __name__ == "__main__":
    sys.exit(main())
