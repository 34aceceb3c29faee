"""The Votes tab of the Ballots workspace: the grid of votes (one row per
question, one column per member) and the entry of a member's typed ranking.

Signals:
  questionRowChanged(int)   the grid (or Enter past the last member) moved to
                            another question's row
"""
from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from rulesbook.ballots import Ballot, BallotError

from ..widgets import plain_tip, set_cell
from .controller import BallotController
from .views import member_label, option_label, short_option

__all__ = ["VotesPanel"]


class VotesPanel(QSplitter):
    """The votes grid beside the ranking entry."""

    questionRowChanged = Signal(int)

    def __init__(self, ballots: BallotController, current_question: Callable[[], str | None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ballots = ballots
        self._current_question = current_question
        #: the last ranking refused, as shown
        self.last_error = ""
        self.grid = QTableWidget()
        self.grid.setAccessibleName("Votes: one row per question, one column per member")
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.grid.currentCellChanged.connect(self._grid_cell)
        self.member_combo = QComboBox()
        self.member_combo.setAccessibleName("Member")
        self.member_combo.currentIndexChanged.connect(self._member_changed)
        member_label = QLabel("&Member:")
        member_label.setBuddy(self.member_combo)
        self.vote_question = QLabel()
        self.vote_question.setWordWrap(True)
        self.vote_question.setTextFormat(Qt.TextFormat.RichText)  # built with escaped data
        self.vote_options = QLabel()
        self.vote_options.setWordWrap(True)
        self.vote_options.setTextFormat(Qt.TextFormat.PlainText)
        self.ranking_edit = QLineEdit()
        self.ranking_edit.setAccessibleName("Ranking")
        self.ranking_edit.setPlaceholderText("Option numbers, best first (e.g. 2 1 3); - abstains")
        self.ranking_edit.returnPressed.connect(self.enter_ranking)
        rank_label = QLabel("&Ranking:")
        rank_label.setBuddy(self.ranking_edit)
        self.vote_error = QLabel()
        self.vote_error.setWordWrap(True)
        self.vote_error.setTextFormat(Qt.TextFormat.PlainText)
        self.vote_error.setStyleSheet("QLabel { color: #b71c1c; }")
        entry = QWidget()
        el = QVBoxLayout(entry)
        mrow = QHBoxLayout()
        mrow.addWidget(member_label)
        mrow.addWidget(self.member_combo, 1)
        el.addLayout(mrow)
        el.addWidget(self.vote_question)
        el.addWidget(self.vote_options)
        el.addWidget(rank_label)
        el.addWidget(self.ranking_edit)
        hint = QLabel("Type the member's whole ranking (option numbers, best first); "
                      "Enter records it and goes to the next member.")
        hint.setWordWrap(True)
        el.addWidget(hint)
        el.addWidget(self.vote_error)
        el.addStretch(1)
        self.addWidget(self.grid)
        self.addWidget(entry)
        self.setStretchFactor(0, 1)
        self.setSizes([640, 360])
        # what the grid and the member list show now (rebuilt only when it changes)
        self._listed_roll: tuple[tuple[str, str], ...] = ()
        self._grid_shape: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    # -- showing the ballot ---------------------------------------------------------------
    def show_ballot(self, ballot: Ballot) -> None:
        """The grid and the member list for ``ballot`` (rebuilt only when they change:
        re-creating every item per vote is slow, and on PySide6 costs a Python reference
        per destroyed item, which the soak test watches)."""
        self._fill_grid(ballot)
        library = self.ballots.library
        roll = [(m, member_label(ballot, library, m)) for m in ballot.roll]
        if tuple(roll) != self._listed_roll:
            self._listed_roll = tuple(roll)
            with QSignalBlocker(self.member_combo):
                member = self.member_combo.currentData()
                self.member_combo.clear()
                for m, label in roll:
                    self.member_combo.addItem(label, m)
                self.member_combo.setCurrentIndex(max(0, self.member_combo.findData(member)))

    def _fill_grid(self, ballot: Ballot) -> None:
        grid = self.grid
        shape = (tuple(q.id for q in ballot.questions), tuple(ballot.roll))
        library = self.ballots.library
        with QSignalBlocker(grid):
            if shape != self._grid_shape:
                self._grid_shape = shape
                grid.clear()
                grid.setRowCount(len(ballot.questions))
                grid.setColumnCount(len(ballot.roll))
                grid.setHorizontalHeaderLabels(list(ballot.roll))
                grid.setVerticalHeaderLabels([q.id for q in ballot.questions])
            votes = {(v.member, v.question): v for v in ballot.votes}
            for r, q in enumerate(ballot.questions):
                for c, m in enumerate(ballot.roll):
                    vote = votes.get((m, q.id))
                    ranking = vote.ranking if vote is not None else None
                    if ranking is None:
                        text = ""
                    elif not ranking:
                        text = "abstains"
                    else:  # the options' short names, best first: "10C > 10B"
                        text = " > ".join(short_option(o) for o in ranking)
                    tip = ""
                    if vote is not None and vote.proxy_by:
                        text += f" (proxy {vote.proxy_by})"
                        tip = f"Entered by {vote.proxy_by} on {m}'s behalf (proxy vote). "
                    elif vote is not None and not vote.signature:
                        text += " (unsigned)"
                    tip += " > ".join(option_label(library, o) for o in ranking or ())
                    set_cell(grid, r, c, text, plain_tip(tip), align=Qt.AlignmentFlag.AlignCenter)
            grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)

    def select(self, row: int, col: int) -> None:
        """Select the cell of question ``row``, member ``col`` (when it exists)."""
        if 0 <= row < self.grid.rowCount() and 0 <= col < self.grid.columnCount():
            self.grid.setCurrentCell(row, col)

    def follow_question(self, row: int) -> None:
        """The question list moved to ``row``: the grid follows."""
        if row >= 0 and self.grid.currentRow() != row:
            self.select(row, max(0, self.grid.currentColumn()))

    def _grid_cell(self, row: int, col: int, *_prev: int) -> None:
        if row < 0:
            return
        self.questionRowChanged.emit(row)
        if col >= 0 and self.member_combo.currentIndex() != col:
            with QSignalBlocker(self.member_combo):
                self.member_combo.setCurrentIndex(col)
        self.show_vote_question()

    def _member_changed(self, index: int) -> None:
        self.select(max(0, self.grid.currentRow()), index)
        self.show_vote_question()

    def show_vote_question(self) -> None:
        """The question, its options and the ranking of the member shown."""
        ballot = self.ballots.ballot
        qid = self._current_question()
        member = self.member_combo.currentData()
        if ballot is None or qid is None:
            return
        q = ballot.question(qid)
        library = self.ballots.library
        self.vote_question.setText(f"<b>{html.escape(q.id)}</b>: {html.escape(q.title or '')}")
        self.vote_options.setText("\n".join(f"{n}. {option_label(library, o)}"
                                            for n, o in enumerate(q.options, start=1)))
        ranking = self.ballots.ranking_of(member, qid)
        self.ranking_edit.setText("" if ranking is None else
                                  ("-" if not ranking else
                                   " ".join(str(q.options.index(o) + 1) for o in ranking)))
        self.ranking_edit.selectAll()

    def enter_ranking(self) -> bool:
        """Record the typed ranking for the member and question shown; go to the next."""
        self.last_error = ""
        qid = self._current_question()
        member = self.member_combo.currentData()
        if self.ballots.ballot is None or qid is None or member is None:
            return False
        try:
            self.ballots.cast(member, qid, self.ranking_edit.text())
        except BallotError as exc:
            self.vote_error.setText(str(exc))
            self.last_error = str(exc)
            return False
        self.vote_error.setText("")
        # the secretary goes through one question's paper ballots member by member:
        # Enter goes to the next member, and after the last to the next question
        row = max(0, self.grid.currentRow())
        col = self.member_combo.currentIndex() + 1
        if col >= self.member_combo.count():
            col = 0
            if row + 1 < self.grid.rowCount():
                row += 1
                self.questionRowChanged.emit(row)
        self.member_combo.setCurrentIndex(col)
        self.select(row, col)
        self.show_vote_question()
        self.ranking_edit.setFocus()
        return True
