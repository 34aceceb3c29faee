"""Small widgets the board's panels share."""
from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QFrame, QScrollArea, QTextBrowser, QWidget

__all__ = ["CompactBrowser", "scrolled", "plain_text"]


class CompactBrowser(QTextBrowser):
    """A text browser that asks for little height (it still stretches into the room
    there is), so that a panel in a scroll area does not scroll for its sake."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        hint = super().sizeHint()
        hint.setHeight(min(hint.height(), 96))
        return hint


def scrolled(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area, so a small window never squashes it."""
    area = QScrollArea()
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setMinimumSize(60, 40)
    return area


def plain_text(rich: str) -> str:
    """The text of a rich-text label as a reader hears it (tests, screen readers)."""
    doc = QTextDocument()
    doc.setHtml(rich)
    return doc.toPlainText()
