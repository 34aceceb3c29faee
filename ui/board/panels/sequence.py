"""Stepping through the gap sequence previewed on the board: ◀ slider ▶, the moves
with the current one highlighted and the plies where the sequences part (the
strip from the core's :func:`~rulesbook.reconstruct.display.sequence_html`)."""
from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QSignalBlocker, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QResizeEvent, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
)

from rulesbook.reconstruct.display import SEQUENCE_LINK, sequence_html

from ...widgets import plain_tip
from ..controller import BoardController
from ..preview import BRANCH_COLOUR, PlySlider

__all__ = ["SequencePreview", "SequenceStrip"]


class SequencePreview(QFrame):
    """Follows the gap controller's preview (enabled while one is shown)."""

    def __init__(self, bc: BoardController):
        super().__init__()
        self._bc = bc
        gap = bc.gap
        self.setObjectName("gap-preview")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        row = QHBoxLayout()
        row.setSpacing(4)
        self.prev_button = QToolButton()
        self.prev_button.setText("◀")
        self.prev_button.setAccessibleName("Previous ply of the sequence")
        self.prev_button.clicked.connect(lambda: bc.nav.previous())
        self.next_button = QToolButton()
        self.next_button.setText("▶")
        self.next_button.setAccessibleName("Next ply of the sequence")
        self.next_button.clicked.connect(lambda: bc.nav.next())
        self.slider = PlySlider()
        self.slider.setAccessibleName("Ply of the sequence shown")
        self.slider.setToolTip("The ply of the sequence shown on the board; "
                               "▼ marks where the sequences part")
        self.slider.valueChanged.connect(self._slider_moved)
        self.ply_label = QLabel()
        self.ply_label.setMinimumWidth(self.fontMetrics().horizontalAdvance("ply 00/00"))
        self.back_button = QPushButton("Show Record")
        self.back_button.setToolTip("Leave the preview: the board shows the record (Esc)")
        self.back_button.clicked.connect(lambda: gap.stop_preview())
        row.addWidget(self.prev_button)
        row.addWidget(self.slider, 1)
        row.addWidget(self.next_button)
        row.addWidget(self.ply_label)
        row.addWidget(self.back_button)
        lay.addLayout(row)
        self.moves_label = SequenceStrip()
        self.moves_label.setObjectName("gap-preview-moves")
        self.moves_label.setAccessibleName("Moves of the sequence shown")
        self.moves_label.plyClicked.connect(gap.preview_go)
        lay.addWidget(self.moves_label)
        self.setEnabled(False)
        bc.changed.connect(self.refresh)

    def _slider_moved(self, value: int) -> None:
        gap = self._bc.gap
        if gap.previewing and value != gap.preview_ply:
            gap.preview_go(value)

    def refresh(self) -> None:
        bc = self._bc
        gap = bc.gap
        moves = gap.preview_texts() if gap.previewing else ()
        self.setEnabled(bool(moves))
        blocker = QSignalBlocker(self.slider)
        self.slider.setRange(0, len(moves))
        self.slider.setValue(gap.preview_ply if moves else 0)
        del blocker
        if not moves or gap.preview_index is None:
            self.slider.set_marks(())
            self.ply_label.setText("")
            result = gap.result
            self.moves_label.set_strip("Choose a sequence to see it on the board."
                                       if result is not None and result.sequences else "")
            return
        branches = gap.branch_plies()
        self.slider.set_marks(branches)
        self.ply_label.setText(f"ply {gap.preview_ply}/{len(moves)}")
        self.prev_button.setEnabled(gap.preview_ply > 0)
        self.next_button.setEnabled(gap.preview_ply < len(moves))
        self.moves_label.set_strip(sequence_html(bc.record, gap.base_ply(), moves,
                                                 gap.preview_index + 1, gap.preview_ply,
                                                 branches, BRANCH_COLOUR.name(),
                                                 gap.certain_plies(), gap.certain_texts()),
                                   gap.preview_ply)

    def moves_text(self) -> str:
        """The move strip as plain text (tests)."""
        return self.moves_label.toPlainText()


class SequenceStrip(QTextBrowser):
    """The moves of the sequence shown (rich text from the core), wrapped, never
    cut off: as tall as its lines up to :data:`MOST_LINES`, and past that (or when
    the panel has less room) it scrolls, keeping the current ply in sight. The
    whole strip is also its tooltip. A click on a move emits ``plyClicked``."""

    plyClicked = Signal(int)

    #: the lines shown before the strip scrolls (a 20-ply sequence at 1024 px
    #: takes four and the legend one)
    MOST_LINES = 5
    #: the lines it keeps when the panel is short of room (it scrolls then)
    LEAST_LINES = 2

    def __init__(self) -> None:
        super().__init__()
        self._heights: dict[int, int] = {}  # {width: height of its text} (set first:
        # the calls below already send change events)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._clicked)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setLineWrapMode(QTextBrowser.LineWrapMode.WidgetWidth)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByMouse)
        # the keys stay with the list and the board (←/→ step through the plies)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.viewport().setAutoFillBackground(False)
        self.setStyleSheet("QTextBrowser { background: transparent; }")
        self.document().setDocumentMargin(0)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def set_strip(self, html: str, current: int = 0) -> None:
        """Show ``html`` (:func:`~rulesbook.reconstruct.display.sequence_html`)
        with ply ``current`` scrolled into sight."""
        self.setHtml(html)
        self._heights.clear()
        self.setToolTip(plain_tip(self.toPlainText()))
        self.updateGeometry()
        if current > 0:
            self._show_ply(current)

    def _clicked(self, url: QUrl) -> None:
        link = url.toString()
        if link.startswith(SEQUENCE_LINK) and link[len(SEQUENCE_LINK):].isdigit():
            self.plyClicked.emit(int(link[len(SEQUENCE_LINK):]))

    def _show_ply(self, ply: int) -> None:
        """Scroll the link of ``ply`` into sight."""
        href = f"{SEQUENCE_LINK}{ply}"
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                if fragment.charFormat().anchorHref() == href:
                    cursor = QTextCursor(self.document())
                    cursor.setPosition(fragment.position())
                    self.setTextCursor(cursor)
                    self.ensureCursorVisible()
                    return
                it += 1
            block = block.next()

    # ------------------------------------------------------------------ size
    def _lines(self, count: int) -> int:
        return count * self.fontMetrics().lineSpacing() + 2 * self.frameWidth() + 2

    def _text_height(self, width: int) -> int:
        """The height of the whole strip laid out ``width`` pixels wide."""
        height = self._heights.get(width)
        if height is None:
            doc = self.document().clone()  # laid out apart: the shown one keeps its width
            doc.setTextWidth(max(width - 2 * self.frameWidth(), 1))
            height = self._heights[width] = math.ceil(doc.size().height()) + 2 * self.frameWidth()
        return height

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        return min(self._text_height(width), self._lines(self.MOST_LINES))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        width = super().sizeHint().width()
        return QSize(width, self.heightForWidth(self.width() if self.width() > 50 else width))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        height = min(self._text_height(max(self.width(), 50)), self._lines(self.LEAST_LINES))
        return QSize(50, height)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()  # the lines are laid out anew
            self.updateGeometry()
        super().changeEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()  # the lines it needs depend on its width
