"""Clock pro-rating after the first illegal move (the ACF guide): the readings at
discovery and the time control give the times to set at the restored position."""
from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from rulesbook.reconstruct import ClockAdvice

from ..clocks import FORMULA, format_clock, parse_clock
from ..controller import BoardController
from .common import plain_text

__all__ = ["ClockBox"]


def _error(text: str) -> str:
    return f"<span style='color:#c00000'>{html.escape(text)}</span>"


class ClockBox(QWidget):
    """Shown while the check has found an illegal move; ``toggle`` (placed by the
    check panel) opens the form. The times are worked out again as the referee types."""

    def __init__(self, bc: BoardController):
        super().__init__()
        self._bc = bc
        self.last_advice: ClockAdvice | None = None
        self.setObjectName("clock-box")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        self.toggle = QToolButton()
        self.toggle.setText("Pro-rate the Clocks")
        self.toggle.setToolTip("The ACF guide: recreate the position where the illegal "
                               "move was made, pro-rating the time shown on the clocks")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.toggle.toggled.connect(self._toggled)
        form = QFrame()
        form.setFrameShape(QFrame.Shape.StyledPanel)
        form.setObjectName("clock-form")
        form.setAccessibleName("Clocks at the restored position")
        form.hide()
        self.form = form
        outer.addWidget(form)
        grid = QGridLayout(form)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.setVerticalSpacing(3)
        self.black = QLineEdit()
        self.white = QLineEdit()
        width = self.fontMetrics().horizontalAdvance("0:00:00") + 18
        for edit, side in ((self.black, "Black"), (self.white, "White")):
            edit.setPlaceholderText("m:ss")
            edit.setAccessibleName(f"{side}'s clock at discovery")
            edit.setToolTip(f"{side}'s clock now (minutes:seconds, or h:mm:ss)")
            edit.setFixedWidth(width)
            edit.textChanged.connect(self.refresh)
        self.control = QSpinBox()
        self.control.setAccessibleName("Time control per game")
        self.control.setRange(0, 600)
        self.control.setValue(0)
        self.control.setSpecialValueText("not known")
        self.control.setSuffix(" min")
        self.control.setToolTip("Each side's time for the game (minutes)")
        self.control.valueChanged.connect(self.refresh)
        for line, fields in enumerate(((("Clocks now: &Black", self.black),
                                         ("&White", self.white)),
                                        (("Time &control per game", self.control),))):
            row = QHBoxLayout()
            row.setSpacing(4)
            for text, widget in fields:
                label = QLabel(text)
                label.setBuddy(widget)
                row.addWidget(label)
                row.addWidget(widget)
                row.addSpacing(8)
            row.addStretch(1)
            grid.addLayout(row, line, 0)
        self.result = QLabel()
        self.result.setObjectName("clock-result")
        self.result.setAccessibleName("Clock times to set")
        self.result.setWordWrap(True)
        self.result.setTextFormat(Qt.TextFormat.RichText)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        grid.addWidget(self.result, 2, 0)
        self.formula = QLabel(FORMULA)
        self.formula.setObjectName("clock-formula")
        self.formula.setWordWrap(True)
        self.formula.setTextFormat(Qt.TextFormat.PlainText)
        self.formula.setStyleSheet("color: #4a4a4a;")
        grid.addWidget(self.formula, 3, 0)
        self.hide()
        self.toggle.hide()
        bc.check.resultChanged.connect(lambda _result: self.refresh())

    def _toggled(self, shown: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.form.setVisible(shown)
        if shown:
            self.black.setFocus(Qt.FocusReason.OtherFocusReason)
            area = self.parentWidget()
            while area is not None and not isinstance(area, QScrollArea):
                area = area.parentWidget()
            if area is not None:
                area.ensureWidgetVisible(self.form, 0, 0)

    def refresh(self, *_args: object) -> None:
        """Work the clock times out again from the form."""
        counts = self._bc.clocks.moves()
        self.setVisible(counts is not None)
        self.toggle.setVisible(counts is not None)
        if counts is None:
            self.result.setText("")
            return
        taken = (f"Taken back: Black {counts.black_since} of {counts.black_total} "
                 f"moves, White {counts.white_since} of {counts.white_total}.")
        try:
            black = parse_clock(self.black.text())
            white = parse_clock(self.white.text())
        except ValueError as exc:
            self.result.setText(_error(str(exc)))
            return
        if black is None or white is None:
            self.result.setText(html.escape("Type both clock readings. " + taken))
            return
        control = self.control.value() * 60.0 or None
        try:
            advice = self._bc.clocks.advice(black, white, control)
        except ValueError as exc:
            text = str(exc)
            self.result.setText(_error(text[:1].upper() + text[1:]))
            return
        self.last_advice = advice
        if control is not None:
            given = (f" (given back: Black {format_clock(advice.black_given_back)}, "
                     f"White {format_clock(advice.white_given_back)})")
        else:
            given = " (no time control: the clocks stay as they read)"
        self.result.setText(
            f"<span style='font-size:large'>Set <b>Black {format_clock(advice.black)}</b>, "
            f"<b>White {format_clock(advice.white)}</b></span>{html.escape(given)}<br>"
            f"{html.escape(taken)}")

    def text(self) -> str:
        """The result as plain text (tests, screen readers)."""
        return plain_text(self.result.text())
