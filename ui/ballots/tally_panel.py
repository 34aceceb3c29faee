"""The Tally tab of the Ballots workspace: the counting method (previewed or chosen
for the ballot), the result of every question, and the chart and working of the
one selected. It follows the controller's ``tallyChanged``."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from rulesbook.ballots import METHODS, BallotError, QuestionResult, Stands

from ..widgets import DocBrowser, plain_tip, set_cell
from .chart import TallyChart
from .controller import BallotController
from .ranking import METHOD_LABELS
from .views import option_label, result_html

__all__ = ["TallyPanel"]

ADOPTED_BG = QBrush(QColor("#c8e6c9"))
ADOPTED_FG = QBrush(QColor("#1b5e20"))

#: reports an error to the user: (title, the exception)
ErrorReporter = Callable[[str, Exception], None]


class TallyPanel(QWidget):
    """The method row, the results table and the selected result's chart and working."""

    def __init__(self, ballots: BallotController, report_error: ErrorReporter,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ballots = ballots
        self._report_error = report_error
        self.method_combo = QComboBox()
        self.method_combo.setAccessibleName("Count with method")
        for m in METHODS:
            self.method_combo.addItem(METHOD_LABELS[m], m)
        self.method_combo.currentIndexChanged.connect(self._method_previewed)
        method_label = QLabel("Count &with:")
        method_label.setBuddy(self.method_combo)
        self.choose_method_button = QPushButton("Use This &Method for the Ballot")
        self.choose_method_button.clicked.connect(lambda: self._choose_method())
        self.method_note = QLabel()
        self.method_note.setTextFormat(Qt.TextFormat.PlainText)
        trow = QHBoxLayout()
        trow.addWidget(method_label)
        trow.addWidget(self.method_combo)
        trow.addWidget(self.choose_method_button)
        trow.addWidget(self.method_note, 1)
        self.results_table = table = QTableWidget(0, 3)
        table.setHorizontalHeaderLabels(["Question", "Result", "Votes"])
        table.setAccessibleName("Results")
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.verticalHeader().setVisible(False)
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        table.currentCellChanged.connect(lambda r, *_a: self._show_result(r))
        self.working = DocBrowser()
        self.working.setAccessibleName("The count's working")
        self.chart = TallyChart()
        detail = QWidget()
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.chart)
        dl.addWidget(self.working, 1)
        self.split = QSplitter()
        self.split.addWidget(table)
        self.split.addWidget(detail)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([430, 570])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.rows = layout
        layout.addLayout(trow)
        layout.addWidget(self.split, 1)
        ballots.tallyChanged.connect(self._tally_changed)

    def show_method(self) -> None:
        """Show the method the controller counts with (without previewing another)."""
        with QSignalBlocker(self.method_combo):
            self.method_combo.setCurrentIndex(self.method_combo.findData(self.ballots.method))

    def set_open(self, is_open: bool) -> None:
        """The method can be chosen only while the ballot is open and its settings are
        not signed yet (a draft): once signed, it is one of them (issue 27)."""
        ballot = self.ballots.ballot
        self.choose_method_button.setEnabled(is_open and ballot is not None
                                             and ballot.opened is None)

    def show_result(self, question_id: str) -> None:
        """Select the result of ``question_id``."""
        for i, res in enumerate(self.ballots.results):
            if res.question == question_id:
                self.results_table.setCurrentCell(i, 0)
                self._show_result(i)

    def _method_previewed(self, _index: int) -> None:
        method = self.method_combo.currentData()
        ballot = self.ballots.ballot
        self.ballots.set_preview_method(None if ballot is not None and method == ballot.method
                                        else method)

    def _choose_method(self) -> None:
        try:
            self.ballots.choose_method(self.method_combo.currentData())
        except BallotError as exc:
            self._report_error("The method was not changed", exc)

    def _tally_changed(self, results: Sequence[QuestionResult]) -> None:
        ballot = self.ballots.ballot
        library = self.ballots.library
        if ballot is not None:
            if self.ballots.preview_method:
                self.method_note.setText(
                    f"Preview only: the ballot counts with "
                    f"{METHOD_LABELS.get(ballot.method, ballot.method)}.")
            else:
                self.method_note.setText("The ballot's own method.")
        table = self.results_table
        current = table.currentRow()
        with QSignalBlocker(table):
            table.setRowCount(len(results))
            for r, res in enumerate(results):
                if res.stands is Stands.ADOPTED:
                    text = f"{option_label(library, res.winner or '')} adopted"
                elif res.winner:
                    text = "the original stands (it wins)"
                else:
                    text = "the original stands"
                proxies = sum(1 for v in ballot.votes if v.question == res.question
                              and v.proxy_by) if ballot else 0
                cells = (res.question, text, f"{res.cast}/{len(ballot.roll) if ballot else 0}"
                         + (f" ({proxies} by proxy)" if proxies else ""))
                adopted = res.stands is Stands.ADOPTED
                for c, value in enumerate(cells):
                    set_cell(table, r, c, value, plain_tip(res.reason),
                             ADOPTED_BG if adopted else None, ADOPTED_FG if adopted else None)
        row = current if 0 <= current < len(results) else _first_voted_row(results)
        table.setCurrentCell(row, 0)
        self._show_result(row)

    def _show_result(self, row: int) -> None:
        results = self.ballots.results
        if not 0 <= row < len(results):
            self.chart.set_result(None)
            self.working.set_page("")
            return
        res = results[row]
        library = self.ballots.library
        labels = {o: option_label(library, o) for o in res.options}
        self.chart.set_result(res, labels)
        self.working.set_page(result_html(library, res))

    def add_receipt_row(self, edit: QWidget, button: QWidget, *sealed: QWidget) -> None:
        """The receipt check under the method row: a member checks that the vote of a
        receipt is in the sealed ballot, unchanged; then ``sealed``, the other buttons
        acting on the sealed ballot (verify its seal, adopt its results)."""
        row = QHBoxLayout()
        label = QLabel("A member's &receipt:")
        label.setBuddy(edit)
        row.addWidget(label)
        row.addWidget(edit)
        row.addWidget(button)
        row.addStretch(1)
        for other in sealed:
            row.addWidget(other)
        self.rows.insertLayout(1, row)
        # by Tab where it is shown: after the method, before the results (issue 33)
        chain = [self.choose_method_button, edit, button, *sealed]
        for before, after in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(before, after)


def _first_voted_row(results: Sequence[QuestionResult]) -> int:
    for i, res in enumerate(results):
        if res.cast:
            return i
    return 0
