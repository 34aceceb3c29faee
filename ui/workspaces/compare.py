"""The Compare workspace: every variant of a rule or topic in columns side by
side, each with word-level insertions and deletions against the original."""
from __future__ import annotations

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from rulesbook import Library
from rulesbook.compare import Comparison, compare_rule, compare_topic

from ..controller import AppController
from ..render import comparison_columns, variant_header, variant_html
from ..settings import setting_text, setting_texts
from ..widgets import DocBrowser, route_link
from . import Workspace

#: the narrowest a column may be; as many columns as fit at this width are shown
#: side by side, the others are paged (never a sideways scroll bar: issue 19)
COLUMN_WIDTH = 270


class VariantColumn(QFrame):
    """One column: a heading and the diffed text."""

    def __init__(self, ref: str, header: str, html: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.ref = ref
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.header = QLabel(header)
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        font = self.header.font()
        font.setBold(True)
        self.header.setFont(font)
        self.header.setMinimumHeight(self.header.fontMetrics().height() * 2 + 4)
        self.header.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.browser = DocBrowser()
        self.browser.setAccessibleName(header)
        self.browser.set_page(html)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.header)
        lay.addWidget(self.browser, 1)
        self.setMinimumWidth(COLUMN_WIDTH)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)


class CompareWorkspace(Workspace):
    id = "compare"
    title = "Compare"
    description = "Compare the original, each proposal and the other rulebooks side by side"

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.subject = QComboBox()
        self.subject.setEditable(False)
        self.subject.setMinimumContentsLength(20)
        self.subject.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.subject.setAccessibleName("Compare subject")
        self.subject.activated.connect(self._subject_chosen)
        label = QLabel("&Subject:")
        label.setBuddy(self.subject)
        self.columns_button = QToolButton()
        self.columns_button.setText("Columns")
        self.columns_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.columns_menu = QMenu(self.columns_button)
        self.columns_button.setMenu(self.columns_menu)
        self.columns_action = QAction("Choose Columns…", self)
        self.columns_action.setShortcut(QKeySequence("Ctrl+Shift+L"))
        self.columns_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.columns_action.triggered.connect(lambda: self.columns_button.showMenu())
        self.addAction(self.columns_action)
        self.columns_button.setToolTip("Choose which columns to show (Ctrl+Shift+L)")
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        # the summary gives way (its whole text is in the tooltip) rather than widen the window
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.summary.setMinimumWidth(0)
        top = QHBoxLayout()
        top.addWidget(label)
        top.addWidget(self.subject)
        top.addWidget(self.columns_button)
        top.addWidget(self.summary, 1)
        self.previous_button = QPushButton("◀ &Previous")
        self.previous_button.setToolTip("Show the columns before these (Alt+P)")
        self.previous_button.clicked.connect(lambda: self.page_columns(-1))
        self.next_button = QPushButton("&Next ▶")
        self.next_button.setToolTip("Show the columns after these (Alt+N)")
        self.next_button.clicked.connect(lambda: self.page_columns(1))
        top.addWidget(self.previous_button)
        top.addWidget(self.next_button)

        self.strip = QWidget()
        self.strip_layout = QHBoxLayout(self.strip)
        self.strip_layout.setContentsMargins(0, 0, 0, 0)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(self.strip)
        self.apart = QLabel()
        self.apart.setTextFormat(Qt.TextFormat.PlainText)
        self.apart.setWordWrap(True)
        self.apart.setAccessibleName("Proposals filed under this rule that concern another")
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.apart)
        layout.addWidget(self.scroll_area, 1)

        self.comparison: Comparison | None = None
        self.columns: list[VariantColumn] = []
        self.hidden: set[str] = set()  # hidden groups/refs: "Proposals", "acf-guide", "apca:28B"
        self.first_paged = 0  # index (among the paged columns) of the first one shown
        self._syncing = False
        controller.compareRequested.connect(self.show_subject)

    # -- subject ---------------------------------------------------------------
    def on_library(self, library: Library) -> None:
        self.subject.clear()
        home = library.editions[0].rulebook if library.editions else None
        for book in library.rulebooks:
            if book.id != home:
                continue
            for rule in book.rules:
                self.subject.addItem(f"Rule {rule.id}. {rule.title}", rule.ref)
        for topic in library.topics:
            self.subject.addItem(f"Topic: {topic.title}", f"topic:{topic.id}")
        self.comparison = None
        if self.subject.count():
            self.show_subject(self.subject.itemData(0))

    def _subject_chosen(self, row: int) -> None:
        subject = self.subject.itemData(row)
        if subject:
            self.controller.compare(subject)

    def show_subject(self, subject: str) -> None:
        library = self.controller.library
        if library is None:
            return
        if subject.startswith("topic:"):
            self.comparison = compare_topic(library, subject.removeprefix("topic:"))
        else:
            self.comparison = compare_rule(library, subject)
        row = self.subject.findData(self.comparison.subject)
        if row >= 0:
            self.subject.setCurrentIndex(row)
        apart = self.comparison.filed_apart
        self.apart.setVisible(bool(apart))
        self.apart.setText(
            "Filed under this rule, but about another (not an alternative to it): "
            + "; ".join(f"{f.label} ({f.member_name})" if f.member_name else f.label
                        for f in apart))
        self._rebuild_menu()
        self._rebuild_columns()

    # -- columns ----------------------------------------------------------------
    def _rebuild_menu(self) -> None:
        self.columns_menu.clear()
        if self.comparison is None:
            return
        groups: dict[str, list[str]] = {}
        for group, ref in comparison_columns(self.comparison):
            groups.setdefault(group, []).append(ref)
        library = self.controller.library
        for group, refs in groups.items():
            name = group
            if library is not None and group not in ("Original", "Proposals"):
                try:
                    name = library.rulebook(group).short_title or group
                except LookupError:
                    pass
            action = self.columns_menu.addAction(f"{name} ({len(refs)})".replace("&", "&&"))
            action.setCheckable(True)
            action.setChecked(group not in self.hidden)
            action.toggled.connect(lambda on, g=group: self.set_group_visible(g, on))
        self.columns_menu.addSeparator()
        for group, ref in comparison_columns(self.comparison):
            action = self.columns_menu.addAction(f"    {ref}".replace("&", "&&"))
            action.setCheckable(True)
            action.setChecked(ref not in self.hidden and group not in self.hidden)
            action.toggled.connect(lambda on, r=ref: self.set_column_visible(r, on))

    def set_group_visible(self, group: str, visible: bool) -> None:
        if visible:
            self.hidden.discard(group)
        else:
            self.hidden.add(group)
        self._rebuild_menu()
        self._rebuild_columns()

    def set_column_visible(self, ref: str, visible: bool) -> None:
        if visible:
            self.hidden.discard(ref)
        else:
            self.hidden.add(ref)
        self._rebuild_columns()

    def visible_refs(self) -> list[str]:
        if self.comparison is None:
            return []
        return [ref for group, ref in comparison_columns(self.comparison)
                if group not in self.hidden and ref not in self.hidden]

    def _rebuild_columns(self) -> None:
        for column in self.columns:
            self.strip_layout.removeWidget(column)
            column.deleteLater()
        self.columns = []
        if self.comparison is None:
            return
        library = self.controller.library
        if library is None:
            return
        original = self.comparison.original.ref if self.comparison.original else None
        wanted = set(self.visible_refs())
        for variant in self.comparison.variants:
            if variant.ref not in wanted:
                continue
            column = VariantColumn(variant.ref, variant_header(variant, library),
                                   variant_html(variant, original))
            column.browser.internalLink.connect(lambda link: route_link(self.controller, link))
            column.browser.verticalScrollBar().valueChanged.connect(
                lambda value, c=column: self._sync_scroll(c, value))
            self.strip_layout.addWidget(column)
            # made after the controls above them, the columns come after them by Tab
            QWidget.setTabOrder(self.columns[-1].browser if self.columns else self.next_button,
                                column.browser)
            self.columns.append(column)
        self.first_paged = 0
        self._show_page()
        QTimer.singleShot(0, self._fit_height)

    # -- paging: as many columns as fit, the original always first ------------------
    def _pinned(self) -> list[VariantColumn]:
        original = self.comparison.original.ref if self.comparison and self.comparison.original \
            else None
        return [c for c in self.columns[:1] if c.ref == original]

    def _paged(self) -> list[VariantColumn]:
        pinned = self._pinned()
        return [c for c in self.columns if c not in pinned]

    def columns_that_fit(self) -> int:
        # the workspace's own width: the scroll area's viewport is resized only later
        layout = self.layout()
        margin = layout.contentsMargins().left() if layout is not None else 0
        width = self.width() - 2 * margin - 8
        return max(1, width // COLUMN_WIDTH)

    def shown_columns(self) -> list[VariantColumn]:
        """The columns on screen now, left to right."""
        return [c for c in self.columns if not c.isHidden()]

    def page_columns(self, step: int) -> None:
        """Show the next (``step`` 1) or previous (-1) page of columns."""
        room = max(1, self.columns_that_fit() - len(self._pinned()))
        paged = len(self._paged())
        last_start = max(0, paged - room)
        self.first_paged = min(last_start, max(0, self.first_paged + step * room))
        self._show_page()

    def _show_page(self) -> None:
        pinned, paged = self._pinned(), self._paged()
        fit = self.columns_that_fit()
        room = max(1, fit - len(pinned)) if len(self.columns) > fit else len(paged)
        self.first_paged = min(self.first_paged, max(0, len(paged) - room))
        window = paged[self.first_paged:self.first_paged + room]
        for column in self.columns:
            column.setVisible(column in pinned or column in window)
        paging = len(window) < len(paged)
        self.previous_button.setVisible(paging)
        self.next_button.setVisible(paging)
        self.previous_button.setEnabled(self.first_paged > 0)
        self.next_button.setEnabled(self.first_paged + room < len(paged))
        if self.comparison is None:
            self.summary.setText("")
            return
        total = len(self.comparison.variants)
        if paging:
            start = self.first_paged + 1 + len(pinned)
            end = self.first_paged + len(window) + len(pinned)
            first = "1 and " if pinned else ""
            text = f"Columns {first}{start}–{end} of {len(self.columns)}"
        else:
            text = f"{len(self.columns)} of {total} columns"
        self.summary.setText(text)
        self.summary.setToolTip(f"{self.comparison.subject} — {self.comparison.title}: {text}")

    def _fit_height(self) -> None:
        self.strip.setMinimumHeight(max(0, self.scroll_area.viewport().height()))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_height()
        if self.columns:
            self._show_page()

    def _sync_scroll(self, source: VariantColumn, value: int) -> None:
        """Synchronized scrolling: the other columns follow proportionally."""
        if self._syncing:
            return
        self._syncing = True
        try:
            bar = source.browser.verticalScrollBar()
            fraction = value / bar.maximum() if bar.maximum() else 0.0
            for column in self.columns:
                if column is source:
                    continue
                other = column.browser.verticalScrollBar()
                other.setValue(round(fraction * other.maximum()))
        finally:
            self._syncing = False

    def column_texts(self) -> dict[str, str]:
        return {c.ref: c.browser.toPlainText() for c in self.columns}

    # -- state -----------------------------------------------------------------
    def save_state(self, settings: QSettings) -> None:
        settings.setValue(self.key("hidden"), sorted(self.hidden))
        if self.comparison is not None:
            settings.setValue(self.key("subject"), self.comparison.subject)

    def restore_state(self, settings: QSettings) -> None:
        self.hidden = set(setting_texts(settings, self.key("hidden")))
        subject = setting_text(settings, self.key("subject"))
        library = self.controller.library
        if library is not None and subject and self.subject.findData(subject) >= 0:
            self.show_subject(subject)
        elif self.comparison is not None:
            self._rebuild_menu()
            self._rebuild_columns()

    def export_document(self) -> tuple[str, str] | None:
        if self.comparison is None:
            return None
        parts = [f"<h1>{self.comparison.subject} — {self.comparison.title}</h1>"]
        import html as _html
        for column in self.columns:
            parts.append(f"<h2>{_html.escape(column.header.text())}</h2>")
            parts.append(column.browser.page_html())
        return f"Compare {self.comparison.subject}", "\n".join(parts)

    def focus_main(self) -> None:
        self.subject.setFocus()
