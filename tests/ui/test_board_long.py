"""Issue #34, Must 3: opening a long record does not block the Board's window.

A pool record of 4,000 plies (two kings shuffling, played by the engine, with
illegal moves planted: tests/long_record.py) is opened through Open PDN's path:
the record is read, replayed and counted off the GUI thread (the event loop runs
meanwhile and the status line says which step it is at), and the move list is a
lazy model that works out only the cells it shows. Timings are in
bench/bench_board_long.py, not here."""
from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, Qt, QTimer
from PySide6.QtWidgets import QTableWidget

from tests.long_record import long_record
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    private_autosave_dir,
    wait_read,
)

PLIES = 4000


def test_a_long_record_is_read_off_the_gui_thread_into_a_lazy_list(ws, qtbot, tmp_path,
                                                                   monkeypatch):
    from ui.board.movelist import MoveListModel

    record = long_record(PLIES, illegal_every=997)
    path = tmp_path / "long.pdn"
    path.write_text(record.pdn, encoding="utf-8")
    bc = ws.board_controller
    statuses: list[str] = []
    bc.statusMessage.connect(statuses.append)
    asked: set[int] = set()
    cell = MoveListModel.cell
    monkeypatch.setattr(MoveListModel, "cell",
                        lambda self, ply: (asked.add(ply), cell(self, ply))[1])
    ticks = []
    probe = QTimer()
    probe.setInterval(5)
    probe.timeout.connect(lambda: ticks.append(bc.files.reading is not None))

    probe.start()
    assert ws.open_pdn(path)
    # Open returned with the record still being read: the GUI thread is free
    assert bc.files.reading is not None and bc.moves == ()
    wait_read(qtbot, ws)
    probe.stop()
    assert any(ticks), "the event loop did not run while the record was read"
    assert any(f"replaying {PLIES} plies" in s for s in statuses)  # progress shown
    assert len(bc.moves) == PLIES and "Imported long.pdn: 4000 plies" in ws.status_text()

    # the list is a model the view asks, not a widget holding an item per ply
    view = ws.move_list
    assert not isinstance(view, QTableWidget)
    assert isinstance(view.model(), QAbstractTableModel)
    assert view.model().rowCount() == PLIES // 2
    assert view.header_text(PLIES // 2 - 1) == f"{PLIES // 2}."  # Black starts: 2 a row
    qtbot.wait(50)  # painted
    assert asked and len(asked) < PLIES // 10, f"{len(asked)} cells worked out"

    # the planted moves (the generator's, not the board's) are the illegal ones
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert bc.ply == PLIES and view.current_cell().ply == PLIES
    assert view.cell_rect(PLIES).isValid()
    bc.set_let_stand(True)
    bc.check.run()
    assert ws.marked_plies() == list(record.illegal)
    first = view.item_for_ply(record.illegal[0])
    assert first.text().startswith("✗") and "not on one diagonal" in first.toolTip()


def test_the_record_opened_last_is_the_one_shown(ws, qtbot):
    from ui.board.reading import RecordReader

    bc = ws.board_controller
    assert ws.import_text(long_record(PLIES).pdn, source="long.pdn")
    assert bc.files.reading is not None
    # a short record pasted while the long one is read: read at once, and it stays
    assert ws.import_text("11-15 23-19 8-11", source="short")
    qtbot.waitUntil(lambda: not bc.files.findChildren(RecordReader), timeout=60000)
    qtbot.wait(20)
    assert [m.text for m in bc.moves] == ["11-15", "23-19", "8-11"]
    assert ws.move_list.model().rowCount() == 2
    assert "Imported short: 3 plies" in ws.status_text()
