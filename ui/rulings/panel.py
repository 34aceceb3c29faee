"""The widgets of the rulings panel. They display what the RulingsController
emits and forward the user's input to it; none of them holds dispute state."""
from __future__ import annotations

import html
from collections.abc import Iterable

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rulesbook import Library
from rulesbook.rulings import (
    OUTCOMES,
    Basis,
    CaseDifference,
    Comparison,
    Incident,
    Suggestions,
    condition_words,
    verdict_words,
)
from rulesbook.rulings.governing import guidance_words

from ..widgets import DocBrowser, FittedColumns, plain_label, plain_tip
from .controller import RulingsController, outcome_words
from .facts import UNKNOWN, FactsForm, choice_label  # noqa: F401 - imported from here
from .quotes import highlighted_html
from .report import diagram_resource, qt_html

ID_ROLE = Qt.ItemDataRole.UserRole + 1
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 2


def answer_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return choice_label(str(value))


# -- the incident chooser --------------------------------------------------------

class IncidentChooser(QWidget):
    """A search field over the incidents' plain-language titles and a list."""

    chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Find an incident (e.g. capture, touch, clock)")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Find an incident")
        self.list = QListWidget()
        self.list.setAccessibleName("Incidents")
        self.list.setWordWrap(True)
        label = QLabel("&Incident:")
        label.setBuddy(self.search)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(label)
        lay.addWidget(self.search)
        lay.addWidget(self.list, 1)
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self._first_visible)
        self.list.currentItemChanged.connect(self._current)

    def set_incidents(self, items: Iterable[Incident]) -> None:
        blocker = QSignalBlocker(self.list)
        self.list.clear()
        for incident in items:
            item = QListWidgetItem(incident.title)
            item.setData(ID_ROLE, incident.id)
            item.setToolTip(plain_tip(f"{incident.description}\n({incident.id})"))
            item.setData(SEARCH_ROLE, f"{incident.title} {incident.description} {incident.id}")
            self.list.addItem(item)
        del blocker
        self._filter(self.search.text())

    def _filter(self, text: str) -> None:
        words = text.lower().split()
        for i in range(self.list.count()):
            item = self.list.item(i)
            hay = str(item.data(SEARCH_ROLE) or item.text()).lower()
            item.setHidden(not all(w in hay for w in words))

    def _first_visible(self) -> None:
        for i in range(self.list.count()):
            if not self.list.item(i).isHidden():
                self.list.setCurrentRow(i)
                self.list.setFocus()
                return

    def _current(self, item: QListWidgetItem | None, _previous: QListWidgetItem | None) -> None:
        if item is not None:
            self.chosen.emit(item.data(ID_ROLE))

    def select(self, incident_id: str) -> None:
        for i in range(self.list.count()):
            item = self.list.item(i)
            if item.data(ID_ROLE) == incident_id:
                if self.list.currentRow() != i:
                    blocker = QSignalBlocker(self.list)
                    self.list.setCurrentRow(i)
                    del blocker
                item.setHidden(False)
                self.list.scrollToItem(item)
                return

    def current_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(ID_ROLE) if item is not None else None


# -- the rulings -------------------------------------------------------------------

def rulings_heading(suggestions: Suggestions, library: Library) -> str:
    """Which rules the rulings are under, the rulebooks that govern the game first:
    "Under the edition in force: Proposed Playing Rules (original text) (original)" for
    a pool game; "Under the Standard Laws and the ACF guide (English checkers); the
    edition in force, Proposed Playing Rules (original text), only as guidance" for an
    English one."""
    edition = library.edition(suggestions.edition)
    gov = suggestions.governance
    if gov is None or gov.edition_governs:
        return f"Under {edition.title}"
    if gov.rulebooks:
        names = " and ".join(library.rulebook(b).name for b in gov.rulebooks)
        return (f"Under {names} ({gov.variant_title}); the edition in force, "
                f"{edition.title}, only as guidance")
    return (f"No rulebook governs {gov.variant_title}: every ruling is guidance; the "
            f"edition in force is {edition.title}")


def rulings_html(suggestions: Suggestions | None, library: Library,
                 incident: Incident | None = None) -> str:
    """The rulings under the edition in force, most specific first, each with its
    outcome in large plain words, the rule to show the players, the facts that
    matched, then the questions still open. Every data text is escaped."""
    esc = html.escape
    if suggestions is None:
        return "<p>Choose an incident on the left, or check a record on the board.</p>"
    gov = suggestions.governance
    parts = []
    if gov is not None:
        # which rulebooks govern the game's variant, first (issue 31)
        parts.append(f"<p><b>{esc(gov.sentence)}</b></p>")
    parts.append(f"<p class='muted'>{esc(rulings_heading(suggestions, library))}</p>")
    if not suggestions.binding:
        parts.append("<p><b>No rule of the rulebooks that govern this game addresses this "
                     "dispute.</b> Guidance from other rulebooks:</p>")
    if not suggestions.rulings:
        parts.append("<h2>No ruling applies to these facts.</h2>")
    if suggestions.rulings and suggestions.best is None:
        parts.append("<p><b>Not decided yet:</b> answer the open questions below.</p>")
    for i, r in enumerate(suggestions.rulings):
        size = "xx-large" if i == 0 and r.applies else "x-large"
        head = outcome_words(r)
        if not r.applies:
            conds = "; ".join(condition_words(r, incident, f) for f in r.unknown_facts)
            parts.append(f"<p style='margin-top:14px; margin-bottom:0'><b>Only if</b> "
                         f"{esc(conds)}</p>")
        said = guidance_words(library, gov, r.rulebook, r.in_force)
        if said:
            # another rulebook's ruling is never shown as this game's ruling: said first
            parts.append(f"<p style='margin-top:14px; margin-bottom:0'><b>"
                         f"{esc(said[:1].upper() + said[1:])}.</b></p>")
        # the rule beside its verdict: the referee reads out both
        parts.append(f"<p style='font-size:{size}; font-weight:bold; margin-top:14px'>"
                     f"{esc(head)} <span class='muted'>\u2014 {esc(r.ref)}</span></p>")
        if not r.in_force:
            where = "guidance from another rulebook"
        elif gov is not None and not gov.edition_governs:
            where = "governs this game"
        else:
            where = "in force"
        rule = r.rule if r.rule and r.rule != r.ref else ""
        ref_link = f"<a href='rule:{esc(r.ref, quote=True)}'>{esc(r.ref)}</a>"
        parts.append(f"<p><b>{ref_link} {esc(r.title)}</b> "
                     f"<span class='muted'>({esc(where)}"
                     f"{', stands for ' + esc(rule) if rule else ''})</span></p>")
        if r.summary:
            parts.append(f"<p>{esc(r.summary)}</p>")
        if r.basis is Basis.INFERRED:
            parts.append(f"<p><b>Inferred, not in the words of the rule:</b> "
                         f"{esc(r.note)}</p>")
        elif r.suggestion:
            parts.append(f"<p><b>A suggestion of the guide's author, not a rule:</b> "
                         f"{esc(r.note)}</p>")
        text = highlighted_html(r.text, r.quotes)
        parts.append(f"<blockquote style='margin-left:18px'><i>{text}</i></blockquote>")
        if r.quotes:
            parts.append("<p class='muted'>The words that decide are highlighted.</p>")
        if r.matched_facts:
            matched = "; ".join(f"{esc(_question(incident, k))} <b>{esc(answer_text(v))}</b>"
                                for k, v in r.matched_facts.items())
            parts.append(f"<p class='muted'>Facts that matched: {matched}</p>")
    if suggestions.questions:
        parts.append("<h3>Questions still open that would change the answer</h3><ul>")
        for fact in suggestions.questions:
            parts.append(f"<li>{esc(fact.question)} <span class='muted'>"
                         f"({esc(fact.accepted)})</span></li>")
        parts.append("</ul>")
    return "\n".join(parts)


def _outcome(outcome: str | None) -> str:
    """An outcome of a case in plain words; \"undecided\" when no ruling decides it."""
    return OUTCOMES.get(outcome, outcome) if outcome else "undecided"


def _question(incident: Incident | None, fact_id: str) -> str:
    if incident is None:
        return fact_id
    try:
        return incident.fact(fact_id).question
    except Exception:  # noqa: BLE001 - unknown fact: show its id
        return fact_id


# -- compare ---------------------------------------------------------------------------

DIFFERS_BG = QColor("#ffe0b2")
DIFFERS_FG = QColor("#212121")


class CompareTable(QTableWidget):
    """Every variant's decision side by side; rows that differ from the original
    rules are highlighted and marked "differs"."""

    COLUMNS = ("Variant", "Decision", "Against the original")

    def __init__(self, parent: QWidget | None = None):
        super().__init__(0, len(self.COLUMNS), parent)
        self.setHorizontalHeaderLabels(self.COLUMNS)
        self.setAccessibleName("How every variant decides this case")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setWordWrap(True)
        self.verticalHeader().setVisible(False)
        self.fitted = FittedColumns(self, (4, 5, 3))
        self.comparison: Comparison | None = None

    def set_comparison(self, comparison: Comparison | None) -> None:
        self.comparison = comparison
        verdicts = comparison.verdicts if comparison is not None else ()
        baseline = (comparison.baseline if comparison is not None else None) or ""
        self.setRowCount(len(verdicts))
        bold = QFont(self.font())
        bold.setBold(True)
        for row, v in enumerate(verdicts):
            decision = verdict_words(v)
            mark = {True: "DIFFERS", False: "same", None: ""}[v.differs]
            if v.ref == baseline:
                mark = "the original"
            cells = (v.label, decision, mark)
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(ID_ROLE, v.ref)
                item.setToolTip(plain_tip(v.summary or text))
                if v.differs:
                    item.setBackground(QBrush(DIFFERS_BG))
                    item.setForeground(QBrush(DIFFERS_FG))
                    item.setFont(bold)
                self.setItem(row, col, item)
        self.resizeRowsToContents()

    def row_of(self, ref: str) -> int:
        for row in range(self.rowCount()):
            item = self.item(row, 0)
            if item is not None and item.data(ID_ROLE) == ref:
                return row
        return -1


# -- the case library ---------------------------------------------------------------------

class CaseBrowser(QWidget):
    """The case library: every case, or for a proposal the cases it decides
    differently from the original; activating one takes it as the dispute."""

    caseActivated = Signal(object)

    def __init__(self, controller: RulingsController, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.filter = QComboBox()
        self.filter.setAccessibleName("Cases to show")
        self.filter.currentIndexChanged.connect(self.refresh)
        label = QLabel("Sho&w:")
        label.setBuddy(self.filter)
        self.list = QListWidget()
        self.list.setAccessibleName("Cases")
        self.list.setWordWrap(True)
        self.list.itemActivated.connect(self._activated)
        self.open_button = QPushButton("&Use this case")
        self.open_button.clicked.connect(
            lambda: self._activated(self.list.currentItem()))
        self.summary = plain_label()
        top = QHBoxLayout()
        top.addWidget(label)
        top.addWidget(self.filter, 1)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.summary)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignRight)

    def reload(self) -> None:
        blocker = QSignalBlocker(self.filter)
        current = self.filter.currentData()
        self.filter.clear()
        self.filter.addItem("Every case", "")
        for ref, label in self.controller.proposals_with_rulings():
            self.filter.addItem(f"Cases {label} decides differently", ref)
        row = self.filter.findData(current) if current else 0
        self.filter.setCurrentIndex(max(row, 0))
        del blocker
        self.refresh()

    def show_proposal(self, ref: str) -> None:
        row = self.filter.findData(ref)
        if row >= 0:
            self.filter.setCurrentIndex(row)

    def refresh(self, *_args: object) -> None:
        proposal = self.filter.currentData() or None
        self.list.clear()
        items = self.controller.cases(proposal)
        for entry in items:
            case = entry.case if isinstance(entry, CaseDifference) else entry
            text = case.title
            if isinstance(entry, CaseDifference):
                text += (f"\n    original ({entry.original_ref}): {_outcome(entry.original)}"
                         f"\n    {entry.proposal}: {_outcome(entry.proposed)}")
            item = QListWidgetItem(text)
            item.setData(ID_ROLE, case)
            item.setToolTip(plain_tip(case.description or case.title))
            self.list.addItem(item)
        if proposal:
            self.summary.setText(f"{len(items)} case(s) that {proposal} decides differently "
                                 "from the original rules.")
        else:
            self.summary.setText(f"{len(items)} cases in the library. Choose a proposal to see "
                                 "the cases it would decide differently.")

    def _activated(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            self.caseActivated.emit(item.data(ID_ROLE))


# -- the report ---------------------------------------------------------------------------

class ReportPreview(DocBrowser):
    """The report as it will print; the diagram comes from a rendered image."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.image: QImage | None = None

    def show_report(self, report: str) -> None:
        body, self.image = qt_html(report)
        self.set_page(body)

    def loadResource(self, type_: int, name: QUrl | str) -> QImage | None:  # noqa: N802 - Qt API
        return diagram_resource(self.image, name)


FIELD_LABELS = {
    "title": "&Title", "event": "Eve&nt", "round": "Ro&und", "date": "Date", "black": "&Black (red men)",
    "white": "&White", "description": "What happened", "fen": "Start position (FEN)",
    "moves": "&Moves", "disputed_ply": "Disputed move (pl&y)",
    "decision": "Referee's &decision", "notes": "Notes",
}
MULTILINE = ("description", "moves", "decision", "notes")


class ReportPane(QWidget):
    """The referee's fields (saved into the controller as they are typed), a preview
    refreshed shortly after each change, and Save HTML / Save PDF."""

    saveRequested = Signal(str)  # "html" | "pdf"

    def __init__(self, controller: RulingsController, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.editors: dict[str, QPlainTextEdit | QLineEdit] = {}
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        for name, label_text in FIELD_LABELS.items():
            editor: QPlainTextEdit | QLineEdit
            if name in MULTILINE:
                box = editor = QPlainTextEdit()
                box.setTabChangesFocus(True)
                box.setFixedHeight(box.fontMetrics().lineSpacing() * 3 + 14)
                box.textChanged.connect(
                    lambda n=name, e=box: self.controller.set_field(n, e.toPlainText()))
            else:
                line = editor = QLineEdit()
                line.textEdited.connect(lambda text, n=name: self.controller.set_field(n, text))
            editor.setObjectName(f"report-{name}")
            editor.setAccessibleName(label_text.replace("&", ""))
            label = QLabel(label_text)
            label.setBuddy(editor)
            form.addRow(label, editor)
            self.editors[name] = editor
        fields = QWidget()
        outer = QVBoxLayout(fields)
        outer.addLayout(form)
        outer.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(fields)
        self.fields_scroll = scroll
        self.preview = ReportPreview()
        self.preview.setAccessibleName("Report preview")
        self.preview.internalLink.connect(lambda _l: None)
        self.save_html_button = QPushButton("Export as HTM&L…")
        self.save_pdf_button = QPushButton("E&xport as PDF…")
        self.save_html_button.clicked.connect(lambda: self.saveRequested.emit("html"))
        self.save_pdf_button.clicked.connect(lambda: self.saveRequested.emit("pdf"))
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.save_html_button)
        buttons.addWidget(self.save_pdf_button)
        right = QWidget()
        rlay = QVBoxLayout(right)
        rlay.setContentsMargins(0, 0, 0, 0)
        rlay.addLayout(buttons)
        # on a line of its own: beside the buttons the preview was too wide for the
        # fields at a larger font (issue 33)
        rlay.addWidget(QLabel("Preview:"))
        rlay.addWidget(self.preview, 1)
        self.splitter = QSplitter()
        self.splitter.addWidget(scroll)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([340, 560])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.splitter)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(300)
        self.timer.timeout.connect(self.refresh_preview)
        controller.fieldsChanged.connect(self._fields_changed)
        controller.resultsChanged.connect(lambda *_a: self.schedule())
        self.report = ""

    def _fields_changed(self) -> None:
        for name, editor in self.editors.items():
            value = self.controller.fields[name]
            if isinstance(editor, QPlainTextEdit):
                if editor.toPlainText() != value:
                    blocker = QSignalBlocker(editor)
                    editor.setPlainText(value)
                    del blocker
            elif editor.text() != value:
                editor.setText(value)
        self.schedule()

    def schedule(self) -> None:
        if self.isVisible():
            self.timer.start()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        """The fields never narrower than they need: the preview gives way (issue 33:
        they scrolled sideways at a larger font)."""
        super().resizeEvent(event)
        QTimer.singleShot(0, self._fit_fields)

    def _fit_fields(self) -> None:
        inner = self.fields_scroll.widget()
        sizes = self.splitter.sizes()
        if inner is None or len(sizes) != 2:
            return
        need = inner.minimumSizeHint().width() + \
            self.fields_scroll.verticalScrollBar().sizeHint().width() + 4
        if 0 < sizes[0] < need < sum(sizes) - 120:
            self.splitter.setSizes([need, sum(sizes) - need])

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        QTimer.singleShot(0, self._fit_fields)
        self.refresh_preview()

    def refresh_preview(self) -> None:
        self.timer.stop()
        if self.controller.incident is None:
            self.report = ""
            self.preview.set_page("<p>Choose an incident first.</p>")
            return
        self.report = self.controller.report_html()
        self.preview.show_report(self.report)
