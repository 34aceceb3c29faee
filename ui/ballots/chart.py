"""A bar chart of a question's result, drawn with QPainter (no Qt Charts)."""
from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from rulesbook.ballots import QuestionResult

WINNER = QColor("#2e7d32")
ORIGINAL = QColor("#78909c")
OTHER = QColor("#5c6bc0")


class TallyChart(QWidget):
    """Horizontal bars: one per option, the count of its last round (IRV), its
    first choices (plurality), approvals, or pairwise wins (Schulze)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.bars: list[tuple[str, int, bool, bool]] = []  # label, value, winner, original
        self.caption = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setAccessibleName("Chart of the result")

    def set_result(self, result: QuestionResult | None, labels: dict[str, str] | None = None) -> None:
        labels = labels or {}
        self.bars = []
        if result is None:
            self.caption = ""
            self.update()
            return
        if result.method == "irv" and result.rounds:
            counts = dict(result.rounds[-1].counts)
            what = f"votes in the last round (round {len(result.rounds)})"
        elif result.method == "schulze" and result.pairwise:
            d = result.pairwise["d"]
            counts = {o: sum(1 for p in result.options if p != o and
                             d[o][p] > d[p][o]) for o in result.options}
            what = "pairwise wins"
        else:
            counts = dict(result.counts)
            what = "approvals" if result.method == "approval" else "first choices"
        for option in result.options:
            self.bars.append((labels.get(option, option), int(counts.get(option, 0)),
                              option == result.winner, option == result.options[0]))
        self.caption = f"{what}; {result.cast} ballot(s) cast"
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        line = self.fontMetrics().height() + 10
        return QSize(360, max(1, len(self.bars)) * line + line + 12)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(200, self.sizeHint().height())

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = self.fontMetrics()
        text = self.palette().color(QPalette.ColorRole.WindowText)
        line = fm.height() + 10
        label_w = min(max((fm.horizontalAdvance(b[0]) for b in self.bars), default=40) + 12,
                      self.width() // 2)
        top = 6
        most = max((b[1] for b in self.bars), default=0) or 1
        avail = max(10, self.width() - label_w - fm.horizontalAdvance("000") - 24)
        for i, (label, value, winner, original) in enumerate(self.bars):
            y = top + i * line
            painter.setPen(text)
            elided = fm.elidedText(label, Qt.TextElideMode.ElideRight, label_w - 8)
            painter.drawText(QRectF(4, y, label_w - 8, line - 4),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, elided)
            width = avail * value / most
            colour = WINNER if winner else (ORIGINAL if original else OTHER)
            painter.fillRect(QRectF(label_w, y + 3, width, line - 10), colour)
            painter.drawText(QRectF(label_w + width + 6, y, 60, line - 4),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                             str(value))
        painter.setPen(text)
        painter.drawText(QRectF(4, top + len(self.bars) * line, self.width() - 8, line),
                         Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                         self.caption)
        painter.end()
