"""The Gap tab: the board now, how many plies are missing, known moves, the search
(progress, cancel), the sequences found, their preview and adopting one."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from rulesbook.draughts.notation import plies_text
from rulesbook.reconstruct.gap.progress import SearchProgress

from ...widgets import breakable, plain_tip
from ..controller import BoardController
from .boardview import record_ply
from .interview import InterviewBox, SequenceTree
from .sequence import SequencePreview

__all__ = ["GapPanel"]

#: the least height of the list of sequences (three rows) when it holds more
#: the most lines the answer above the list asks for (the rest: its tooltip)
EXPLANATION_LINES = 4
LIST_LEAST_HEIGHT = 60
#: the rows of the list of sequences in sight at 1024x700 (issue 33)
LIST_ROWS = 6


class GapPanel(QWidget):
    """``mark_button`` is wired by the workspace (it also shows this tab)."""

    def __init__(self, bc: BoardController):
        super().__init__()
        self._bc = bc
        gap = bc.gap
        lay = QVBoxLayout(self)
        lay.setSpacing(4)  # at 1024x700 every pixel goes to the sequences and their moves
        self.target_label = QLabel()
        self.target_label.setWordWrap(True)
        self.target_label.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.target_label)
        row = QHBoxLayout()
        self.mark_button = QPushButton("Board Shown Is the Board Now")
        row.addWidget(self.mark_button)
        lay.addLayout(row)
        row = QHBoxLayout()
        self.kind = QComboBox()
        self.kind.setAccessibleName("Missing plies")
        self.kind.addItem("Exactly", "exact")
        self.kind.addItem("At most", "max")
        self.plies = QSpinBox()
        self.plies.setRange(0, 40)
        self.plies.valueChanged.connect(self._plies_changed)
        self.plies.setValue(2)
        self._plies_changed(self.plies.value())
        self.plies.setAccessibleName("Number of missing plies")
        row.addWidget(self.kind)
        row.addWidget(self.plies, 1)
        lay.addLayout(row)
        self.known = QLineEdit()
        self.known.setPlaceholderText("Known moves, e.g. 3:22x15, 5:11-? (optional)")
        self.known.setAccessibleName("Known moves")
        lay.addWidget(self.known)
        row = QHBoxLayout()
        self.search_button = QPushButton("Search")
        self.search_button.clicked.connect(lambda: self.start())
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(lambda: gap.cancel())
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.progress.setFormat("")
        self.tree_button = QToolButton()
        self.tree_button.setText("Tree")
        self.tree_button.setCheckable(True)
        self.tree_button.setEnabled(False)
        self.tree_button.setAccessibleName("Show the sequences as a tree")
        self.tree_button.setToolTip("The sequences as a tree of move choices (their first "
                                    "moves shared), each branch with its count")
        self.tree_button.toggled.connect(self._show_tree)
        row.addWidget(self.search_button)
        row.addWidget(self.progress, 1)
        row.addWidget(self.tree_button)
        row.addWidget(self.cancel_button)
        lay.addLayout(row)
        self.explanation = QLabel()
        self.explanation.setWordWrap(True)
        self.explanation.setTextFormat(Qt.TextFormat.PlainText)
        self.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # the answer wraps in a scrollable place of at most EXPLANATION_LINES lines,
        # its key sentence first (issue 33: a long answer took half the panel)
        self.explanation_area = QScrollArea()
        self.explanation_area.setWidget(self.explanation)
        self.explanation_area.setWidgetResizable(True)
        self.explanation_area.setFrameShape(QFrame.Shape.NoFrame)
        self.explanation_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.explanation_area.setFixedHeight(0)
        lay.addWidget(self.explanation_area)
        self.interview = InterviewBox(bc, self._answered)
        lay.addWidget(self.interview)
        self.list = QListWidget()
        self.list.setAccessibleName("Sequences found")
        self.list.setToolTip("Choose a sequence to see it on the board; ←/→ step "
                             "through its plies, double-click adopts it")
        self.list.currentRowChanged.connect(self._row_changed)
        self.list.itemDoubleClicked.connect(lambda _i: self.adopt_selected())
        self.list.itemClicked.connect(  # the row shown again after "Show Record"
            lambda _i: self._row_changed(self.list.currentRow()))
        self.list.installEventFilter(self)
        self.list.setMinimumHeight(LIST_LEAST_HEIGHT)
        # no sideways scrolling (issue 33): a long sequence is elided, its tooltip whole
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree = SequenceTree()
        self.tree.setMinimumHeight(LIST_LEAST_HEIGHT)
        # the sequences listed (to preview and adopt) or as a tree of choices
        # (the Tree button beside Cancel; no tab bar: at 1024x700 there is no room)
        self.views = QStackedWidget()
        self.views.addWidget(self.list)
        self.views.addWidget(self.tree)
        lay.addWidget(self.views, 1)
        self.preview = SequencePreview(bc)
        lay.addWidget(self.preview)
        self.adopt_button = QPushButton("Adopt Sequence into the Record")
        self.adopt_button.setEnabled(False)
        self.adopt_button.clicked.connect(lambda: self.adopt_selected())
        lay.addWidget(self.adopt_button)
        gap.started.connect(self._started)
        gap.progressShown.connect(self._progress)
        gap.cancelling.connect(self._cancelling)
        gap.finished.connect(self._finished)
        gap.failed.connect(self._failed)
        bc.changed.connect(self.show_target)

    def _plies_changed(self, value: int) -> None:
        # the suffix follows the number: "1 ply missing", "2 plies missing"
        noun = plies_text(value).split(" ", 1)[1]
        self.plies.setSuffix(f" {noun} missing")

    def _show_tree(self, on: bool) -> None:
        self.views.setCurrentWidget(self.tree if on else self.list)

    # ------------------------------------------------------------------ search
    def _answered(self, known: str) -> None:
        """An answer of the players: a known move more, and search again."""
        text = self.known.text().strip()
        self.known.setText(f"{text}, {known}" if text else known)
        self.start(interview=True)

    def start(self, interview: bool = False) -> bool:
        """Search; ``interview``: as an answer to a question (the moves the
        players said they forgot stay forgotten)."""
        if not interview:
            self._bc.gap.skipped.clear()
        n = self.plies.value()
        known = [k.strip() for k in self.known.text().replace(";", ",").split(",")
                 if k.strip()]
        if self.kind.currentData() == "max":
            return self._bc.gap.start(max_plies=n, known=known)
        return self._bc.gap.start(plies=n, known=known)

    def _started(self) -> None:
        self.list.clear()
        self.tree.clear()
        self.tree_button.setChecked(False)
        self.tree_button.setEnabled(False)
        self.explanation.setText("Searching…")
        self._fit_explanation()
        self.progress.setRange(0, 0)  # busy: no estimate yet
        self.progress.setFormat("")
        self.show_target()

    def _progress(self, shown: SearchProgress) -> None:
        """The positions searched and the time, always; the bar fills only with a
        percentage that can be trusted, else it says it is busy."""
        if shown.percent is None:
            self.progress.setRange(0, 0)
            self.progress.setFormat("")
        else:
            self.progress.setRange(0, 100)
            self.progress.setValue(shown.percent)
            self.progress.setFormat("%p%")
        self.explanation.setText(f"Searching… {shown.text()}")
        self._fit_explanation()
        self.progress.setToolTip(shown.text())

    def _cancelling(self, shown: SearchProgress) -> None:
        """Cancel pressed: "cancelled" and the sequences counted so far at once
        (the search's answer, with those found listed, follows)."""
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setFormat("cancelled")
        self.progress.setToolTip(shown.text())
        self._explain(shown.cancelled_text())
        self.show_target()

    def _finished(self, result: Any) -> None:
        self.progress.setRange(0, 1000)
        self.progress.setValue(0 if result.cancelled else 1000)
        # one word: the bar beside Cancel is narrow (the positions and the
        # time are in its tooltip, the answer below it)
        self.progress.setFormat("cancelled" if result.cancelled else "done")
        self.progress.setToolTip(SearchProgress(result.nodes, result.seconds).text())
        # while the players are asked, where the sequences part is the question's
        # business (and the strip's ▼): the room goes to the question
        asking = self._bc.gap.question() is not None and result.parting
        self._explain(result.explanation.replace(result.parting, "", 1) if asking
                      else result.explanation)
        self.list.clear()
        for i, texts in enumerate(result.texts, 1):
            item = QListWidgetItem(f"{i}. " + " ".join(texts))
            item.setToolTip(plain_tip(item.text()))  # elided in the list: all of it here
            self.list.addItem(item)
        if result.texts:
            self.list.setCurrentRow(0)
        self.tree.show_tree(result.tree)
        # a tree of one sequence says nothing the list does not
        self.tree_button.setEnabled((result.count or 0) > 1)
        if not self.tree_button.isEnabled():
            self.tree_button.setChecked(False)
        for problem in result.unaccounted:
            self.list.addItem(QListWidgetItem(f"✗ {problem}"))
        self._fit_list()
        self.show_target()

    def _explain(self, text: str) -> None:
        """The answer, whole: the label asks for the lines it needs (up to
        EXPLANATION_LINES; the list below gives way), and its tooltip has it
        all (the advice on what to add comes last, and was cut off)."""
        label = self.explanation
        label.setText(text)
        label.setToolTip(plain_tip(text) if text else "")
        self._fit_explanation()

    def _fit_explanation(self) -> None:
        label, area = self.explanation, self.explanation_area
        width = area.viewport().width() if area.width() > 50 else max(self.width() - 20, 200)
        line = label.fontMetrics().lineSpacing()
        need = label.heightForWidth(width) if label.text() else 0
        area.setFixedHeight(min(need, EXPLANATION_LINES * line + 4))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_explanation()

    def _fit_list(self) -> None:
        """A list of one or two sequences asks for no more than their rows: the
        room goes to the sequence's moves under it (issue 21: cut off at 1024x700)."""
        lst = self.list
        # up to LIST_ROWS rows in sight, also while the players are asked (issue 33)
        rows = max(1, min(lst.count(), LIST_ROWS))
        row = lst.sizeHintForRow(0) if lst.count() else lst.fontMetrics().lineSpacing()
        lst.setMinimumHeight(rows * max(row, 1) + 2 * lst.frameWidth())
        self.tree.setMinimumHeight(lst.minimumHeight())  # the two share the place

    def _failed(self, message: str) -> None:
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setFormat("")
        self._explain(f"Cannot search: {message}")
        self.show_target()

    def adopt_selected(self) -> bool:
        row = self.list.currentRow()
        result = self._bc.gap.result
        if result is None or not 0 <= row < len(result.texts):
            return False
        ok = self._bc.gap.adopt(row)
        if ok:
            self.list.clear()
            self.tree.clear()
            self.explanation.setText("")
        return ok

    # ------------------------------------------------------------------ preview
    def _row_changed(self, row: int) -> None:
        gap = self._bc.gap
        result = gap.result
        if result is not None and 0 <= row < len(result.sequences):
            gap.preview_sequence(row)
        else:
            gap.stop_preview()
            self.show_target()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is self.list and isinstance(event, QKeyEvent) \
                and event.type() == QEvent.Type.KeyPress:
            # Up/Down choose a sequence; Left/Right step through the one shown
            bc = self._bc
            plain = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            if plain and bc.gap.previewing and event.key() in (Qt.Key.Key_Left,
                                                                 Qt.Key.Key_Right):
                bc.gap.step(-1 if event.key() == Qt.Key.Key_Left else 1)
                return True
            if event.key() == Qt.Key.Key_Escape and bc.gap.previewing:
                bc.gap.stop_preview()
                return True
        return super().eventFilter(obj, event)

    def show_target(self) -> None:
        bc = self._bc
        running = bc.gap.running
        if bc.gap_target is None:
            self.target_label.setText(
                "1. Show the board as it stands now: set it up (Set Up, then \"This Is "
                "the Board Now\"), or step to it in the record and press \"Board Shown Is "
                "the Board Now\" below. 2. Say how many plies are missing. 3. Search.")
        else:
            base = bc.gap.base_ply()
            # numbered as the caption under the board numbers the ply ("Ply 21/52")
            stops = "" if base == len(bc.moves) else \
                f", where the record stops: ply {base + 1} cannot be played on the board" \
                if base == bc.available_plies else ""
            self.target_label.setText(
                f"From {record_ply(bc, base)}{stops} to the board now: "
                f"{breakable(bc.gap_target.fen())}")
        self.search_button.setEnabled(bc.gap_target is not None and not running)
        self.cancel_button.setEnabled(running and not bc.gap.is_cancelling)
        self.adopt_button.setEnabled(
            not running and bc.gap.result is not None and self.list.currentRow() >= 0)
