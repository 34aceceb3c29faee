"""The game list of a multi-game PDN file: players, event, date, round and
result of every game (from the tags, no move resolved), filtered as the user
types, sorted by any column, Enter or a double-click opens the game.

The records' defects are found off the GUI thread (:class:`DefectScanner`: every
game read whole, its moves played) and marked in the list as they are found; the
list itself is there at once, even for 10,000 games.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QThread,
    Signal,
)
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rulesbook.reconstruct import GameChunk
from rulesbook.reconstruct.gamelist import (
    MOVES_COLUMNS,
    Column,
    GameListEntry,
    columns_of,
    defect_of,
    filter_games,
    game_list,
    scan_defects,
    sort_games,
    yield_to_others,
)

from ..widgets import FittedColumns

__all__ = ["GameListModel", "DefectScanner", "GameListDialog", "DEFECT_MARK"]

#: the mark before the first cell of a game whose record has a defect
DEFECT_MARK = "⚠ "
#: how long the defect scan waits after each keystroke or click in the list
HOLD_SECONDS = 0.4
#: a file of this many games or more is scanned in a process of its own (starting
#: one costs about a third of a second of CPU; a smaller file is read sooner here)
PROCESS_GAMES = 1000
#: the games of a file handed to the scan's process at a time (about 30 ms of work:
#: a cancel waits at most for the batch under way)
BATCH_GAMES = 32
_log = logging.getLogger(__name__)
_Index = QModelIndex | QPersistentModelIndex


class GameListModel(QAbstractTableModel):
    """The games of one file, the rows shown (filtered, sorted) and their defects.

    The model filters and sorts itself (:func:`~rulesbook.reconstruct.gamelist.filter_games`,
    :func:`~rulesbook.reconstruct.gamelist.sort_games`): one Python pass per
    keystroke, not one call per row and comparison as a proxy model would make.
    """

    def __init__(self, chunks: Sequence[GameChunk], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries: list[GameListEntry] = game_list(chunks)
        #: the columns shown: the players', or without them the first moves and comment
        self.columns: tuple[Column, ...] = columns_of(self._entries)
        self._rows: list[int] = list(range(len(self._entries)))
        self._query = ""
        self._sort: tuple[Column, bool] | None = None
        self._marked = 0

    # -- the Qt model --------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        if not 0 <= index.column() < len(self.columns):
            return None
        entry = self._entries[self._rows[index.row()]]
        column = self.columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            text = entry.cell(column)
            if index.column() == 0 and entry.defect:
                return DEFECT_MARK + text
            return text
        if role == Qt.ItemDataRole.ToolTipRole:
            game = f"Game {entry.index + 1} (line {entry.first_line})"
            return f"{game}: {entry.defect}" if entry.defect else game
        if role == Qt.ItemDataRole.AccessibleDescriptionRole and entry.defect:
            return f"defect: {entry.defect}"
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.columns):
            return self.columns[section].title
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._rows):
            return str(self._entries[self._rows[section]].index + 1)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sort = (self.columns[column], order == Qt.SortOrder.DescendingOrder) \
            if 0 <= column < len(self.columns) else None  # -1: the file's order
        self._update_rows()

    # -- the list -----------------------------------------------------------------
    @property
    def total(self) -> int:
        return len(self._entries)

    def set_filter(self, query: str) -> None:
        """Show the games that match ``query``
        (:func:`~rulesbook.reconstruct.gamelist.filter_games`: every word in a column
        shown or the game's number, ``column:value`` in that column)."""
        if query == self._query:
            return
        self._query = query
        self._update_rows()

    def _update_rows(self) -> None:
        self.beginResetModel()
        rows = filter_games(self._entries, self._query)
        if self._sort is not None:
            rows = sort_games(self._entries, rows, *self._sort)
        self._rows = rows
        self.endResetModel()

    def game_at(self, row: int) -> int | None:
        """The game (0-based number in the file) shown in ``row``."""
        return self._entries[self._rows[row]].index if 0 <= row < len(self._rows) else None

    def entry(self, game: int) -> GameListEntry:
        return self._entries[game]

    def mark(self, game: int, defect: str) -> None:
        """Mark game ``game`` (0-based) as having ``defect`` ("" clears it)."""
        self.mark_many([(game, defect)])

    def mark_many(self, marks: Sequence[tuple[int, str]]) -> None:
        """Mark several games at once (one repaint, however many there are)."""
        changed = False
        for game, defect in marks:
            if 0 <= game < len(self._entries) and self._entries[game].defect != defect:
                self._marked += bool(defect) - bool(self._entries[game].defect)
                self._entries[game] = self._entries[game].with_defect(defect)
                changed = True
        if changed and self._rows:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self._rows) - 1, len(self.columns) - 1))

    def marked(self) -> list[int]:
        """The games marked with a defect."""
        return [e.index for e in self._entries if e.defect]

    @property
    def marked_count(self) -> int:
        """How many games are marked (kept as they are marked: no pass over the list)."""
        return self._marked


class DefectScanner(QThread):
    """Reads every game's record whole (syntax, set-up, moves) off the GUI thread.

    A file of :data:`PROCESS_GAMES` games or more is read in a process of its own
    (:func:`~rulesbook.reconstruct.gamelist.scan_defects`, batches of
    :data:`BATCH_GAMES`): the games are read on another core, and the objects the
    reading makes are not this process's, so that neither the interpreter lock nor
    a garbage collection ever holds up the GUI thread; this thread only hands out
    the batches and passes the answers on. A smaller file, or where no process can
    be started, is read on this thread.

    Signals (queued to the GUI thread), about fifty times in all whatever the size:
      found(list[tuple[int, str]])     the games with a defect since the last signal
      progressed(int done, int total)
    """

    found = Signal(list)
    progressed = Signal(int, int)

    def __init__(self, chunks: Sequence[GameChunk], parent: QObject | None = None,
                 process_games: int | None = None) -> None:
        super().__init__(parent)
        self._chunks = list(chunks)
        self._stop = threading.Event()
        self._resume = 0.0  # time.monotonic() before which the scan waits (hold)
        self._process_games = PROCESS_GAMES if process_games is None else process_games
        #: where the games were read: "process" or "thread" (set as the scan starts)
        self.where = ""

    def cancel(self) -> None:
        self._stop.set()

    def hold(self, seconds: float = HOLD_SECONDS) -> None:
        """Pause for ``seconds`` from now (the user is typing: the GUI thread gets
        the interpreter to itself; the scan goes on when the typing stops)."""
        self._resume = time.monotonic() + seconds

    def _wait_while_held(self) -> None:
        while time.monotonic() < self._resume and not self._stop.is_set():
            time.sleep(0.02)

    def run(self) -> None:
        total = len(self._chunks)
        step = max(1, total // 50)
        done = 0
        if total >= self._process_games:
            self.where = "process"
            try:
                done = self._run_in_process(step)
            except (OSError, RuntimeError, BrokenProcessPool) as exc:
                # no process could be started or it died: this thread reads the rest
                _log.warning("the defect scan goes on in a thread: %s", exc)
        if done < total and not self._stop.is_set():
            self.where = self.where or "thread"
            self._run_here(done, step)

    def _run_here(self, start: int, step: int) -> None:
        batch: list[tuple[int, str]] = []
        for done, chunk in enumerate(self._chunks[start:], start + 1):
            self._wait_while_held()
            if self._stop.is_set():
                return
            defect = defect_of(chunk)
            if defect:
                batch.append((chunk.index, defect))
            time.sleep(0)  # let the GUI thread take the interpreter between games
            if done % step == 0 or done == len(self._chunks):
                self._report_now(done, batch)

    def _run_in_process(self, step: int) -> int:
        """Read the games in batches in a worker process, two batches in flight;
        how many games were read (all of them unless cancelled)."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        total = len(self._chunks)
        # "spawn": a fresh interpreter (a forked copy of a process running Qt's
        # threads is not safe)
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=yield_to_others)
        pending: deque[tuple[int, Future[list[tuple[int, str]]]]] = deque()
        sent = done = 0
        batch: list[tuple[int, str]] = []
        try:
            while done < total:
                while len(pending) < 2 and sent < total:
                    self._wait_while_held()
                    if self._stop.is_set():
                        return done
                    part = self._chunks[sent:sent + BATCH_GAMES]
                    pending.append((len(part), pool.submit(scan_defects, part)))
                    sent += len(part)
                count, future = pending.popleft()
                while True:
                    if self._stop.is_set():
                        return done
                    try:
                        found = future.result(timeout=0.05)
                        break
                    except FutureTimeout:
                        continue
                batch.extend(found)
                before, done = done, done + count
                if before // step != done // step or done == total:
                    self._report_now(done, batch)
            return done
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def _report_now(self, done: int, batch: list[tuple[int, str]]) -> None:
        if batch:
            self.found.emit(list(batch))
            batch.clear()
        self.progressed.emit(done, len(self._chunks))


class GameListDialog(QDialog):
    """Choose a game of a multi-game file: type to filter, arrows, Enter opens.

    ``chosen`` is the game (0-based) after the dialog was accepted, else None.
    """

    def __init__(self, chunks: Sequence[GameChunk], source: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Choose a game")
        self.setObjectName("game-list")
        self.chosen: int | None = None
        self.model = GameListModel(chunks, self)
        self.scanner = DefectScanner(chunks, self)  # started once the dialog is built
        where = f" in {source}" if source else ""
        self.heading = QLabel(f"{self.model.total:,} games{where}. Type to filter "
                              f"(every word must match; result:1-0 looks in one column); "
                              f"Enter opens the game.")
        self.heading.setWordWrap(True)
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("game-filter")
        self.filter_edit.setAccessibleName("Filter games")
        moves = self.model.columns == MOVES_COLUMNS
        self.filter_edit.setPlaceholderText(
            "First moves, comment, event, date, round, game number; result:1-0…" if moves
            else "Players, event, date, round, game number; result:1-0…")
        self.filter_edit.setToolTip(
            "Words are found at the start of a word, numbers whole (1 is not 10 nor "
            "the 1 of 0-1), in the columns shown or the game's number. column:value "
            "looks in one column or tag only: result:1-0, site:ohio, round:3, game:12, "
            "moves:11-15, comment:forfeit.")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._filter_changed)
        self.filter_edit.installEventFilter(self)
        self.table = QTableView()
        self.table.setObjectName("game-table")
        self.table.setAccessibleName("Games")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # the file's order until a header is clicked
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        # the columns share the table's width (one line a row, long names elided):
        # never a sideways scroll bar (issue 19)
        self.fitted = FittedColumns(self.table, (4, 5, 4, 2, 1, 2) if moves
                                    else (4, 4, 5, 2, 1, 2), wrap_rows=False)
        self.table.verticalHeader().setDefaultSectionSize(
            self.table.fontMetrics().height() + 6)
        self.table.doubleClicked.connect(lambda index: self._open_row(index.row()))
        self.table.installEventFilter(self)
        self.count_label = QLabel()
        self.count_label.setObjectName("game-count")
        self.progress_label = QLabel()
        self.progress_label.setObjectName("game-check-progress")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Open).setText("&Open")
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText("&Cancel")
        self.buttons.accepted.connect(self._open_current)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.count_label)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.buttons)
        self.resize(860, 560)
        self.model.modelReset.connect(self._rows_changed)
        self._rows_changed()
        self.table.horizontalHeader().sortIndicatorChanged.connect(
            lambda *_: self.scanner.hold())
        self.scanner.found.connect(self.model.mark_many)
        self.scanner.progressed.connect(self._scan_progress)
        self.scanner.start()
        self.finished.connect(lambda _result: self.stop_scan())
        self.filter_edit.setFocus()

    def stop_scan(self) -> None:
        """Stop the defect scan and wait for its thread (closing the dialog does)."""
        self.scanner.cancel()
        self.scanner.wait()

    def _scan_progress(self, done: int, total: int) -> None:
        marked = self.model.marked_count
        if done < total:
            self.progress_label.setText(f"Checking the records… {done:,} of {total:,}")
        else:
            self.progress_label.setText(
                f"Records checked: {marked:,} with a defect (marked {DEFECT_MARK.strip()})"
                if marked else "Records checked: no defect found")

    def _filter_changed(self, text: str) -> None:
        self.scanner.hold()
        self.model.set_filter(text)

    def _rows_changed(self) -> None:
        shown = self.model.rowCount()
        self.count_label.setText(f"{shown:,} of {self.model.total:,} games")
        if shown:
            self.table.selectRow(0)
        self.buttons.button(QDialogButtonBox.StandardButton.Open).setEnabled(shown > 0)

    def rows_text(self) -> list[list[str]]:
        """The rows as shown (tests, screen readers)."""
        model = self.model
        return [[str(model.data(model.index(r, c))) for c in range(model.columnCount())]
                for r in range(model.rowCount())]

    def _open_current(self) -> None:
        index = self.table.currentIndex()
        rows = self.table.selectionModel().selectedRows()
        self._open_row(rows[0].row() if rows else index.row() if index.isValid() else 0)

    def _open_row(self, row: int) -> None:
        game = self.model.game_at(row)
        if game is None:
            return
        self.chosen = game
        self.accept()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress:
            self.scanner.hold()  # the user is at the keyboard: the list comes first
            key = event.key()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._open_current()
                return True
            if obj is self.filter_edit and key in (Qt.Key.Key_Down, Qt.Key.Key_Up,
                                                   Qt.Key.Key_PageDown, Qt.Key.Key_PageUp):
                self.table.setFocus()
                # the arrow moves the selection at once, from the row selected
                QApplication.sendEvent(self.table, QKeyEvent(event.type(), key,
                                                             event.modifiers()))
                return True
            if obj is self.table and event.text() and event.text().isprintable() \
                    and not event.modifiers() & ~(Qt.KeyboardModifier.ShiftModifier
                                                  | Qt.KeyboardModifier.KeypadModifier):
                self.filter_edit.setFocus()
                self.filter_edit.insert(event.text())  # typing in the list filters it
                return True
        return super().eventFilter(obj, event)
