"""The Board workspace's toolbar: records and files, the variant, the mode,
the board's orientation and numbers, undo."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QComboBox, QMenu, QToolBar, QToolButton, QWidget

from ..controller import VARIANT_NAMES, BoardController
from ..widget import BoardWidget

__all__ = ["BoardToolbar", "ToolbarHost", "make_action"]


class ToolbarHost(Protocol):
    """What the toolbar's file actions call on the workspace (they open dialogs)."""

    def new_record(self) -> None: ...
    def open_pdn_dialog(self) -> None: ...
    def paste_record(self) -> None: ...
    def export_pdn_dialog(self) -> None: ...
    def copy_fen(self) -> None: ...
    def open_case_dialog(self) -> None: ...
    def save_case_soon(self) -> bool: ...


def make_action(owner: QWidget, text: str, slot: Callable[[], object],
                shortcut: str | None = None, tip: str = "") -> QAction:
    """An action of ``owner``; its shortcut works in the whole window while
    ``owner`` is shown (a hidden workspace's shortcuts are off), wherever the focus is."""
    action = QAction(text, owner)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    # triggered(bool) must never reach the slot: New got `variant=False`
    # and Save Case `path=False` that way (issue 13).
    action.triggered.connect(lambda _checked=False: slot())
    label = tip or text.replace("…", "")
    if shortcut:
        label += f" ({action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})"
    action.setToolTip(label)
    owner.addAction(action)
    return action


class BoardToolbar(QToolBar):
    """Follows the controller: the mode checked, the variant shown, Undo enabled."""

    def __init__(self, bc: BoardController, board: BoardWidget, host: ToolbarHost,
                 owner: QWidget):
        super().__init__("Board")
        self._bc = bc
        self._board = board
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)

        def action(text: str, slot: Callable[[], object], shortcut: str | None = None,
                   tip: str = "") -> QAction:
            return make_action(owner, text, slot, shortcut, tip)

        self.new_action = action("New", host.new_record, "Ctrl+Shift+G",
                                 "Start a new record from the start position")
        self.open_action = action("Open PDN…", host.open_pdn_dialog, "Ctrl+Shift+O",
                                  "Import a game from a PDN file")
        self.paste_action = action("Paste Record", host.paste_record, "Ctrl+Shift+V",
                                   "Import PDN or a plain move list from the clipboard")
        self.open_case_action = action("Open Case…", host.open_case_dialog, "Ctrl+Shift+D",
                                       "Open a dispute case file")
        self.save_case_action = action("Save Case", host.save_case_soon, "Ctrl+S",
                                       "Save the dispute case file")
        self.undo_action = action("Undo", bc.undo, "Ctrl+Z")
        # Read left to right: the record (New, Open ▾, Save Case, Undo), the rules it
        # is read under, the mode, then More ▾. A referee's Save Case and Undo come
        # first and stay in sight at 1024 px even at 1.25x font (issue 33: they were
        # behind the toolbar's »); the three ways to open a record share one menu,
        # and what is needed less often sits in More; every action keeps its
        # window-wide shortcut, and the menus show it.
        self.open_menu = QMenu("Open", self)
        for item in (self.open_action, self.open_case_action):
            self.open_menu.addAction(item)
        self.open_menu.addSeparator()
        self.open_menu.addAction(self.paste_action)
        self.open_button = self._menu_button(
            "Open", self.open_menu, "Open records and cases",
            "Open a PDN file (Ctrl+Shift+O) or a case (Ctrl+Shift+D), or paste a "
            "record (Ctrl+Shift+V)")
        self.addAction(self.new_action)
        self.addWidget(self.open_button)
        self.addAction(self.save_case_action)
        self.addAction(self.undo_action)
        self.addSeparator()
        self.variant_combo = QComboBox()
        self.variant_combo.setAccessibleName("Variant")
        for name in VARIANT_NAMES:
            self.variant_combo.addItem(name.capitalize() if name != "pool" else
                                       "Pool (APCA)", name)
        self.variant_combo.activated.connect(
            lambda row: bc.editing.set_variant(self.variant_combo.itemData(row)))
        self.variant_combo.setToolTip("The rules the record is read under (per game)")
        self.addWidget(self.variant_combo)
        self.addSeparator()
        self.mode_group = QActionGroup(self)
        self.mode_actions: dict[str, QAction] = {}
        for mode, text, key in (("play", "Play", "Ctrl+Shift+1"),
                                ("setup", "Set Up", "Ctrl+Shift+2"),
                                ("check", "Check Record", "Ctrl+Shift+3")):
            mode_action = action(text, partial(bc.set_mode, mode), key)
            mode_action.setCheckable(True)
            self.mode_group.addAction(mode_action)
            self.addAction(mode_action)
            self.mode_actions[mode] = mode_action
        self.addSeparator()
        self.flip_action = action("Flip", lambda: board.set_flipped(not board.is_flipped()),
                                  "Ctrl+Shift+F", "Turn the board round")
        self.numbers_action = action(
            "Numbers", lambda: board.set_show_numbers(self.numbers_action.isChecked()),
            "Ctrl+Shift+U", "Show the square numbers")
        self.numbers_action.setCheckable(True)
        self.export_action = action("Export PDN…", host.export_pdn_dialog, "Ctrl+Shift+S",
                                    "Save the record as PDN")
        self.copy_fen_action = action("Copy FEN", host.copy_fen, "Ctrl+Shift+C",
                                      "Copy the position shown as FEN")
        self.more_menu = QMenu("More", self)
        for item in (self.flip_action, self.numbers_action):
            self.more_menu.addAction(item)
        self.more_menu.addSeparator()
        for item in (self.export_action, self.copy_fen_action):
            self.more_menu.addAction(item)
        self.more_button = self._menu_button("More", self.more_menu, "More board actions",
                                             "Flip, Numbers, Export PDN, Copy FEN")
        self.addWidget(self.more_button)
        # stepping through the record: whenever the Board is shown, wherever the
        # focus is (a text field keeps its own arrow keys; Up/Down stay with lists)
        self.nav_actions: dict[str, QAction] = {
            name: action(text, getattr(bc.nav, name), key)
            for name, text, key in (("previous", "Previous Move", "Left"),
                                    ("next", "Next Move", "Right"),
                                    ("first", "First Position", "Home"),
                                    ("last", "Last Position", "End"))}
        bc.modeChanged.connect(self._mode_changed)
        bc.changed.connect(self.refresh)
        self._mode_changed(bc.mode)

    def _menu_button(self, text: str, menu: QMenu, name: str, tip: str) -> QToolButton:
        """A button opening ``menu`` on a click, Space or Enter."""
        for item in menu.actions():  # the menu shows each action's shortcut
            item.setShortcutVisibleInContextMenu(True)
        button = QToolButton()
        button.setText(text)
        button.setAccessibleName(name)
        button.setToolTip(tip)
        button.setMenu(menu)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        return button

    def _mode_changed(self, mode: str) -> None:
        action = self.mode_actions.get(mode)
        if action is not None:
            action.setChecked(True)

    def refresh(self) -> None:
        self.undo_action.setEnabled(self._bc.can_undo())
        row = self.variant_combo.findData(self._bc.variant.name)
        if row >= 0:
            self.variant_combo.setCurrentIndex(row)
