"""Small shared widgets: a safe document browser and an HTML item delegate."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QSize, QUrl, Signal
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QBrush,
    QClipboard,
    QColor,
    QContextMenuEvent,
    QDesktopServices,
    QFont,
    QFontMetrics,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPalette,
    QResizeEvent,
    Qt,  # QtGui's Qt: it has convertFromPlainText
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextLayout,
    QTextOption,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QComboBox,
    QHeaderView,
    QLabel,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QTextEdit,
    QWidget,
)
from shiboken6 import isValid

if TYPE_CHECKING:
    from .controller import AppController

from .dialogs import Choice, Role, ask, inform
from .theme import document_css

EXTERNAL_SCHEMES = ("http", "https", "mailto")
OPEN_CANCEL = (Choice("open", "&Open", Role.AcceptRole), Choice("cancel", "&Cancel", Role.RejectRole))


def tab_leaves(widget: QWidget, next_child: bool) -> bool:
    """Tab moves the focus on from a text browser (issue 33: Tab stepped through every
    link of a rule page and stayed there); its links are followed by mouse or Enter
    from the search, as before."""
    return QWidget.focusNextPrevChild(widget, next_child)


class DocBrowser(QTextBrowser):
    """A QTextBrowser that never follows links by itself.

    Internal links (``rule:``, ``topic:``, ``compare:``) are emitted as
    ``internalLink(str)``; web links leave the app only after asking; anything
    else (``file:``, ``javascript:``) is refused.
    """

    internalLink = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._on_anchor)
        self._html = ""
        self.document().setDefaultStyleSheet(document_css(self.palette()))
        self.ask_before_leaving = True  # tests switch the question off

    def focusNextPrevChild(self, next_child: bool) -> bool:  # noqa: N802 - Qt API
        return tab_leaves(self, next_child)

    def set_page(self, html: str) -> None:
        self._html = html
        self.document().setDefaultStyleSheet(document_css(self.palette()))
        self.setHtml(html)
        self.marked: tuple[str, ...] = ()

    def mark_words(self, words: tuple[str, ...]) -> int:
        """Mark every whole-word occurrence of ``words`` (any case) on the page, as
        a highlight over the text (the page itself is not changed); scroll to the
        first. Returns how many places were marked."""
        doc = self.document()
        fmt = QTextCharFormat()
        fmt.setBackground(QColor("#fff176"))
        fmt.setForeground(QColor("#000000"))
        selections = []
        for word in words:
            cursor = doc.find(word, 0, QTextDocument.FindFlag.FindWholeWords)
            while not cursor.isNull():
                selection = QTextEdit.ExtraSelection()
                selection.cursor = cursor
                selection.format = fmt
                selections.append(selection)
                cursor = doc.find(word, cursor, QTextDocument.FindFlag.FindWholeWords)
        self.setExtraSelections(selections)
        self.marked = tuple(words) if selections else ()
        if selections:
            first = min((s.cursor for s in selections), key=lambda c: c.position())
            self.setTextCursor(QTextCursor(first.block()))
            self.ensureCursorVisible()
        return len(selections)

    def page_html(self) -> str:
        return self._html

    def loadResource(self, type_: int, name: QUrl | str) -> object:  # noqa: N802 - Qt API
        # Never load images or style sheets from disk or network for data text.
        return None

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self._html:
            pos = self.verticalScrollBar().value()
            self.set_page(self._html)
            self.verticalScrollBar().setValue(pos)

    def _on_anchor(self, url: QUrl) -> None:
        text = url.toString()
        scheme = url.scheme().lower()
        if scheme in ("rule", "topic", "compare"):
            self.internalLink.emit(text)
        elif scheme in EXTERNAL_SCHEMES:
            if not self.ask_before_leaving or ask(
                    self, "Open external link", "Open this link in your web browser?",
                    OPEN_CANCEL, informative=text, default="cancel") == "open":
                QDesktopServices.openUrl(url)
        else:
            inform(self, "Link not opened", "Rulesbook does not open links of this kind:",
                   text)


class PopupOnlyComboBox(QComboBox):
    """A combo box whose choice changes only from its popup list: arrow keys,
    Home/End, typed letters and the mouse wheel never change it by themselves
    (Space, F4 or Alt+Down open the list; Tab moves on)."""

    OPENING_KEYS = (Qt.Key.Key_Space, Qt.Key.Key_F4, Qt.Key.Key_Return, Qt.Key.Key_Enter)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        key = event.key()
        alt = bool(event.modifiers() & Qt.KeyboardModifier.AltModifier)
        if key in self.OPENING_KEYS or (alt and key in (Qt.Key.Key_Down, Qt.Key.Key_Up)):
            self.showPopup()
            event.accept()
            return
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab, Qt.Key.Key_Escape):
            super().keyPressEvent(event)
            return
        event.ignore()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt API
        event.ignore()


def plain_tip(text: str) -> str:
    """A tooltip that shows ``text`` literally: Qt renders a tooltip that looks like
    HTML as rich text, so data texts go through here (newlines are kept)."""
    return Qt.convertFromPlainText(text, Qt.WhiteSpaceMode.WhiteSpaceNormal) if text else ""


def plain_label(text: str = "", buddy: QWidget | None = None) -> QLabel:
    """A label for a data text: plain text, and a ``&`` in it is no Alt key."""
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setText(text.replace("&", "&&") if buddy is not None else text)
    if buddy is not None:
        label.setBuddy(buddy)
    return label


def route_link(controller: AppController, link: str) -> None:
    """Send an internal link to the controller."""
    scheme, _, rest = link.partition(":")
    if scheme == "rule":
        controller.open_ref(rest)
    elif scheme == "topic":
        controller.open_topic(rest)
    elif scheme == "compare":
        controller.compare(rest)


class HtmlDelegate(QStyledItemDelegate):
    """Paints an item's HTML (from ``role``) with palette colours."""

    def __init__(self, role: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._role = role

    def _doc(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QTextDocument:
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setDocumentMargin(4)
        doc.setHtml(index.data(self._role) or "")
        width = option.rect.width()
        view = option.widget
        if width <= 0 and view is not None:
            area = view.viewport() if isinstance(view, QAbstractScrollArea) else view
            width = area.width() - 4
        width = width if width > 0 else 400
        doc.setTextWidth(width)
        return doc

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        doc = self._doc(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        ctx = QAbstractTextDocumentLayout.PaintContext()
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = (QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        ctx.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(role))
        painter.save()
        painter.translate(opt.rect.topLeft())
        painter.setClipRect(opt.rect.translated(-opt.rect.topLeft()))
        doc.documentLayout().draw(painter, ctx)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt API
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        doc = self._doc(opt, index)
        return QSize(int(doc.idealWidth()), int(doc.size().height()))


def is_dark(widget: QWidget) -> bool:
    return widget.palette().color(QPalette.ColorRole.Window).lightnessF() < 0.5


__all__ = ["DocBrowser", "HtmlDelegate", "PopupOnlyComboBox", "plain_label", "plain_tip", "set_cell",
           "route_link", "is_dark", "Qt"]


def set_cell(table: QTableWidget, row: int, column: int, text: str, tip: str = "",
             background: QBrush | None = None, foreground: QBrush | None = None,
             align: Qt.AlignmentFlag | None = None) -> QTableWidgetItem:
    """Show ``text`` in a table cell, reusing the cell's item when there is one.

    Views that refresh on every vote or move update their cells in place instead
    of re-creating every item: faster, and PySide6 keeps a Python reference for
    each destroyed item wrapper that had a method called (tests/ui/test_soak.py).
    """
    item = table.item(row, column)
    if item is None:
        item = QTableWidgetItem(text)
        if align is not None:
            item.setTextAlignment(align)
        table.setItem(row, column, item)
    elif item.text() != text:
        item.setText(text)
    if item.toolTip() != tip:
        item.setToolTip(tip)
    brushes = ((background, item.background, item.setBackground),
               (foreground, item.foreground, item.setForeground))
    for brush, current, setter in brushes:
        wanted = brush if brush is not None else QBrush()
        if current() != wanted:
            setter(wanted)
    return item



class FittedColumns(QObject):
    """Keeps a table's columns inside its width, shared out by ``weights``, with the
    text wrapped: a table never scrolls sideways (issue 19: usable at 1024x700).
    The user may still drag a column wider; the others give way at the next resize."""

    def __init__(self, table: QAbstractItemView, weights: tuple[int, ...],
                 minimum: int = 60, wrap_rows: bool = True):
        super().__init__(table)
        self.table = table
        self.weights = weights
        self.minimum = minimum
        self.wrap_rows = wrap_rows  # False for long lists: rows keep one line
        header = table.horizontalHeader() if hasattr(table, "horizontalHeader") else None
        assert isinstance(header, QHeaderView)
        self.header = header
        for column in range(len(weights)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        if wrap_rows:
            table.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.viewport = table.viewport()
        self.viewport.installEventFilter(self)
        self.fit()

    def fit(self) -> None:
        if not (isValid(self.table) and isValid(self.viewport)):  # being destroyed
            return
        width = self.viewport.width()
        total = sum(self.weights)
        if width <= 0 or not total:
            return
        # each column at least as wide as its heading (issue 33: cut at a larger font),
        # the rest shared out by the weights
        model = self.table.model()
        least = []
        for column in range(len(self.weights)):
            heading = str(model.headerData(column, Qt.Orientation.Horizontal) or "") \
                if model is not None else ""
            least.append(max(self.minimum,
                             self.header.fontMetrics().horizontalAdvance(heading) + 12))
        spare = max(0, width - sum(least))
        for column, weight in enumerate(self.weights[:-1]):
            self.header.resizeSection(column, least[column] + spare * weight // total)
        if self.wrap_rows and hasattr(self.table, "resizeRowsToContents"):
            self.table.resizeRowsToContents()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Resize and watched is self.viewport:
            self.fit()
        return False


#: a word at least this long may break after its punctuation (shorter ones stay whole)
BREAKABLE_WORD = 16
#: where :func:`breakable` lets a line break (shown only: never copied, BreakableLabel)
ZERO_WIDTH_BREAK = "\u200b"


def breakable(text: str) -> str:
    """``text`` with a zero-width space after each comma, colon, slash, hyphen, dot and
    underscore of its long words, so that a word-wrapped label can break a long FEN, a
    path or a file name instead of widening its panel (a move such as 11-15 stays
    whole)."""
    def broken(word: str) -> str:
        if len(word) < BREAKABLE_WORD:
            return word
        return re.sub(r"([,:/\\\-._])(?=.)", "\\1" + ZERO_WIDTH_BREAK, word)

    return re.sub(r"\S+", lambda m: broken(m.group(0)), text)


def elided_lines(text: str, font: QFont, width: int, lines: int) -> str:
    """``text`` as a word-wrapped label ``width`` pixels wide shows it in at most
    ``lines`` lines: whole when it fits, else cut in its last line with "…"."""
    if width <= 0 or lines < 1 or not text:
        return text
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    starts: list[int] = []
    layout.beginLayout()
    while len(starts) <= lines:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        starts.append(line.textStart())
    layout.endLayout()
    if len(starts) <= lines:
        return text
    last = starts[lines - 1]
    rest = QFontMetrics(font).elidedText(text[last:], Qt.TextElideMode.ElideRight, width)
    return text[:last] + rest


class BreakableLabel(QLabel):
    """A word-wrapped, selectable plain-text label for text given :func:`breakable`
    break opportunities (zero-width spaces, for display only): what is copied from
    it (Ctrl+C, its menu's Copy, the selection on X11) is the text without them, so
    a copied path is the path (issue 34)."""

    def __init__(self, text: str = "", parent: QWidget | None = None,
                 max_lines: int | None = None) -> None:
        super().__init__(parent)
        #: at most this many lines shown, the last cut with "…" (None: all of it)
        self.max_lines = max_lines
        self._given = text
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt API
        self._given = text
        self._fit()

    def given_text(self) -> str:
        """The text as it was given (shown whole unless cut at ``max_lines``)."""
        return self._given

    def _fit(self) -> None:
        if self.max_lines is None:
            super().setText(self._given)
            return
        width = self.contentsRect().width() - 2 * self.margin()
        shown = elided_lines(self._given, self.font(), width, self.max_lines)
        if shown != self.text():
            super().setText(shown)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if self.max_lines is not None:
            self._fit()

    def copied_text(self) -> str:
        """The selection as it is copied: without the inserted break opportunities,
        and all that was given when all that is shown is selected (cut or not)."""
        selected = self.selectedText()
        if selected and selected == self.text():
            selected = self._given
        return selected.replace(ZERO_WIDTH_BREAK, "")

    def copy(self, mode: QClipboard.Mode = QClipboard.Mode.Clipboard) -> None:
        if self.hasSelectedText():
            QGuiApplication.clipboard().setText(self.copied_text(), mode)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy()
            event.accept()
            return
        super().keyPressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        super().mouseReleaseEvent(event)  # Qt sets the X11 selection: set it again, clean
        if QGuiApplication.clipboard().supportsSelection():
            self.copy(QClipboard.Mode.Selection)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 - Qt API
        menu = QMenu(self)
        copy = menu.addAction("Copy", self.copy)
        copy.setEnabled(self.hasSelectedText())
        menu.addAction("Select All", lambda: self.setSelection(0, len(self.text())))
        menu.exec(event.globalPos())
