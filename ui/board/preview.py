"""The slider that steps through a gap sequence previewed on the board; the
plies where the sequences part are marked on it."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QSlider, QStyle, QStyleOptionSlider, QWidget

__all__ = ["PlySlider", "BRANCH_COLOUR"]

#: the colour of "the sequences part here" (slider marks, move strip, arrows)
BRANCH_COLOUR = QColor("#d35400")


class PlySlider(QSlider):
    """A horizontal slider over plies 0..n with a tick per ply and an orange
    triangle over each ply in :meth:`marks` (where the sequences part)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.setTickInterval(1)
        self.setSingleStep(1)
        self.setPageStep(1)
        self.setRange(0, 0)
        self._marks: tuple[int, ...] = ()
        self.setMinimumHeight(self.fontMetrics().height() + 22)

    def set_marks(self, plies) -> None:
        self._marks = tuple(int(p) for p in plies)
        self.update()

    def marks(self) -> tuple[int, ...]:
        return self._marks

    def mark_x(self, value: int) -> float:
        """The x of the centre of the handle at ``value`` (widget coordinates)."""
        opt = QStyleOptionSlider()
        self.initStyleOption(opt)
        style = self.style()
        groove = style.subControlRect(QStyle.ComplexControl.CC_Slider, opt,
                                      QStyle.SubControl.SC_SliderGroove, self)
        handle = style.subControlRect(QStyle.ComplexControl.CC_Slider, opt,
                                      QStyle.SubControl.SC_SliderHandle, self)
        span = groove.width() - handle.width()
        pos = QStyle.sliderPositionFromValue(self.minimum(), self.maximum(), value, span,
                                             opt.upsideDown)
        return groove.left() + pos + handle.width() / 2

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().paintEvent(event)
        if not self._marks or self.maximum() <= self.minimum():
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setPen(QPen(BRANCH_COLOUR.darker(130), 1))
        p.setBrush(BRANCH_COLOUR)
        size = 6.0
        for ply in self._marks:
            if not self.minimum() <= ply <= self.maximum():
                continue
            x = self.mark_x(ply)
            p.drawPolygon(QPolygonF([QPointF(x - size, 1), QPointF(x + size, 1),
                                     QPointF(x, 1 + size * 1.3)]))
        p.end()
