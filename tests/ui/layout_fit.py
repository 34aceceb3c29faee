"""What a window hides at a given size: the checks behind issue 19's "every workspace
fully usable at 1024x700 and 1280x800 (nothing frequently used hidden, nothing cut
off, no sideways scrolling)".

A control is *cut off* when part of it is outside what its parents show (a clipped
line edit, a button under the window's edge or scrolled out of a panel); a toolbar
*hides* actions when its » extension button is shown (at any font size: what is
behind » is not seen at all); a panel *scrolls sideways* when a horizontal scroll
bar is visible.

Issue 33 adds the text itself: a label, button, tab or table cell whose text is
wider (or, wrapped, taller) than the widget or cell shows it is *cut*, unless its
tooltip has the whole text (an elided text with its tooltip is allowed); two
sibling widgets laid out by one layout *overlap* when their rectangles intersect.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import Qt as QtGui
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QHeaderView,
    QLabel,
    QLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QStatusBar,
    QTabBar,
    QTabWidget,
    QToolBar,
    QToolButton,
    QWidget,
)

CONTROLS = (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox)


@dataclass(frozen=True)
class Misfit:
    where: str  # "board/Gap tab"
    what: str   # "cut off: QLineEdit 'Type moves' shows 0x0 of 330x22"

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def _name(widget: QWidget) -> str:
    text = widget.text() if hasattr(widget, "text") and callable(widget.text) else ""
    return text or widget.accessibleName() or widget.objectName() or type(widget).__name__


def misfits(window: QWidget, where: str, texts: bool = True,
            scrolled: bool = True) -> list[Misfit]:
    """Everything ``window`` hides or cuts off as it is shown now (once the layouts
    asked for are done); ``texts``: also
    every text cut and every two siblings overlapping (:func:`cut_texts`,
    :func:`overlaps`); ``scrolled``: also every control scrolled out of sight (at
    a larger font a panel may scroll, but never cut a text nor hide a toolbar's
    actions behind its »)."""
    for _ in range(3):  # a text set by a thread's answer lays out on the next round
        QApplication.sendPostedEvents()
        QApplication.processEvents()
    found: list[Misfit] = []
    for bar in window.findChildren(QToolBar):
        # at every font size: an action behind » is no scrolled panel's, it is not
        # seen at all (found at 1.25x: the Board's Save Case and Undo, issue 33)
        if not bar.isVisibleTo(window):
            continue
        ext = bar.findChild(QAbstractButton, "qt_toolbar_ext_button")
        if ext is not None and ext.isVisibleTo(window):
            hidden = [_plain(a.text() or _name(w)) for a in bar.actions()
                      if a.isVisible() and not a.isSeparator()
                      and (w := bar.widgetForAction(a)) is not None and not w.isVisibleTo(bar)]
            found.append(Misfit(where, f"toolbar hides {hidden or 'actions'} behind »"))
    for widget in window.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or not widget.isVisibleTo(window):
            continue
        if widget.objectName().startswith("qt_") or not scrolled:  # Qt's own buttons
            continue
        if isinstance(widget, QAbstractButton) and widget.parentWidget() is not None and \
                isinstance(widget.parentWidget(), QToolBar) and not widget.isVisible():
            continue
        shown = widget.visibleRegion().boundingRect()
        if shown.width() < widget.width() - 1 or shown.height() < widget.height() - 1:
            found.append(Misfit(where, f"cut off: {type(widget).__name__} '{_name(widget)}' "
                                       f"shows {shown.width()}x{shown.height()} of "
                                       f"{widget.width()}x{widget.height()}"))
    for header in window.findChildren(QHeaderView):
        if header.orientation() != Qt.Orientation.Horizontal or not header.isVisibleTo(window):
            continue
        model = header.model()
        for section in range(header.count()):
            if header.isSectionHidden(section) or model is None:
                continue
            text = str(model.headerData(section, Qt.Orientation.Horizontal) or "")
            need = header.fontMetrics().horizontalAdvance(text) + 8
            if text and header.sectionSize(section) < need:
                found.append(Misfit(where, f"column heading cut: '{text}' has "
                                           f"{header.sectionSize(section)} of {need} px"))
    for area in window.findChildren(QAbstractScrollArea):
        if area.isVisibleTo(window) and area.horizontalScrollBar().isVisible():
            found.append(Misfit(where, f"scrolls sideways: {type(area).__name__} "
                                       f"'{_name(area)}'"))
    if texts:
        found += cut_texts(window, where) + overlaps(window, where)
    return found


# -- texts cut (issue 33) ------------------------------------------------------------

def _shown(widget: QWidget, window: QWidget) -> bool:
    """Visible and not scrolled wholly out of sight (what a user could read now)."""
    return widget.isVisibleTo(window) and widget.isVisible() and \
        not widget.visibleRegion().isEmpty()


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def _tipped(widget: QWidget, text: str) -> bool:
    """The widget's tooltip has the whole of ``text`` (elided text is allowed then)."""
    doc = QTextDocument()
    doc.setHtml(widget.toolTip())
    tip = " ".join(doc.toPlainText().split())
    return bool(tip) and " ".join(_plain(text).split()) in tip


def _label_cut(label: QLabel) -> str | None:
    text = label.text()
    if not text or label.pixmap() is not None and not label.pixmap().isNull():
        return None
    rect = label.contentsRect()
    rect.adjust(label.margin(), label.margin(), -label.margin(), -label.margin())
    rich = label.textFormat() == Qt.TextFormat.RichText or (
        label.textFormat() == Qt.TextFormat.AutoText and QtGui.mightBeRichText(text))
    if label.wordWrap():
        need = label.heightForWidth(label.width())
        if need > label.height() + 1:
            return f"wrapped text needs {need} px of height, has {label.height()}"
        if not rich:  # one word longer than the line
            words = [w for w in re.split("[\\s\u200b]+", text) if w]  # zero-width: breaks
            longest = max(words or [""], key=label.fontMetrics().horizontalAdvance)
            width = label.fontMetrics().horizontalAdvance(longest)
            if width > rect.width() + 1:
                return f"the word '{longest}' needs {width} px, has {rect.width()}"
        return None
    if rich:
        doc = QTextDocument()
        doc.setDefaultFont(label.font())
        doc.setHtml(text)
        doc.setDocumentMargin(0)
        width, height = int(doc.idealWidth()), int(doc.size().height())
    else:
        lines = _plain(text).splitlines() if label.buddy() else text.splitlines()
        metrics = label.fontMetrics()
        width = max((metrics.horizontalAdvance(line) for line in lines), default=0)
        height = metrics.height() * len(lines)
    if width > rect.width() + 1:
        return f"needs {width} px, has {rect.width()}"
    if height > rect.height() + 2:
        return f"needs {height} px of height, has {rect.height()}"
    return None


def _button_cut(button: QAbstractButton) -> str | None:
    text = button.text()
    if not text or isinstance(button, QToolButton) and \
            button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly:
        return None
    need = button.sizeHint()
    if isinstance(button, (QPushButton, QCheckBox, QRadioButton, QToolButton)):
        if button.width() < need.width() - 1:
            return f"needs {need.width()} px, has {button.width()}"
        if button.height() < min(need.height(), button.fontMetrics().height() + 2) - 1:
            return f"needs {need.height()} px of height, has {button.height()}"
    return None


def _cells_cut(view: QAbstractItemView) -> list[str]:
    """The cells of ``view`` in sight whose text is wider than the cell (or, wrapped,
    taller) with no tooltip holding it all."""
    model = view.model()
    if model is None:
        return []
    out: list[str] = []
    viewport = view.viewport().rect()
    metrics = view.fontMetrics()
    try:
        columns = model.columnCount(view.rootIndex())
    except TypeError:  # a list model: its column count is private
        columns = 1
    for row in range(min(model.rowCount(view.rootIndex()), 400)):
        for column in range(columns):
            index = model.index(row, column, view.rootIndex())
            rect: QRect = view.visualRect(index)
            if not rect.isValid() or not rect.intersects(viewport):
                continue
            text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
            if not text:
                continue
            tip = str(index.data(Qt.ItemDataRole.ToolTipRole) or "")
            doc = QTextDocument()
            doc.setHtml(tip)
            if " ".join(text.split()) in " ".join(doc.toPlainText().split()):
                continue
            width = max(metrics.horizontalAdvance(line) for line in text.splitlines()) + 8
            if index.data(Qt.ItemDataRole.DecorationRole) is not None:
                width += view.iconSize().width() + 4 if view.iconSize().width() > 0 else 20
            room = min(rect.width(), viewport.right() - rect.left() + 1)
            wraps = getattr(view, "wordWrap", lambda: False)()
            if width > room + 1 and not (wraps and rect.height() >= metrics.height() * 2):
                out.append(f"cell '{text[:50]}' needs {width} px, has {room}")
            if rect.height() < metrics.height() - 1:
                out.append(f"cell '{text[:50]}' is {rect.height()} px high of "
                           f"{metrics.height()}")
    return out


def cut_texts(window: QWidget, where: str) -> list[Misfit]:
    """Every label, button, tab, table cell and status message whose text is cut."""
    QApplication.processEvents()
    found: list[Misfit] = []
    for widget in window.findChildren(QWidget):
        if widget.objectName().startswith("qt_") or not _shown(widget, window):
            continue
        problem: str | None = None
        text = ""
        if isinstance(widget, QLabel):
            text, problem = widget.text(), _label_cut(widget)
        elif isinstance(widget, QAbstractButton):
            text, problem = widget.text(), _button_cut(widget)
        elif isinstance(widget, QTabBar):
            for i in range(widget.count()):
                if widget.isTabVisible(i) and \
                        widget.tabRect(i).width() < widget.tabSizeHint(i).width() - 1:
                    found.append(Misfit(where, f"tab cut: '{_plain(widget.tabText(i))}'"))
            continue
        elif isinstance(widget, QAbstractItemView):
            found += [Misfit(where, f"{type(widget).__name__} '{_name(widget)}': {p}")
                      for p in _cells_cut(widget)]
            continue
        elif isinstance(widget, QStatusBar):
            message = widget.currentMessage()
            room = widget.width() - sum(
                w.width() for w in widget.findChildren(QWidget)
                if w.isVisible() and w.parentWidget() is widget and w.width() < widget.width())
            need = widget.fontMetrics().horizontalAdvance(message) + 12
            if message and need > room and not _tipped(widget, message):
                found.append(Misfit(where, f"status message cut: '{message[:60]}' needs "
                                           f"{need} px, has {room}"))
            continue
        if problem is not None and not _tipped(widget, text):
            found.append(Misfit(where, f"text cut: {type(widget).__name__} "
                                       f"'{_plain(text)[:60]}' {problem}"))
    return found


# -- siblings overlapping (issue 33) --------------------------------------------------

def _laid_out(layout: QLayout) -> list[QWidget]:
    out: list[QWidget] = []
    for i in range(layout.count()):
        item = layout.itemAt(i)
        if item is None:
            continue
        widget, inner = item.widget(), item.layout()
        if widget is not None:
            out.append(widget)
        elif inner is not None:
            out += _laid_out(inner)
    return out


def overlaps(window: QWidget, where: str) -> list[Misfit]:
    """Every two visible widgets of one layout whose rectangles intersect."""
    found: list[Misfit] = []
    for parent in [window, *window.findChildren(QWidget)]:
        layout = parent.layout()
        if layout is None or not _shown(parent, window):
            continue
        kids = [w for w in _laid_out(layout) if w.isVisibleTo(window) and w.isVisible()
                and w.width() > 0 and w.height() > 0]
        for i, a in enumerate(kids):
            for b in kids[i + 1:]:
                common = a.geometry().intersected(b.geometry())
                if common.width() > 1 and common.height() > 1:
                    found.append(Misfit(where, f"overlap: {type(a).__name__} "
                                               f"'{_plain(_name(a))[:40]}' and "
                                               f"{type(b).__name__} '{_plain(_name(b))[:40]}' "
                                               f"share {common.width()}x{common.height()} px"))
    return found


def tab_states(root: QWidget) -> Iterator[str]:
    """Make each tab of each tab widget under ``root`` current in turn (the page a user
    opens); yields a label for the state. The first tab is current again afterwards."""
    yield "first tabs"
    for tabs in root.findChildren(QTabWidget):
        if not tabs.isVisibleTo(root):
            continue
        first = tabs.currentIndex()
        for index in range(tabs.count()):
            if index == first:
                continue
            tabs.setCurrentIndex(index)
            yield f"{tabs.tabText(index).replace('&', '')} tab"
        tabs.setCurrentIndex(first)
