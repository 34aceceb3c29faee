"""The Editions workspace: the list of editions, one edition consolidated, and
the redline between any two, exportable to HTML and PDF."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from rulesbook import Library
from rulesbook.editions import Redline, redline

from ..controller import AppController
from ..models import REF_ROLE, EditionListModel
from ..render import consolidated_html, redline_html
from ..texts_banner import TextsBanner
from ..widgets import DocBrowser, route_link
from . import Workspace


class EditionsWorkspace(Workspace):
    id = "editions"
    title = "Editions"
    description = "Editions of the rules: consolidated text and redlines"

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.model = EditionListModel(self)
        self.list = QListView()
        self.list.setModel(self.model)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setAccessibleName("Editions")
        self.list.setWordWrap(True)
        self.list.setSpacing(2)
        self.list.selectionModel().currentChanged.connect(self._edition_current)

        self.consolidated = DocBrowser()
        self.consolidated.setAccessibleName("Consolidated edition")
        self.consolidated.internalLink.connect(lambda link: route_link(self.controller, link))

        self.old_combo = QComboBox()
        self.new_combo = QComboBox()
        self.old_combo.setAccessibleName("Old edition")
        self.new_combo.setAccessibleName("New edition")
        for combo in (self.old_combo, self.new_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.currentIndexChanged.connect(self._redline_changed)
        old_label = QLabel("Fr&om:")
        old_label.setBuddy(self.old_combo)
        new_label = QLabel("&To:")
        new_label.setBuddy(self.new_combo)
        self.export_html_button = QPushButton("Export HT&ML…")
        self.export_pdf_button = QPushButton("Export P&DF…")
        self.export_html_button.setToolTip("Export the redline as HTML (Ctrl+Shift+E)")
        self.export_pdf_button.setToolTip("Export the redline as PDF (Ctrl+Shift+P)")
        self.export_html_button.clicked.connect(lambda: self._export("html"))
        self.export_pdf_button.clicked.connect(lambda: self._export("pdf"))
        row = QHBoxLayout()
        row.addWidget(old_label)
        row.addWidget(self.old_combo)
        row.addWidget(new_label)
        row.addWidget(self.new_combo)
        row.addStretch(1)
        row.addWidget(self.export_html_button)
        row.addWidget(self.export_pdf_button)
        self.redline_view = DocBrowser()
        self.redline_view.setAccessibleName("Redline")
        self.redline_view.internalLink.connect(lambda link: route_link(self.controller, link))
        redline_page = QWidget()
        lay = QVBoxLayout(redline_page)
        lay.addLayout(row)
        lay.addWidget(self.redline_view, 1)

        self.tabs = QTabWidget()
        self.tabs.addTab(self.consolidated, "&Consolidated")
        self.tabs.addTab(redline_page, "&Redline")
        self.splitter = QSplitter()
        self.splitter.addWidget(self.list)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([280, 720])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.texts_banner = TextsBanner(rulings=False, parent=self)
        layout.addWidget(self.texts_banner)
        layout.addWidget(self.splitter)
        self.redline: Redline | None = None
        self.shown_edition: str | None = None
        #: set by the main window: File ▸ Export as (kind, title, body)
        self.exporter: Callable[[str, str, str], Path | None] | None = None

    def on_library(self, library: Library) -> None:
        self.texts_banner.show_mismatches(self.controller.text_mismatches,
                                          self.controller.edition_id)
        self.model.set_library(library)
        self.model.set_in_force(self.controller.edition_id)
        for combo in (self.old_combo, self.new_combo):
            combo.blockSignals(True)
            combo.clear()
            for ed in library.editions:
                combo.addItem(f"{ed.title} ({ed.id})", ed.id)
            combo.blockSignals(False)
        n = len(library.editions)
        self.old_combo.setCurrentIndex(max(0, n - 2))
        self.new_combo.setCurrentIndex(max(0, n - 1))
        self.shown_edition = None
        if n:
            self.show_edition(self.controller.edition_id or library.editions[-1].id)
        self._redline_changed()

    def on_edition(self, edition_id: str) -> None:
        self.texts_banner.show_mismatches(self.controller.text_mismatches, edition_id)
        self.model.set_in_force(edition_id)

    def show_edition(self, edition_id: str) -> None:
        book = self.controller.consolidated(edition_id)
        if book is None:
            return
        self.shown_edition = edition_id
        self.consolidated.set_page(consolidated_html(book))
        row = self.model.edition_ids().index(edition_id)
        index = self.model.index(row)
        if self.list.currentIndex() != index:
            self.list.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def _edition_current(self, index: QModelIndex, _prev: QModelIndex) -> None:
        edition_id = index.data(REF_ROLE)
        if edition_id and edition_id != self.shown_edition:
            self.show_edition(edition_id)

    def set_redline(self, old_id: str, new_id: str) -> None:
        self.old_combo.setCurrentIndex(self.old_combo.findData(old_id))
        self.new_combo.setCurrentIndex(self.new_combo.findData(new_id))
        self._redline_changed()
        self.tabs.setCurrentIndex(1)

    def _redline_changed(self, *_args: object) -> None:
        library = self.controller.library
        old_id, new_id = self.old_combo.currentData(), self.new_combo.currentData()
        if library is None or not old_id or not new_id:
            self.redline = None
            self.redline_view.set_page("<p>No editions.</p>")
            return
        self.redline = redline(library, old_id, new_id)
        self.redline_view.set_page(redline_html(self.redline))
        enabled = self.redline is not None
        self.export_html_button.setEnabled(enabled)
        self.export_pdf_button.setEnabled(enabled)

    def redline_document(self) -> tuple[str, str] | None:
        if self.redline is None:
            return None
        return (f"Redline {self.redline.old.id} to {self.redline.new.id}",
                redline_html(self.redline))

    def _export(self, kind: str) -> None:
        doc = self.redline_document()
        if doc and self.exporter is not None:
            self.exporter(kind, *doc)

    def export_document(self) -> tuple[str, str] | None:
        if self.tabs.currentIndex() == 1:
            return self.redline_document()
        book = self.controller.consolidated(self.shown_edition) if self.shown_edition else None
        if book is not None:
            return f"Edition {self.shown_edition}", consolidated_html(book)
        return None

    def save_state(self, settings: QSettings) -> None:
        self.save_layout(settings, splitter=self.splitter, tab=self.tabs)

    def restore_state(self, settings: QSettings) -> None:
        self.restore_layout(settings, splitter=self.splitter, tab=self.tabs)

    def focus_main(self) -> None:
        self.list.setFocus()


__all__ = ["EditionsWorkspace", "Qt"]
