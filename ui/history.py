"""A rule's history in the Rules workspace: the commits and editions that changed
it, the text at any of them, and the redline between two.

The history is read on a worker thread (a long history is many versions of the
rulebook file); selecting rows only shows what was read.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QThread, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rulesbook import Library
from rulesbook.errors import RulesbookError
from rulesbook.rulesfolder import is_rules_folder
from rulesbook.rulesfolder.history import HistoryEntry, record_history, record_text_at
from rulesbook.textdiff import word_diff

from .controller import AppController
from .widgets import DocBrowser, FittedColumns, plain_tip


@dataclass(frozen=True)
class Version:
    """One row of the history: the commit and the record's text after it."""

    entry: HistoryEntry
    text: str | None  # None: the record did not exist after this commit


def read_versions(root: Path, library: Library, ref: str) -> list[Version]:
    entries = record_history(root, library, ref)
    return [Version(e, record_text_at(root, library, ref, e.commit)) for e in entries]


class _HistoryThread(QThread):
    done = Signal(str, object)  # ref, [Version]
    failed = Signal(str, str)  # ref, message

    def __init__(self, root: Path, library: Library, ref: str,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.root, self.library, self.ref = root, library, ref

    def run(self) -> None:  # pragma: no cover - exercised through HistoryPanel
        try:
            self.done.emit(self.ref, read_versions(self.root, self.library, self.ref))
        except (RulesbookError, OSError) as exc:
            self.failed.emit(self.ref, str(exc))


class HistoryController(QObject):
    """Owns the history being shown; reads it off the GUI thread."""

    historyReady = Signal(str, object)  # ref, [Version]
    historyFailed = Signal(str, str)

    def __init__(self, app_controller: AppController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app_controller
        self.ref: str | None = None
        self.versions: list[Version] = []
        self._threads: list[_HistoryThread] = []

    def request(self, ref: str) -> bool:
        """Read the history of ``ref``; False when the folder is not versioned."""
        root, library = self.app.data_dir, self.app.library
        self.ref = ref
        if root is None or library is None or not is_rules_folder(root):
            self.versions = []
            self.historyFailed.emit(ref, "This data folder is not versioned: it has no "
                                         "history (open your rules folder)")
            return False
        thread = _HistoryThread(Path(root), library, ref, self)
        thread.done.connect(self._done)
        thread.failed.connect(self.historyFailed)
        thread.finished.connect(lambda t=thread: self._threads.remove(t))
        self._threads.append(thread)
        thread.start()
        return True

    def _done(self, ref: str, versions: list[Version]) -> None:
        if ref == self.ref:  # a later request wins
            self.versions = versions
            self.historyReady.emit(ref, versions)

    def wait(self) -> None:
        for thread in list(self._threads):
            thread.wait()


class HistoryPanel(QWidget):
    """The list of versions above; below, the text of the selected one or the
    redline between the two selected (older to newer)."""

    COLUMNS = ("Date", "Author", "Change", "Edition", "Message")

    def __init__(self, app_controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history = HistoryController(app_controller, self)
        self.note = QLabel("Select a rule to see its history.")
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)  # a ref and git's messages
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.setAccessibleName("Rule history")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        # columns kept inside the table's width (a long commit message wraps)
        self.fitted = FittedColumns(self.table, (3, 2, 2, 2, 5))
        self.view = DocBrowser()
        self.view.setAccessibleName("Text at the selected version")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.note)
        layout.addWidget(split)
        self.history.historyReady.connect(self._show_versions)
        self.history.historyFailed.connect(lambda _ref, message: self._show_message(message))
        self.table.itemSelectionChanged.connect(self._selection_changed)

    def show_ref(self, ref: str) -> None:
        self.table.setRowCount(0)
        self.view.set_page("")
        self.note.setText(f"Reading the history of {ref}…")
        self.history.request(ref)

    def _show_message(self, message: str) -> None:
        self.table.setRowCount(0)
        self.note.setText(message)

    def _show_versions(self, ref: str, versions: list[Version]) -> None:
        self.table.setRowCount(len(versions))
        for row, version in enumerate(versions):
            e = version.entry
            author = e.author.split(" <")[0]
            cells = (e.date[:16].replace("T", " "), author, e.change,
                     " ".join(x for x in (e.edition or "", f"ballot {e.ballot}" if e.ballot
                                          else "") if x), e.message)
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(plain_tip(f"{e.commit[:10]} — {e.message}"))
                self.table.setItem(row, col, item)
        self.fitted.fit()
        self.note.setText(f"{ref}: {len(versions)} version(s). Select one to read its text, "
                          f"two to see the redline between them.")
        if versions:
            self.table.selectRow(0)

    def selected_versions(self) -> list[Version]:
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        return [self.history.versions[r] for r in rows if r < len(self.history.versions)]

    def _selection_changed(self) -> None:
        chosen = self.selected_versions()
        if len(chosen) == 1:
            v = chosen[0]
            body = (html.escape(v.text) if v.text is not None
                    else "<i>The record did not exist after this change.</i>")
            self.view.set_page(f"<h3>{html.escape(v.entry.message)}</h3>"
                               f"<p><small>{html.escape(v.entry.date)} · "
                               f"{html.escape(v.entry.author)} · {v.entry.commit[:10]}</small>"
                               f"</p><p>{body}</p>")
        elif len(chosen) >= 2:
            newer, older = chosen[0], chosen[-1]  # rows are newest first
            diff = word_diff(older.text or "", newer.text or "")
            self.view.set_page(f"<h3>Redline: {older.entry.date[:10]} → "
                               f"{newer.entry.date[:10]}</h3>"
                               f"<p><small>{older.entry.commit[:10]} → "
                               f"{newer.entry.commit[:10]}</small></p><p>{diff.html()}</p>")
        else:
            self.view.set_page("")
