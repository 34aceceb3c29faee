"""The global search field and its results popup (results as you type)."""
from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QLineEdit,
    QListView,
    QVBoxLayout,
    QWidget,
)

from .controller import AppController
from .models import HTML_ROLE, SearchResultsModel
from .widgets import HtmlDelegate

DEBOUNCE_MS = 150
_MATCHED = re.compile(r"\[([^\]]+)\]")
_WORD = re.compile(r"[\w']{3,}")


def words_to_mark(query: str, snippet: str) -> tuple[str, ...]:
    """The words to mark on the opened page: those the search matched in the
    snippet (``[crowned]``) and the words typed, three letters or more."""
    words: list[str] = []
    for found in _MATCHED.findall(snippet) + [query]:
        for word in _WORD.findall(found):
            if word.lower() not in (w.lower() for w in words):
                words.append(word)
    return tuple(words)


class SearchResults(QFrame):
    """A panel floating under the search field, inside the main window."""

    def __init__(self, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.model = SearchResultsModel(self)
        self.view = QListView()
        self.view.setModel(self.model)
        self.view.setItemDelegate(HtmlDelegate(HTML_ROLE, self.view))
        self.view.setWordWrap(True)
        self.view.setUniformItemSizes(False)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        self.view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.view.setAccessibleName("Search results")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(1, 1, 1, 1)
        lay.addWidget(self.view)
        self.hide()


class SearchController(QObject):
    """Wires a QLineEdit to the app controller's search, with a debounce.

    Queries take a few milliseconds (an in-memory FTS5 index), so they run on
    the GUI thread; the debounce keeps typing smooth.
    """

    opened = Signal(str)

    def __init__(self, field: QLineEdit, results: SearchResults, controller: AppController,
                 parent: QObject | None = None,
                 rulebook_filter: QComboBox | None = None) -> None:
        super().__init__(parent)
        self.field = field
        #: "All rulebooks" (None) or one rulebook's id: which hits are listed
        self.rulebook_filter = rulebook_filter
        if rulebook_filter is not None:
            rulebook_filter.currentIndexChanged.connect(lambda _i: self._filter_changed())
        self.results = results
        self.controller = controller
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.run)
        field.textEdited.connect(lambda _t: self.timer.start())
        field.returnPressed.connect(self.open_best)
        field.installEventFilter(self)
        results.view.clicked.connect(lambda index: self._clicked(index))

    def run(self) -> None:
        query = self.field.text().strip()
        rulebook = self.rulebook_filter.currentData() if self.rulebook_filter else None
        hits = self.controller.search(query, rulebook=rulebook) if query else []
        self.results.model.set_hits(hits)
        if hits:
            self.results.view.setCurrentIndex(self.results.model.index(0))
            self.show_popup()
            self.controller.statusMessage.emit(f"{len(hits)} results for “{query}”")
        else:
            self.results.hide()
            if query:
                self.controller.statusMessage.emit(f"No results for “{query}”")

    def show_popup(self) -> None:
        # the popup is a child of the main window (a top-level one: placed in the field's)
        window = self.results.parentWidget() or self.field.window()
        pos = self.field.mapTo(window, QPoint(0, self.field.height() + 2))
        width = max(520, self.field.width())
        x = max(4, min(pos.x(), window.width() - width - 4))
        height = min(440, max(120, window.height() - pos.y() - 40))
        self.results.setGeometry(x, pos.y(), width, height)
        self.results.show()
        self.results.raise_()

    def open_best(self) -> None:
        """Enter: a rule reference jumps straight to the rule; else the chosen (best) hit."""
        if self.timer.isActive():
            self.timer.stop()
            self.run()
        query = self.field.text().strip()
        if not query:
            return
        library = self.controller.library
        ref = library.normalise_ref(query) if library is not None else None
        if ref:
            self._open(ref)
            return
        index = self.results.view.currentIndex()
        if not index.isValid() and self.results.model.rowCount():
            index = self.results.model.index(0)
        if index.isValid():
            self._open_hit(index)

    def _clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self._open_hit(index)

    def _open_hit(self, index: QModelIndex) -> None:
        hit = self.results.model.hits[index.row()]
        self._open(hit.ref, words_to_mark(self.field.text(), hit.snippet))

    def _open(self, ref: str, highlight: tuple[str, ...] = ()) -> None:
        self.results.hide()
        if self.controller.open_ref(ref, highlight):
            self.opened.emit(ref)

    def _filter_changed(self) -> None:
        if self.field.text().strip():
            self.run()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is self.field and isinstance(event, QKeyEvent) \
                and event.type() == QEvent.Type.KeyPress:
            key = event.key()
            view = self.results.view
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up) and self.results.isVisible():
                row = view.currentIndex().row()
                row += 1 if key == Qt.Key.Key_Down else -1
                row = max(0, min(row, self.results.model.rowCount() - 1))
                view.setCurrentIndex(self.results.model.index(row))
                return True
            if key == Qt.Key.Key_Escape and self.results.isVisible():
                self.results.hide()
                return True
        if obj is self.field and event.type() == QEvent.Type.FocusOut:
            QTimer.singleShot(150, self._hide_if_unfocused)
        return super().eventFilter(obj, event)

    def _hide_if_unfocused(self) -> None:
        if not self.field.hasFocus():
            self.results.hide()
