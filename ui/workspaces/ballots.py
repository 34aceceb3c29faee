"""The Ballots workspace: the committee's ballot — questions and option texts,
recording votes (typed rankings, members' files), the live tally under any
method with a chart, closing and sealing, verifying, adopting the next edition."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QSignalBlocker, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from rulesbook.ballots import BallotError
from rulesbook.storage import SaveError

from ..ballots.action_bar import BallotActionBar
from ..ballots.close_guard import BAD_STYLE, OK_STYLE, CloseGuard
from ..ballots.controller import BallotConflict, BallotController
from ..ballots.keypanel import KeyPanel
from ..ballots.ranking import METHOD_LABELS
from ..ballots.recovery_banner import RecoveryBanner
from ..ballots.tally_panel import TallyPanel
from ..ballots.views import question_html, result_html, seal_warnings, settings_text
from ..ballots.votes_panel import VotesPanel
from ..dialogs import SAVE_DISCARD_CANCEL, YES_NO, Choice, Icon, Role, ask, ask_text, message_box
from ..widgets import BreakableLabel, DocBrowser, breakable, plain_tip
from . import Workspace

QID_ROLE = Qt.ItemDataRole.UserRole + 1


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
        self.actions_bar = row = BallotActionBar()
        self.open_button = row.open_button
        self.new_button = row.new_button
        self.save_button = row.save_button
        self.import_button = row.import_button
        self.export_button = row.export_button
        self.seal_button = row.seal_button
        self.sign_button = row.sign_button
        self.verify_button = row.verify_button
        self.adopt_button = row.adopt_button
        self.receipt_edit = row.receipt_edit
        self.receipt_button = row.receipt_button
        self.key_panel = KeyPanel(bc.keys)
        self.info = BreakableLabel("No ballot open.")  # a path copied without the breaks
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setTextFormat(Qt.TextFormat.PlainText)
        self.banner.setVisible(False)
        # unsaved changes of an earlier session: Restore / Discard (or a notice and OK)
        self.recovery_banner = RecoveryBanner()
        self.recovery_label = self.recovery_banner.label
        self.restore_button = self.recovery_banner.restore_button
        self.discard_recovery_button = self.recovery_banner.discard_button
        self.recovery_ok_button = self.recovery_banner.ok_button
        self.recovery_banner.restoreRequested.connect(lambda: self.restore_recovery())
        self.recovery_banner.discardRequested.connect(lambda: self.discard_recovery())

        # -- questions -------------------------------------------------------------------
        self.question_list = QListWidget()
        self.question_list.setAccessibleName("Questions")
        # no sideways scrolling (issue 33): a long title elided, whole in its tooltip
        self.question_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.question_list.setTextElideMode(Qt.TextElideMode.ElideRight)
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
        self.votes = VotesPanel(bc, self.current_question_id)
        self.votes.questionRowChanged.connect(self._grid_question)
        self.v_split = self.votes
        self.grid = self.votes.grid
        self.member_combo = self.votes.member_combo
        self.vote_question = self.votes.vote_question
        self.vote_options = self.votes.vote_options
        self.ranking_edit = self.votes.ranking_edit
        self.vote_error = self.votes.vote_error

        # -- tally ---------------------------------------------------------------------------
        self.tally = TallyPanel(bc, self._error)
        self.method_combo = self.tally.method_combo
        self.choose_method_button = self.tally.choose_method_button
        self.method_note = self.tally.method_note
        self.results_table = self.tally.results_table
        self.working = self.tally.working
        self.chart = self.tally.chart
        self.t_split = self.tally.split

        self.tally.add_receipt_row(self.receipt_edit, self.receipt_button,
                                   self.verify_button, self.adopt_button)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.q_split, "&Questions")
        self.tabs.addTab(self.v_split, "Vo&tes")
        self.tabs.addTab(self.tally, "Tall&y")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(2)  # the key's two lines cost no height (issue 33)
        layout.addWidget(row)
        self.key_panel.add_beside_status(self.sign_button)
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
        self.sign_button.clicked.connect(lambda: self.sign_settings())
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
        bc.ballotChanged.connect(self._ballot_changed)
        bc.dirtyChanged.connect(lambda _d: self._update_info())
        bc.verified.connect(self._verified)
        bc.recoveryFound.connect(self._recovery_found)
        bc.recoveryNotice.connect(self._recovery_notice)
        self._guard: CloseGuard | None = None
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
            self._guard = CloseGuard(self)
            window.installEventFilter(self._guard)

    # -- unsaved votes --------------------------------------------------------------
    def _ask_unsaved(self) -> str:
        return ask(self, "Unsaved votes",
                   f"The ballot {self.ballots.ballot.id if self.ballots.ballot else ''} has "
                   "votes that are not saved. "
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
        self.recovery_banner.offer(recovery, self.ballots.path)

    def _recovery_notice(self, text: str) -> None:
        self.last_recovery_notice = text
        self.recovery_banner.notice(text)

    def restore_recovery(self) -> bool:
        """Restore the offered unsaved changes (asks first if another ballot has some)."""
        recovery = self.ballots.pending
        if recovery is None:
            return False
        current = self.ballots.path
        if current is None or current.resolve() != recovery.path.resolve():
            if not self.may_discard():
                return False
        self.recovery_banner.close_offer()
        if not self.ballots.restore_recovery():
            return False
        self.tabs.setCurrentIndex(self.TAB_VOTES)
        return True

    def discard_recovery(self) -> None:
        self.ballots.discard_recovery()
        self.recovery_banner.close_offer()

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

    def sign_settings(self) -> bool:
        """Sign the open ballot's settings with the key in use (saved with the votes)."""
        try:
            self.ballots.sign_settings()
        except BallotError as exc:  # a missing key too (KeyStoreError)
            self._error("The settings were not signed", exc)
            return False
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

        if (library := self.controller.library) is None:  # the folder was closed meanwhile
            return None
        dialog = AdoptDialog(library, ballot, self)
        self.adopt_dialog: AdoptDialog | None = dialog
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
        is_open = ballot is not None and ballot.is_open
        self.actions_bar.enable_for(ballot, self.ballots.dirty)
        self.ranking_edit.setEnabled(is_open)
        self.tally.set_open(is_open)

    def _update_info(self) -> None:
        ballot = self.ballots.ballot
        if ballot is None:
            self.info.setText("No ballot open.")
        else:
            text = settings_text(ballot, self.controller.library)
            if self.ballots.path:
                text += f"\nFile: {breakable(str(self.ballots.path))}"  # wraps at a slash
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
            with QSignalBlocker(self.question_list):
                self.question_list.clear()
                for q in ballot.questions:
                    item = QListWidgetItem(f"{q.id}: {q.title}" if q.title else q.id)
                    item.setData(QID_ROLE, q.id)
                    item.setToolTip(plain_tip(item.text()))  # whole, where elided
                    self.question_list.addItem(item)
        self.votes.show_ballot(ballot)
        self.tally.show_method()
        ids = [q.id for q in ballot.questions]
        row = ids.index(current) if current in ids else 0
        self.question_list.setCurrentRow(row)
        self.votes.select(row, self.member_combo.currentIndex())
        self.votes.show_vote_question()

    def current_question_id(self) -> str | None:
        item = self.question_list.currentItem()
        return item.data(QID_ROLE) if item is not None else None

    def _question_row(self, row: int) -> None:
        self._show_question()
        self.votes.follow_question(row)

    def _show_question(self) -> None:
        ballot = self.ballots.ballot
        qid = self.current_question_id()
        if ballot is None or qid is None:
            self.options_view.set_page("")
            return
        self.options_view.set_page(question_html(self.controller.library, ballot.question(qid),
                                                 self.diff_box.isChecked()))

    def _grid_question(self, row: int) -> None:
        """The votes grid moved to the question of ``row``: the list follows."""
        if self.question_list.currentRow() != row:
            with QSignalBlocker(self.question_list):
                self.question_list.setCurrentRow(row)
            self._show_question()

    def enter_ranking(self) -> bool:
        """Record the typed ranking for the member and question shown; go to the next."""
        done = self.votes.enter_ranking()
        if not done and self.votes.last_error:
            self.last_error = self.votes.last_error
        return done

    def show_result(self, question_id: str) -> None:
        """Select the result of ``question_id`` in the Tally tab."""
        self.tally.show_result(question_id)

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
