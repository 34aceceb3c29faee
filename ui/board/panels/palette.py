"""The set-up palette: the piece to place, clear / start position, the side to
move, FEN in and out, the sanity check, and what to do with the position."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
)

from rulesbook.draughts import Color

from ..controller import BoardController
from ..setup import TOOLS
from ..widget import BOARD_COLOURS

__all__ = ["SetupPalette", "TOOL_LABELS"]

TOOL_LABELS = {"black-man": "Black man", "black-king": "Black king",
               "white-man": "White man", "white-king": "White king", "eraser": "Eraser"}


def _style_tool(button: QToolButton, tool: str) -> None:
    piece = TOOLS[tool]
    if piece is None:
        return
    colour = BOARD_COLOURS["red"] if piece.color is Color.BLACK else BOARD_COLOURS["white"]
    fg = "white" if piece.color is Color.BLACK else "black"
    button.setStyleSheet(
        f"QToolButton {{ background: {colour.name()}; color: {fg}; border: 1px solid "
        f"#555; border-radius: 4px; padding: 3px 6px; }} "
        f"QToolButton:checked {{ border: 3px solid #1e64c8; font-weight: bold; }}")


class SetupPalette(QFrame):
    """Shown in set-up mode; follows the position being set up.

    ``board_now_button`` and ``copy_fen_button`` are wired by the workspace (they
    show the Gap tab, the status line)."""

    def __init__(self, bc: BoardController):
        super().__init__()
        self._bc = bc
        setup = bc.setup
        self.setObjectName("setup-panel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        grid = QGridLayout(self)
        grid.setContentsMargins(6, 6, 6, 6)
        self.tool_group = QButtonGroup(self)
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
            _style_tool(button, tool)
            button.clicked.connect(lambda _c=False, t=tool: setup.set_tool(t))
            self.tool_group.addButton(button, i)
            self.tool_buttons[tool] = button
            tools.addWidget(button)
        self.tool_buttons[setup.tool].setChecked(True)
        tools.addStretch(1)
        grid.addLayout(tools, 0, 0, 1, 4)
        self.clear_button = QPushButton("Clear Board")
        self.clear_button.clicked.connect(lambda: setup.clear())
        self.start_button = QPushButton("Start Position")
        self.start_button.clicked.connect(lambda: setup.start_position())
        self.turn_combo = QComboBox()
        self.turn_combo.setAccessibleName("Side to move")
        self.turn_combo.addItem("Black to move", Color.BLACK.value)
        self.turn_combo.addItem("White to move", Color.WHITE.value)
        self.turn_combo.activated.connect(
            lambda row: setup.set_turn(Color(self.turn_combo.itemData(row))))
        grid.addWidget(self.clear_button, 1, 0)
        grid.addWidget(self.start_button, 1, 1)
        grid.addWidget(self.turn_combo, 1, 2)
        self.fen_edit = QLineEdit()
        self.fen_edit.setAccessibleName("FEN")
        self.fen_edit.setPlaceholderText("FEN, e.g. B:W21-32:B1-12 (Enter to set up)")
        self.fen_edit.returnPressed.connect(lambda: setup.set_fen(self.fen_edit.text()))
        self.paste_fen_button = QPushButton("Paste FEN")
        self.paste_fen_button.clicked.connect(lambda: self._paste_fen())
        self.copy_fen_button = QPushButton("Copy FEN")
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
        self.use_start_button.clicked.connect(lambda: setup.use_as_start())
        self.board_now_button = QPushButton("This Is the Board Now")
        self.board_now_button.setToolTip("The position on the board now: fill the gap "
                                         "between the record and it")
        self.setup_done_button = QPushButton("Back to Record")
        self.setup_done_button.clicked.connect(lambda: bc.set_mode("play"))
        grid.addWidget(self.use_start_button, 4, 0)
        grid.addWidget(self.board_now_button, 4, 1)
        grid.addWidget(self.setup_done_button, 4, 2)
        bc.changed.connect(self.refresh)
        bc.modeChanged.connect(lambda _mode: self.refresh())
        setup.toolChanged.connect(self._tool_changed)

    def _tool_changed(self, tool: str) -> None:
        for name, button in self.tool_buttons.items():
            button.setChecked(name == tool)

    def _paste_fen(self) -> None:
        text = QGuiApplication.clipboard().text().strip()
        if text and self._bc.setup.set_fen(text):
            self.fen_edit.setText(self._bc.setup.position().fen())

    def refresh(self) -> None:
        bc = self._bc
        if bc.mode != "setup":
            return
        ok, message = bc.setup.check()
        self.sanity_label.setText(("✓ " if ok else "✗ ") + message)
        self.sanity_label.setStyleSheet("" if ok else "color: #c00000; font-weight: bold;")
        self.turn_combo.setCurrentIndex(0 if bc.setup.turn is Color.BLACK else 1)
        if not self.fen_edit.hasFocus():
            self.fen_edit.setText(bc.position().fen())
            self.fen_edit.setCursorPosition(0)
        self._tool_changed(bc.setup.tool)
