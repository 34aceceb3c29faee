"""The Counts tab: the 13-count, the stronger side's count and repetition at the
ply shown, under the limits of the rules that govern the record's variant (the
edition in force for pool; the Standard Laws for English checkers), and which
rules they are (rows from the core's :func:`~rulesbook.reconstruct.display.counts_lines`)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

from ...widgets import plain_label
from ..controller import BoardController

__all__ = ["CountsPanel"]


class CountsPanel(QWidget):
    def __init__(self, bc: BoardController):
        super().__init__()
        self._bc = bc
        self.form = QFormLayout(self)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.labels: list[QLabel] = []
        self._heads: list[str] = []
        bc.changed.connect(self.refresh)
        bc.modeChanged.connect(lambda _mode: self.refresh())

    def refresh(self) -> None:
        bc = self._bc
        if bc.mode == "setup":
            rows = [("Counts", "shown for the record, not while setting up")]
        else:
            rows = bc.counts.lines()
        heads = [label for label, _text in rows]
        if heads != self._heads:
            # the rows change only with the record's kind of count: rebuilt then,
            # otherwise every step just updates the texts
            self._heads = heads
            while self.form.rowCount():
                self.form.removeRow(0)
            self.labels = []
            for label in heads:
                value = QLabel()
                value.setWordWrap(True)
                value.setTextFormat(Qt.TextFormat.PlainText)
                name = plain_label(f"{label}:")
                name.setWordWrap(False)
                self.form.addRow(name, value)
                self.labels.append(value)
        for value, (_label, text) in zip(self.labels, rows, strict=True):
            if value.text() != text:
                value.setText(text)
                value.setStyleSheet("color: #c00000; font-weight: bold;"
                                    if "REACHED" in text else "")

    def text(self) -> str:
        return "\n".join(label.text() for label in self.labels)
