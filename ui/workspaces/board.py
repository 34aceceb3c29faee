"""The Board workspace: set up a position, replay a record, find the first
illegal move, see the draw counts, fill a gap in the record, keep case files.

The :class:`~ui.board.controller.BoardController` owns the state; this view
lays out the board, the move list and the panels and forwards the user's input.
"""
from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSettings, QSignalBlocker, Qt
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from rulesbook.draughts import Color
from rulesbook.reconstruct import written_squares
from rulesbook.reconstruct.display import counts_lines

from ..board import Arrow, BoardController, BoardWidget, MoveList
from ..board.clocks import FORMULA, format_clock, parse_clock
from ..board.controller import TOOLS, VARIANT_NAMES
from ..board.preview import BRANCH_COLOUR, PlySlider
from ..board.widget import BOARD_COLOURS
from . import Workspace

NAV_KEYS = {Qt.Key.Key_Left: "previous", Qt.Key.Key_Right: "next",
            Qt.Key.Key_Up: "previous", Qt.Key.Key_Down: "next",
            Qt.Key.Key_Home: "first", Qt.Key.Key_End: "last"}
TOOL_LABELS = {"black-man": "Black man", "black-king": "Black king",
               "white-man": "White man", "white-king": "White king", "eraser": "Eraser"}
PDN_FILTER = "PDN files (*.pdn *.txt);;All files (*)"
CASE_FILTER = "Dispute cases (*.yaml *.yml);;All files (*)"


class _CompactBrowser(QTextBrowser):
    """A text browser that asks for little height (it still stretches into the room
    there is), so that a panel in a scroll area does not scroll for its sake."""

    def sizeHint(self):  # noqa: N802 - Qt API
        hint = super().sizeHint()
        hint.setHeight(min(hint.height(), 96))
        return hint


def _scrolled(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area, so a small window never squashes it."""
    area = QScrollArea()
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setMinimumSize(60, 40)
    return area


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
        self.choose_game: Callable[[list], int | None] = self._ask_game
        self._watched_window: QWidget | None = None

        # -- board -----------------------------------------------------------------
        self.board = BoardWidget()
        self.board.squareClicked.connect(self._square_clicked)
        self.board.pieceDropped.connect(bc.input.drop_piece)
        self.board.installEventFilter(self)

        # -- toolbar ---------------------------------------------------------------
        self.toolbar = QToolBar("Board")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.new_action = self._action("New", bc.new_game, "Ctrl+Shift+G",
                                       "Start a new record from the start position")
        self.open_action = self._action("Open PDN…", self.open_pdn_dialog, "Ctrl+Shift+O",
                                        "Import a game from a PDN file")
        self.paste_action = self._action("Paste Record", self.paste_record, "Ctrl+Shift+V",
                                         "Import PDN or a plain move list from the clipboard")
        self.toolbar.addAction(self.new_action)
        self.toolbar.addAction(self.open_action)
        self.toolbar.addAction(self.paste_action)
        self.variant_combo = QComboBox()
        self.variant_combo.setAccessibleName("Variant")
        for name in VARIANT_NAMES:
            self.variant_combo.addItem(name.capitalize() if name != "pool" else
                                       "Pool (APCA)", name)
        self.variant_combo.activated.connect(
            lambda row: bc.set_variant(self.variant_combo.itemData(row)))
        self.variant_combo.setToolTip("The rules the record is read under (per game)")
        self.toolbar.addWidget(self.variant_combo)
        self.toolbar.addSeparator()
        self.mode_group = QActionGroup(self)
        self.mode_actions: dict[str, QAction] = {}
        for mode, text, key in (("play", "Play", "Ctrl+Shift+1"),
                                ("setup", "Set Up", "Ctrl+Shift+2"),
                                ("check", "Check Record", "Ctrl+Shift+3")):
            action = self._action(text, lambda m=mode: bc.set_mode(m), key)
            action.setCheckable(True)
            self.mode_group.addAction(action)
            self.toolbar.addAction(action)
            self.mode_actions[mode] = action
        self.toolbar.addSeparator()
        self.flip_action = self._action("Flip", self._flip, "Ctrl+Shift+F",
                                        "Turn the board round")
        self.numbers_action = self._action("Numbers", self._numbers, "Ctrl+Shift+U",
                                           "Show the square numbers")
        self.numbers_action.setCheckable(True)
        self.toolbar.addAction(self.flip_action)
        self.toolbar.addAction(self.numbers_action)
        self.toolbar.addSeparator()
        self.export_action = self._action("Export PDN…", self.export_pdn_dialog, None,
                                          "Save the record as PDN")
        self.copy_fen_action = self._action("Copy FEN", self.copy_fen, None,
                                            "Copy the position shown as FEN")
        self.open_case_action = self._action("Open Case…", self.open_case_dialog, None)
        self.save_case_action = self._action("Save Case", self.save_case, "Ctrl+S",
                                             "Save the dispute case file")
        self.undo_action = self._action("Undo", bc.undo, "Ctrl+Z")
        for action in (self.export_action, self.copy_fen_action, self.open_case_action,
                       self.save_case_action, self.undo_action):
            self.toolbar.addAction(action)

        # -- set-up palette --------------------------------------------------------
        self.setup_panel = self._build_setup_panel()

        # -- move list and record entry -------------------------------------------
        self.move_list = MoveList()
        self.move_list.plyClicked.connect(bc.go)
        self.move_list.installEventFilter(self)
        self.comment_view = QTextBrowser()
        self.comment_view.setAccessibleName("Comment")
        self.comment_view.setOpenLinks(False)
        self.comment_view.setMaximumHeight(80)
        self.comment_view.setMinimumHeight(30)
        self.comment_view.setPlaceholderText("Comments and variations of the current move")
        self.move_entry = QLineEdit()
        self.move_entry.setPlaceholderText("Type moves as written: 11-15 23-19 8-11… (Enter)")
        self.move_entry.setAccessibleName("Type moves")
        self.move_entry.returnPressed.connect(self._typed)
        record_box = QWidget()
        rl = QVBoxLayout(record_box)
        rl.setContentsMargins(0, 0, 0, 0)
        self.record_title = QLabel()
        self.record_title.setTextFormat(Qt.TextFormat.PlainText)
        self.record_title.setWordWrap(True)
        rl.addWidget(self.record_title)
        rl.addWidget(self.move_list, 1)
        rl.addWidget(self.comment_view)
        rl.addWidget(self.move_entry)

        # -- panels: check, counts, gap -------------------------------------------
        self.panels = QTabWidget()
        self.panels.setDocumentMode(True)
        self.panels.addTab(_scrolled(self._build_check_panel()), "Chec&k")
        self.panels.addTab(_scrolled(self._build_counts_panel()), "Cou&nts")
        self.panels.addTab(_scrolled(self._build_gap_panel()), "&Gap")

        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(_scrolled(record_box))
        right.addWidget(self.panels)
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 1)
        right.setSizes([340, 360])
        self.right_splitter = right

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(4, 4, 4, 4)
        ll.addWidget(self.board, 1)
        self.setup_scroll = _scrolled(self.setup_panel)
        self.setup_scroll.setSizePolicy(QSizePolicy.Policy.Preferred,
                                        QSizePolicy.Policy.Maximum)
        self.setup_scroll.setMaximumHeight(self.setup_panel.sizeHint().height() + 4)
        ll.addWidget(self.setup_scroll)

        self.splitter = QSplitter()
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([620, 400])

        # -- banner and status ----------------------------------------------------
        self.banner = QFrame()
        self.banner.setObjectName("recovery-banner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        bl = QHBoxLayout(self.banner)
        bl.setContentsMargins(8, 4, 8, 4)
        self.banner_label = QLabel()
        self.banner_label.setWordWrap(True)
        self.banner_discard = QPushButton("Discard Restored Work")
        self.banner_discard.clicked.connect(self._discard_recovered)
        self.banner_close = QToolButton()
        self.banner_close.setText("OK")
        self.banner_close.clicked.connect(self.banner.hide)
        bl.addWidget(self.banner_label, 1)
        bl.addWidget(self.banner_discard)
        bl.addWidget(self.banner_close)
        self.banner.hide()
        self.status = QLabel()
        self.status.setObjectName("board-status")
        self.status.setAccessibleName("Board status")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.setMinimumHeight(self.status.fontMetrics().height() + 4)
        self.status.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.banner)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.status)

        # -- wiring --------------------------------------------------------------
        bc.changed.connect(self.refresh)
        bc.recordChanged.connect(self._rebuild_list)
        bc.plyChanged.connect(self.move_list.set_current)
        bc.modeChanged.connect(self._mode_changed)
        bc.statusMessage.connect(self.show_status)
        bc.checkChanged.connect(self._show_check)
        bc.gap.started.connect(self._gap_started)
        bc.gap.progress.connect(self._gap_progress)
        bc.gap.finished.connect(self._gap_finished)
        bc.gap.failed.connect(self._gap_failed)
        bc.dirtyChanged.connect(lambda _d: self._update_title())
        if hasattr(controller, "rulingsRequested"):  # the app's rulings panel listens there
            bc.rulingsRequested.connect(
                lambda incident, facts: controller.rulingsRequested.emit(incident, dict(facts)))
        if bc.files.recover():
            saved = bc.files.to_session().get("saved_at", "")
            self.banner_label.setText(
                "Restored the unsaved work of the last session"
                + (f" (autosaved {saved})" if saved else "")
                + ". Save it as a case to keep it, or discard it.")
            self.banner.show()
        self._rebuild_list()
        self._mode_changed(bc.mode)
        self.refresh()
        if controller.library is not None:
            self.on_edition(controller.edition_id or "")

    # ------------------------------------------------------------------ building
    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        # triggered(bool) must never reach the slot: New got `variant=False`
        # and Save Case `path=False` that way (issue 13).
        action.triggered.connect(lambda _checked=False: slot())
        label = tip or text.replace("…", "")
        if shortcut:
            label += f" ({action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})"
        action.setToolTip(label)
        self.addAction(action)
        return action

    def _build_setup_panel(self) -> QWidget:
        bc = self.board_controller
        panel = QFrame()
        panel.setObjectName("setup-panel")
        panel.setFrameShape(QFrame.Shape.StyledPanel)
        grid = QGridLayout(panel)
        grid.setContentsMargins(6, 6, 6, 6)
        self.tool_group = QButtonGroup(panel)
        self.tool_buttons: dict[str, QToolButton] = {}
        tools = QHBoxLayout()
        tools.addWidget(QLabel("Place:"))
        for i, tool in enumerate(TOOLS):
            button = QToolButton()
            button.setText(TOOL_LABELS[tool])
            button.setCheckable(True)
            button.setAccessibleName(TOOL_LABELS[tool])
            button.setObjectName(f"tool-{tool}")
            button.setToolTip(f"{TOOL_LABELS[tool]}: click squares to place "
                              f"(click again or right-click to remove)")
            self._style_tool(button, tool)
            button.clicked.connect(lambda _c=False, t=tool: bc.setup.set_tool(t))
            self.tool_group.addButton(button, i)
            self.tool_buttons[tool] = button
            tools.addWidget(button)
        self.tool_buttons[bc.setup.tool].setChecked(True)
        tools.addStretch(1)
        grid.addLayout(tools, 0, 0, 1, 4)
        self.clear_button = QPushButton("Clear Board")
        self.clear_button.clicked.connect(bc.setup.clear)
        self.start_button = QPushButton("Start Position")
        self.start_button.clicked.connect(bc.setup.start_position)
        self.turn_combo = QComboBox()
        self.turn_combo.setAccessibleName("Side to move")
        self.turn_combo.addItem("Black to move", Color.BLACK.value)
        self.turn_combo.addItem("White to move", Color.WHITE.value)
        self.turn_combo.activated.connect(
            lambda row: bc.setup.set_turn(Color(self.turn_combo.itemData(row))))
        grid.addWidget(self.clear_button, 1, 0)
        grid.addWidget(self.start_button, 1, 1)
        grid.addWidget(self.turn_combo, 1, 2)
        self.fen_edit = QLineEdit()
        self.fen_edit.setAccessibleName("FEN")
        self.fen_edit.setPlaceholderText("FEN, e.g. B:W21-32:B1-12 (Enter to set up)")
        self.fen_edit.returnPressed.connect(lambda: bc.setup.set_fen(self.fen_edit.text()))
        self.paste_fen_button = QPushButton("Paste FEN")
        self.paste_fen_button.clicked.connect(self._paste_fen)
        self.copy_fen_button = QPushButton("Copy FEN")
        self.copy_fen_button.clicked.connect(self.copy_fen)
        grid.addWidget(self.fen_edit, 2, 0, 1, 2)
        grid.addWidget(self.paste_fen_button, 2, 2)
        grid.addWidget(self.copy_fen_button, 2, 3)
        self.sanity_label = QLabel()
        self.sanity_label.setObjectName("sanity")
        self.sanity_label.setWordWrap(True)
        self.sanity_label.setTextFormat(Qt.TextFormat.PlainText)
        grid.addWidget(self.sanity_label, 3, 0, 1, 4)
        self.use_start_button = QPushButton("Start Record from Here")
        self.use_start_button.setToolTip("A new record starting from this position")
        self.use_start_button.clicked.connect(bc.setup.use_as_start)
        self.board_now_button = QPushButton("This Is the Board Now")
        self.board_now_button.setToolTip("The position on the board now: fill the gap "
                                         "between the record and it")
        self.board_now_button.clicked.connect(self._mark_board_now)
        self.setup_done_button = QPushButton("Back to Record")
        self.setup_done_button.clicked.connect(lambda: bc.set_mode("play"))
        grid.addWidget(self.use_start_button, 4, 0)
        grid.addWidget(self.board_now_button, 4, 1)
        grid.addWidget(self.setup_done_button, 4, 2)
        return panel

    def _style_tool(self, button: QToolButton, tool: str) -> None:
        piece = TOOLS[tool]
        if piece is None:
            return
        colour = BOARD_COLOURS["red"] if piece.color is Color.BLACK else BOARD_COLOURS["white"]
        fg = "white" if piece.color is Color.BLACK else "black"
        button.setStyleSheet(
            f"QToolButton {{ background: {colour.name()}; color: {fg}; border: 1px solid "
            f"#555; border-radius: 4px; padding: 3px 6px; }} "
            f"QToolButton:checked {{ border: 3px solid #1e64c8; font-weight: bold; }}")

    def _build_check_panel(self) -> QWidget:
        bc = self.board_controller
        panel = QWidget()
        lay = QVBoxLayout(panel)
        row = QHBoxLayout()
        self.check_button = QPushButton("Check Record")
        self.check_button.setToolTip("Replay the record and find the first illegal move")
        self.check_button.clicked.connect(bc.check_record)
        self.let_stand_box = QCheckBox("Let illegal moves stand (show all)")
        self.let_stand_box.toggled.connect(bc.set_let_stand)
        row.addWidget(self.check_button)
        row.addWidget(self.let_stand_box, 1)
        lay.addLayout(row)
        self.check_view = _CompactBrowser()
        self.check_view.setAccessibleName("Check result")
        self.check_view.setOpenLinks(False)
        self.check_view.anchorClicked.connect(self._check_link)
        self.check_view.setPlaceholderText("Check the record to find the first illegal move.")
        self.check_view.setMinimumHeight(90)
        lay.addWidget(self.check_view, 1)
        clocks = self._build_clock_box()
        self.rulings_button = QPushButton("Rulings for This Incident…")
        self.rulings_button.setEnabled(False)
        self.rulings_button.clicked.connect(bc.check.request_rulings)
        row = QHBoxLayout()
        row.addWidget(self.clock_toggle)
        row.addWidget(self.rulings_button, 1)
        lay.addLayout(row)
        lay.addWidget(clocks)
        return panel

    def _build_clock_box(self) -> QWidget:
        """Clock pro-rating (the ACF guide): the readings at discovery and the time
        control give the times to set at the restored position."""
        box = QWidget()
        box.setObjectName("clock-box")
        outer = QVBoxLayout(box)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        self.clock_toggle = QToolButton()
        self.clock_toggle.setText("Pro-rate the Clocks")
        self.clock_toggle.setToolTip("The ACF guide: recreate the position where the illegal "
                                     "move was made, pro-rating the time shown on the clocks")
        self.clock_toggle.setCheckable(True)
        self.clock_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.clock_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.clock_toggle.setAutoRaise(True)
        self.clock_toggle.toggled.connect(self._toggle_clocks)
        form = QFrame()
        form.setFrameShape(QFrame.Shape.StyledPanel)
        form.setObjectName("clock-form")
        form.setAccessibleName("Clocks at the restored position")
        form.hide()
        self.clock_form = form
        outer.addWidget(form)
        grid = QGridLayout(form)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.setVerticalSpacing(3)
        self.clock_black = QLineEdit()
        self.clock_white = QLineEdit()
        width = self.fontMetrics().horizontalAdvance("0:00:00") + 18
        for edit, side in ((self.clock_black, "Black"), (self.clock_white, "White")):
            edit.setPlaceholderText("m:ss")
            edit.setAccessibleName(f"{side}'s clock at discovery")
            edit.setToolTip(f"{side}'s clock now (minutes:seconds, or h:mm:ss)")
            edit.setFixedWidth(width)
            edit.textChanged.connect(self._update_clocks)
        self.clock_control = QSpinBox()
        self.clock_control.setAccessibleName("Time control per game")
        self.clock_control.setRange(0, 600)
        self.clock_control.setValue(0)
        self.clock_control.setSpecialValueText("not known")
        self.clock_control.setSuffix(" min")
        self.clock_control.setToolTip("Each side's time for the game (minutes)")
        self.clock_control.valueChanged.connect(self._update_clocks)
        for line, fields in enumerate(((("Clocks now: &Black", self.clock_black),
                                         ("&White", self.clock_white)),
                                        (("Time &control per game", self.clock_control),))):
            row = QHBoxLayout()
            row.setSpacing(4)
            for text, widget in fields:
                label = QLabel(text)
                label.setBuddy(widget)
                row.addWidget(label)
                row.addWidget(widget)
                row.addSpacing(8)
            row.addStretch(1)
            grid.addLayout(row, line, 0)
        self.clock_result = QLabel()
        self.clock_result.setObjectName("clock-result")
        self.clock_result.setAccessibleName("Clock times to set")
        self.clock_result.setWordWrap(True)
        self.clock_result.setTextFormat(Qt.TextFormat.RichText)
        self.clock_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        grid.addWidget(self.clock_result, 2, 0)
        self.clock_formula = QLabel(FORMULA)
        self.clock_formula.setObjectName("clock-formula")
        self.clock_formula.setWordWrap(True)
        self.clock_formula.setTextFormat(Qt.TextFormat.PlainText)
        self.clock_formula.setStyleSheet("color: #4a4a4a;")
        grid.addWidget(self.clock_formula, 3, 0)
        self.clock_box = box
        box.hide()
        self.clock_toggle.hide()
        return box

    def _toggle_clocks(self, shown: bool) -> None:
        self.clock_toggle.setArrowType(Qt.ArrowType.DownArrow if shown
                                       else Qt.ArrowType.RightArrow)
        self.clock_form.setVisible(shown)
        if shown:
            self.clock_black.setFocus(Qt.FocusReason.OtherFocusReason)
            area = self.clock_box.parentWidget()
            while area is not None and not isinstance(area, QScrollArea):
                area = area.parentWidget()
            if area is not None:
                area.ensureWidgetVisible(self.clock_form, 0, 0)

    def _update_clocks(self, *_args) -> None:
        """Work the clock times out again from the form (live, as the referee types)."""
        bc = self.board_controller
        counts = bc.clocks.moves()
        self.clock_box.setVisible(counts is not None)
        self.clock_toggle.setVisible(counts is not None)
        if counts is None:
            self.clock_result.setText("")
            return
        taken = (f"Taken back: Black {counts.black_since} of {counts.black_total} "
                 f"moves, White {counts.white_since} of {counts.white_total}.")
        try:
            black = parse_clock(self.clock_black.text())
            white = parse_clock(self.clock_white.text())
        except ValueError as exc:
            self.clock_result.setText(f"<span style='color:#c00000'>{html.escape(str(exc))}"
                                      f"</span>")
            return
        if black is None or white is None:
            self.clock_result.setText(html.escape("Type both clock readings. " + taken))
            return
        control = self.clock_control.value() * 60.0 or None
        try:
            advice = bc.clocks.advice(black, white, control)
        except ValueError as exc:
            text = str(exc)
            self.clock_result.setText(f"<span style='color:#c00000'>"
                                      f"{html.escape(text[:1].upper() + text[1:])}</span>")
            return
        self.last_clock_advice = advice
        given = ""
        if control is not None:
            given = (f" (given back: Black {format_clock(advice.black_given_back)}, "
                     f"White {format_clock(advice.white_given_back)})")
        else:
            given = " (no time control: the clocks stay as they read)"
        self.clock_result.setText(
            f"<span style='font-size:large'>Set <b>Black {format_clock(advice.black)}</b>, "
            f"<b>White {format_clock(advice.white)}</b></span>{html.escape(given)}<br>"
            f"{html.escape(taken)}")

    def clock_text(self) -> str:
        """The clock result as plain text (tests, screen readers)."""
        from PySide6.QtGui import QTextDocument

        doc = QTextDocument()
        doc.setHtml(self.clock_result.text())
        return doc.toPlainText()

    def _build_counts_panel(self) -> QWidget:
        panel = QWidget()
        self.counts_form = QFormLayout(panel)
        self.counts_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.counts_labels: list[QLabel] = []
        self._counts_heads: list[str] = []
        return panel

    def _build_gap_panel(self) -> QWidget:
        bc = self.board_controller
        panel = QWidget()
        lay = QVBoxLayout(panel)
        self.gap_target_label = QLabel()
        self.gap_target_label.setWordWrap(True)
        self.gap_target_label.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.gap_target_label)
        row = QHBoxLayout()
        self.gap_mark_button = QPushButton("Board Shown Is the Board Now")
        self.gap_mark_button.clicked.connect(self._mark_board_now)
        row.addWidget(self.gap_mark_button)
        lay.addLayout(row)
        row = QHBoxLayout()
        self.gap_kind = QComboBox()
        self.gap_kind.setAccessibleName("Missing plies")
        self.gap_kind.addItem("Exactly", "exact")
        self.gap_kind.addItem("At most", "max")
        self.gap_plies = QSpinBox()
        self.gap_plies.setRange(0, 40)
        self.gap_plies.setValue(2)
        self.gap_plies.setSuffix(" plies missing")
        self.gap_plies.setAccessibleName("Number of missing plies")
        row.addWidget(self.gap_kind)
        row.addWidget(self.gap_plies, 1)
        lay.addLayout(row)
        self.gap_known = QLineEdit()
        self.gap_known.setPlaceholderText("Known moves, e.g. 3:22x15, 5:11-? (optional)")
        self.gap_known.setAccessibleName("Known moves")
        lay.addWidget(self.gap_known)
        row = QHBoxLayout()
        self.gap_search_button = QPushButton("Search")
        self.gap_search_button.clicked.connect(self.start_gap)
        self.gap_cancel_button = QPushButton("Cancel")
        self.gap_cancel_button.setEnabled(False)
        self.gap_cancel_button.clicked.connect(bc.gap.cancel)
        self.gap_progress = QProgressBar()
        self.gap_progress.setRange(0, 1000)
        self.gap_progress.setValue(0)
        self.gap_progress.setTextVisible(True)
        self.gap_progress.setFormat("")
        row.addWidget(self.gap_search_button)
        row.addWidget(self.gap_progress, 1)
        row.addWidget(self.gap_cancel_button)
        lay.addLayout(row)
        self.gap_explanation = QLabel()
        self.gap_explanation.setWordWrap(True)
        self.gap_explanation.setTextFormat(Qt.TextFormat.PlainText)
        self.gap_explanation.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.gap_explanation)
        self.gap_list = QListWidget()
        self.gap_list.setAccessibleName("Sequences found")
        self.gap_list.setToolTip("Choose a sequence to see it on the board; ←/→ step "
                                 "through its plies, double-click adopts it")
        self.gap_list.currentRowChanged.connect(self._gap_row_changed)
        self.gap_list.itemDoubleClicked.connect(lambda _i: self.adopt_selected())
        self.gap_list.itemClicked.connect(  # the row shown again after "Show Record"
            lambda _i: self._gap_row_changed(self.gap_list.currentRow()))
        self.gap_list.installEventFilter(self)
        self.gap_list.setMinimumHeight(60)
        lay.addWidget(self.gap_list, 1)
        lay.addWidget(self._build_preview_box())
        self.gap_adopt_button = QPushButton("Adopt Sequence into the Record")
        self.gap_adopt_button.setEnabled(False)
        self.gap_adopt_button.clicked.connect(self.adopt_selected)
        lay.addWidget(self.gap_adopt_button)
        return panel

    def _build_preview_box(self) -> QWidget:
        """Stepping through the sequence previewed on the board: ◀ slider ▶, the moves
        with the current one highlighted and the plies where the sequences part."""
        bc = self.board_controller
        box = QFrame()
        box.setObjectName("gap-preview")
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        row = QHBoxLayout()
        row.setSpacing(4)
        self.preview_prev = QToolButton()
        self.preview_prev.setText("◀")
        self.preview_prev.setAccessibleName("Previous ply of the sequence")
        self.preview_prev.clicked.connect(bc.previous)
        self.preview_next = QToolButton()
        self.preview_next.setText("▶")
        self.preview_next.setAccessibleName("Next ply of the sequence")
        self.preview_next.clicked.connect(bc.next)
        self.preview_slider = PlySlider()
        self.preview_slider.setAccessibleName("Ply of the sequence shown")
        self.preview_slider.setToolTip("The ply of the sequence shown on the board; "
                                       "▼ marks where the sequences part")
        self.preview_slider.valueChanged.connect(self._preview_slider_moved)
        self.preview_ply_label = QLabel()
        self.preview_ply_label.setMinimumWidth(self.fontMetrics().horizontalAdvance("ply 00/00"))
        self.preview_back = QPushButton("Show Record")
        self.preview_back.setToolTip("Leave the preview: the board shows the record (Esc)")
        self.preview_back.clicked.connect(bc.gap.stop_preview)
        row.addWidget(self.preview_prev)
        row.addWidget(self.preview_slider, 1)
        row.addWidget(self.preview_next)
        row.addWidget(self.preview_ply_label)
        row.addWidget(self.preview_back)
        lay.addLayout(row)
        self.preview_moves_label = QLabel()
        self.preview_moves_label.setObjectName("gap-preview-moves")
        self.preview_moves_label.setAccessibleName("Moves of the sequence shown")
        self.preview_moves_label.setWordWrap(True)
        self.preview_moves_label.setTextFormat(Qt.TextFormat.RichText)
        self.preview_moves_label.linkActivated.connect(
            lambda link: bc.gap.preview_go(int(link.split(":", 1)[1])))
        lay.addWidget(self.preview_moves_label)
        self.preview_box = box
        box.setEnabled(False)
        return box

    def _gap_row_changed(self, row: int) -> None:
        bc = self.board_controller
        result = bc.gap.result
        if result is not None and 0 <= row < len(result.sequences):
            bc.gap.preview_sequence(row)
        else:
            bc.gap.stop_preview()
            self.refresh()

    def _preview_slider_moved(self, value: int) -> None:
        bc = self.board_controller
        if bc.gap.previewing and value != bc.gap.preview_ply:
            bc.gap.preview_go(value)

    def _show_preview(self) -> None:
        """The preview controls follow the controller's preview."""
        bc = self.board_controller
        moves = bc.gap.preview_texts() if bc.gap.previewing else ()
        self.preview_box.setEnabled(bool(moves))
        blocker = QSignalBlocker(self.preview_slider)
        self.preview_slider.setRange(0, len(moves))
        self.preview_slider.setValue(bc.gap.preview_ply if moves else 0)
        del blocker
        if not moves:
            self.preview_slider.set_marks(())
            self.preview_ply_label.setText("")
            result = bc.gap.result
            self.preview_moves_label.setText(
                "Choose a sequence to see it on the board." if result is not None and
                result.sequences else "")
            return
        branches = bc.gap.branch_plies()
        self.preview_slider.set_marks(branches)
        self.preview_ply_label.setText(f"ply {bc.gap.preview_ply}/{len(moves)}")
        self.preview_prev.setEnabled(bc.gap.preview_ply > 0)
        self.preview_next.setEnabled(bc.gap.preview_ply < len(moves))
        base = bc.gap.base_ply()
        first = bc.variant.first_player
        turn = bc.positions[base].turn
        colour = BRANCH_COLOUR.name()
        parts = []
        for i, text in enumerate(moves, 1):
            number = bc.move_number(base + i)
            prefix = f"{number}. " if turn is first else (f"{number}… " if i == 1 else "")
            cell = html.escape(text)
            if i in branches:
                cell = f"<span style='color:{colour}'>▼{cell}</span>"
            if i == bc.gap.preview_ply:
                cell = f"<span style='background:#ffe27a; font-weight:bold'>{cell}</span>"
            parts.append(f"{prefix}<a href='gap-ply:{i}' style='text-decoration:none; "
                         f"color:palette(text)'>{cell}</a>")
            turn = turn.opponent
        legend = (f" <span style='color:{colour}'>▼ the sequences part here</span>"
                  if branches else " (no other sequence parts from this one)")
        self.preview_moves_label.setText(
            f"Sequence {bc.gap.preview_index + 1}: " + " ".join(parts) + "<br><small>"
            + legend + "</small>")

    def preview_moves_text(self) -> str:
        """The preview's move strip as plain text (tests)."""
        from PySide6.QtGui import QTextDocument

        doc = QTextDocument()
        doc.setHtml(self.preview_moves_label.text())
        return doc.toPlainText()

    # ------------------------------------------------------------------ refresh
    def refresh(self) -> None:
        bc = self.board_controller
        pos = bc.position()
        self.board.set_position(pos)
        marks: tuple[int, ...] = ()
        arrows: list[Arrow] = []
        hints = bc.input.hint_squares()
        selected = bc.input.partial + ((bc.input.pending_end,) if bc.input.pending_end is not None else ())
        if bc.gap.previewing:
            # the sequence's next move in blue; where the sequences part, the other
            # sequences' moves dashed in orange
            hints = ()
            moves = bc.gap.preview_moves()
            for alt in bc.gap.preview_alternatives():
                arrows.append(Arrow(alt.path, BRANCH_COLOUR, dashed=True))
            if bc.gap.preview_ply < len(moves):
                arrows.append(Arrow(moves[bc.gap.preview_ply].path, BOARD_COLOURS["select"]))
        elif bc.mode == "check":
            illegal = bc.check.illegal_here()
            if illegal is not None:
                written = written_squares(illegal.move) or ()
                for text in illegal.legal_moves[:6]:
                    legal = written_squares(text)
                    if legal:
                        arrows.append(Arrow(legal, BOARD_COLOURS["select"]))
                if written:
                    arrows.append(Arrow(written, BOARD_COLOURS["mark"], dashed=True))
                    marks = (written[0],)
        elif bc.mode == "play" and not selected:
            hints = ()
        last = bc.last_move_squares() if bc.mode != "check" or not arrows or \
            bc.gap.previewing else ()
        self.board.set_highlights(last=last, selected=selected, hints=hints, marks=marks,
                                  arrows=tuple(arrows))
        self.board.set_caption(self._caption())
        if bc.mode == "setup":
            ok, message = bc.setup.check()
            self.sanity_label.setText(("✓ " if ok else "✗ ") + message)
            self.sanity_label.setStyleSheet("" if ok else "color: #c00000; font-weight: bold;")
            self.turn_combo.setCurrentIndex(0 if bc.setup.turn is Color.BLACK else 1)
            if not self.fen_edit.hasFocus():
                self.fen_edit.setText(pos.fen())
                self.fen_edit.setCursorPosition(0)
            for tool, button in self.tool_buttons.items():
                button.setChecked(tool == bc.setup.tool)
        self._show_comment()
        self._show_counts()
        self._show_gap_target()
        self._show_preview()
        self.undo_action.setEnabled(bc.can_undo())
        row = self.variant_combo.findData(bc.variant.name)
        if row >= 0:
            self.variant_combo.setCurrentIndex(row)
        self._update_title()

    def _caption(self) -> str:
        bc = self.board_controller
        pos = bc.position()
        if bc.mode == "setup":
            return f"Setting up · {pos.turn.title} to move"
        if bc.gap.previewing:
            moves = bc.gap.preview_texts()
            k = bc.gap.preview_ply
            where = "end of the record" if k == 0 else f"after {moves[k - 1]}"
            text = (f"Gap preview · sequence {bc.gap.preview_index + 1} of "
                    f"{len(bc.gap.result.sequences)} · ply {k}/{len(moves)} ({where}) · "
                    f"{pos.turn.title} to move")
            alternatives = len(bc.gap.preview_alternatives())
            if alternatives:
                text += f" · the sequences part here ({alternatives + 1} ways)"
            return text
        n = min(bc.ply, len(bc.moves))
        where = "start" if n == 0 else f"after {bc.move_number(n)}" \
            f"{'.' if bc.positions[n - 1].turn is bc.variant.first_player else '…'} " \
            f"{bc.moves[n - 1].text}"
        text = f"Ply {n}/{len(bc.moves)} ({where}) · {pos.turn.title} to move"
        if bc.mode == "check":
            text = "Checking · " + text
        elif pos.is_game_over():
            text += f" · {pos.turn.title} has no move"
        return text

    def _rebuild_list(self) -> None:
        self.move_list.rebuild(self.board_controller)

    def _update_title(self) -> None:
        bc = self.board_controller
        names = [bc.tags.get(k, "?") for k in ("Black", "White")]
        players = " – ".join(names) if any(n not in ("", "?") for n in names) else \
            ("Imported record" if bc.tags else "New record")
        event = bc.tags.get("Event", "")
        case = f" · case {bc.case_path.name}" if bc.case_path else ""
        dirty = " · unsaved changes (autosaved)" if bc.dirty else ""
        self.record_title.setText(f"{players}{' · ' + event if event else ''} · "
                                  f"{bc.variant.name}{case}{dirty}")

    def _show_comment(self) -> None:
        bc = self.board_controller
        parts = []
        if bc.ply == 0 and bc.comment:
            parts.append(html.escape(bc.comment))
        if 1 <= bc.ply <= len(bc.moves):
            move = bc.moves[bc.ply - 1]
            if move.comment:
                parts.append(html.escape(move.comment))
            for v in move.variations:
                parts.append(f"<i>Variation:</i> ({html.escape(v)})")
        self.comment_view.setHtml("<br>".join(parts))

    def _show_counts(self) -> None:
        bc = self.board_controller
        if bc.mode == "setup":
            rows = [("Counts", "shown for the record, not while setting up")]
        else:
            rows = counts_lines(bc.counts.at(), bc.counts.label)
        heads = [label for label, _text in rows]
        if heads != self._counts_heads:
            # the rows change only with the record's kind of count: rebuilt then,
            # otherwise every step just updates the texts
            self._counts_heads = heads
            while self.counts_form.rowCount():
                self.counts_form.removeRow(0)
            self.counts_labels = []
            for label in heads:
                value = QLabel()
                value.setWordWrap(True)
                value.setTextFormat(Qt.TextFormat.PlainText)
                self.counts_form.addRow(f"{label}:", value)
                self.counts_labels.append(value)
        for value, (_label, text) in zip(self.counts_labels, rows, strict=True):
            if value.text() != text:
                value.setText(text)
                value.setStyleSheet("color: #c00000; font-weight: bold;"
                                    if "REACHED" in text else "")

    def counts_text(self) -> str:
        return "\n".join(label.text() for label in self.counts_labels)

    def _show_gap_target(self) -> None:
        bc = self.board_controller
        running = bc.gap.running
        if bc.gap_target is None:
            self.gap_target_label.setText(
                "1. Set the board up as it stands now (Set Up), then \"This Is the Board "
                "Now\". 2. Say how many plies are missing. 3. Search.")
        else:
            self.gap_target_label.setText(
                f"From the end of the record (ply {bc.available_plies}) to the board now: "
                f"{bc.gap_target.fen()}")
        self.gap_search_button.setEnabled(bc.gap_target is not None and not running)
        self.gap_cancel_button.setEnabled(running)
        self.gap_adopt_button.setEnabled(
            not running and bc.gap.result is not None and self.gap_list.currentRow() >= 0)

    # ------------------------------------------------------------------ events
    def show_status(self, text: str) -> None:
        self.status.setText(text)
        self.controller.statusMessage.emit(text)

    def status_text(self) -> str:
        return self.status.text()

    def _square_clicked(self, square: int, button: int) -> None:
        erase = button == int(Qt.MouseButton.RightButton.value)
        self.board_controller.input.click_square(square, erase=erase)

    def _mode_changed(self, mode: str) -> None:
        action = self.mode_actions.get(mode)
        if action is not None:
            action.setChecked(True)
        self.setup_scroll.setVisible(mode == "setup")
        if mode == "check":
            self.panels.setCurrentIndex(0)
        self.refresh()

    def _flip(self) -> None:
        self.board.set_flipped(not self.board.is_flipped())

    def _numbers(self) -> None:
        self.board.set_show_numbers(self.numbers_action.isChecked())

    def _typed(self) -> None:
        text = self.move_entry.text().strip()
        if text and self.board_controller.type_moves(text):
            self.move_entry.clear()

    def _paste_fen(self) -> None:
        text = QGuiApplication.clipboard().text().strip()
        if text and self.board_controller.setup.set_fen(text):
            self.fen_edit.setText(self.board_controller.setup.position().fen())

    def copy_fen(self) -> None:
        fen = self.board_controller.export_fen()
        QGuiApplication.clipboard().setText(fen)
        self.show_status(f"Copied {fen}")

    def _mark_board_now(self) -> None:
        if self.board_controller.mark_board_now():
            self.panels.setCurrentIndex(2)

    def _discard_recovered(self) -> None:
        bc = self.board_controller
        bc.new_game()
        bc.mark_saved()
        bc.files.discard_autosave()
        self.banner.hide()
        self.show_status("Discarded the restored work (Ctrl+Z brings it back)")

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.KeyPress and obj is self.gap_list:
            # Up/Down choose a sequence; Left/Right step through the one shown
            bc = self.board_controller
            plain = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            if plain and bc.gap.previewing and event.key() in (Qt.Key.Key_Left, Qt.Key.Key_Right):
                (bc.previous if event.key() == Qt.Key.Key_Left else bc.next)()
                return True
            if event.key() == Qt.Key.Key_Escape and bc.gap.previewing:
                bc.gap.stop_preview()
                return True
        if event.type() == QEvent.Type.KeyPress and obj in (self.board, self.move_list):
            action = NAV_KEYS.get(Qt.Key(event.key()))
            if action is not None and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
                getattr(self.board_controller, action)()
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

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
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
            getattr(self.board_controller, action)()
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

    def _ask_close(self) -> str:
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Unsaved case")
        box.setText("The board has changes that are not saved in a case file.")
        box.setInformativeText("Save them before closing?")
        box.setStandardButtons(QMessageBox.StandardButton.Save
                               | QMessageBox.StandardButton.Discard
                               | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        if answer == QMessageBox.StandardButton.Save:
            return "save"
        if answer == QMessageBox.StandardButton.Discard:
            return "discard"
        return "cancel"

    # ------------------------------------------------------------------ files
    def _ask_game(self, chunks: list) -> int | None:
        titles = [c.title for c in chunks]
        title, ok = QInputDialog.getItem(self, "Choose a game",
                                         f"The file has {len(chunks)} games:", titles, 0, False)
        return titles.index(title) if ok and title in titles else None

    def open_pdn(self, path: str | Path, index: int | None = None) -> bool:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            self.show_status(f"Cannot open {path}: {exc.strerror or exc}")
            return False
        return self.import_text(text, index, source=path.name)

    def import_text(self, text: str, index: int | None = None, source: str = "") -> bool:
        bc = self.board_controller
        chunks = bc.files.games_in(text) if text.lstrip().startswith(("[", "{", ";")) or "[" in \
            text[:2000] else []
        if index is None:
            index = 0
            if len(chunks) > 1:
                chosen = self.choose_game(chunks)
                if chosen is None:
                    return False
                index = chosen
        variant = self.variant_combo.currentData()
        return bc.files.load_text(text, index, variant, source=source)

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
        from rulesbook.storage import SaveError, atomic_write_text

        path, _ = QFileDialog.getSaveFileName(self, "Export PDN", str(Path.home() / "game.pdn"),
                                              PDN_FILTER)
        if not path:
            return
        try:
            atomic_write_text(path, self.board_controller.export_pdn())
        except SaveError as exc:
            QMessageBox.warning(self, "Export failed", str(exc))
            return
        self.show_status(f"Exported {path}")

    def save_case(self, path: str | Path | None = None) -> bool:
        bc = self.board_controller
        if path is None:
            path = bc.case_path
        if path is None:
            chosen, _ = QFileDialog.getSaveFileName(self, "Save the case",
                                                    str(Path.home() / "case.yaml"), CASE_FILTER)
            if not chosen:
                return False
            path = chosen
        return bc.files.save_case(path) is not None

    def open_case_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a case", str(Path.home()),
                                              CASE_FILTER)
        if path:
            self.board_controller.files.open_case(path)

    # ------------------------------------------------------------------ check
    def _show_check(self, result) -> None:
        bc = self.board_controller
        if result is None:
            self.check_view.clear()
            self.rulings_button.setEnabled(False)
            self._update_clocks()
            self._rebuild_list()
            return
        self.move_list.rebuild(bc)
        parts = []
        if result.ok:
            parts.append(f"<p><b>Every move is legal</b> ({len(result.moves)} plies).</p>")
        for item in result.illegal if bc.let_stand else result.illegal[:1]:
            legal = ", ".join(item.legal_moves) or "none"
            parts.append(
                f"<p><a href='ply:{item.ply}'><b>Ply {item.ply}</b> (move {item.move_number}, "
                f"{item.side.title})</a>: written <b>{html.escape(item.move)}</b></p>"
                f"<p style='font-size:large'>{html.escape(item.message)}</p>"
                f"<p>Legal moves were: {html.escape(legal)}</p>"
                f"<p class='muted'>Incident: {html.escape(item.incident)}"
                f"{' · stood as played' if item.applied else ''}</p>")
        if result.illegal:
            parts.append("<p class='muted'>On the board: the move as written in red, "
                         "the legal moves in blue.</p>")
        if result.illegal and not bc.let_stand:
            parts.append("<p><i>The replay stops at the first illegal move; tick \"Let "
                         "illegal moves stand\" to see every one.</i></p>")
        elif not result.complete:
            parts.append("<p><i>The replay stopped there: the move cannot be put on the "
                         "board as written.</i></p>")
        self.check_view.setHtml("".join(parts))
        self.rulings_button.setEnabled(result.first_illegal is not None)
        self._update_clocks()

    def marked_plies(self) -> list[int]:
        """Plies marked illegal in the move list."""
        out = []
        for ply in range(1, len(self.board_controller.moves) + 1):
            cell = self.move_list.item_for_ply(ply)
            if cell is not None and cell.text().startswith("✗"):
                out.append(ply)
        return out

    def _check_link(self, url) -> None:
        text = url.toString()
        if text.startswith("ply:"):
            self.board_controller.go(int(text[4:]) - 1)

    # ------------------------------------------------------------------ gap
    def start_gap(self) -> bool:
        bc = self.board_controller
        n = self.gap_plies.value()
        known = [k.strip() for k in self.gap_known.text().replace(";", ",").split(",")
                 if k.strip()]
        if self.gap_kind.currentData() == "max":
            return bc.gap.start(max_plies=n, known=known)
        return bc.gap.start(plies=n, known=known)

    def _gap_started(self) -> None:
        self.gap_list.clear()
        self.gap_explanation.setText("Searching…")
        self.gap_progress.setValue(0)
        self.gap_progress.setFormat("%p%")
        self.panels.setCurrentIndex(2)
        self._show_gap_target()

    def _gap_progress(self, fraction: float, nodes: int) -> None:
        self.gap_progress.setValue(int(max(0.0, min(1.0, fraction)) * 1000))
        self.gap_progress.setFormat(f"%p% · {nodes:,} positions")

    def _gap_finished(self, result) -> None:
        self.gap_progress.setValue(1000 if not result.cancelled else self.gap_progress.value())
        self.gap_progress.setFormat("cancelled" if result.cancelled else
                                    f"done · {result.nodes:,} positions")
        self.gap_explanation.setText(result.explanation)
        self.gap_list.clear()
        for i, texts in enumerate(result.texts, 1):
            item = QListWidgetItem(f"{i}. " + " ".join(texts))
            item.setToolTip(" ".join(texts))
            self.gap_list.addItem(item)
        if result.texts:
            self.gap_list.setCurrentRow(0)
        for problem in result.unaccounted:
            self.gap_list.addItem(QListWidgetItem(f"✗ {problem}"))
        self._show_gap_target()

    def _gap_failed(self, message: str) -> None:
        self.gap_progress.setFormat("")
        self.gap_explanation.setText(f"Cannot search: {message}")
        self._show_gap_target()

    def adopt_selected(self) -> bool:
        row = self.gap_list.currentRow()
        result = self.board_controller.gap.result
        if result is None or not 0 <= row < len(result.texts):
            return False
        ok = self.board_controller.gap.adopt(row)
        if ok:
            self.gap_list.clear()
            self.gap_explanation.setText("")
        return ok

    # ------------------------------------------------------------------ workspace hooks
    def on_library(self, library) -> None:
        self.on_edition(self.controller.edition_id or "")

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
        self.board_controller.counts.set_rules(rules, title, edition_id or None)

    def save_state(self, settings: QSettings) -> None:
        self.save_layout(settings, splitter=self.splitter, right=self.right_splitter)
        settings.setValue(self.key("flipped"), self.board.is_flipped())
        settings.setValue(self.key("numbers"), self.board.shows_numbers())

    def restore_state(self, settings: QSettings) -> None:
        self.restore_layout(settings, splitter=self.splitter, right=self.right_splitter)
        self.board.set_flipped(settings.value(self.key("flipped"), False, type=bool))
        numbers = settings.value(self.key("numbers"), False, type=bool)
        self.numbers_action.setChecked(numbers)
        self.board.set_show_numbers(numbers)

    def focus_main(self) -> None:
        self.board.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def export_document(self) -> tuple[str, str] | None:
        bc = self.board_controller
        if not bc.moves:
            return None
        pdn = html.escape(bc.export_pdn())
        body = f"<h1>Game record</h1><pre>{pdn}</pre>"
        if bc.first_illegal is not None:
            body += f"<h2>First illegal move</h2><p>{html.escape(bc.first_illegal.message)}</p>"
        return ("Board record", body)
