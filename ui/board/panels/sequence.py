"""Stepping through the gap sequence previewed on the board: ◀ slider ▶, the moves
with the current one highlighted and the plies where the sequences part (the
strip from the core's :func:`~rulesbook.reconstruct.display.sequence_html`)."""
from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout

from rulesbook.reconstruct.display import SEQUENCE_LINK, sequence_html

from ..controller import BoardController
from ..preview import BRANCH_COLOUR, PlySlider
from .common import plain_text

__all__ = ["SequencePreview"]


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
        self.moves_label = QLabel()
        self.moves_label.setObjectName("gap-preview-moves")
        self.moves_label.setAccessibleName("Moves of the sequence shown")
        self.moves_label.setWordWrap(True)
        self.moves_label.setTextFormat(Qt.TextFormat.RichText)
        self.moves_label.linkActivated.connect(
            lambda link: gap.preview_go(int(link[len(SEQUENCE_LINK):])))
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
            self.moves_label.setText("Choose a sequence to see it on the board."
                                     if result is not None and result.sequences else "")
            return
        branches = gap.branch_plies()
        self.slider.set_marks(branches)
        self.ply_label.setText(f"ply {gap.preview_ply}/{len(moves)}")
        self.prev_button.setEnabled(gap.preview_ply > 0)
        self.next_button.setEnabled(gap.preview_ply < len(moves))
        self.moves_label.setText(sequence_html(bc.record, gap.base_ply(), moves,
                                               gap.preview_index + 1, gap.preview_ply,
                                               branches, BRANCH_COLOUR.name()))

    def moves_text(self) -> str:
        """The move strip as plain text (tests)."""
        return plain_text(self.moves_label.text())
