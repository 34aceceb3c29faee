"""The rules folder in the app: where it is (QStandardPaths), Sync with progress on
a worker thread, and whether the folder is ahead of or behind its remote.

The core (:mod:`rulesbook.rulesfolder`) does the work; this controller owns the
sync state and reports through signals.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QStandardPaths, QThread, Signal

from rulesbook import Library
from rulesbook.datapath import APP_AUTHOR, APP_NAME, FOLDER_NAME
from rulesbook.errors import RulesbookError
from rulesbook.rulesfolder import (
    FolderStatus,
    SyncConflict,
    SyncResult,
    fetch_status,
    folder_status,
    is_rules_folder,
    sync,
)
from rulesbook.rulesfolder.credentials import Ask
from rulesbook.rulesfolder.errors import Resolution, SealedMeanwhile

if TYPE_CHECKING:
    from .controller import AppController


def app_rules_dir() -> Path:
    """The user's rules folder as Qt names the platform's data location; the same folder
    the command line uses (``rulesbook where``)."""
    base = Path(QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.GenericDataLocation))
    if sys.platform.startswith("win"):
        return base / APP_AUTHOR / APP_NAME / FOLDER_NAME
    return base / APP_NAME / FOLDER_NAME


def describe_status(status: FolderStatus | None) -> str:
    if status is None:
        return "Not versioned"
    if status.remote is None:
        return "Not shared" + (f"; {len(status.pending)} unsaved edit(s)" if status.pending
                               else "")
    parts = []
    if status.ahead:
        parts.append(f"{status.ahead} to send")
    if status.behind:
        parts.append(f"{status.behind} to receive")
    if status.pending:
        parts.append(f"{len(status.pending)} hand edit(s)")
    return ("Sync: " + ", ".join(parts)) if parts else "In step with the remote"


class _SyncThread(QThread):
    progress = Signal(str)
    done = Signal(object)  # SyncResult
    failed = Signal(str, bool)  # the message; whether keeping one side settles it

    def __init__(self, root: Path, remote: str | None, take: Resolution | None = None,
                 parent: QObject | None = None, ask: Ask | None = None) -> None:
        super().__init__(parent)
        self.root = root
        self.remote = remote
        self.take = take
        self.ask = ask

    def run(self) -> None:  # pragma: no cover - exercised through FolderController.sync
        try:
            self.done.emit(sync(self.root, self.remote, self.progress.emit, self.take,
                                self.ask))
        except (SyncConflict, SealedMeanwhile) as exc:
            self.failed.emit(str(exc), True)
        except (RulesbookError, OSError) as exc:
            self.failed.emit(str(exc), False)


class _FetchThread(QThread):
    done = Signal(object)  # FolderStatus
    failed = Signal(str)

    def __init__(self, root: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.root = root

    def run(self) -> None:  # pragma: no cover - exercised through FolderController.check
        try:  # no login asked: a look at the remote on opening never shows a dialog
            self.done.emit(fetch_status(self.root))
        except (RulesbookError, OSError) as exc:
            self.failed.emit(str(exc))


class FolderController(QObject):
    """Sync and status of the app's rules folder.

    Signals:
      statusChanged(object)   FolderStatus (or None when the folder is not versioned);
                              ``offline`` says whether the last look at the remote failed
      syncProgress(str)       a step of the sync in progress
      syncFinished(object)    SyncResult; the library is reloaded after it
      syncFailed(str)         the message (a conflict names the records); when
                              ``can_settle``, syncing again with ``take`` (keep one
                              side of the records) gets past it
    """

    statusChanged = Signal(object)
    syncProgress = Signal(str)
    syncFinished = Signal(object)
    syncFailed = Signal(str)

    def __init__(self, app_controller: AppController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app_controller
        self.status: FolderStatus | None = None
        self._thread: _SyncThread | None = None
        self._fetch: _FetchThread | None = None
        self.offline = False
        self.last_result: SyncResult | None = None
        self.last_error: str | None = None
        #: the last sync stopped on records that keeping one side settles
        self.can_settle = False
        #: look at the remote (fetch only) whenever a folder is opened
        self.check_on_load = True
        #: asks the user for a login when a host wants one (a dialog: :mod:`ui.login`)
        self.ask: Ask | None = None
        app_controller.libraryLoaded.connect(self.opened)

    def opened(self, _library: Library | None = None) -> None:
        """A folder was opened: show its status, then look at the remote."""
        status = self.refresh()
        if self.check_on_load and status is not None and status.remote is not None:
            self.check()

    def check(self) -> bool:
        """Fetch the remote's branch on a worker thread (nothing is merged) so the status
        shows what there is to receive; False when a sync or a check runs."""
        root = self._versioned_root()
        if self.running or (self._fetch is not None and self._fetch.isRunning()) \
                or root is None:
            return False
        self._fetch = _FetchThread(root, self)
        self._fetch.done.connect(self._checked)
        self._fetch.failed.connect(self._check_failed)
        self._fetch.start()
        return True

    def _checked(self, status: FolderStatus) -> None:
        if self._fetch is not None:
            self._fetch.wait()
        self.offline = False
        self.status = status
        self.statusChanged.emit(status)

    def _check_failed(self, message: str) -> None:
        if self._fetch is not None:
            self._fetch.wait()
        self.offline = True
        self.last_error = message
        self.statusChanged.emit(self.status)

    @property
    def root(self) -> Path | None:
        return self.app.data_dir

    @property
    def versioned(self) -> bool:
        return self._versioned_root() is not None

    def _versioned_root(self) -> Path | None:
        """The open folder when it is a versioned rules folder, else None."""
        root = self.root
        return root if root is not None and is_rules_folder(root) else None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def refresh(self) -> FolderStatus | None:
        try:
            root = self._versioned_root()
            self.status = folder_status(root) if root is not None else None
        except (RulesbookError, OSError):
            self.status = None
        self.statusChanged.emit(self.status)
        return self.status

    def sync(self, remote: str | None = None, take: Resolution | None = None) -> bool:
        """Start a sync on a worker thread; False when one runs or nothing to sync.
        ``take``: the side to keep of the records the last sync stopped on."""
        if self.running:
            return False
        root = self._versioned_root()
        if root is None:
            self.syncFailed.emit(f"{self.root} is not a rules folder: it cannot be synced")
            return False
        self._thread = _SyncThread(root, remote, take, self, self.ask)
        self._thread.progress.connect(self.syncProgress)
        self._thread.done.connect(self._done)
        self._thread.failed.connect(self._failed)
        self._thread.start()
        return True

    def wait(self) -> None:
        for thread in (self._thread, self._fetch):
            if thread is not None:
                thread.wait()

    def _done(self, result: SyncResult) -> None:
        self.wait()
        self.last_result, self.last_error = result, None
        self.can_settle = False
        self.offline = False
        if not result.up_to_date:
            self.app.load(self.root)
        self.refresh()
        self.syncFinished.emit(result)

    def _failed(self, message: str, can_settle: bool = False) -> None:
        self.wait()
        self.last_result, self.last_error = None, message
        self.can_settle = can_settle
        self.refresh()
        self.syncFailed.emit(message)
