"""The move list beside the board: numbered pairs, the current ply highlighted,
illegal moves marked, comments shown; a click on a move goes to it.

A view on :class:`MoveListModel`, which works out a cell only when the view asks
for it (the rows on screen): opening a record of 60,000 plies creates no item and
no label per ply (issue #34: ``QTableWidget`` items and ``setVerticalHeaderLabels``
froze the window for minutes)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from ..widgets import plain_tip

if TYPE_CHECKING:
    from .controller import BoardController

__all__ = ["MoveList", "MoveListModel", "MoveCell", "PLY_ROLE"]

PLY_ROLE = Qt.ItemDataRole.UserRole + 1

#: the mark before a move's text, by its state (CheckController.move_state)
MARKS = {"illegal": "✗ ", "suspect": "? ", "after_draw": "⚑ "}
#: what a screen reader hears after the move, by its state
SPOKEN = {"illegal": " (illegal)", "after_draw": " (after the draw)"}
ILLEGAL_BG = QColor(220, 40, 40, 90)

Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class MoveCell:
    """What the list shows for one ply (tests and the workspace read it)."""

    ply: int
    state: str
    label: str
    tip: str
    spoken: str

    def text(self) -> str:
        return self.label

    def toolTip(self) -> str:  # noqa: N802 - read as a table item's
        return self.tip


class MoveListModel(QAbstractTableModel):
    """Rows are move numbers, columns the first player and the other; each cell is
    worked out from the controller when the view asks for it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._bc: BoardController | None = None
        self._offset = 0
        self._plies = 0
        self._font = QFont()
        #: the text of moves not checked, not replayed or played after the draw
        self.muted = QBrush(QColor(128, 128, 128))

    # ------------------------------------------------------------------ the record
    def reset(self, controller: BoardController, font: QFont) -> None:
        """Show ``controller``'s record (nothing is worked out per ply here)."""
        self.beginResetModel()
        self._bc = controller
        first = controller.variant.first_player
        self._offset = 0 if controller.start.turn is first else 1
        self._plies = len(controller.moves)
        self._font = QFont(font)
        self.endResetModel()

    def index_of(self, ply: int) -> QModelIndex:
        """The cell of ``ply`` (1-based; invalid outside the record)."""
        if not 1 <= ply <= self._plies:
            return QModelIndex()
        at = ply - 1 + self._offset
        return self.index(at // 2, at % 2)

    def ply_of(self, index: Index) -> int | None:
        if not index.isValid():
            return None
        ply = index.row() * 2 + index.column() - self._offset + 1
        return ply if 1 <= ply <= self._plies else None

    def cell(self, ply: int) -> MoveCell | None:
        """What the list shows for ``ply`` (None outside the record)."""
        bc = self._bc
        if bc is None or not 1 <= ply <= self._plies or ply > len(bc.moves):
            return None
        move = bc.moves[ply - 1]
        text = move.text + (" ✎" if move.comment or move.variations else "")
        state = bc.check.move_state(ply)
        tip: list[str] = []
        if state == "illegal":
            illegal = bc.check.illegal_at(ply)
            if illegal is not None:
                tip.append(illegal.message)
        elif state == "suspect":
            tip.append("not a legal move: Check Record says why")
        elif state == "unchecked":
            tip.append("after the first illegal move (let illegal moves stand to "
                       "check these too)")
        elif state == "unplayed":
            tip.append("not replayed: the record stops before this move")
        elif state == "after_draw":
            tip.append(bc.counts.after_draw_text(ply))
        if move.comment:
            tip.append(move.comment)
        tip.extend(f"({v})" for v in move.variations)
        return MoveCell(ply, state, MARKS.get(state, "") + text,
                        plain_tip("\n".join(tip)) if tip else "",
                        f"ply {ply}: {move.text}{SPOKEN.get(state, '')}")

    # ------------------------------------------------------------------ Qt's model
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else (self._plies + self._offset + 1) // 2

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else 2

    def flags(self, index: Index) -> Qt.ItemFlag:
        if self.ply_of(index) is None:
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        bc = self._bc
        if role != Qt.ItemDataRole.DisplayRole or bc is None:
            return None
        if orientation == Qt.Orientation.Horizontal:
            first = bc.variant.first_player
            return (first.title, first.opponent.title)[section] if 0 <= section < 2 else None
        return f"{bc.move_number(max(1, section * 2 + 1 - self._offset))}."

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        ply = self.ply_of(index)
        if ply is None:
            # the first cell of a record the second player starts
            at_dots = index.isValid() and index.row() == 0 and index.column() == 0 \
                and self._offset and self._plies
            return "…" if at_dots and role == Qt.ItemDataRole.DisplayRole else None
        if role == PLY_ROLE:
            return ply
        cell = self.cell(ply)
        if cell is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return cell.label
        if role == Qt.ItemDataRole.ToolTipRole:
            return cell.tip or None
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return cell.spoken
        if role == Qt.ItemDataRole.FontRole and cell.state in ("illegal", "suspect"):
            font = QFont(self._font)
            font.setBold(cell.state == "illegal")
            font.setItalic(cell.state == "suspect")
            return font
        if role == Qt.ItemDataRole.BackgroundRole and cell.state == "illegal":
            return QBrush(ILLEGAL_BG)
        if role == Qt.ItemDataRole.ForegroundRole and cell.state in (
                "unchecked", "unplayed", "after_draw"):
            return self.muted
        return None


class MoveList(QTableView):
    """Rows are move numbers; columns the first and the second player.

    Emits ``plyClicked(int)`` when a move is clicked (the ply after it).
    """

    plyClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("move-list")
        self.setAccessibleName("Moves")
        self._model = MoveListModel(self)
        self.setModel(self._model)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # one height for every row: a header sized to its contents measures every row
        vertical = self.verticalHeader()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.clicked.connect(lambda index: self._clicked(index))  # a QModelIndex, not a bool
        self._current = 0
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        # Tab leaves the list (issue 33: 40 Tabs stayed in it); arrows step the plies
        self.setTabKeyNavigation(False)
        self._model.muted = QBrush(self.palette().color(self.palette().ColorGroup.Disabled,
                                                        self.palette().ColorRole.Text))

    def list_model(self) -> MoveListModel:
        return self._model

    def cell_of(self, ply: int) -> tuple[int, int] | None:
        index = self._model.index_of(ply)
        return (index.row(), index.column()) if index.isValid() else None

    def item_for_ply(self, ply: int) -> MoveCell | None:
        """What the list shows for ``ply`` (worked out now; None outside the record)."""
        return self._model.cell(ply)

    def cell_rect(self, ply: int) -> Any:
        """Where ``ply``'s cell is in the viewport (a QRect; empty when none)."""
        return self.visualRect(self._model.index_of(ply))

    def header_text(self, row: int) -> str:
        return str(self._model.headerData(row, Qt.Orientation.Vertical) or "")

    def rebuild(self, controller: BoardController) -> None:
        """Show the controller's record (the cells are worked out as they are shown)."""
        self._model.reset(controller, self.font())
        self.set_current(controller.ply)

    def set_current(self, ply: int) -> None:
        self._current = ply
        self.blockSignals(True)
        index = self._model.index_of(ply)
        if not index.isValid():
            self.clearSelection()
            self.setCurrentIndex(QModelIndex())  # no current cell
            if self._model.rowCount():
                self.scrollToTop()
        else:
            self.setCurrentIndex(index)
            self.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)
        self.blockSignals(False)

    def current_ply(self) -> int:
        return self._current

    def current_cell(self) -> MoveCell | None:
        """What the view's current cell shows (None: no current cell)."""
        ply = self._model.ply_of(self.currentIndex())
        return None if ply is None else self._model.cell(ply)

    def selected_ply(self) -> int | None:
        """The ply of the cell selected (None: no cell)."""
        chosen = self.selectionModel().selectedIndexes()
        return self._model.ply_of(chosen[0]) if chosen else None

    def _clicked(self, index: QModelIndex) -> None:
        ply = self._model.ply_of(index)
        if ply is not None:
            self.plyClicked.emit(ply)
