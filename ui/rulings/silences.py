"""Where the rules are silent: the committee's list of what the next amendments should
settle (combinations of facts no rule in force decides, and conflicts between rules in
force), and which of them an open proposal would fill.

The SilencesController owns the state (library, edition, chosen proposal) and emits
what it computed; the SilencesView displays it and forwards the user's choices."""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rulesbook import Library
from rulesbook.rulings import OUTCOMES, RulingsError, get_incident
from rulesbook.rulings.silences import (
    CONFLICT_WORDS,
    Fill,
    Silence,
    conflict_scope,
    fills,
    open_proposals,
    silences,
)

from ..widgets import FittedColumns, plain_tip
from .panel import answer_text

ROW_ROLE = Qt.ItemDataRole.UserRole + 2
FILLED_BG = QColor("#c8e6c9")
CONFLICT_BG = QColor("#ffcdd2")
DARK_FG = QColor("#212121")


def facts_short(silence: Silence) -> str:
    """The facts of a silence in a few words: ``discovered: after game; repeated: no``."""
    if not silence.facts:
        return "Whatever the facts"
    return "; ".join(f"{k.replace('_', ' ')}: {answer_text(v)}" for k, v in silence.facts.items())


def facts_words(library: Library, silence: Silence) -> str:
    """The facts of a silence as the referee's questions and answers."""
    if not silence.facts:
        return "Whatever the facts"
    try:
        incident = get_incident(library, silence.incident)
    except RulingsError:
        incident = None
    parts = []
    for fact_id, value in silence.facts.items():
        question = fact_id.replace("_", " ")
        if incident is not None and fact_id in incident.fact_ids:
            question = incident.fact(fact_id).question.rstrip("?")
        parts.append(f"{question}: {answer_text(value)}")
    return "; ".join(parts)


class SilencesController(QObject):
    """The silences of the edition in force, and the fills of the chosen proposal.

    Signals:
      silencesChanged(object)   tuple[Silence, ...] for the edition
      fillsChanged(str, object) (proposal ref or "", tuple[Fill, ...])
    """

    silencesChanged = Signal(object)
    fillsChanged = Signal(str, object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.library: Library | None = None
        self.edition: str | None = None
        self.proposal = ""
        self.silences: tuple[Silence, ...] = ()
        self.fills: tuple[Fill, ...] = ()

    def set_library(self, library: Library | None) -> None:
        self.library = library
        self.edition = library.edition().id if library is not None and library.editions else None
        self.proposal = ""
        self._recompute()

    def set_edition(self, edition_id: str | None) -> None:
        if edition_id != self.edition:
            self.edition = edition_id
            self._recompute()

    def proposals(self) -> tuple[str, ...]:
        if self.library is None or self.edition is None:
            return ()
        return open_proposals(self.library, self.edition)

    def choose_proposal(self, ref: str) -> None:
        self.proposal = ref or ""
        self._fills()

    def _recompute(self) -> None:
        if self.library is None or self.edition is None:
            self.silences = ()
        else:
            self.silences = silences(self.library, self.edition)
        self.silencesChanged.emit(self.silences)
        self._fills()

    def _fills(self) -> None:
        if self.library is None or not self.proposal:
            self.fills = ()
        else:
            self.fills = fills(self.library, self.proposal, self.edition)
        self.fillsChanged.emit(self.proposal, self.fills)


class SilencesView(QWidget):
    """The table of silences and conflicts; a proposal chooser marks the rows it fills.
    Activating a row asks for that incident with those facts (``incidentRequested``)."""

    COLUMNS = ("Dispute", "Facts", "Rules considered", "Status")
    incidentRequested = Signal(str, dict)

    def __init__(self, controller: SilencesController, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.proposal = QComboBox()
        self.proposal.setAccessibleName("Which silences would a proposal fill?")
        label = QLabel("&Which silences would a proposal fill?")
        label.setBuddy(self.proposal)
        row = QHBoxLayout()
        row.addWidget(label)
        row.addWidget(self.proposal, 1)
        self.fill_summary = QLabel()
        self.fill_summary.setTextFormat(Qt.TextFormat.PlainText)
        self.fill_summary.setWordWrap(True)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.setAccessibleName("Where the rules are silent")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        self.table.verticalHeader().setVisible(False)
        self.fitted = FittedColumns(self.table, (3, 4, 3, 2))
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(row)
        layout.addWidget(self.fill_summary)
        layout.addWidget(self.table, 1)
        self.proposal.activated.connect(self._proposal_chosen)
        self.table.itemActivated.connect(self._activated)
        controller.silencesChanged.connect(self.show_silences)
        controller.fillsChanged.connect(self.show_fills)

    # -- display -------------------------------------------------------------------
    def show_silences(self, found: Sequence[Silence]) -> None:
        library = self.controller.library
        if library is None:
            return
        gaps = sum(1 for s in found if not s.conflict)
        clashes = len(found) - gaps
        edition = self.controller.edition or ""
        self.heading.setText(
            f"Where the rules are silent - edition {edition}: {gaps} combination(s) of facts "
            f"no rule in force decides, {clashes} conflict(s): rules that decide the same "
            f"facts differently (in force, a general rule against a specific remedy, "
            f"proposals if adopted, or the rules of the rulebooks that govern another "
            f"variant, such as English checkers). This is what the next amendments should "
            f"settle.")
        self.proposal.clear()
        self.proposal.addItem("(choose a proposal)", "")
        for ref in self.controller.proposals():
            self.proposal.addItem(ref, ref)
        self.table.setRowCount(len(found))
        titles = {}
        for row, s in enumerate(found):
            if s.incident not in titles:
                try:
                    titles[s.incident] = get_incident(library, s.incident).title
                except RulingsError:
                    titles[s.incident] = s.incident
            considered = ", ".join(s.rules_considered) or "none addresses it"
            if s.conflict:
                kind = CONFLICT_WORDS[s.kind] if s.kind is not None else ""
                also = (f" (also {_incident_title(library, s.other_incident)})"
                        if s.other_incident else "")
                scope = conflict_scope(library, s)
                kind += f", {scope}" if scope else ""
                status = f"CONFLICT{also}, {kind}: " + "; ".join(
                    f"{ref} {OUTCOMES.get(out, out)}" for ref, out in s.decisions.items())
                # both sides' words, for the tooltip
                tip = status + "\n" + "\n".join(f"{ref}: \u201c{words}\u201d"
                                                 for ref, words in s.quotes.items())
            else:
                status = "silent" + (f" (only the general rule {', '.join(s.general)} decides)"
                                     if s.general else "")
                tip = status
            cells = (titles[s.incident], facts_short(s), considered, status)
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(ROW_ROLE, row)
                item.setToolTip(plain_tip(facts_words(library, s) if col == 1 else
                                          tip if col == 3 else text))
                if s.conflict:
                    item.setBackground(QBrush(CONFLICT_BG))
                    item.setForeground(QBrush(DARK_FG))
                self.table.setItem(row, col, item)
        self.table.resizeRowsToContents()

    def show_fills(self, proposal: str, found: Sequence[Fill]) -> None:
        index = self.proposal.findData(proposal)
        if index >= 0:
            self.proposal.setCurrentIndex(index)
        bold = QFont(self.table.font())
        bold.setBold(True)
        for row, s in enumerate(self.controller.silences):
            fill = next((f for f in found if not s.conflict and f.silence.incident == s.incident
                         and f.silence.facts == s.facts), None)
            status = self.table.item(row, 3)
            if status is None:
                continue
            base = status.text().split("  ->  ")[0]
            if fill is not None:
                words = ", ".join(OUTCOMES.get(o, o) for o in fill.outcomes)
                status.setText(f"{base}  ->  {proposal}{' partly' if fill.partly else ''}: "
                               f"{words}")
            else:
                status.setText(base)
            for col in range(self.table.columnCount()):
                item = self.table.item(row, col)
                if item is None:
                    continue
                if fill is not None:
                    item.setBackground(QBrush(FILLED_BG))
                    item.setForeground(QBrush(DARK_FG))
                    item.setFont(bold)
                elif not s.conflict:
                    item.setBackground(QBrush())
                    item.setForeground(QBrush())
                    item.setFont(self.table.font())
        if not proposal:
            self.fill_summary.setText("")
        elif found:
            self.fill_summary.setText(f"{proposal} would settle {len(found)} of these "
                                      f"silence(s) (highlighted).")
        else:
            self.fill_summary.setText(f"{proposal} settles none of these silences.")
        self.table.resizeRowsToContents()

    # -- input ----------------------------------------------------------------------
    def _proposal_chosen(self, index: int) -> None:
        self.controller.choose_proposal(self.proposal.itemData(index) or "")

    def _activated(self, item: QTableWidgetItem) -> None:
        row = item.data(ROW_ROLE)
        if row is None or not 0 <= row < len(self.controller.silences):
            return
        s = self.controller.silences[row]
        self.incidentRequested.emit(s.incident, dict(s.facts))


def _incident_title(library: Library, incident: str) -> str:
    """An incident as a referee reads it: its title (its id when it has none)."""
    try:
        return get_incident(library, incident).title
    except RulingsError:
        return incident
