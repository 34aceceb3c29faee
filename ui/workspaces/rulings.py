"""The Rulings workspace: a dispute (incident + facts, typed in or sent by the
board's record check), the rulings under the edition in force, how every
variant decides it, the case library, the dispute report, and where the rules in
force are silent (for the committee)."""
from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QFileDialog, QSplitter, QTabWidget, QVBoxLayout, QWidget

from rulesbook import Library
from rulesbook.rulings import Case, Comparison, RulingsError, RulingsRequest, Suggestions
from rulesbook.storage import SaveError

from ..controller import AppController
from ..dialogs import warn
from ..rulings.controller import RulingsController
from ..rulings.panel import (
    CaseBrowser,
    CompareTable,
    FactsForm,
    IncidentChooser,
    ReportPane,
    rulings_heading,
    rulings_html,
)
from ..rulings.report import save_report_html, save_report_pdf
from ..rulings.silences import SilencesController, SilencesView
from ..texts_banner import TextsBanner
from ..widgets import DocBrowser, route_link
from . import Workspace


class RulingsWorkspace(Workspace):
    id = "rulings"
    title = "Rulings"
    description = "Rulings for a dispute under the edition in force, compared, and reported"

    TAB_RULINGS, TAB_COMPARE, TAB_CASES, TAB_REPORT, TAB_SILENCES = range(5)

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.rulings = RulingsController(self)
        self.rulings.statusMessage.connect(controller.statusMessage)

        self.chooser = IncidentChooser()
        self.facts_form = FactsForm()
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.chooser)
        left.addWidget(self.facts_form)
        left.setSizes([260, 440])
        self.left = left

        self.rulings_view = DocBrowser()
        self.rulings_view.setAccessibleName("Rulings under the edition in force")
        self.rulings_view.internalLink.connect(lambda link: route_link(controller, link))
        self.compare_table = CompareTable()
        self.cases = CaseBrowser(self.rulings)
        self.report = ReportPane(self.rulings)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.rulings_view, "&Rulings")
        self.tabs.addTab(self.compare_table, "C&ompare")
        self.tabs.addTab(self.cases, "&Case library")
        self.tabs.addTab(self.report, "Re&port")
        self.silences = SilencesController(self)
        self.silences_view = SilencesView(self.silences)
        self.tabs.addTab(self.silences_view, "Where the rules are &silent")

        self.splitter = QSplitter()
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([360, 740])
        # a wider or narrower form wraps its questions into fewer or more lines
        self.splitter.splitterMoved.connect(lambda _pos, _i: self._fit_facts())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.texts_banner = TextsBanner(rulings=True, parent=self)
        layout.addWidget(self.texts_banner)
        layout.addWidget(self.splitter)

        # forward the user's input to the rulings controller
        self.chooser.chosen.connect(lambda inc: self.rulings.select_incident(inc))
        self.facts_form.factEdited.connect(self.rulings.set_fact)
        self.facts_form.clear_button.clicked.connect(lambda: self.rulings.clear_facts())
        self.cases.caseActivated.connect(self._case_chosen)
        self.report.saveRequested.connect(self.save_report)
        self.silences_view.incidentRequested.connect(self._silence_chosen)
        # display what it emits
        self.rulings.incidentChanged.connect(self._incident_changed)
        self.rulings.factsChanged.connect(self.facts_form.set_facts)
        self.rulings.resultsChanged.connect(self._results)
        controller.rulingsRequested.connect(self.on_rulings_requested)
        self.save_dialog = QFileDialog.getSaveFileName  # tests replace it
        self._draft: dict[str, object] | None = None

    # -- app hooks -------------------------------------------------------------
    def on_library(self, library: Library) -> None:
        self.texts_banner.show_mismatches(self.controller.text_mismatches,
                                          self.controller.edition_id)
        self.rulings.set_library(library)
        self.silences.set_library(library)
        if self.controller.edition_id:
            self.rulings.set_edition(self.controller.edition_id)
            self.silences.set_edition(self.controller.edition_id)
        self.chooser.set_incidents(self.rulings.incidents())
        self.cases.reload()
        if self._draft is not None:
            draft, self._draft = self._draft, None
            self.rulings.restore_draft(draft)
        if self.rulings.incident_id is None and self.chooser.list.count():
            self.chooser.list.setCurrentRow(0)
        elif self.rulings.incident_id:
            self._incident_changed(self.rulings.incident_id)
            self.facts_form.set_facts(self.rulings.facts)

    def on_edition(self, edition_id: str) -> None:
        self.texts_banner.show_mismatches(self.controller.text_mismatches, edition_id)
        self.rulings.set_edition(edition_id)
        self.silences.set_edition(edition_id)

    def on_rulings_requested(self, request: RulingsRequest) -> None:
        """The board (or anyone) asks for the rulings on a dispute: show them. The
        record travels in the request: the panel never reads the board."""
        self.controller.workspaceRequested.emit(self.id)
        if self.rulings.take_request(request):
            self.tabs.setCurrentIndex(self.TAB_RULINGS)

    # -- display -----------------------------------------------------------------
    def _incident_changed(self, incident_id: str) -> None:
        self.chooser.select(incident_id)
        self.facts_form.set_incident(self.rulings.incident)
        self.facts_form.set_facts(self.rulings.facts)
        QTimer.singleShot(0, self._fit_facts)  # once the new questions are laid out

    def _fit_facts(self) -> None:
        """The facts form as tall as its questions need (so none is scrolled to at
        1024x700), taken from the incident list down to six of its rows (issue 33)."""
        sizes = self.left.sizes()
        total = sum(sizes)
        if len(sizes) != 2 or total <= 0:
            return
        rows = self.chooser.list.sizeHintForRow(0) if self.chooser.list.count() else 16
        least = sizes[0] - self.chooser.list.height() + \
            6 * max(rows, 1) + 2 * self.chooser.list.frameWidth()
        need = self.facts_form.height_needed()
        facts = max(min(need, total - least), 80)
        if facts > 0 and facts != sizes[1]:
            self.left.setSizes([total - facts, facts])

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_facts()
        # and again once the splitters have laid out the new size: fitted before, the
        # form had its old width (a window made smaller left the last question
        # below the fold at 1024x700, issue 33)
        QTimer.singleShot(0, self._fit_facts)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        QTimer.singleShot(0, self._fit_facts)

    def _results(self, suggestions: Suggestions | None, comparison: Comparison | None) -> None:
        library = self.rulings.library
        if library is None:
            return
        self.rulings_view.set_page(rulings_html(suggestions, library, self.rulings.incident))
        # the view is named for the rules it shows them under (an English game: the
        # Standard Laws and the ACF guide, not the edition in force)
        self.rulings_view.setAccessibleName(
            f"Rulings \u2014 {rulings_heading(suggestions, library)}" if suggestions is not None
            else "Rulings under the edition in force")
        self.compare_table.set_comparison(comparison)

    def _silence_chosen(self, incident: str, facts: dict[str, object]) -> None:
        """A silence activated: the dispute with those facts, to see what the rulebooks say."""
        if self.rulings.select_incident(incident, facts):
            self.tabs.setCurrentIndex(self.TAB_COMPARE)

    def _case_chosen(self, case: Case) -> None:
        self.rulings.load_case(case)
        self.tabs.setCurrentIndex(self.TAB_RULINGS)

    # -- the report -----------------------------------------------------------------
    def save_report(self, kind: str, path: str | None = None) -> Path | None:
        if self.rulings.incident is None:
            return None
        if path is None:
            suffix = ".pdf" if kind == "pdf" else ".html"
            name = (self.rulings.fields["title"] or self.rulings.incident.title)
            name = "".join(c if c.isalnum() or c in "-_ " else "-" for c in name).strip()
            folder = self._settings_folder()
            filters = "PDF files (*.pdf)" if kind == "pdf" else "HTML files (*.html *.htm)"
            path, _ = self.save_dialog(self, "Save the dispute report",
                                       str(Path(folder) / (name.replace(" ", "_") + suffix)),
                                       filters)
            if not path:
                return None
        try:
            report = self.rulings.report_html()
            title = f"Dispute report: {self.rulings.fields['title'] or self.rulings.incident.title}"
            written = save_report_pdf(path, report, title) if kind == "pdf" else \
                save_report_html(path, report)
        except (SaveError, RulingsError, OSError) as exc:
            warn(self, "The report was not saved", str(exc))
            return None
        self._last_folder = str(Path(path).parent)
        self.controller.statusMessage.emit(f"Report saved: {written}")
        return written

    def _settings_folder(self) -> str:
        return getattr(self, "_last_folder", "") or str(Path.home())

    def export_document(self) -> tuple[str, str] | None:
        inc = self.rulings.incident
        if self.rulings.suggestions is None or self.rulings.library is None or inc is None:
            return None
        return (f"Rulings: {inc.title}",
                rulings_html(self.rulings.suggestions, self.rulings.library, inc))

    # -- state -------------------------------------------------------------------------
    def save_state(self, settings: QSettings) -> None:
        self.save_layout(settings, splitter=self.splitter, tab=self.tabs)
        settings.setValue(self.key("draft"), json.dumps(self.rulings.draft()))
        settings.setValue(self.key("folder"), self._settings_folder())

    def restore_state(self, settings: QSettings) -> None:
        self.restore_layout(settings, splitter=self.splitter, tab=self.tabs)
        folder = settings.value(self.key("folder"), "")
        if isinstance(folder, str) and folder:
            self._last_folder = folder
        raw = settings.value(self.key("draft"), "")
        try:
            draft = json.loads(raw) if isinstance(raw, str) and raw else None
        except ValueError:
            draft = None
        if isinstance(draft, dict):
            if self.rulings.library is not None:
                self.rulings.restore_draft(draft)
            else:
                self._draft = draft

    def focus_main(self) -> None:
        self.chooser.search.setFocus()
