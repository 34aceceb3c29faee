"""What a window hides at a given size: the checks behind issue 19's "every workspace
fully usable at 1024x700 and 1280x800 (nothing frequently used hidden, nothing cut
off, no sideways scrolling)".

A control is *cut off* when part of it is outside what its parents show (a clipped
line edit, a button under the window's edge or scrolled out of a panel); a toolbar
*hides* actions when its » extension button is shown; a panel *scrolls sideways*
when a horizontal scroll bar is visible.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QTabWidget,
    QToolBar,
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


def misfits(window: QWidget, where: str) -> list[Misfit]:
    """Everything ``window`` hides or cuts off as it is shown now."""
    QApplication.processEvents()
    found: list[Misfit] = []
    for bar in window.findChildren(QToolBar):
        if not bar.isVisibleTo(window):
            continue
        ext = bar.findChild(QAbstractButton, "qt_toolbar_ext_button")
        if ext is not None and ext.isVisibleTo(window):
            hidden = [a.text() for a in bar.actions()
                      if a.isVisible() and not a.isSeparator()
                      and (w := bar.widgetForAction(a)) is not None and not w.isVisibleTo(bar)]
            found.append(Misfit(where, f"toolbar hides {hidden or 'actions'} behind »"))
    for widget in window.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or not widget.isVisibleTo(window):
            continue
        if widget.objectName().startswith("qt_"):  # Qt's own scroll/extension buttons
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
