"""The set-up palette, by the conventions of CheckerBoard and the Lidraughts editor.

- The four pieces are "spares": click one to choose it, then click squares to
  place it; or drag it straight onto a square.
- A left click places the chosen piece, a right click (or Shift+click) the same
  kind of the other colour; clicking a square holding that piece takes it off.
- ``K`` crowns or uncrowns the piece under the mouse (or the one placed last).
- A piece dragged on the board moves; dragged off the board it is taken off.
- ``Ctrl+V`` (or the FEN field) sets up the whole position from a FEN.
- Clear / start position, the side to move, the sanity check, and what the
  position is for ("This Is the Board Now", "Start Record from Here").

The palette sits beside the board (the workspace shows it in place of the
record's panels), so the board keeps its size in set-up mode.
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, QPointF, QSize, Qt
from PySide6.QtGui import (
    QAction,
    QGuiApplication,
    QIcon,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPixmap,
)
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from rulesbook.draughts import Color, Piece

from ..controller import BoardController
from ..setup import TOOLS
from ..widget import BoardWidget, paint_piece

__all__ = ["SetupPalette", "SpareButton", "TOOL_LABELS", "piece_icon"]

TOOL_LABELS = {"black-man": "Black man", "black-king": "Black king",
               "white-man": "White man", "white-king": "White king", "eraser": "Eraser"}
SPARE_SIZE = 40
HELP = ("Click a piece, then squares — or drag it onto the board. Right-click or "
        "Shift+click: the other colour. Click the same piece again, or drag it off the "
        "board, to take it off. K: man ↔ king. Ctrl+V: paste a FEN.")


def piece_icon(piece: Piece, size: int = SPARE_SIZE) -> QIcon:
    """``piece`` drawn as on the board (the palette's buttons)."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    paint_piece(painter, QPointF(size / 2, size / 2 - 1), float(size), piece)
    painter.end()
    return QIcon(pixmap)


class SpareButton(QToolButton):
    """A piece of the palette: a click chooses it; a drag carries it to the board.

    The drag is the button's own mouse grab (no drag-and-drop session): while
    the mouse moves, ``on_drag`` is told the global position; on release,
    ``on_drop``."""

    def __init__(self, tool: str, piece: Piece,
                 on_drag: Callable[[Piece, QPoint], None],
                 on_drop: Callable[[Piece, QPoint], None]):
        super().__init__()
        self.tool = tool
        self.piece = piece
        self._on_drag = on_drag
        self._on_drop = on_drop
        self._press: QPoint | None = None
        self._dragging = False
        self.setIcon(piece_icon(piece))
        self.setIconSize(QSize(SPARE_SIZE, SPARE_SIZE))
        self.setCheckable(True)

    def is_dragging(self) -> bool:
        return self._dragging

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position().toPoint()
            self._dragging = False
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if self._press is not None:
            moved = (event.position().toPoint() - self._press).manhattanLength()
            if self._dragging or moved >= QApplication.startDragDistance():
                self._dragging = True
                self.setDown(False)
                self.setCursor(Qt.CursorShape.ClosedHandCursor)
                self._on_drag(self.piece, event.globalPosition().toPoint())
                event.accept()
                return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        dragging, self._dragging, self._press = self._dragging, False, None
        if dragging and event.button() == Qt.MouseButton.LeftButton:
            self.unsetCursor()
            self.setDown(False)
            self._on_drop(self.piece, event.globalPosition().toPoint())
            event.accept()
            return
        super().mouseReleaseEvent(event)


class SetupPalette(QFrame):
    """Shown in set-up mode; follows the position being set up.

    ``board`` is the board the pieces are dragged onto (and whose square under
    the mouse ``K`` crowns). ``board_now_button`` and ``copy_fen_button`` are
    wired by the workspace (they show the Gap tab, the status line);
    ``shortcut_actions`` (Ctrl+V, K) are added to the workspace."""

    def __init__(self, bc: BoardController, board: BoardWidget | None = None):
        super().__init__()
        self._bc = bc
        self._board = board
        setup = bc.setup
        self.setObjectName("setup-panel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        column = QVBoxLayout(self)
        column.setContentsMargins(6, 6, 6, 6)
        title = QLabel("<b>Set up the board</b>")
        column.addWidget(title)

        # -- the pieces ----------------------------------------------------------
        self.tool_group = QButtonGroup(self)
        self.tool_buttons: dict[str, QToolButton] = {}
        tools = QHBoxLayout()
        tools.setSpacing(4)
        for i, tool in enumerate(TOOLS):
            piece = TOOLS[tool]
            button: QToolButton
            if piece is None:
                button = QToolButton()
                button.setText(TOOL_LABELS[tool])
                button.setCheckable(True)
                button.setMinimumHeight(SPARE_SIZE + 8)
                button.setToolTip("Eraser: click squares to take their pieces off")
            else:
                button = SpareButton(tool, piece, self._drag_spare, self._drop_spare)
                kind = "king" if piece.king else "man"
                button.setToolTip(f"{TOOL_LABELS[tool]}: click squares to place it, or "
                                  f"drag it onto a square (right-click: "
                                  f"{piece.color.opponent.title.lower()} {kind})")
            button.setAccessibleName(TOOL_LABELS[tool])
            button.setStyleSheet("QToolButton:checked { border: 3px solid #1e64c8; "
                                 "border-radius: 4px; background: #dde8f8; }")
            button.clicked.connect(lambda _c=False, t=tool: setup.set_tool(t))
            self.tool_group.addButton(button, i)
            self.tool_buttons[tool] = button
            tools.addWidget(button)
        self.tool_buttons[setup.tool].setChecked(True)
        tools.addStretch(1)
        column.addLayout(tools)
        self.help_label = QLabel(HELP)
        self.help_label.setWordWrap(True)
        self.help_label.setObjectName("setup-help")
        small = self.help_label.font()
        small.setPointSizeF(small.pointSizeF() * 0.9)
        self.help_label.setFont(small)
        column.addWidget(self.help_label)

        # -- the whole position ----------------------------------------------------
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        self.clear_button = QPushButton("Clear Board")
        self.clear_button.clicked.connect(lambda: setup.clear())
        self.start_button = QPushButton("Start Position")
        self.start_button.clicked.connect(lambda: setup.start_position())
        grid.addWidget(self.clear_button, 2, 0)
        grid.addWidget(self.start_button, 2, 1)
        self.turn_group = QButtonGroup(self)
        self.turn_buttons: dict[Color, QPushButton] = {}
        for col, colour in enumerate((Color.BLACK, Color.WHITE)):
            turn = QPushButton(f"{colour.title} to move")
            turn.setCheckable(True)
            turn.setAccessibleName(f"{colour.title} to move")
            turn.clicked.connect(lambda _c=False, c=colour: setup.set_turn(c))
            self.turn_group.addButton(turn)
            self.turn_buttons[colour] = turn
            grid.addWidget(turn, 3, col)
        self.fen_edit = QLineEdit()
        self.fen_edit.setAccessibleName("FEN")
        self.fen_edit.setMaxLength(2000)
        self.fen_edit.setPlaceholderText("FEN, e.g. B:W21-32:B1-12 (Enter to set up)")
        self.fen_edit.returnPressed.connect(lambda: self._set_fen(self.fen_edit.text()))
        grid.addWidget(self.fen_edit, 0, 0, 1, 2)
        self.paste_fen_button = QPushButton("Paste FEN")
        self.paste_fen_button.setToolTip("Set up the FEN on the clipboard (Ctrl+V)")
        self.paste_fen_button.clicked.connect(lambda: self.paste_fen())
        self.copy_fen_button = QPushButton("Copy FEN")
        grid.addWidget(self.paste_fen_button, 1, 0)
        grid.addWidget(self.copy_fen_button, 1, 1)
        column.addLayout(grid)
        # the FEN first under the tools, and so in the Tab order: two Tabs from the
        # board (issue 33: it took six)
        chain = [self.fen_edit, self.paste_fen_button, self.copy_fen_button,
                 self.clear_button, self.start_button, *self.turn_buttons.values()]
        for first, then in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, then)
        self.sanity_label = QLabel()
        self.sanity_label.setObjectName("sanity")
        self.sanity_label.setWordWrap(True)
        self.sanity_label.setTextFormat(Qt.TextFormat.PlainText)
        column.addWidget(self.sanity_label)

        # -- what the position is for -------------------------------------------------
        done = QGridLayout()
        done.setContentsMargins(0, 0, 0, 0)
        self.board_now_button = QPushButton("This Is the Board Now")
        self.board_now_button.setToolTip("The position on the board now: fill the gap "
                                         "between the record and it")
        font = self.board_now_button.font()
        font.setBold(True)
        self.board_now_button.setFont(font)
        self.use_start_button = QPushButton("Start Record from Here")
        self.use_start_button.setToolTip("A new record starting from this position")
        self.use_start_button.clicked.connect(lambda: setup.use_as_start())
        self.setup_done_button = QPushButton("Back to Record")
        self.setup_done_button.clicked.connect(lambda: bc.set_mode("play"))
        done.addWidget(self.board_now_button, 0, 0, 1, 2)
        done.addWidget(self.use_start_button, 1, 0)
        done.addWidget(self.setup_done_button, 1, 1)
        column.addLayout(done)
        column.addStretch(1)

        # -- keys (added to the workspace, active only in set-up mode) --------------
        self.paste_action = QAction("Paste FEN", self)
        self.paste_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Paste))
        self.paste_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.paste_action.triggered.connect(lambda: self.paste_fen())
        self.king_action = QAction("Man / King", self)
        self.king_action.setShortcut(QKeySequence(Qt.Key.Key_K))
        self.king_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.king_action.setToolTip("Crown or uncrown the piece under the mouse "
                                    "(or the one placed last)")
        self.king_action.triggered.connect(lambda: self.toggle_king())
        self.shortcut_actions = (self.paste_action, self.king_action)

        bc.changed.connect(self.refresh)
        bc.modeChanged.connect(lambda _mode: self.refresh())
        setup.toolChanged.connect(self._tool_changed)
        self.refresh()

    # -- dragging a spare onto the board ----------------------------------------------
    def _board_point(self, global_pos: QPoint) -> QPoint | None:
        if self._board is None or not self._board.isVisible():
            return None
        return self._board.mapFromGlobal(global_pos)

    def _drag_spare(self, piece: Piece, global_pos: QPoint) -> None:
        point = self._board_point(global_pos)
        if point is not None and self._board is not None and self._bc.mode == "setup":
            self._board.set_floating(piece, QPointF(point))

    def _drop_spare(self, piece: Piece, global_pos: QPoint) -> None:
        point = self._board_point(global_pos)
        if point is None or self._board is None:
            return
        self._board.set_floating(None)
        if self._bc.mode != "setup":
            return
        square = self._board.square_at(point)
        if square is not None:
            self._bc.setup.place(square, piece)

    # -- keys ----------------------------------------------------------------------
    def toggle_king(self) -> bool:
        """``K``: the piece under the mouse, else the one placed last."""
        square = self._board.hover_square() if self._board is not None else None
        if square is not None and self._bc.setup.position().piece_at(square) is None:
            square = None
        return self._bc.setup.toggle_king(square)

    def paste_fen(self) -> bool:
        """Set up the FEN on the clipboard (Ctrl+V, "Paste FEN")."""
        text = QGuiApplication.clipboard().text()
        if not text.strip():
            self._bc.setup.statusMessage.emit(
                "The clipboard is empty: copy a FEN such as B:W21-32:B1-12")
            return False
        return self._set_fen(text)

    def _set_fen(self, text: str) -> bool:
        if not self._bc.setup.set_fen(text):
            return False
        self.fen_edit.setText(self._bc.setup.position().fen())
        self.fen_edit.setCursorPosition(0)
        return True

    # -- following the controller ---------------------------------------------------
    def _tool_changed(self, tool: str) -> None:
        for name, button in self.tool_buttons.items():
            button.setChecked(name == tool)

    def refresh(self) -> None:
        bc = self._bc
        setting_up = bc.mode == "setup"
        for action in self.shortcut_actions:
            action.setEnabled(setting_up)
        if not setting_up:
            return
        ok, message = bc.setup.check()
        self.sanity_label.setText(("✓ " if ok else "✗ ") + message)
        self.sanity_label.setStyleSheet("" if ok else "color: #c00000; font-weight: bold;")
        self.turn_buttons[bc.setup.turn].setChecked(True)
        if not self.fen_edit.hasFocus():
            self.fen_edit.setText(bc.position().fen())
            self.fen_edit.setCursorPosition(0)
        self._tool_changed(bc.setup.tool)
