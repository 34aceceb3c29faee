"""Small widgets the board's panels share."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QResizeEvent, QTextDocument
from PySide6.QtWidgets import QFrame, QScrollArea, QTextBrowser, QWidget

__all__ = ["CompactBrowser", "scrolled", "plain_text"]


class CompactBrowser(QTextBrowser):
    """A text browser that asks for little height (it still stretches into the room
    there is), so that a panel in a scroll area does not scroll for its sake."""

    def focusNextPrevChild(self, next_child: bool) -> bool:  # noqa: N802 - Qt API
        return QWidget.focusNextPrevChild(self, next_child)  # Tab leaves (issue 33)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        hint = super().sizeHint()
        hint.setHeight(min(hint.height(), 96))
        return hint


class FitScrollArea(QScrollArea):
    """A scroll area whose widget fills the viewport and scrolls only below the
    widget's minimum size. (Qt's resizable scroll area gives a widget with wrapped
    labels its preferred height instead, so its last buttons scrolled out of sight
    although they fitted: issue 19.)"""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.setWidget(widget)
        self.setWidgetResizable(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMinimumSize(60, 40)
        # the panel's controls take the focus, not the scroll area (a Tab stop more)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        widget.installEventFilter(self)

    def fit(self) -> None:
        widget = self.widget()
        if widget is None:
            return
        least = widget.minimumSizeHint().expandedTo(widget.minimumSize())
        size = self.viewport().size()
        width = max(size.width(), least.width())
        height = max(size.height(), least.height())
        if widget.hasHeightForWidth():
            # wrapped labels need their height at this width: less squeezed their
            # rows into each other (the Counts tab's rows overlapped: issue 33)
            height = max(height, widget.heightForWidth(width))
        widget.resize(width, height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.fit()  # the panel's minimum may have changed (a longer text)
        return super().eventFilter(watched, event)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        widget = self.widget()
        return widget.sizeHint() if widget is not None else super().sizeHint()


def scrolled(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area, so a small window never squashes it."""
    return FitScrollArea(widget)


def plain_text(rich: str) -> str:
    """The text of a rich-text label as a reader hears it (tests, screen readers)."""
    doc = QTextDocument()
    doc.setHtml(rich)
    return doc.toPlainText()
