"""Unexpected exceptions go to a log file and a readable dialog, never a traceback."""
from __future__ import annotations

import datetime
import os
import sys
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QApplication, QMessageBox

from .dialogs import message_box

LOG_ENV = "RULESBOOK_LOG_DIR"


def log_dir() -> Path:
    """Where the log lives: ``$RULESBOOK_LOG_DIR`` or the user's app data folder."""
    env = os.environ.get(LOG_ENV)
    if env:
        return Path(env)
    location = QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppLocalDataLocation)
    return Path(location or Path.home() / ".rulesbook")


def log_file() -> Path:
    return log_dir() / "rulesbook.log"


def log_exception(exc_type: type[BaseException], exc: BaseException,
                  tb: TracebackType | None) -> Path | None:
    path = log_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        stamp = datetime.datetime.now().isoformat(timespec="seconds")
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        with open(path, "a", encoding="utf-8") as handle:  # an append-only log
            handle.write(f"--- {stamp}\n{text}\n")
        return path
    except OSError:
        return None


_showing = False


def excepthook(exc_type: type[BaseException], exc: BaseException,
               tb: TracebackType | None) -> None:
    global _showing
    if issubclass(exc_type, KeyboardInterrupt):
        sys.__excepthook__(exc_type, exc, tb)
        return
    path = log_exception(exc_type, exc, tb)
    if _showing or QApplication.instance() is None:
        return
    _showing = True
    try:
        where = f"The details were written to\n{path}" if path else "The log could not be written."
        box, _answers = message_box(
            QApplication.activeWindow(), QMessageBox.Icon.Critical,
            "Rulesbook — unexpected error",
            "Something went wrong, and Rulesbook could not finish what you asked.",
            informative=f"{exc_type.__name__}: {exc}\n\nYour data files were not "
                        f"changed. {where}")
        box.exec()
    finally:
        _showing = False


def install_excepthook() -> None:
    sys.excepthook = excepthook
