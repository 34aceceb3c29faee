"""The Ballots workspace: the committee's ballot — questions and option texts,
recording votes (typed rankings, members' files), the live tally under any
method with a chart, closing and sealing, verifying, adopting the next edition."""
from __future__ import annotations

import html
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSettings, Qt
from PySide6.QtGui import QBrush, QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from rulesbook.ballots import METHODS, BallotError
from rulesbook.storage import SaveError
from rulesbook.textio import visible_controls

from ..ballots.chart import TallyChart
from ..ballots.controller import BallotConflict, BallotController
from ..ballots.keypanel import KeyPanel
from ..ballots.ranking import METHOD_LABELS
from ..ballots.views import (
    option_label,
    question_html,
    result_html,
    seal_warnings,
    settings_text,
    short_option,
)
from ..dialogs import SAVE_DISCARD_CANCEL, YES_NO, Choice, Icon, Role, ask, ask_text, message_box
from ..widgets import DocBrowser, plain_tip, set_cell
from . import Workspace

QID_ROLE = Qt.ItemDataRole.UserRole + 1

ADOPTED_BG = QBrush(QColor("#c8e6c9"))
ADOPTED_FG = QBrush(QColor("#1b5e20"))


@contextmanager
def blocked(obj: QObject):
    """Signals of ``obj`` blocked for the block (the previous state restored)."""
    before = obj.blockSignals(True)
    try:
        yield obj
    finally:
        obj.blockSignals(before)
OK_STYLE = "QLabel { background: #c8e6c9; color: #1b5e20; padding: 6px; font-weight: bold; }"
BAD_STYLE = "QLabel { background: #ffcdd2; color: #b71c1c; padding: 6px; font-weight: bold; }"


class _CloseGuard(QObject):
    """Asks before the main window closes while the ballot has unsaved votes."""

    def __init__(self, workspace: BallotsWorkspace):
        super().__init__(workspace)
        self.workspace = workspace

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Close and not self.workspace.may_discard():
            event.ignore()
            return True
        return False


class BallotsWorkspace(Workspace):
    id = "ballots"
    title = "Ballots"
    description = "The committee's ballot: votes, live tally, seal, verify, adopt"

    TAB_QUESTIONS, TAB_VOTES, TAB_TALLY = range(3)

    def __init__(self, controller, parent: QWidget | None = None):
        super().__init__(controller, parent)
        self.ballots = bc = BallotController(controller, self)
        bc.statusMessage.connect(controller.statusMessage)
        #: asked before unsaved votes are lost: returns "save", "discard" or "cancel"
        self.ask_unsaved = self._ask_unsaved
        #: asked when the file changed on disk before a save: (BallotConflict) ->
        #: "reload" (re-apply my changes on it), "overwrite" or "cancel"
        self.ask_conflict = self._ask_conflict
        self.open_dialog = QFileDialog.getOpenFileName  # tests replace these
        self.save_dialog = QFileDialog.getSaveFileName
        self.ask_text = ask_text
        #: asks for the new edition: (id, title, date) or None (tests replace it)
        self.ask_adoption = self._ask_adoption
        self.last_error = ""
        self.last_recovery_notice = ""

        # -- the action row -------------------------------------------------------
        self.open_button = QPushButton("&Open…")
        self.new_button = QPushButton("&New from Library…")
        self.save_button = QPushButton("&Save")
        self.import_button = QPushButton("Import Member &Ballot…")
        self.export_button = QPushButton("E&xport My Votes…")
        self.export_button.setToolTip("Save your own votes, signed with your key, to send "
                                      "to the secretary")
        self.seal_button = QPushButton("C&lose and Seal…")
        self.verify_button = QPushButton("Ver&ify the Seal")
        self.adopt_button = QPushButton("&Adopt…")
        self.save_button.setToolTip("Save the votes (Ctrl+S)")
        self.seal_button.setToolTip("Count with the chosen method, close the ballot and seal it")
        self.verify_button.setToolTip("Check the seal of the file on disk")
        self.adopt_button.setToolTip("Write the next edition of the rules from the sealed ballot")
        self.receipt_edit = QLineEdit()
        self.receipt_edit.setAccessibleName("Receipt code")
        self.receipt_edit.setPlaceholderText("receipt code")
        self.receipt_edit.setMaximumWidth(190)
        self.receipt_button = QPushButton("Check Recei&pt")
        self.receipt_button.setToolTip("Is the vote of this receipt in the sealed ballot, "
                                       "unchanged?")
        row = QToolBar("Ballot")
        row.setAccessibleName("Ballot actions")
        for b in (self.open_button, self.new_button, self.save_button, self.import_button,
                  self.export_button):
            row.addWidget(b)
        row.addSeparator()
        for b in (self.seal_button, self.verify_button, self.adopt_button):
            row.addWidget(b)
        row.addSeparator()
        row.addWidget(self.receipt_edit)
        row.addWidget(self.receipt_button)
        self.key_panel = KeyPanel(bc.keys)
        self.info = QLabel("No ballot open.")
        self.info.setWordWrap(True)
        self.info.setTextFormat(Qt.TextFormat.PlainText)
        self.info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setTextFormat(Qt.TextFormat.PlainText)
        self.banner.setVisible(False)
        # unsaved changes of an earlier session: Restore / Discard (or a notice and OK)
        self.recovery_banner = QFrame()
        self.recovery_banner.setObjectName("ballot-recovery-banner")
        self.recovery_banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.recovery_label = QLabel()
        self.recovery_label.setWordWrap(True)
        self.recovery_label.setTextFormat(Qt.TextFormat.PlainText)
        self.recovery_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.restore_button = QPushButton("Restore Unsave&d Votes")
        self.discard_recovery_button = QPushButton("Discard Them")
        self.recovery_ok_button = QPushButton("OK")
        rbl = QHBoxLayout(self.recovery_banner)
        rbl.setContentsMargins(6, 2, 6, 2)
        rbl.addWidget(self.recovery_label, 1)
        for b in (self.restore_button, self.discard_recovery_button, self.recovery_ok_button):
            rbl.addWidget(b)
        self.restore_button.clicked.connect(lambda: self.restore_recovery())
        self.discard_recovery_button.clicked.connect(lambda: self.discard_recovery())
        self.recovery_ok_button.clicked.connect(lambda: self.recovery_banner.hide())
        self.recovery_banner.setVisible(False)
        self._offering = False

        # -- questions -------------------------------------------------------------------
        self.question_list = QListWidget()
        self.question_list.setAccessibleName("Questions")
        self.question_list.currentRowChanged.connect(self._question_row)
        self.diff_box = QCheckBox("Show changes against the ori&ginal")
        self.diff_box.toggled.connect(lambda _on: self._show_question())
        self.options_view = DocBrowser()
        self.options_view.setAccessibleName("Options")
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.diff_box)
        rl.addWidget(self.options_view, 1)
        self.q_split = QSplitter()
        self.q_split.addWidget(self.question_list)
        self.q_split.addWidget(right)
        self.q_split.setStretchFactor(1, 1)
        self.q_split.setSizes([300, 700])

        # -- votes -------------------------------------------------------------------------
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
        self.v_split = QSplitter()
        self.v_split.addWidget(self.grid)
        self.v_split.addWidget(entry)
        self.v_split.setStretchFactor(0, 1)
        self.v_split.setSizes([640, 360])

        # -- tally ---------------------------------------------------------------------------
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
        self.results_table = QTableWidget(0, 3)
        self.results_table.setHorizontalHeaderLabels(["Question", "Result", "Votes"])
        self.results_table.setAccessibleName("Results")
        self.results_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.results_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.results_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.results_table.verticalHeader().setVisible(False)
        header = self.results_table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.results_table.currentCellChanged.connect(lambda r, *_a: self._show_result(r))
        self.working = DocBrowser()
        self.working.setAccessibleName("The count's working")
        self.chart = TallyChart()
        detail = QWidget()
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.chart)
        dl.addWidget(self.working, 1)
        t_split = QSplitter()
        t_split.addWidget(self.results_table)
        t_split.addWidget(detail)
        t_split.setStretchFactor(1, 1)
        t_split.setSizes([430, 570])
        self.t_split = t_split
        tally_page = QWidget()
        tl = QVBoxLayout(tally_page)
        tl.addLayout(trow)
        tl.addWidget(t_split, 1)

        self.tabs = QTabWidget()
        self.tabs.addTab(self.q_split, "&Questions")
        self.tabs.addTab(self.v_split, "Vo&tes")
        self.tabs.addTab(tally_page, "Tall&y")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(row)
        layout.addWidget(self.key_panel)
        layout.addWidget(self.info)
        layout.addWidget(self.banner)
        layout.addWidget(self.recovery_banner)
        layout.addWidget(self.tabs, 1)

        self.open_button.clicked.connect(lambda: self.open_ballot())
        self.new_button.clicked.connect(lambda: self.new_ballot())
        self.save_button.clicked.connect(lambda: self.save())
        self.import_button.clicked.connect(lambda: self.import_member())
        self.seal_button.clicked.connect(lambda: self.close_and_seal())
        self.verify_button.clicked.connect(lambda: self.verify())
        self.adopt_button.clicked.connect(lambda: self.adopt())
        self.receipt_button.clicked.connect(lambda: self.check_receipt())
        self.export_button.clicked.connect(lambda: self.export_votes())
        self.receipt_edit.returnPressed.connect(lambda: self.check_receipt())
        save_shortcut = QShortcut(QKeySequence.StandardKey.Save, self)
        save_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        save_shortcut.activated.connect(lambda: self.save())

        # what the lists and the grid show now (rebuilt only when it changes)
        self._listed_questions: tuple = ()
        self._listed_roll: tuple = ()
        self._grid_shape: tuple = ()
        bc.ballotChanged.connect(self._ballot_changed)
        bc.dirtyChanged.connect(lambda _d: self._update_info())
        bc.tallyChanged.connect(self._tally_changed)
        bc.verified.connect(self._verified)
        bc.recoveryFound.connect(self._recovery_found)
        bc.recoveryNotice.connect(self._recovery_notice)
        self._guard: _CloseGuard | None = None
        self._shown_question: str | None = None
        self._enable()

    # -- app hooks ---------------------------------------------------------------
    def on_library(self, library) -> None:
        self._install_guard()
        self.key_panel.set_members([(m.id, m.name) for m in library.members
                                    if m.id != "unknown"])
        if self.ballots.ballot is None:
            files = self.ballots.library_ballots()
            if files:
                try:
                    self.ballots.open(files[0])
                except BallotError as exc:
                    self._error("The ballot cannot be read", exc)
            if self.ballots.ballot is None:
                self.ballots.check_recovery()  # e.g. a new ballot never saved
        else:
            self._ballot_changed(self.ballots.ballot)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self._install_guard()

    def _install_guard(self) -> None:
        window = self.window()
        if self._guard is None and window is not self:
            self._guard = _CloseGuard(self)
            window.installEventFilter(self._guard)

    # -- unsaved votes --------------------------------------------------------------
    def _ask_unsaved(self) -> str:
        return ask(self, "Unsaved votes",
                   f"The ballot {self.ballots.ballot.id} has votes that are not saved. "
                   "Save them?", SAVE_DISCARD_CANCEL, icon=Icon.Warning, default="save")

    def may_discard(self) -> bool:
        """True when nothing unsaved would be lost (after asking, and saving if wanted)."""
        if not self.ballots.dirty:
            return True
        answer = self.ask_unsaved()
        if answer == "save":
            return self.save() is not None
        if answer == "discard":
            self.ballots.discard_changes()
            return True
        return False

    def _ask_conflict(self, conflict: BallotConflict) -> str:
        return ask(
            self, "The ballot changed on disk",
            "The ballot file changed on disk since you opened it.",
            (Choice("reload", "&Reload and Re-apply My Votes", Role.AcceptRole),
             Choice("overwrite", "&Overwrite", Role.DestructiveRole),
             Choice("cancel", "&Cancel", Role.RejectRole)),
            icon=Icon.Warning, default="reload",
            informative=f"{conflict}.\n\nReload it and re-apply your unsaved changes (a vote "
                        "recorded meanwhile for the same member and question is replaced by "
                        "yours and kept in the history), or overwrite the file with your "
                        "version (the version on disk is kept as a backup ending in ~)?")

    def _with_conflicts(self, action, title: str):
        """Run ``action(overwrite)`` (a write); when the file changed on disk, ask, then
        re-apply the changes on the file as it is now, or overwrite, or give up."""
        overwrite = False
        notes: list[str] = []
        for _ in range(5):
            try:
                result = action(overwrite)
            except BallotConflict as exc:
                answer = self.ask_conflict(exc)
                if answer == "overwrite":
                    overwrite = True
                    continue
                if answer != "reload":
                    self.controller.statusMessage.emit(
                        "Not saved: the ballot file changed on disk (your votes are kept)")
                    return None
                try:
                    notes += self.ballots.reload_and_reapply()
                except BallotError as err:
                    self._error(title, err)
                    return None
                continue
            except (BallotError, SaveError) as exc:
                self._error(title, exc)
                return None
            if notes:
                self._recovery_notice("Saved after re-applying your changes to the ballot as "
                                      "it was on disk:\n" + "\n".join(f"• {n}" for n in notes))
            return result
        self._error(title, BallotError("the ballot file keeps changing on disk; try again"))
        return None

    # -- recovery of an earlier session's unsaved votes ------------------------------
    def _recovery_found(self, recovery) -> None:
        if recovery is None:
            if self._offering:
                self.recovery_banner.hide()
            return
        current = self.ballots.path
        where = "" if current is not None and current.resolve() == recovery.path.resolve() \
            else f" (file {recovery.path})"
        self.recovery_label.setText(
            f"Unsaved changes to ballot {recovery.ballot_id}{where} were found from "
            f"{recovery.saved_at or 'an earlier session'}: {recovery.summary}. Restore them "
            f"(they stay unsaved until you save) or discard them?")
        self._offering = True
        self.restore_button.show()
        self.discard_recovery_button.show()
        self.recovery_ok_button.hide()
        self.recovery_banner.show()

    def _recovery_notice(self, text: str) -> None:
        self._offering = False
        self.last_recovery_notice = text
        if not text:
            self.recovery_banner.hide()
            return
        self.recovery_label.setText(text)
        self.restore_button.hide()
        self.discard_recovery_button.hide()
        self.recovery_ok_button.show()
        self.recovery_banner.show()

    def restore_recovery(self) -> bool:
        """Restore the offered unsaved changes (asks first if another ballot has some)."""
        recovery = self.ballots.pending
        if recovery is None:
            return False
        current = self.ballots.path
        if current is None or current.resolve() != recovery.path.resolve():
            if not self.may_discard():
                return False
        self._offering = False
        self.recovery_banner.hide()
        if not self.ballots.restore_recovery():
            return False
        self.tabs.setCurrentIndex(self.TAB_VOTES)
        return True

    def discard_recovery(self) -> None:
        self._offering = False
        self.ballots.discard_recovery()
        self.recovery_banner.hide()

    # -- actions ------------------------------------------------------------------------
    def open_ballot(self, path: str | None = None) -> bool:
        if not self.may_discard():
            return False
        if path is None:
            start = str(self.ballots.path.parent if self.ballots.path else
                        (self.controller.data_dir or Path.home()))
            path, _ = self.open_dialog(self, "Open a ballot", start,
                                       "Ballots (*.yaml *.yml)")
            if not path:
                return False
        try:
            self.ballots.open(path)
        except BallotError as exc:
            self._error("The ballot cannot be read", exc)
            return False
        return True

    def new_ballot(self, ballot_id: str | None = None, path: str | None = None) -> bool:
        if self.controller.library is None or not self.may_discard():
            return False
        if ballot_id is None:
            ballot_id, ok = self.ask_text(self, "New ballot", "Ballot id (e.g. 2027-committee):")
            if not ok or not ballot_id.strip():
                return False
        if path is None:
            folder = Path(self.controller.data_dir or Path.home()) / "apca" / "ballots"
            path, _ = self.save_dialog(self, "Where to save the new ballot",
                                       str(folder / f"{ballot_id.strip()}.yaml"),
                                       "Ballots (*.yaml)")
            if not path:
                return False
        try:
            self.ballots.new_from_library(ballot_id.strip(), path)
        except BallotError as exc:
            self._error("The ballot cannot be built", exc)
            return False
        return True

    def save(self) -> Path | None:
        return self._with_conflicts(lambda overwrite: self.ballots.save(overwrite=overwrite),
                                    "The ballot was not saved")

    def import_member(self, path: str | None = None) -> bool:
        if self.ballots.ballot is None:
            return False
        if path is None:
            path, _ = self.open_dialog(self, "Import a member's ballot", str(
                self.ballots.path.parent if self.ballots.path else Path.home()),
                "Member ballots (*.yaml *.yml)")
            if not path:
                return False
        try:
            self.ballots.import_member_file(path)
        except BallotError as exc:
            self._error("Nothing was imported", exc)
            return False
        return True

    def export_votes(self, path: str | None = None) -> str | None:
        """Export the key holder's own votes, signed; the receipt is shown to keep."""
        if self.ballots.ballot is None:
            return None
        if path is None:
            signer = self.ballots.keys.signer
            name = f"{self.ballots.ballot.id}-{signer.member if signer else 'me'}.yaml"
            start = self.ballots.path.parent if self.ballots.path else Path.home()
            path, _ = self.save_dialog(self, "Export my votes (signed)", str(start / name),
                                       "Member ballots (*.yaml)")
            if not path:
                return None
        try:
            receipt = self.ballots.export_member_file(path)
        except BallotError as exc:
            self._error("Your votes were not exported", exc)
            return None
        self.banner.setText(f"Your votes are in {path}, signed. Your receipt: {receipt} — "
                            f"keep it to check your vote after the close.")
        self.banner.setStyleSheet(OK_STYLE)
        self.banner.setVisible(True)
        return receipt

    def close_and_seal(self, confirm: bool = True) -> bool:
        ballot = self.ballots.ballot
        if ballot is None:
            return False
        if confirm and ask(
                self, "Close and seal",
                f"Close ballot {ballot.id}, count it with "
                f"{METHOD_LABELS.get(ballot.method, ballot.method)} and seal it? No vote can "
                "change afterwards." + seal_warnings(ballot), YES_NO, default="no") != "yes":
            return False
        if self._with_conflicts(
                lambda overwrite: self.ballots.close_and_seal(overwrite=overwrite),
                "The ballot was not closed") is None:
            return False
        self.tabs.setCurrentIndex(self.TAB_TALLY)
        return True

    def verify(self):
        try:
            return self.ballots.verify()
        except BallotError as exc:
            self._error("The ballot cannot be verified", exc)
            return None

    def check_receipt(self, code: str | None = None):
        """Check a member's receipt against the sealed file on disk (shown in the banner)."""
        code = (code if code is not None else self.receipt_edit.text()).strip()
        if not code:
            return None
        try:
            result = self.ballots.check_receipt(code)
        except BallotError as exc:
            self._error("The receipt cannot be checked", exc)
            return None
        sealed = self.ballots.ballot is not None and self.ballots.ballot.seal is not None
        text = result.message + ("" if sealed else " (the ballot is not sealed yet)")
        self.banner.setText(("✔ " if result.ok else "✘ ") + text)
        self.banner.setStyleSheet(OK_STYLE if result.ok else BAD_STYLE)
        self.banner.setVisible(True)
        return result

    def adopt(self, edition_id: str | None = None, title: str | None = None,
              date: str | None = None) -> bool:
        """Adopt the sealed ballot as the next edition. Without ``edition_id`` the
        Adopt dialog asks for the id, title and date and shows the redline first."""
        ballot = self.ballots.ballot
        if ballot is None or self.controller.library is None:
            return False
        if edition_id is None:
            answer = self.ask_adoption(ballot)
            if answer is None:
                return False
            edition_id, title, date = answer
        try:
            self.ballots.adopt(edition_id.strip(), title=title or None, date=date or None)
        except (BallotError, SaveError) as exc:
            self._error("The edition was not adopted", exc)
            return False
        self.controller.workspaceRequested.emit("editions")
        return True

    def _ask_adoption(self, ballot) -> tuple[str, str, str] | None:
        from ..ballots.adoptdialog import AdoptDialog

        dialog = AdoptDialog(self.controller.library, ballot, self)
        self.adopt_dialog = dialog
        try:
            return dialog.answer() if dialog.exec() else None
        finally:
            self.adopt_dialog = None

    def _error(self, title: str, exc: Exception) -> None:
        self.last_error = str(exc)
        self.controller.statusMessage.emit(title)
        first, _, rest = str(exc).partition("\n")
        box, _answers = message_box(self, Icon.Warning, title, title, informative=first,
                                    detail=rest)
        box.setModal(True)
        box.open()
        self.error_box = box

    # -- display ---------------------------------------------------------------------------
    def _enable(self) -> None:
        ballot = self.ballots.ballot
        has = ballot is not None
        is_open = has and ballot.is_open
        self.save_button.setEnabled(has and self.ballots.dirty)
        self.import_button.setEnabled(is_open)
        self.export_button.setEnabled(has)
        self.seal_button.setEnabled(is_open)
        self.verify_button.setEnabled(has and ballot.seal is not None)
        self.adopt_button.setEnabled(has and ballot.seal is not None and not self.ballots.dirty)
        self.ranking_edit.setEnabled(is_open)
        self.choose_method_button.setEnabled(is_open)

    def _update_info(self) -> None:
        ballot = self.ballots.ballot
        if ballot is None:
            self.info.setText("No ballot open.")
        else:
            text = settings_text(ballot, self.controller.library)
            if self.ballots.path:
                text += f"\nFile: {self.ballots.path}"
            if self.ballots.dirty:
                text += "  (unsaved votes)"
            self.info.setText(text)
        self._enable()

    def _ballot_changed(self, ballot) -> None:
        self._update_info()
        if self.ballots.verification is None:
            self.banner.setVisible(False)
        current = self.current_question_id()
        # Lists are rebuilt only when what they list changes: a vote changes one
        # cell, and re-creating every item per vote is slow and, on PySide6,
        # costs a Python reference per destroyed item (the soak test watches it).
        questions = tuple((q.id, q.title) for q in ballot.questions)
        if questions != self._listed_questions:
            self._listed_questions = questions
            with blocked(self.question_list):
                self.question_list.clear()
                for q in ballot.questions:
                    item = QListWidgetItem(f"{q.id}: {q.title}" if q.title else q.id)
                    item.setData(QID_ROLE, q.id)
                    self.question_list.addItem(item)
        self._fill_grid()
        library = self.controller.library
        roll = []
        for m in ballot.roll:
            name = dict(ballot.members).get(m)
            if name is None and library is not None:
                try:
                    name = library.member(m).name
                except LookupError:
                    name = ""
            roll.append((m, f"{m} {visible_controls(name)}".strip()))
        if tuple(roll) != self._listed_roll:
            self._listed_roll = tuple(roll)
            with blocked(self.member_combo):
                member = self.member_combo.currentData()
                self.member_combo.clear()
                for m, label in roll:
                    self.member_combo.addItem(label, m)
                self.member_combo.setCurrentIndex(max(0, self.member_combo.findData(member)))
        with blocked(self.method_combo):
            self.method_combo.setCurrentIndex(self.method_combo.findData(self.ballots.method))
        ids = [q.id for q in ballot.questions]
        row = ids.index(current) if current in ids else 0
        self.question_list.setCurrentRow(row)
        self._select_cell(row, self.member_combo.currentIndex())
        self._show_vote_question()

    def _fill_grid(self) -> None:
        ballot = self.ballots.ballot
        grid = self.grid
        shape = (tuple(q.id for q in ballot.questions), tuple(ballot.roll))
        with blocked(grid):
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
                    tip += " > ".join(option_label(self.controller.library, o)
                                      for o in ranking or ())
                    set_cell(grid, r, c, text, plain_tip(tip), align=Qt.AlignmentFlag.AlignCenter)
            grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)

    def current_question_id(self) -> str | None:
        item = self.question_list.currentItem()
        return item.data(QID_ROLE) if item is not None else None

    def _question_row(self, row: int) -> None:
        self._show_question()
        if row >= 0 and self.grid.currentRow() != row:
            self._select_cell(row, max(0, self.grid.currentColumn()))

    def _show_question(self) -> None:
        ballot = self.ballots.ballot
        qid = self.current_question_id()
        if ballot is None or qid is None:
            self.options_view.set_page("")
            return
        self.options_view.set_page(question_html(self.controller.library, ballot.question(qid),
                                                 self.diff_box.isChecked()))

    def _select_cell(self, row: int, col: int) -> None:
        if 0 <= row < self.grid.rowCount() and 0 <= col < self.grid.columnCount():
            self.grid.setCurrentCell(row, col)

    def _grid_cell(self, row: int, col: int, *_prev) -> None:
        if row < 0:
            return
        if self.question_list.currentRow() != row:
            with blocked(self.question_list):
                self.question_list.setCurrentRow(row)
            self._show_question()
        if col >= 0 and self.member_combo.currentIndex() != col:
            with blocked(self.member_combo):
                self.member_combo.setCurrentIndex(col)
        self._show_vote_question()

    def _member_changed(self, index: int) -> None:
        self._select_cell(max(0, self.grid.currentRow()), index)
        self._show_vote_question()

    def _show_vote_question(self) -> None:
        ballot = self.ballots.ballot
        qid = self.current_question_id()
        member = self.member_combo.currentData()
        if ballot is None or qid is None:
            return
        q = ballot.question(qid)
        library = self.controller.library
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
        qid = self.current_question_id()
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
        row = self.question_list.currentRow()
        col = self.member_combo.currentIndex() + 1
        if col >= self.member_combo.count():
            col = 0
            if row + 1 < self.question_list.count():
                row += 1
                self.question_list.setCurrentRow(row)
        self.member_combo.setCurrentIndex(col)
        self._select_cell(row, col)
        self._show_vote_question()
        self.ranking_edit.setFocus()
        return True

    # -- tally ---------------------------------------------------------------------------
    def _method_previewed(self, _index: int) -> None:
        method = self.method_combo.currentData()
        ballot = self.ballots.ballot
        self.ballots.set_preview_method(None if ballot is not None and method == ballot.method
                                        else method)

    def _choose_method(self) -> None:
        try:
            self.ballots.choose_method(self.method_combo.currentData())
        except BallotError as exc:
            self._error("The method was not changed", exc)

    def _tally_changed(self, results) -> None:
        ballot = self.ballots.ballot
        library = self.controller.library
        if ballot is not None:
            if self.ballots.preview_method:
                self.method_note.setText(
                    f"Preview only: the ballot counts with "
                    f"{METHOD_LABELS.get(ballot.method, ballot.method)}.")
            else:
                self.method_note.setText("The ballot's own method.")
        current = self.results_table.currentRow()
        with blocked(self.results_table):
            self.results_table.setRowCount(len(results))
            for r, res in enumerate(results):
                if res.stands == "adopted":
                    text = f"{option_label(library, res.winner)} adopted"
                elif res.winner:
                    text = "the original stands (it wins)"
                else:
                    text = "the original stands"
                proxies = sum(1 for v in ballot.votes if v.question == res.question
                              and v.proxy_by) if ballot else 0
                cells = (res.question, text, f"{res.cast}/{len(ballot.roll) if ballot else 0}"
                         + (f" ({proxies} by proxy)" if proxies else ""))
                adopted = res.stands == "adopted"
                for c, value in enumerate(cells):
                    set_cell(self.results_table, r, c, value, plain_tip(res.reason),
                             ADOPTED_BG if adopted else None, ADOPTED_FG if adopted else None)
        row = current if 0 <= current < len(results) else self._first_voted_row(results)
        self.results_table.setCurrentCell(row, 0)
        self._show_result(row)

    def _first_voted_row(self, results) -> int:
        for i, res in enumerate(results):
            if res.cast:
                return i
        return 0

    def _show_result(self, row: int) -> None:
        results = self.ballots.results
        if not 0 <= row < len(results):
            self.chart.set_result(None)
            self.working.set_page("")
            return
        res = results[row]
        library = self.controller.library
        labels = {o: option_label(library, o) for o in res.options}
        self.chart.set_result(res, labels)
        self.working.set_page(result_html(library, res))

    def show_result(self, question_id: str) -> None:
        for i, res in enumerate(self.ballots.results):
            if res.question == question_id:
                self.results_table.setCurrentCell(i, 0)
                self._show_result(i)

    def _verified(self, verification) -> None:
        if verification.ok:
            self.banner.setText(f"✔ Seal verified: the file is exactly as it was sealed "
                                f"(sha256 {verification.digest}).")
            self.banner.setStyleSheet(OK_STYLE)
        else:
            changes = "\n".join(f"• {c}" for c in verification.changes) or "• digest mismatch"
            self.banner.setText("✘ THE BALLOT DOES NOT VERIFY: it was changed after it was "
                                "sealed, or a signature does not match.\n" + changes)
            self.banner.setStyleSheet(BAD_STYLE)
        self.banner.setVisible(True)

    # -- state ------------------------------------------------------------------------------
    def export_document(self):
        results = self.ballots.results
        if not results:
            return None
        library = self.controller.library
        body = "\n".join(result_html(library, r) for r in results if r.cast)
        return f"Tally of {self.ballots.ballot.id}", body or "<p>No votes yet.</p>"

    def save_state(self, settings: QSettings) -> None:
        self.save_layout(settings, tab=self.tabs)
        if self.ballots.path is not None:
            settings.setValue(self.key("file"), str(self.ballots.path))

    def restore_state(self, settings: QSettings) -> None:
        self.restore_layout(settings, tab=self.tabs)
        path = settings.value(self.key("file"), "")
        if isinstance(path, str) and path and Path(path).is_file() and not self.ballots.dirty \
                and (self.ballots.path is None or str(self.ballots.path) != path):
            try:
                self.ballots.open(path)
            except BallotError:
                pass

    def focus_main(self) -> None:
        if self.tabs.currentIndex() == self.TAB_VOTES:
            self.ranking_edit.setFocus()
        else:
            self.question_list.setFocus()
