"""The main window: navigation of the workspaces, global search, the edition
in force, menus, status bar; layout and choices persist in QSettings."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QSettings, QSignalBlocker, QSize, Qt
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QFileDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QToolBar,
    QToolButton,
    QWidget,
)

from rulesbook import Library
from rulesbook.rulesfolder import FolderStatus, SyncResult
from rulesbook.rulesfolder.errors import Resolution
from rulesbook.storage import SaveError

from .controller import AppController
from .dialogs import Choice, Role, ask, warn
from .export import export_html, export_pdf
from .folder import FolderController, describe_status
from .login import LoginAsker
from .search import SearchController, SearchResults
from .settings import setting_bytes, setting_text, setting_texts
from .statuslog import StatusLog
from .widgets import PopupOnlyComboBox
from .workspaces import Workspace
from .workspaces.ballots import BallotsWorkspace
from .workspaces.board import BoardWorkspace
from .workspaces.compare import CompareWorkspace
from .workspaces.editions import EditionsWorkspace
from .workspaces.rules import RulesWorkspace
from .workspaces.rulings import RulingsWorkspace

W = TypeVar("W", bound=Workspace)

#: The workspaces, in navigation order. Add new ones here (Board, Rulings, Ballots...).
WORKSPACES: list[type[Workspace]] = [
    RulesWorkspace, CompareWorkspace, EditionsWorkspace, BoardWorkspace, RulingsWorkspace,
    BallotsWorkspace,
]
MAX_RECENT = 8


def shortcut_text(action: QAction) -> str:
    return action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)


class MainWindow(QMainWindow):
    def __init__(self, controller: AppController, settings: QSettings | None = None,
                 workspaces: list[type[Workspace]] | None = None):
        super().__init__()
        self.controller = controller
        self.settings = settings if settings is not None else QSettings()
        self.setWindowTitle("Rulesbook")
        self.setObjectName("MainWindow")
        self.resize(1200, 780)

        # -- workspaces and navigation ------------------------------------
        self.stack = QStackedWidget()
        self.nav = QListWidget()
        self.nav.setAccessibleName("Workspaces")
        self.nav.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.workspaces: dict[str, Workspace] = {}
        for cls in workspaces or WORKSPACES:
            self.add_workspace(cls(controller))
        self.nav.currentRowChanged.connect(self.stack.setCurrentIndex)
        self.nav.currentRowChanged.connect(self._workspace_changed)
        self.splitter = QSplitter()
        self.splitter.addWidget(self.nav)
        self.splitter.addWidget(self.stack)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setCollapsible(1, False)
        width = self.nav.fontMetrics().horizontalAdvance("Editions (Ctrl+9)") + 40
        self.splitter.setSizes([width, 1200 - width])
        self.setCentralWidget(self.splitter)

        # -- toolbar: edition in force and search ---------------------------
        self.toolbar = QToolBar("Main toolbar")
        self.toolbar.setObjectName("main-toolbar")
        self.toolbar.setMovable(False)
        self.toolbar.toggleViewAction().setVisible(False)  # the edition is always shown
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.toolbar)
        # The edition in force changes only by a choice from the list (Ctrl+E or a
        # click), confirmed: no Alt key focuses it, and arrow keys, letters or the
        # mouse wheel never change it.
        self.edition_combo = PopupOnlyComboBox()
        self.edition_combo.setAccessibleName("Edition in force")
        self.edition_combo.setToolTip("The edition whose rules are in force (Ctrl+E to change)")
        self.edition_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.edition_combo.activated.connect(self._edition_chosen)
        #: asks before another edition is put in force (tests replace it):
        #: (title in force, title chosen) -> True to change
        self.confirm_edition = self._confirm_edition
        edition_label = QLabel(" Edition in force: ")
        edition_label.setTextFormat(Qt.TextFormat.PlainText)
        self.toolbar.addWidget(edition_label)
        self.toolbar.addWidget(self.edition_combo)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.toolbar.addWidget(spacer)
        self.search_field = QLineEdit()
        self.search_field.setPlaceholderText("Search the rules or type a rule number (Ctrl+K)")
        self.search_field.setClearButtonEnabled(True)
        self.search_field.setAccessibleName("Search")
        # wide enough for a query; the placeholder may be cut at the smallest widths
        self.search_field.setMinimumWidth(self.search_field.fontMetrics().horizontalAdvance(
            "touched a piece in the corner") + 40)
        self.toolbar.addWidget(self.search_field)
        self.search_scope = QComboBox()
        self.search_scope.setAccessibleName("Search in")
        self.search_scope.setToolTip("Search every rulebook or only one")
        self.search_scope.addItem("All rulebooks", None)
        self.search_scope.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.search_scope.setMinimumContentsLength(12)  # long titles are elided
        self.search_scope.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.toolbar.addWidget(self.search_scope)
        self.search_results = SearchResults(self)
        self.search = SearchController(self.search_field, self.search_results, controller, self,
                                       rulebook_filter=self.search_scope)

        # -- status bar ---------------------------------------------------
        self.edition_status = QLabel()
        self.edition_status.setTextFormat(Qt.TextFormat.PlainText)
        self.statusBar().addPermanentWidget(self.edition_status)
        self.folder = FolderController(controller, self)
        self.folder.ask = LoginAsker(self, self).ask  # a host asking for a login: a dialog
        self.folder_status = QLabel(describe_status(None))
        self.folder_status.setAccessibleName("Rules folder status")
        self.statusBar().addPermanentWidget(self.folder_status)
        self.sync_progress: QProgressDialog | None = None
        self.folder.statusChanged.connect(self._show_folder_status)
        self.folder.syncProgress.connect(self._sync_progress)
        self.folder.syncFinished.connect(self._sync_finished)
        self.folder.syncFailed.connect(self._sync_failed)
        if controller.library is not None:  # loaded before the window was built
            self.folder.opened()
        controller.statusMessage.connect(lambda text: self.statusBar().showMessage(text, 5000))
        self.status_log = StatusLog(self.statusBar(), self)  # messages whole (issue 33)
        # what a workspace restored at start (the Board's autosave after a crash) is
        # said whatever workspace is shown: a status bar label, until it is closed
        notices = [ws.start_notice for ws in self.workspaces.values() if ws.start_notice]
        self.start_notice = QLabel(" ".join(notices))
        self.start_notice.setObjectName("start-notice")
        self.start_notice.setTextFormat(Qt.TextFormat.PlainText)
        self.start_notice.setAccessibleName("Restored work")
        self.statusBar().addPermanentWidget(self.start_notice)  # never under a message
        self.start_notice.setVisible(bool(notices))

        self.about_dialog: QDialog | None = None  # Help > About, once opened
        self._build_menus()
        # Tab leaves every list and table (issue 33: a table kept the focus on Tab)
        for view in self.findChildren(QAbstractItemView):
            view.setTabKeyNavigation(False)
        # and reaches the workspaces' toolbar buttons (Qt leaves them out of it)
        for button in self.findChildren(QToolButton):
            if isinstance(button.parentWidget(), QToolBar) and \
                    not button.objectName().startswith("qt_"):
                button.setFocusPolicy(Qt.FocusPolicy.TabFocus)

        controller.libraryLoaded.connect(self._on_library)
        controller.editionChanged.connect(self._on_edition)
        controller.refRequested.connect(lambda _ref: self.show_workspace("rules"))
        controller.topicRequested.connect(lambda _t: self.show_workspace("rules"))
        controller.compareRequested.connect(lambda _s: self.show_workspace("compare"))
        controller.workspaceRequested.connect(self.show_workspace)
        editions = self.workspaces.get("editions")
        if isinstance(editions, EditionsWorkspace):
            editions.exporter = self.export_as
        rules, ballots = self.workspaces.get("rules"), self.workspaces.get("ballots")
        if isinstance(rules, RulesWorkspace) and isinstance(ballots, BallotsWorkspace):
            # a proposal is signed with the key signed in on the Ballots workspace (the
            # member's own, or the secretary's acting for them), never another's
            keys = ballots.ballots.keys
            rules.proposal_actions.proposals.signer_of = lambda: keys.signer
        self.nav.setCurrentRow(0)
        if controller.library is not None:  # built after the library was loaded
            self._on_library(controller.library)
            for ws in self.workspaces.values():
                ws.on_library(controller.library)
            if controller.edition_id:
                self._on_edition(controller.edition_id)
                for ws in self.workspaces.values():
                    ws.on_edition(controller.edition_id)

    # -- building ------------------------------------------------------------
    def add_workspace(self, workspace: Workspace) -> None:
        self.workspaces[workspace.id] = workspace
        self.stack.addWidget(workspace)
        item = QListWidgetItem(workspace.title)
        item.setToolTip(workspace.description)
        item.setSizeHint(QSize(0, self.nav.fontMetrics().height() * 2 + 8))
        self.nav.addItem(item)
        workspace.inForceChanged.connect(self._show_in_force)

    def _action(self, menu: QMenu, text: str, slot: Callable[[], object],
                shortcut: str | QKeySequence.StandardKey | list[QKeySequence] | None = None,
                tip: str | None = None) -> QAction:
        action = QAction(text, self)
        if isinstance(shortcut, list):
            action.setShortcuts(shortcut)
        elif shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda _checked=False: slot())  # never the bool
        if tip:
            action.setStatusTip(tip)
        menu.addAction(action)
        self.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self.open_action = self._action(file_menu, "&Open Data Folder…", self.choose_folder,
                                        QKeySequence.StandardKey.Open)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        file_menu.addSeparator()
        self.sync_action = self._action(file_menu, "S&ync Rules Folder", self.start_sync,
                                        "Ctrl+Shift+Y",
                                        "Fetch the committee's changes, merge, send yours")
        file_menu.addSeparator()
        self.export_html_action = self._action(
            file_menu, "Export View as &HTML…", lambda: self.export_current("html"),
            "Ctrl+Shift+E")
        self.export_pdf_action = self._action(
            file_menu, "Export View as &PDF…", lambda: self.export_current("pdf"),
            "Ctrl+Shift+P")
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        edit_menu = bar.addMenu("&Edit")
        self._action(edit_menu, "&Copy", self._copy, QKeySequence.StandardKey.Copy)
        self._action(edit_menu, "Select &All", self._select_all, QKeySequence.StandardKey.SelectAll)
        edit_menu.addSeparator()
        self.find_action = self._action(edit_menu, "&Find…", self.focus_search,
                                        [QKeySequence("Ctrl+F"), QKeySequence("Ctrl+K")])

        view_menu = bar.addMenu("&View")
        group = QActionGroup(self)
        self.workspace_actions: dict[str, QAction] = {}
        for i, ws in enumerate(self.workspaces.values()):
            action = self._action(view_menu, f"&{i + 1} {ws.title}",
                                  partial(self.show_workspace, ws.id, focus=True),
                                  f"Ctrl+{i + 1}" if i < 9 else None, ws.description)
            action.setCheckable(True)
            group.addAction(action)
            self.workspace_actions[ws.id] = action
            item = self.nav.item(i)
            if i < 9:
                item.setText(f"{ws.title}   {shortcut_text(action)}")
                item.setToolTip(f"{ws.description} ({shortcut_text(action)})")
        view_menu.addSeparator()
        self._action(view_menu, "Choose &Edition in Force", self._focus_edition, "Ctrl+E")
        self._action(view_menu, "Toggle &Navigation", self._toggle_nav, "Ctrl+Shift+N")
        self._action(view_menu, "Recent Status &Messages", lambda: self.status_log.show(self))
        self._action(view_menu, "&Full Screen", self._toggle_full_screen,
                     QKeySequence.StandardKey.FullScreen)

        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&About Rulesbook", self.about, "F1")
        self._action(help_menu, "About &Qt", self._about_qt)
        self._refresh_recent()

    # -- sync ----------------------------------------------------------------
    def _show_folder_status(self, status: FolderStatus | None) -> None:
        text = describe_status(status)
        if self.folder.offline:
            text += " (remote not reached)"
            self.folder_status.setToolTip(self.folder.last_error or "")
        else:
            self.folder_status.setToolTip(str(status.remote) if status and status.remote
                                          else "")
        self.folder_status.setText(text)

    def start_sync(self, take: Resolution | None = None) -> bool:
        if not self.folder.sync(take=take):
            return False
        self.sync_action.setEnabled(False)
        self.sync_progress = QProgressDialog("Syncing the rules folder…", "", 0, 0, self)
        self.sync_progress.setWindowTitle("Sync")
        self.sync_progress.setCancelButton(None)
        self.sync_progress.setMinimumDuration(0)
        self.sync_progress.show()
        return True

    def _sync_progress(self, message: str) -> None:
        if self.sync_progress is not None:
            self.sync_progress.setLabelText(message)
        self.statusBar().showMessage(message, 4000)

    def _end_sync(self) -> None:
        self.sync_action.setEnabled(True)
        if self.sync_progress is not None:
            self.sync_progress.close()
            self.sync_progress.deleteLater()
            self.sync_progress = None

    def _sync_finished(self, result: SyncResult) -> None:
        self._end_sync()
        text = ("Up to date with " + result.remote if result.up_to_date else
                f"Synced with {result.remote}: received {result.fetched}, sent {result.pushed}")
        if result.origin_set:
            text += f" (origin is now {result.remote}" + (
                f", it was {result.previous_origin})" if result.previous_origin else ")")
        self.statusBar().showMessage(text, 8000)
        if result.dropped:
            box = QMessageBox(QMessageBox.Icon.Information, "Sync: what was dropped",
                              "\n".join(str(d) for d in result.dropped),
                              QMessageBox.StandardButton.Ok, self)
            box.setObjectName("SyncDropped")
            box.open()

    def _sync_failed(self, message: str) -> None:
        self._end_sync()
        self.statusBar().showMessage("Sync stopped", 8000)
        box = QMessageBox(QMessageBox.Icon.Warning, "Sync stopped", message,
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("SyncFailed")
        if self.folder.can_settle:
            from rulesbook.rulesfolder.errors import Resolution, Side

            box.setInformativeText("Agree on one version; the other is dropped (the next "
                                   "message says what). A vote made after the seal is "
                                   "dropped by keeping the sealed ballot's side.")
            for side, label, name in ((Side.THEIRS, "&Keep the remote's versions", "TakeTheirs"),
                                      (Side.MINE, "Keep &my versions", "TakeMine")):
                button = box.addButton(label, QMessageBox.ButtonRole.AcceptRole)
                button.setObjectName(name)
                button.clicked.connect(
                    lambda _checked=False, s=side: self.start_sync(Resolution(s)))
        box.open()

    # -- library and edition ----------------------------------------------
    def _on_library(self, library: Library) -> None:
        self.edition_combo.blockSignals(True)
        self.edition_combo.clear()
        for ed in library.editions:
            self.edition_combo.addItem(f"{ed.title} ({ed.date})", ed.id)
        self.edition_combo.blockSignals(False)
        with QSignalBlocker(self.search_scope):
            scope = self.search_scope.currentData()
            self.search_scope.clear()
            self.search_scope.addItem("All rulebooks", None)
            for book in library.rulebooks:
                self.search_scope.addItem(book.title, book.id)
            self.search_scope.setCurrentIndex(max(0, self.search_scope.findData(scope)))
        self.setWindowTitle(f"Rulesbook — {self.controller.data_dir}")
        self.add_recent(str(self.controller.data_dir))
        n = sum(len(b.rules) for b in library.rulebooks)
        self.statusBar().showMessage(
            f"Loaded {len(library.rulebooks)} rulebooks, {n} rules and sections from "
            f"{self.controller.data_dir} in {self.controller.load_seconds:.2f} s", 8000)

    def _on_edition(self, edition_id: str) -> None:
        row = self.edition_combo.findData(edition_id)
        if row >= 0:
            self.edition_combo.setCurrentIndex(row)
        self._show_in_force()

    def _show_in_force(self) -> None:
        """The edition in force, or what the shown workspace says is in force (the
        Board: the rulebooks that govern an English game, issue 31)."""
        library, edition_id = self.controller.library, self.controller.edition_id
        if library is None or not edition_id or not hasattr(self, "edition_status"):
            return
        text, tip = self.current_workspace().in_force_words()
        if not text:
            edition = library.edition(edition_id)
            text = f"In force: {edition.title} ({edition.id})"
        self.edition_status.setText(text)
        self.edition_status.setToolTip(tip)

    def _edition_chosen(self, row: int) -> None:
        edition_id = self.edition_combo.itemData(row)
        current = self.controller.edition_id
        library = self.controller.library
        if not edition_id or edition_id == current or library is None:
            return
        old = library.edition(current).title if current else "none"
        if not self.confirm_edition(old, library.edition(edition_id).title):
            back = self.edition_combo.findData(current)
            if back >= 0:
                self.edition_combo.setCurrentIndex(back)
            self.statusBar().showMessage(f"The edition in force is still {old}", 5000)
            return
        self.controller.set_edition(edition_id)

    def _confirm_edition(self, old: str, new: str) -> bool:
        return ask(self, "Change the edition in force",
                   f"Put “{new}” in force instead of “{old}”?",
                   (Choice("change", "&Put It in Force", Role.AcceptRole),
                    Choice("keep", f"&Keep {old}", Role.RejectRole)),
                   informative="The rules shown, the rulings and the draw counts follow "
                               "the edition in force.", default="keep") == "change"

    # -- navigation --------------------------------------------------------
    def current_workspace(self) -> Workspace:
        ws = self.stack.currentWidget()
        if not isinstance(ws, Workspace):  # the stack holds workspaces only, never none
            raise LookupError("no workspace is shown")
        return ws

    def workspace(self, kind: type[W]) -> W:
        """The workspace of class ``kind`` (typed access for callers that drive it)."""
        ws = self.workspaces.get(kind.id)
        if not isinstance(ws, kind):
            raise LookupError(f"the window has no {kind.title or kind.__name__} workspace")
        return ws

    def show_workspace(self, workspace_id: str, focus: bool = False) -> None:
        ws = self.workspaces.get(workspace_id)
        if ws is None:
            return
        self.nav.setCurrentRow(self.stack.indexOf(ws))
        if focus:
            ws.focus_main()

    def _workspace_changed(self, row: int) -> None:
        ws = self.stack.widget(row)
        if not isinstance(ws, Workspace):
            return
        if ws.start_notice and hasattr(self, "start_notice"):
            self.start_notice.hide()  # the workspace (its banner) says it from now on
        if ws.id in getattr(self, "workspace_actions", {}):
            self.workspace_actions[ws.id].setChecked(True)
        self._show_in_force()

    def focus_search(self) -> None:
        self.search_field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_field.selectAll()

    def _focus_edition(self) -> None:
        self.edition_combo.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edition_combo.showPopup()

    def _toggle_nav(self) -> None:
        self.nav.setVisible(not self.nav.isVisible())

    def _toggle_full_screen(self) -> None:
        self.setWindowState(self.windowState() ^ Qt.WindowState.WindowFullScreen)

    def _copy(self) -> None:
        widget = self.focusWidget()
        if widget is not None and hasattr(widget, "copy"):
            widget.copy()

    def _select_all(self) -> None:
        widget = self.focusWidget()
        if widget is not None and hasattr(widget, "selectAll"):
            widget.selectAll()

    # -- files -------------------------------------------------------------------
    def choose_folder(self) -> None:
        start = str(self.controller.data_dir or Path.home())
        path = QFileDialog.getExistingDirectory(self, "Open a rules data folder", start)
        if path:
            self.open_folder(path)

    def open_folder(self, path: str) -> bool:
        result = self.controller.load(path)
        if not result.ok:
            from .problems import ProblemsDialog
            dialog = ProblemsDialog(result.root, result.problems, self)

            def open_other(other: str) -> None:
                dialog.accept()
                self.open_folder(other)

            dialog.openFolder.connect(open_other)
            dialog.open()
            self.problems_dialog = dialog
        return result.ok

    def recent_folders(self) -> list[str]:
        return setting_texts(self.settings, "recent/folders")

    def add_recent(self, path: str) -> None:
        recent = [path] + [p for p in self.recent_folders() if p != path]
        self.settings.setValue("recent/folders", recent[:MAX_RECENT])
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_folders()
        for i, path in enumerate(recent):
            action = self.recent_menu.addAction(f"&{i + 1} {path}")
            action.triggered.connect(lambda _c=False, p=path: self.open_folder(p))
        self.recent_menu.setEnabled(bool(recent))

    def export_current(self, kind: str) -> None:
        doc = self.current_workspace().export_document()
        if doc is None:
            self.statusBar().showMessage("Nothing to export in this view", 4000)
            return
        self.export_as(kind, *doc)

    def export_as(self, kind: str, title: str, body: str, path: str | None = None) -> Path | None:
        if path is None:
            suffix = ".pdf" if kind == "pdf" else ".html"
            default = str(Path(setting_text(self.settings, "export/folder", str(Path.home())))
                          / (title.replace(":", "-").replace(" ", "_") + suffix))
            filters = "PDF files (*.pdf)" if kind == "pdf" else "HTML files (*.html *.htm)"
            path, _ = QFileDialog.getSaveFileName(self, f"Export {title}", default, filters)
            if not path:
                return None
        try:
            written = export_pdf(path, title, body) if kind == "pdf" else \
                export_html(path, title, body)
        except SaveError as exc:
            warn(self, "Export failed", str(exc))
            return None
        self.settings.setValue("export/folder", str(Path(path).parent))
        self.statusBar().showMessage(f"Exported {written}", 6000)
        return written

    # -- about ---------------------------------------------------------------------
    def about_text(self) -> str:
        from .about import about_facts, about_html

        return about_html(about_facts(self.controller))

    def about(self) -> None:
        """Help > About: a window of its own (ui/about.py), not modal."""
        from .about import AboutDialog

        if self.about_dialog is not None:
            self.about_dialog.close()
            self.about_dialog.deleteLater()
        self.about_dialog = AboutDialog(self.controller, self)
        self.about_dialog.show()

    def _about_qt(self) -> None:
        QMessageBox.aboutQt(self, "About Qt")

    # -- persistence --------------------------------------------------------------
    def restore(self) -> None:
        """Window layout, last workspace, edition in force, workspace states."""
        s = self.settings
        geometry = setting_bytes(s, "window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = setting_bytes(s, "window/state")
        if state is not None:
            self.restoreState(state)
        splitter = setting_bytes(s, "window/splitter")
        if splitter is not None:
            self.splitter.restoreState(splitter)
        edition = setting_text(s, "edition/in_force")
        if edition:
            self.controller.set_edition(edition)
        for ws in self.workspaces.values():
            ws.restore_state(s)
        last = setting_text(s, "window/workspace")
        if last in self.workspaces:
            self.show_workspace(last)

    def save(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("window/splitter", self.splitter.saveState())
        s.setValue("window/workspace", self.current_workspace().id)
        if self.controller.edition_id:
            s.setValue("edition/in_force", self.controller.edition_id)
        for ws in self.workspaces.values():
            ws.save_state(s)
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        self.save()
        self.folder.wait()  # a sync or a look at the remote finishes first
        super().closeEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if self.search_results.isVisible():
            self.search.show_popup()
