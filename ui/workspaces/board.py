"""The Board workspace: set up a position, replay a record, find the first
illegal move, see the draw counts, fill a gap in the record, keep case files.

The :class:`~ui.board.controller.BoardController` owns the state; each panel subscribes
to its signals. This view lays them out, asks what needs a dialog and forwards keys.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QKeyEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from rulesbook.reconstruct import ClockAdvice, GameChunk

from ..board import BoardController, BoardWidget
from ..board.governs import in_force_words
from ..board.panels.boardview import BoardView
from ..board.panels.check import CheckPanel
from ..board.panels.claim import DrawClaimBar
from ..board.panels.common import scrolled
from ..board.panels.counts import CountsPanel
from ..board.panels.gap import GapPanel
from ..board.panels.palette import SetupPalette
from ..board.panels.record import RecordPanel
from ..board.panels.splice import ask_splice
from ..board.panels.toolbar import BoardToolbar
from ..board.variantnote import VariantNotice
from ..dialogs import wait_for, warn
from ..widgets import BreakableLabel, breakable, plain_tip
from . import Workspace, board_questions

NAV_KEYS = {Qt.Key.Key_Left: "previous", Qt.Key.Key_Right: "next",
            Qt.Key.Key_Up: "previous", Qt.Key.Key_Down: "next",
            Qt.Key.Key_Home: "first", Qt.Key.Key_End: "last"}
PDN_FILTER = "PDN files (*.pdn *.txt);;All files (*)"
CASE_FILTER = "Dispute cases (*.yaml *.yml);;All files (*)"
#: the tabs of the panels beside the move list
CHECK_TAB, COUNTS_TAB, GAP_TAB = range(3)
#: the least widths of the three columns at 1024x700 (issue 33): the board gives way
BOARD_LEAST, RECORD_LEAST, PANELS_LEAST = 240, 180, 350


class BoardWorkspace(Workspace):
    id = "board"
    title = "Board"
    description = "Reconstruct a game: set up, replay, find the illegal move, fill gaps"

    def __init__(self, controller, parent: QWidget | None = None,
                 board_controller: BoardController | None = None):
        super().__init__(controller, parent)
        self.board_controller = bc = board_controller or BoardController(self)
        #: asks "save / discard / cancel" before closing with unsaved changes
        #: (tests replace it); returns "save", "discard" or "cancel"
        self.confirm_close: Callable[[], str] = self._ask_close
        #: chooses a game of a multi-game PDN file; returns an index or None
        self.choose_game: Callable[[list[GameChunk]], int | None] = self._ask_game
        #: asks "save / discard / cancel" before unsaved work is replaced (tests
        #: replace it); takes what would replace it, returns "save", "discard" or "cancel"
        self.confirm_replace: Callable[[str], str] = self._ask_replace
        bc.files.may_replace = self.may_replace
        #: moves entered at an earlier ply of an opened record: Replace / Insert as a
        #: variation / Cancel (:func:`~ui.board.panels.splice.ask_splice`)
        bc.editing.confirm_splice = lambda at, later: ask_splice(self, bc, at, later)
        self._watched_window: QWidget | None = None
        self._importing = ""  # the file whose games the game list shows

        # -- the board and the panels (each subscribes to the controller) ----------
        self.board = BoardWidget()
        self.board.squareClicked.connect(self._square_clicked)
        self.board.pieceDropped.connect(bc.input.drop_piece)
        self.board.pieceDroppedOff.connect(
            lambda square: bc.setup.remove(square) if bc.mode == "setup" else None)
        self.board.installEventFilter(self)
        self.board_view = BoardView(bc, self.board)
        self.toolbar = BoardToolbar(bc, self.board, self, self)
        self.setup_panel = SetupPalette(bc, self.board)
        self.addActions(list(self.setup_panel.shortcut_actions))
        self.setup_panel.board_now_button.clicked.connect(lambda: self._mark_board_now())
        self.setup_panel.copy_fen_button.clicked.connect(lambda: self.copy_fen())
        self.record_panel = RecordPanel(bc)
        self.record_panel.move_list.installEventFilter(self)
        self.check_panel = CheckPanel(bc)
        self.counts_panel = CountsPanel(bc)
        self.gap_panel = GapPanel(bc)
        self.gap_panel.mark_button.clicked.connect(lambda: self._mark_board_now())
        self._alias_panel_widgets()

        self.panels = QTabWidget()
        self.panels.setDocumentMode(True)
        self.panels.addTab(scrolled(self.check_panel), "Chec&k")
        self.panels.addTab(scrolled(self.counts_panel), "Cou&nts")
        self.panels.addTab(scrolled(self.gap_panel), "&Gap")

        # three columns (issue 33): the board, the record, the panels. At 1024x700 the
        # record over the panels left the move list 2 rows and the gap's list 3: the
        # board gives up its size first, the record and the panels keep the height
        right = QSplitter(Qt.Orientation.Horizontal)
        # the record panel needs no scroll area of its own: its move list scrolls, and
        # a second scroll bar around it hid the move entry in a small window (issue 19)
        right.addWidget(self.record_panel)
        right.addWidget(self.panels)
        right.setCollapsible(0, False)
        right.setCollapsible(1, False)
        right.setStretchFactor(0, 2)
        right.setStretchFactor(1, 3)
        right.setSizes([RECORD_LEAST, PANELS_LEAST])
        self.right_splitter = right
        # set-up mode shows the palette in place of the record's panels: beside the
        # board, never under it, so the board keeps its size
        self.setup_scroll = scrolled(self.setup_panel)
        self.right_stack = QStackedWidget()
        self.right_stack.addWidget(right)
        self.right_stack.addWidget(self.setup_scroll)

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(4, 4, 4, 4)
        ll.addWidget(self.board, 1)
        self.left_column = left

        self.splitter = QSplitter()
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.right_stack)
        self.splitter.setCollapsible(0, False)
        self.splitter.setCollapsible(1, False)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([BOARD_LEAST, RECORD_LEAST + PANELS_LEAST])

        # -- banner and status ----------------------------------------------------
        self.banner = QFrame()
        self.banner.setObjectName("recovery-banner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        bl = QHBoxLayout(self.banner)
        bl.setContentsMargins(8, 4, 8, 4)
        self.banner_label = QLabel()
        self.banner_label.setWordWrap(True)
        self.banner_label.setTextFormat(Qt.TextFormat.PlainText)
        self.banner_discard = QPushButton("Discard Restored Work")
        self.banner_discard.clicked.connect(lambda: self._discard_recovered())
        self.banner_close = QToolButton()
        self.banner_close.setText("OK")
        self.banner_close.clicked.connect(lambda: self.banner.hide())
        bl.addWidget(self.banner_label, 1)
        bl.addWidget(self.banner_discard)
        bl.addWidget(self.banner_close)
        self.banner.hide()
        #: the variant a PDN record without GameType was read in, and "Read as"
        self.variant_notice = VariantNotice(bc)
        self.status = BreakableLabel(max_lines=2)  # wraps a path; cut at 2 lines (all in its tip)
        self.status.setObjectName("board-status")
        self.status.setAccessibleName("Board status")
        self.status.setMinimumHeight(self.status.fontMetrics().height() + 4)
        self.status.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.claim_bar = DrawClaimBar(bc, self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.banner)
        layout.addWidget(self.variant_notice)
        layout.addWidget(self.splitter, 1)
        # the draw claim and the status under the board (they wrap there): the record
        # and the panels keep the whole height
        ll.addWidget(self.claim_bar)
        ll.addWidget(self.status)

        # -- wiring --------------------------------------------------------------
        bc.modeChanged.connect(self._mode_changed)
        bc.statusMessage.connect(self.show_status)
        bc.gap.started.connect(lambda: self.panels.setCurrentIndex(GAP_TAB))
        # a result (or a cancelled search) makes the Gap panel taller: the explanation,
        # the sequences and their preview must be seen, not scrolled to
        bc.gap.finished.connect(lambda _r: QTimer.singleShot(0, self._make_room_for_panel))
        # the interview's question and answers (issue 30) change its height too
        bc.gap.questionChanged.connect(
            lambda _q: QTimer.singleShot(0, self._make_room_for_panel))
        self.panels.currentChanged.connect(lambda _i: self._make_room_for_panel())
        # the clock questions shown make the Check tab wider
        self.check_panel.clocks.toggle.toggled.connect(
            lambda _on: QTimer.singleShot(0, self._make_room_for_panel))
        if hasattr(controller, "rulingsRequested"):  # the app's rulings panel listens there
            bc.rulingsRequested.connect(controller.rulingsRequested)
        for changed in (bc.recordChanged, bc.counts.changed):  # the variant, the edition
            changed.connect(self.inForceChanged)
        if controller.library is not None:  # before the recovery: counted under these rules
            self.on_edition(controller.edition_id or "")
        else:  # a long autosave read once they are known (loaded or failed), counted once
            bc.files.hold_recovery()
            controller.loadFailed.connect(lambda _problems: bc.files.release_recovery())
        if bc.files.recover():
            saved = bc.files.recovered_at  # the autosave's time, not this session's
            when = f" (autosaved {saved})" if saved else ""
            self.banner_label.setText(
                f"Restored the unsaved work of the last session{when}. Save it as a "
                "case to keep it, or discard it.")
            self.start_notice = (f"Board: restored the unsaved work of the last "
                                 f"session{when}; open the Board to save or discard it.")
            self.banner.show()
        self.record_panel.rebuild()
        self._mode_changed(bc.mode)
        self.refresh()

    def _make_room_for_panel(self) -> None:
        """The board column gives up its width first: the record and the panels get
        what they need, the board the rest, no wider than its column is high."""
        # the move list's two columns of moves "10x14" grow with the font
        record_least = max(RECORD_LEAST, self.move_list.fontMetrics().horizontalAdvance("0") * 26)
        sizes = self.splitter.sizes()
        total = sum(sizes)
        if len(sizes) != 2 or total <= 0:
            return
        # the panels' least widths grow with the font (1.25x: no sideways scrolling)
        pages = [self.panels.widget(i) for i in range(self.panels.count())]
        inner = [w for p in pages if isinstance(p, QScrollArea) and (w := p.widget()) is not None]
        panels = max([PANELS_LEAST, *(w.minimumSizeHint().width() + 4 for w in inner)])
        setup = self.setup_panel.minimumSizeHint().width() + 4
        need = max(record_least + panels, setup, self.right_stack.minimumSizeHint().width())
        board = max(BOARD_LEAST, min(total - need, self.left_column.height() + 8))
        if board != sizes[0]:
            self.splitter.setSizes([board, total - board])
        inner_sizes = self.right_splitter.sizes()
        right = sum(inner_sizes)
        if len(inner_sizes) == 2 and right > 0 and inner_sizes[1] < panels:
            record = max(record_least, right - panels)
            self.right_splitter.setSizes([record, right - record])
        elif len(inner_sizes) == 2 and board < self.left_column.height() + 8 \
                and inner_sizes[0] > record_least:  # a short window: the room to the panels
            self.right_splitter.setSizes([record_least, right - record_least])

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._make_room_for_panel()

    def _alias_panel_widgets(self) -> None:
        """The panels' widgets under the names the workspace has always had (tests,
        screenshots and the other workspaces' code use them)."""
        tb, sp, rp = self.toolbar, self.setup_panel, self.record_panel
        cp, clocks, gp = self.check_panel, self.check_panel.clocks, self.gap_panel
        self.new_action, self.open_action, self.paste_action = \
            tb.new_action, tb.open_action, tb.paste_action
        self.variant_combo, self.mode_group, self.mode_actions = \
            tb.variant_combo, tb.mode_group, tb.mode_actions
        self.flip_action, self.numbers_action = tb.flip_action, tb.numbers_action
        self.export_action, self.copy_fen_action = tb.export_action, tb.copy_fen_action
        self.open_case_action, self.save_case_action, self.undo_action = \
            tb.open_case_action, tb.save_case_action, tb.undo_action
        self.nav_actions = tb.nav_actions
        self.tool_group, self.tool_buttons = sp.tool_group, sp.tool_buttons
        self.clear_button, self.start_button, self.turn_buttons = \
            sp.clear_button, sp.start_button, sp.turn_buttons
        self.fen_edit, self.paste_fen_button, self.copy_fen_button = \
            sp.fen_edit, sp.paste_fen_button, sp.copy_fen_button
        self.sanity_label, self.use_start_button = sp.sanity_label, sp.use_start_button
        self.board_now_button, self.setup_done_button = sp.board_now_button, sp.setup_done_button
        self.move_list, self.comment_view, self.move_entry, self.record_title = \
            rp.move_list, rp.comment_view, rp.move_entry, rp.record_title
        self.check_button, self.let_stand_box = cp.check_button, cp.let_stand_box
        self.check_view, self.rulings_button = cp.check_view, cp.rulings_button
        self.clock_box, self.clock_toggle, self.clock_form = clocks, clocks.toggle, clocks.form
        self.clock_black, self.clock_white, self.clock_control = \
            clocks.black, clocks.white, clocks.control
        self.clock_result, self.clock_formula = clocks.result, clocks.formula
        self.gap_target_label, self.gap_mark_button = gp.target_label, gp.mark_button
        self.gap_kind, self.gap_plies, self.gap_known = gp.kind, gp.plies, gp.known
        self.gap_search_button, self.gap_cancel_button = gp.search_button, gp.cancel_button
        self.gap_progress, self.gap_explanation, self.gap_list = \
            gp.progress, gp.explanation, gp.list
        self.gap_adopt_button, self.preview_box = gp.adopt_button, gp.preview
        self.preview_prev, self.preview_next = gp.preview.prev_button, gp.preview.next_button
        self.preview_slider, self.preview_ply_label = gp.preview.slider, gp.preview.ply_label
        self.preview_back, self.preview_moves_label = \
            gp.preview.back_button, gp.preview.moves_label

    # ------------------------------------------------------------------ panels' texts
    @property
    def last_clock_advice(self) -> ClockAdvice | None:
        return self.check_panel.clocks.last_advice

    def clock_text(self) -> str:
        """The clock result as plain text (tests, screen readers)."""
        return self.check_panel.clocks.text()

    def counts_text(self) -> str:
        return self.counts_panel.text()

    def preview_moves_text(self) -> str:
        """The preview's move strip as plain text (tests)."""
        return self.gap_panel.preview.moves_text()

    def marked_plies(self) -> list[int]:
        """Plies marked illegal in the move list."""
        out = []
        for ply in range(1, len(self.board_controller.moves) + 1):
            cell = self.move_list.item_for_ply(ply)
            if cell is not None and cell.text().startswith("✗"):
                out.append(ply)
        return out

    def start_gap(self) -> bool:
        return self.gap_panel.start()

    def adopt_selected(self) -> bool:
        return self.gap_panel.adopt_selected()

    def refresh(self) -> None:
        """Show everything again (each panel also follows the controller's signals)."""
        self.board_view.refresh()
        self.toolbar.refresh()
        self.setup_panel.refresh()
        self.record_panel.comment_view.refresh()
        self.record_panel.update_title()
        self.counts_panel.refresh()
        self.gap_panel.show_target()
        self.gap_panel.preview.refresh()

    # ------------------------------------------------------------------ events
    def show_status(self, text: str) -> None:
        """On the board's own status line; the window's status bar only while the
        Board is not shown (it said the same twice, cut off at 1024 px)."""
        self._status_text = text
        # it wraps under the board, a FEN or a file name at its punctuation (else the
        # board's column stayed 430 px); whole in its tooltip and the log (issue 33)
        self.status.setText(breakable(text))
        self.status.setToolTip(plain_tip(text) if text else "")
        log = getattr(self.window(), "status_log", None)
        if log is not None and text:
            log.add(text)
        if not self.isVisible():
            self.controller.statusMessage.emit(text)

    def status_text(self) -> str:
        return getattr(self, "_status_text", "")

    def _square_clicked(self, square: int, button: int) -> None:
        right = button == int(Qt.MouseButton.RightButton.value)
        bc = self.board_controller
        if bc.mode == "setup":  # right button or Shift: the other colour (CheckerBoard)
            shift = bool(self.board.last_click_modifiers() & Qt.KeyboardModifier.ShiftModifier)
            bc.setup.click(square, other=right or shift)
            return
        bc.input.click_square(square, erase=right)

    def _mode_changed(self, mode: str) -> None:
        self.right_stack.setCurrentWidget(
            self.setup_scroll if mode == "setup" else self.right_splitter)
        if mode == "check":
            self.panels.setCurrentIndex(CHECK_TAB)

    def copy_fen(self) -> None:
        self.board_controller.export.copy_fen()

    def _mark_board_now(self) -> None:
        if self.board_controller.gap.mark_board_now():
            self.panels.setCurrentIndex(GAP_TAB)

    def _discard_recovered(self) -> None:
        bc = self.board_controller
        bc.editing.new_game()
        bc.mark_saved()
        bc.files.discard_autosave()
        self.banner.hide()
        self.show_status("Discarded the restored work (Ctrl+Z brings it back)")

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress \
                and obj in (self.board, self.move_list):
            action = NAV_KEYS.get(Qt.Key(event.key()))
            if action is not None and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
                getattr(self.board_controller.nav, action)()
                return True
            if event.key() == Qt.Key.Key_Escape and (self.board_controller.input.partial
                                                     or self.board_controller.gap.previewing):
                self.board_controller.input.cancel_input()
                return True
        if obj is self._watched_window and event.type() == QEvent.Type.Close:
            if not self.can_close():
                event.ignore()
                return True
            self.board_controller.shutdown()
        return super().eventFilter(obj, event)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self._make_room_for_panel()
        window = self.window()
        if window is not self and window is not self._watched_window:
            if self._watched_window is not None:
                self._watched_window.removeEventFilter(self)
            self._watched_window = window
            window.installEventFilter(self)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.board_controller.shutdown()
        super().closeEvent(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt API
        action = NAV_KEYS.get(Qt.Key(event.key()))
        if action is not None and not event.modifiers():
            getattr(self.board_controller.nav, action)()
            return
        super().keyPressEvent(event)

    # ------------------------------------------------------------------ closing
    def can_close(self) -> bool:
        """Ask before closing with unsaved changes; True when closing may go on."""
        bc = self.board_controller
        if not bc.dirty:
            bc.files.discard_autosave()
            return True
        answer = self.confirm_close()
        if answer == "cancel":
            return False
        if answer == "save":
            return self.save_case()
        bc.files.discard_autosave()
        return True

    def may_replace(self, what: str) -> bool:
        """Before ``what`` replaces the record: ask Save / Discard / Cancel when there is
        unsaved work. True when it may be replaced (saved first, or discarded); a
        cancelled question or save leaves everything as it was."""
        bc = self.board_controller
        if not bc.unsaved_work:
            return True
        answer = self.confirm_replace(what)
        if answer == "save":
            return self.save_case()
        return answer == "discard"

    def new_record(self) -> None:
        """New: a new record from the start position, asking first about unsaved work."""
        if self.may_replace("a new record"):
            self.board_controller.editing.new_game()

    def _ask_replace(self, what: str) -> str:
        return board_questions.ask_replace(self, what)

    def _ask_close(self) -> str:
        return board_questions.ask_close(self)

    # ------------------------------------------------------------------ files
    def _ask_game(self, chunks: list) -> int | None:
        return board_questions.ask_game(self, chunks, self._importing)

    def open_pdn(self, path: str | Path, index: int | None = None) -> bool:
        from rulesbook.limits import GAME_FILE, MAX_GAME_FILE_BYTES
        from rulesbook.textio import read_text

        path = Path(path)
        try:  # the decoding policy and size limit of every reader (rulesbook.textio)
            decoded = read_text(path, max_bytes=MAX_GAME_FILE_BYTES, what=GAME_FILE,
                                name=path.name)
        except ValueError as exc:
            self.show_status(f"Cannot open {path}: {exc}")
            return False
        return self.import_text(decoded.text, index, source=path.name,
                                note=decoded.warning or "")

    def import_text(self, text: str, index: int | None = None, source: str = "",
                    note: str = "") -> bool:
        bc = self.board_controller
        text = text.removeprefix("\ufeff")  # a BOM copied along with the record
        chunks = bc.files.games_in(text) if text.lstrip().startswith(("[", "{", ";")) or "[" in \
            text[:2000] else []
        if index is None:
            index = 0
            if len(chunks) > 1:
                self._importing = source
                chosen = self.choose_game(chunks)
                if chosen is None:
                    return False
                index = chosen
        variant = self.variant_combo.currentData()  # for a plain list of moves
        return bc.files.load_text(text, index, variant, source=source, guess=True, note=note)

    def open_pdn_dialog(self) -> None:
        s = QSettings()
        folder = s.value(self.key("folder"), str(Path.home()))
        path, _ = QFileDialog.getOpenFileName(self, "Open a PDN file", str(folder), PDN_FILTER)
        if path:
            s.setValue(self.key("folder"), str(Path(path).parent))
            self.open_pdn(path)

    def paste_record(self) -> None:
        text = QGuiApplication.clipboard().text()
        if not text.strip():
            self.show_status("The clipboard is empty: copy a PDN game or a list of moves")
            return
        self.import_text(text, source="the pasted record")

    def export_pdn_dialog(self) -> None:
        from rulesbook.storage import SaveError

        path, _ = QFileDialog.getSaveFileName(self, "Export PDN", str(Path.home() / "game.pdn"),
                                              PDN_FILTER)
        if not path:
            return
        try:
            self.board_controller.export.write_pdn(path)
        except SaveError as exc:
            warn(self, "Export failed", str(exc))

    def save_case_soon(self, path: str | Path | None = None) -> bool:
        """Save Case: as :meth:`save_case`, a long record's case worked out off the
        GUI thread (written when ready; True once it began)."""
        return self.save_case(path, soon=True)

    def save_case(self, path: str | Path | None = None, soon: bool = False) -> bool:
        """Save the case file (asking where when it has no file yet), done when it
        returns (closing or replacing the record waits for it); ``soon``: see
        :meth:`save_case_soon`."""
        bc = self.board_controller
        if path is None:
            path = bc.case_path
        if path is None:
            path = board_questions.ask_case_path(self, CASE_FILTER)
            if path is None:
                return False
        if soon:
            return bc.files.save_case_soon(path)
        if not bc.files.save_case_soon(path):
            return False
        if bc.files.saving is None:  # a short record: saved already
            return True
        # a long record, before closing or replacing it: worked out off the GUI thread
        return wait_for(self, "Save Case", f"Saving the case {Path(path).name}…",
                        bc.files.saveFinished) is True

    def open_case_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a case", str(Path.home()),
                                              CASE_FILTER)
        if path:
            self.board_controller.files.open_case(path)

    # ------------------------------------------------------------------ workspace hooks
    def on_library(self, library) -> None:
        self.on_edition(self.controller.edition_id or "")
        # a long autosave held (:meth:`SessionFiles.hold_recovery`) read once the
        # window is shown: its first showing does not wait for the reader
        QTimer.singleShot(0, self.board_controller.files.release_recovery)

    def on_edition(self, edition_id: str) -> None:
        library = self.controller.library
        if library is None:
            return
        try:
            from rulesbook.rulings import count_rules_for

            rules, _sources = count_rules_for(library, edition_id or None)
        except Exception as exc:  # noqa: BLE001 - keep the board usable
            self.show_status(f"Counts: cannot read the edition's limits: {exc}")
            return
        title = edition_id
        try:
            title = library.edition(edition_id).title if edition_id else title
        except Exception:  # noqa: BLE001
            pass
        self.board_controller.counts.set_rules(rules, title, edition_id or None, library)

    def in_force_words(self) -> tuple[str, str]:
        return in_force_words(self.board_controller)

    def save_state(self, settings: QSettings) -> None:
        self.save_layout(settings, columns=self.splitter, record=self.right_splitter)
        settings.setValue(self.key("flipped"), self.board.is_flipped())
        settings.setValue(self.key("numbers"), self.board.shows_numbers())

    def restore_state(self, settings: QSettings) -> None:
        self.restore_layout(settings, columns=self.splitter, record=self.right_splitter)
        self.board.set_flipped(bool(settings.value(self.key("flipped"), False, type=bool)))
        numbers = bool(settings.value(self.key("numbers"), False, type=bool))
        self.numbers_action.setChecked(numbers)
        self.board.set_show_numbers(numbers)

    def focus_main(self) -> None:
        self.board.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def export_document(self) -> tuple[str, str] | None:
        return self.board_controller.export.report()
