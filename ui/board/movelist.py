"""The move list beside the board: numbered pairs, the current ply highlighted,
illegal moves marked, comments shown; a click on a move goes to it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from ..widgets import plain_tip

if TYPE_CHECKING:
    from .controller import BoardController

__all__ = ["MoveList", "PLY_ROLE"]

PLY_ROLE = Qt.ItemDataRole.UserRole + 1


class MoveList(QTableWidget):
    """Rows are move numbers; columns the first and the second player.

    Emits ``plyClicked(int)`` when a move is clicked (the ply after it).
    """

    plyClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(0, 2, parent)
        self.setObjectName("move-list")
        self.setAccessibleName("Moves")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.cellClicked.connect(self._clicked)
        self._cells: dict[int, tuple[int, int]] = {}
        self._current = 0
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def cell_of(self, ply: int) -> tuple[int, int] | None:
        return self._cells.get(ply)

    def item_for_ply(self, ply: int) -> QTableWidgetItem | None:
        cell = self._cells.get(ply)
        return self.item(*cell) if cell is not None else None

    def rebuild(self, controller: BoardController) -> None:
        """Fill the list from the controller's record."""
        first = controller.variant.first_player
        self.setHorizontalHeaderLabels([first.title, first.opponent.title])
        offset = 0 if controller.start.turn is first else 1
        n = len(controller.moves)
        rows = (n + offset + 1) // 2
        self.blockSignals(True)
        self.clearContents()
        self.setRowCount(rows)
        self._cells = {}
        bold = QFont(self.font())
        bold.setBold(True)
        illegal_bg = QBrush(QColor(220, 40, 40, 90))
        muted = QBrush(self.palette().color(self.palette().ColorGroup.Disabled,
                                            self.palette().ColorRole.Text))
        labels = []
        for row in range(rows):
            labels.append(f"{controller.move_number(max(1, row * 2 + 1 - offset))}.")
        self.setVerticalHeaderLabels(labels)
        if offset:
            dots = QTableWidgetItem("…")
            dots.setFlags(Qt.ItemFlag.NoItemFlags)
            self.setItem(0, 0, dots)
        for ply in range(1, n + 1):
            move = controller.moves[ply - 1]
            index = ply - 1 + offset
            row, col = index // 2, index % 2
            text = move.text + (" ✎" if move.comment or move.variations else "")
            item = QTableWidgetItem(text)
            item.setData(PLY_ROLE, ply)
            state = controller.check.move_state(ply)
            tip = []
            if state == "illegal":
                item.setBackground(illegal_bg)
                item.setFont(bold)
                item.setText("✗ " + text)
                illegal = controller.check.illegal_at(ply)
                if illegal is not None:
                    tip.append(illegal.message)
            elif state == "suspect":
                italic = QFont(self.font())
                italic.setItalic(True)
                item.setFont(italic)
                item.setText("? " + text)
                tip.append("not a legal move: Check Record says why")
            elif state == "unchecked":
                item.setForeground(muted)
                tip.append("after the first illegal move (let illegal moves stand to "
                           "check these too)")
            elif state == "unplayed":
                item.setForeground(muted)
                tip.append("not replayed: the record stops before this move")
            elif state == "after_draw":
                item.setForeground(muted)
                item.setText("⚑ " + text)
                tip.append(controller.counts.after_draw_text(ply))
            if move.comment:
                tip.append(move.comment)
            for v in move.variations:
                tip.append(f"({v})")
            if tip:
                item.setToolTip(plain_tip("\n".join(tip)))
            item.setData(Qt.ItemDataRole.AccessibleTextRole,
                         f"ply {ply}: {move.text}" + {"illegal": " (illegal)",
                                                      "after_draw": " (after the draw)"}
                         .get(state, ""))
            self.setItem(row, col, item)
            self._cells[ply] = (row, col)
        self.blockSignals(False)
        self.set_current(controller.ply)

    def set_current(self, ply: int) -> None:
        self._current = ply
        self.blockSignals(True)
        cell = self._cells.get(ply)
        if cell is None:
            self.clearSelection()
            self.setCurrentIndex(QModelIndex())  # no current cell (what setCurrentItem(None) does)
            if self.rowCount():
                self.scrollToTop()
        else:
            self.setCurrentCell(*cell)
            item = self.item(*cell)
            if item is not None:
                self.scrollToItem(item, QAbstractItemView.ScrollHint.EnsureVisible)
        self.blockSignals(False)

    def current_ply(self) -> int:
        return self._current

    def _clicked(self, row: int, col: int) -> None:
        item = self.item(row, col)
        if item is None:
            return
        ply = item.data(PLY_ROLE)
        if ply is not None:
            self.plyClicked.emit(int(ply))
