"""The board widget: draws a position and forwards the user's clicks and drags.

It never changes the game: the :class:`~ui.board.controller.BoardController`
decides what a click means and tells the widget what to show.

Geometry: square 1 is b8 and 4 is h8 (top row with Black at the top), 29 is
a1 and 32 is g1, as in English checkers; ``flipped`` turns the board round.
Colours follow APCA rule 1: green and buff squares, Black's pieces red,
White's white; kings carry a gold crown ring.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QApplication, QSizePolicy, QWidget

from rulesbook.draughts import Color, Piece, Position
from rulesbook.draughts.geometry import coords, square_at

__all__ = ["BoardWidget", "Arrow", "BOARD_COLOURS", "paint_piece", "square_coords"]

# Pens and brushes as objects, never as bare enums: the enum overloads of
# setPen/setBrush are the calls PySide6 6.12.0 mis-counts None on (issue 13).
NO_PEN = QPen(Qt.PenStyle.NoPen)
NO_BRUSH = QBrush(Qt.BrushStyle.NoBrush)

BOARD_COLOURS = {
    "dark": QColor("#2f7d46"),      # green (the playing squares)
    "light": QColor("#efdcae"),     # buff
    "frame": QColor("#5b3a1e"),
    "coord": QColor("#f3e7c8"),
    "red": QColor("#c8201e"),
    "red_edge": QColor("#6e0b0a"),
    "white": QColor("#fbfaf4"),
    "white_edge": QColor("#5a5a5a"),
    "crown": QColor("#f2b90f"),
    "crown_edge": QColor("#7a5a00"),
    "last": QColor(255, 221, 64, 150),
    "select": QColor(64, 160, 255, 190),
    "hint": QColor(255, 255, 255, 200),
    "mark": QColor(230, 40, 40, 200),
    "number": QColor(255, 255, 255, 215),
}


def square_coords(square: int) -> tuple[int, int]:
    """``(row, file)`` with row 0 the top row (squares 1-4) and file 0 the a-file
    (the engine's geometry: :func:`rulesbook.draughts.geometry.coords`)."""
    return coords(square)


def paint_piece(p: QPainter, center: QPointF, size: float, piece: Piece) -> None:
    """Draw ``piece`` centred on ``center`` for squares of ``size`` pixels (the board,
    the set-up palette's pieces)."""
    c = BOARD_COLOURS
    red = piece.color is Color.BLACK
    body = c["red"] if red else c["white"]
    edge = c["red_edge"] if red else c["white_edge"]
    radius = size * 0.39
    p.save()
    # shadow
    p.setPen(NO_PEN)
    p.setBrush(QColor(0, 0, 0, 70))
    p.drawEllipse(center + QPointF(size * 0.025, size * 0.04), radius, radius)
    p.setBrush(QBrush(body))
    p.setPen(QPen(edge, max(1.5, size * 0.035)))
    p.drawEllipse(center, radius, radius)
    p.setBrush(NO_BRUSH)
    p.setPen(QPen(edge.lighter(140) if red else QColor("#b8b8b0"), max(1.0, size * 0.025)))
    p.drawEllipse(center, radius * 0.7, radius * 0.7)
    if piece.king:
        # a gold ring and a crown: readable at any size and in grey-scale
        p.setPen(QPen(c["crown_edge"], max(1.0, size * 0.02)))
        p.setBrush(c["crown"])
        w = radius * 1.05
        h = radius * 0.7
        x0, y0 = center.x() - w / 2, center.y() - h / 2
        crown = QPolygonF([
            QPointF(x0, y0 + h), QPointF(x0, y0 + h * 0.25),
            QPointF(x0 + w * 0.25, y0 + h * 0.6), QPointF(x0 + w * 0.5, y0),
            QPointF(x0 + w * 0.75, y0 + h * 0.6), QPointF(x0 + w, y0 + h * 0.25),
            QPointF(x0 + w, y0 + h)])
        p.drawPolygon(crown)
        p.setBrush(NO_BRUSH)
        p.setPen(QPen(c["crown"], max(1.5, size * 0.045)))
        p.drawEllipse(center, radius * 0.86, radius * 0.86)
    p.restore()


@dataclass(frozen=True)
class Arrow:
    """An arrow along ``path`` (squares), e.g. the move as written or a legal move."""

    path: tuple[int, ...]
    color: QColor
    dashed: bool = False


class BoardWidget(QWidget):
    """A scalable checkers board.

    Signals (input only; the controller decides):
      squareClicked(int square, int button)   a press and release on one square
                                            (``last_click_modifiers()`` tells Shift)
      pieceDropped(int from, int to)          a piece dragged from one square to another
      pieceDroppedOff(int from)               a piece dragged off the board (set-up:
                                            the piece is taken off)

    In set-up mode (``set_setup_mode``) the square numbers are shown, the square
    under the mouse is followed (``hover_square``) and a piece dragged in from the
    palette is drawn under the mouse (``set_floating``).
    """

    squareClicked = Signal(int, int)
    pieceDropped = Signal(int, int)
    pieceDroppedOff = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("board")
        self.setAccessibleName("Board")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(120, 120)
        self.setMouseTracking(False)
        self._position: Position | None = Position.start("pool")
        self._flipped = False
        self._numbers = False
        self._coords = True
        self._last: tuple[int, ...] = ()
        self._selected: tuple[int, ...] = ()
        self._hints: tuple[int, ...] = ()
        self._marks: tuple[int, ...] = ()
        self._arrows: tuple[Arrow, ...] = ()
        self._caption = ""
        self._setup = False
        self._hover: int | None = None
        self._floating: tuple[Piece, QPointF] | None = None
        self._click_modifiers = Qt.KeyboardModifier.NoModifier
        # dragging
        self._press_square: int | None = None
        self._press_pos: QPoint | None = None
        self._drag_pos: QPointF | None = None

    # -- what to show ---------------------------------------------------------
    def position(self) -> Position | None:
        return self._position

    def set_position(self, position: Position | None) -> None:
        self._position = position
        self.update()

    def set_flipped(self, flipped: bool) -> None:
        self._flipped = bool(flipped)
        self.update()

    def is_flipped(self) -> bool:
        return self._flipped

    def set_show_numbers(self, show: bool) -> None:
        self._numbers = bool(show)
        self.update()

    def shows_numbers(self) -> bool:
        """The user's choice (toolbar "Numbers"); set-up mode shows them anyway."""
        return self._numbers

    def numbers_visible(self) -> bool:
        return self._numbers or self._setup

    def set_setup_mode(self, on: bool) -> None:
        """Set-up mode: square numbers shown, the square under the mouse followed."""
        on = bool(on)
        if on == self._setup:
            return
        self._setup = on
        self.setMouseTracking(on)
        if not on:
            self._hover = None
            self._floating = None
        self.update()

    def in_setup_mode(self) -> bool:
        return self._setup

    def hover_square(self) -> int | None:
        """The square under the mouse (set-up mode), or None."""
        return self._hover

    def last_click_modifiers(self) -> Qt.KeyboardModifier:
        """The keyboard modifiers of the last ``squareClicked`` (Shift: the other colour)."""
        return self._click_modifiers

    def set_floating(self, piece: Piece | None, point: QPointF | None = None) -> None:
        """Draw ``piece`` under the mouse at ``point`` (a piece dragged in from the
        palette); None stops."""
        self._floating = None if piece is None or point is None else (piece, QPointF(point))
        if point is not None and self._setup:
            self._hover = self.square_at(point)
        self.update()

    def set_highlights(self, last: tuple[int, ...] = (), selected: tuple[int, ...] = (),
                       hints: tuple[int, ...] = (), marks: tuple[int, ...] = (),
                       arrows: tuple[Arrow, ...] = ()) -> None:
        """Last move path, selected squares, legal-move hints, marked squares, arrows."""
        self._last = tuple(last)
        self._selected = tuple(selected)
        self._hints = tuple(hints)
        self._marks = tuple(marks)
        self._arrows = tuple(arrows)
        self.update()

    def set_caption(self, text: str) -> None:
        """A one-line caption under the board (side to move, mode); when it is too long
        for the board's width it is shortened with "…" and shown whole as the tooltip."""
        self._caption = text
        self.setToolTip(text)
        self.update()

    def highlights(self) -> dict:
        return {"last": self._last, "selected": self._selected, "hints": self._hints,
                "marks": self._marks, "arrows": self._arrows}

    # -- geometry --------------------------------------------------------------
    def _layout(self) -> tuple[QRectF, float]:
        """The rectangle of the 8x8 squares and the square size (logical pixels)."""
        fm = self.fontMetrics()
        margin = fm.height() + 4 if self._coords else 2
        caption = fm.height() + 8 if self._caption else 0
        avail_w = self.width() - 2 * margin
        avail_h = self.height() - 2 * margin - caption
        size = max(8.0, float(min(avail_w, avail_h)) / 8.0)
        size = float(int(size))  # whole pixels keep the squares crisp
        side = size * 8
        left = (self.width() - side) / 2
        top = margin + (avail_h - side) / 2
        return QRectF(left, top, side, side), size

    def _cell(self, row: int, file: int) -> tuple[int, int]:
        if self._flipped:
            return 7 - row, 7 - file
        return row, file

    def square_rectf(self, square: int) -> QRectF:
        board, size = self._layout()
        row, file = self._cell(*square_coords(square))
        return QRectF(board.left() + file * size, board.top() + row * size, size, size)

    def square_rect(self, square: int) -> QRect:
        """The square's rectangle in widget coordinates (tests click its centre)."""
        if not 1 <= square <= 32:
            raise ValueError(f"unknown square {square}: squares are 1-32")
        return self.square_rectf(square).toAlignedRect()

    def on_board(self, point: QPoint | QPointF) -> bool:
        """Whether ``point`` is on the 8x8 squares (light squares included)."""
        board, _size = self._layout()
        return board.contains(QPointF(point))

    def square_at(self, point: QPoint | QPointF) -> int | None:
        board, size = self._layout()
        x, y = point.x() - board.left(), point.y() - board.top()
        if x < 0 or y < 0 or x >= board.width() or y >= board.height():
            return None
        row, file = self._cell(int(y // size), int(x // size))
        return square_at(row, file)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(520, 540)

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        return width + self.fontMetrics().height()

    # -- input -----------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        square = self.square_at(event.position())
        self._press_square = square
        self._press_pos = event.position().toPoint()
        self._drag_pos = None
        if event.button() != Qt.MouseButton.LeftButton:
            if square is not None:
                self._click_modifiers = event.modifiers()
                self.squareClicked.emit(square, int(event.button().value))
            self._press_square = None
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if self._setup:
            hover = self.square_at(event.position())
            if hover != self._hover:
                self._hover = hover
                self.update()
        if self._press_square is None or self._press_pos is None:
            return
        if self._position is None or self._position.piece_at(self._press_square) is None:
            return
        moved = (event.position().toPoint() - self._press_pos).manhattanLength()
        if self._drag_pos is None and moved < QApplication.startDragDistance():
            return
        self._drag_pos = event.position()
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        start = self._press_square
        dragging = self._drag_pos is not None
        self._press_square = None
        self._press_pos = None
        self._drag_pos = None
        if start is None or event.button() != Qt.MouseButton.LeftButton:
            self.update()
            return
        end = self.square_at(event.position())
        if dragging:
            self.update()
            if end is not None and end != start:
                self.pieceDropped.emit(start, end)
            elif end is None and not self.on_board(event.position()):
                self.pieceDroppedOff.emit(start)
            return
        if end == start:
            self._click_modifiers = event.modifiers()
            self.squareClicked.emit(start, int(Qt.MouseButton.LeftButton.value))

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        if self._hover is not None and self._press_square is None:
            self._hover = None
            self.update()
        super().leaveEvent(event)

    # -- painting --------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        board, size = self._layout()
        c = BOARD_COLOURS
        # frame and coordinates
        frame = board.adjusted(-size * 0.04 - 2, -size * 0.04 - 2, size * 0.04 + 2,
                               size * 0.04 + 2)
        p.fillRect(frame, c["frame"])
        for row in range(8):
            for file in range(8):
                rect = QRectF(board.left() + file * size, board.top() + row * size, size, size)
                p.fillRect(rect, c["dark"] if (row + file) % 2 == 1 else c["light"])
        if self._coords:
            self._paint_coords(p, board, size)
        # highlights under the pieces
        for square in self._last:
            p.fillRect(self.square_rectf(square), c["last"])
        # outlines: the squares selected, then the marked ones (a little thicker)
        for squares, colour, width, inset in ((self._selected, c["select"], 0.07, 0.05),
                                              (self._marks, c["mark"], 0.08, 0.06)):
            p.setPen(QPen(colour, max(2.0, size * width)))
            p.setBrush(NO_BRUSH)
            for square in squares:
                d = size * inset
                p.drawRect(self.square_rectf(square).adjusted(d, d, -d, -d))
        if self._setup and self._hover is not None:
            rect = self.square_rectf(self._hover)
            p.setPen(QPen(c["hint"], max(1.5, size * 0.04), Qt.PenStyle.DashLine))
            p.setBrush(NO_BRUSH)
            inset = size * 0.04
            p.drawRect(rect.adjusted(inset, inset, -inset, -inset))
        # pieces
        dragged = self._press_square if self._drag_pos is not None else None
        if self._position is not None:
            for square, piece in self._position.pieces().items():
                if square == dragged:
                    continue
                paint_piece(p, self.square_rectf(square).center(), size, piece)
        if self.numbers_visible():  # over the pieces, so that a piece never hides one
            self._paint_numbers(p, size)
        # legal-move hints over empty squares
        for square in self._hints:
            center = self.square_rectf(square).center()
            p.setPen(QPen(QColor(0, 0, 0, 140), max(1.5, size * 0.03)))
            p.setBrush(c["hint"])
            p.drawEllipse(center, size * 0.17, size * 0.17)
        for arrow in self._arrows:
            self._paint_arrow(p, arrow, size)
        if dragged is not None and self._position is not None:
            lifted = self._position.piece_at(dragged)
            if lifted is not None and self._drag_pos is not None:
                paint_piece(p, self._drag_pos, size, lifted)
        if self._floating is not None:
            paint_piece(p, self._floating[1], size, self._floating[0])
        if self._caption:
            p.setPen(self.palette().color(self.foregroundRole()))
            p.setFont(self.font())
            fm = self.fontMetrics()
            margin = fm.height() + 4 if self._coords else 2
            rect = QRectF(0, board.bottom() + margin + 2, self.width(), fm.height() + 2)
            # too long for a narrow board: its start stays readable (not cut at both ends)
            text = fm.elidedText(self._caption, Qt.TextElideMode.ElideRight, self.width() - 4)
            p.drawText(rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, text)
        p.end()

    def _paint_numbers(self, p: QPainter, size: float) -> None:
        font = QFont(self.font())
        font.setPixelSize(max(8, int(size * 0.2)))
        font.setBold(True)
        p.setFont(font)
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
        shadow = QColor(0, 0, 0, 190)
        for square in range(1, 33):
            rect = self.square_rectf(square).adjusted(size * 0.04, size * 0.01, 0, 0)
            p.setPen(shadow)
            p.drawText(rect.translated(1, 1), align, str(square))
            p.setPen(BOARD_COLOURS["number"])
            p.drawText(rect, align, str(square))

    def _paint_coords(self, p: QPainter, board: QRectF, size: float) -> None:
        p.setPen(self.palette().color(self.foregroundRole()))
        font = QFont(self.font())
        p.setFont(font)
        fm = self.fontMetrics()
        files = "abcdefgh"
        gap = size * 0.04 + 4
        for i in range(8):
            file = 7 - i if self._flipped else i
            row = 7 - i if self._flipped else i
            x = board.left() + i * size
            p.drawText(QRectF(x, board.bottom() + gap - 2, size, fm.height()),
                       Qt.AlignmentFlag.AlignHCenter, files[file])
            y = board.top() + i * size
            p.drawText(QRectF(board.left() - gap - fm.horizontalAdvance("8") - 2, y,
                              fm.horizontalAdvance("8") + 2, size),
                       Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                       str(8 - row))

    def _paint_arrow(self, p: QPainter, arrow: Arrow, size: float) -> None:
        if len(arrow.path) < 2:
            return
        points = [self.square_rectf(s).center() for s in arrow.path]
        pen = QPen(arrow.color, max(3.0, size * 0.1))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        if arrow.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        p.save()
        p.setPen(pen)
        p.setBrush(NO_BRUSH)
        path = QPainterPath(points[0])
        # stop short of the last centre so the head sits on the square
        a, b = points[-2], points[-1]
        d = b - a
        length = max(1.0, (d.x() ** 2 + d.y() ** 2) ** 0.5)
        unit = QPointF(d.x() / length, d.y() / length)
        head = size * 0.32
        tip = b
        base = tip - unit * head
        for pt in points[1:-1]:
            path.lineTo(pt)
        path.lineTo(base)
        p.drawPath(path)
        normal = QPointF(-unit.y(), unit.x())
        p.setPen(NO_PEN)
        p.setBrush(arrow.color)
        p.drawPolygon(QPolygonF([tip, base + normal * head * 0.55, base - normal * head * 0.55]))
        p.restore()
