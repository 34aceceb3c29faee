"""The error banner of the Rules, Editions and Rulings workspaces: a text of the
rules folder that is not the one a ballot voted on or an edition adopted
(:mod:`rulesbook.ballots.texts`). Hidden while every text matches."""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from rulesbook.ballots import TextMismatch

__all__ = ["TextsBanner", "banner_text"]


def banner_text(mismatches: Sequence[TextMismatch], edition_id: str | None,
                rulings: bool = False) -> str:
    """What the banner says ('' when nothing): the mismatches of the edition shown
    first, each naming the record and how to see the change."""
    if not mismatches:
        return ""
    shown = f"edition {edition_id}"
    here = [m for m in mismatches if m.where == shown]
    head = (f"The rulings below quote edition {edition_id}, but its text is NOT the adopted "
            f"one" if rulings and here else
            "Some texts of this rules folder are NOT the ones the committee voted on or "
            "adopted")
    by_source: dict[str, list[str]] = {}
    for m in here + [m for m in mismatches if m.where != shown]:
        wheres = by_source.setdefault(m.source, [])
        if m.where not in wheres:
            wheres.append(m.where)
    listed = [f"{source} changed since {', '.join(wheres)} (see `rulesbook history "
              f"{source}`)" for source, wheres in by_source.items()]
    more = f"; and {len(listed) - 3} more (rulesbook validate)" if len(listed) > 3 else ""
    return head + ": " + "; ".join(listed[:3]) + more


class TextsBanner(QLabel):
    """An error line over a workspace (``.label`` is itself: its text)."""

    def __init__(self, rulings: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("texts-banner")
        self.setAccessibleName("Texts not adopted")
        self.rulings = rulings
        self.label = self
        self.setStyleSheet("#texts-banner { background-color: #b00020; color: white; "
                           "font-weight: bold; padding: 4px 8px; }")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setVisible(False)

    def show_mismatches(self, mismatches: Sequence[TextMismatch],
                        edition_id: str | None) -> None:
        text = banner_text(mismatches, edition_id, self.rulings)
        self.setText(text)
        self.setToolTip("\n".join(m.message for m in mismatches))
        self.setVisible(bool(text))
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(0, 0)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """As tall as the text wrapped at the banner's own width (a wrapped label
        otherwise asks for the height of its narrowest layout)."""
        width = max(self.width(), 400)
        return QSize(width, self.heightForWidth(width))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if self.heightForWidth(self.width()) != self.height():
            self.updateGeometry()
