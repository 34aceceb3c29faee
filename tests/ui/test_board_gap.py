"""Gap filling on the Board workspace (real widgets, offscreen): the search off the
GUI thread, an impossible gap, the sequences previewed and adopted."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer

from rulesbook.draughts import Position
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    click_square,
    private_autosave_dir,
)


def test_fill_a_six_ply_gap_and_adopt_it(qtbot, ws):
    bc = ws.board_controller
    bc.editing.type_moves("11-15 23-19")
    target = Position.start("pool")
    for text in "11-15 23-19 8-11 22-17 4-8 17-13 15-18 24-20".split():
        target = target.play(text)
    ws.mode_actions["setup"].trigger()
    ws.fen_edit.setText(target.fen())
    qtbot.keyClick(ws.fen_edit, Qt.Key.Key_Return)
    qtbot.mouseClick(ws.board_now_button, Qt.MouseButton.LeftButton)
    assert bc.mode == "play" and bc.gap_target == target
    ws.gap_kind.setCurrentIndex(0)
    ws.gap_plies.setValue(6)
    with qtbot.waitSignal(bc.gap.finished, timeout=20000) as blocker:
        qtbot.mouseClick(ws.gap_search_button, Qt.MouseButton.LeftButton)
    result = blocker.args[0]
    assert result.status in ("unique", "several") and result.texts
    assert ws.gap_list.count() >= len(result.texts)
    assert ws.gap_progress.value() == 1000
    ws.gap_list.setCurrentRow(len(result.texts) - 1)
    assert ws.gap_adopt_button.isEnabled()
    qtbot.mouseClick(ws.gap_adopt_button, Qt.MouseButton.LeftButton)
    assert len(bc.moves) == 8
    assert [m.text for m in bc.moves[2:]] == list(result.texts[-1])
    assert bc.ply == 8 and bc.position() == target
    assert bc.gap_target is None


def test_impossible_gap_says_why(qtbot, ws):
    bc = ws.board_controller
    bc.gap.mark_board_now(Position.from_fen("B:W21-32:B1-11,13"))
    ws.gap_plies.setValue(2)
    with qtbot.waitSignal(bc.gap.finished, timeout=20000) as blocker:
        ws.start_gap()
    result = blocker.args[0]
    assert result.status == "impossible"
    assert "impossible" in ws.gap_explanation.text()


def test_board_stays_responsive_during_the_gap_search(qtbot, ws):
    bc = ws.board_controller
    # an 18-ply English gap from a real game (Tinsley collection, ply 20 on)
    # that takes the search seconds (a king shuffle no longer does: the search
    # stops once it has more sequences than it keeps)
    bc.editing.new_game("english", Position.from_fen(
        "B:W17,19,21,22,25,26,27,28,29,31:B2,3,4,9,10,11,12,13,14,20", "english"))
    bc.gap.mark_board_now(Position.from_fen("B:WK6,21,22,25,26,29:B2,3,8,9,13,K31", "english"))
    ticks = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(bc.gap.running))
    timer.start()
    progress = []
    bc.gap.progress.connect(lambda f, n: progress.append(n))
    ws.gap_plies.setValue(18)
    assert ws.start_gap()
    assert bc.gap.running and ws.gap_cancel_button.isEnabled()
    qtbot.waitUntil(lambda: sum(ticks) >= 10 and bool(progress), timeout=10000)
    # the GUI thread still handles input while the search runs
    bc.go(0)
    assert bc.gap.running
    with qtbot.waitSignal(bc.gap.finished, timeout=10000) as blocker:
        qtbot.mouseClick(ws.gap_cancel_button, Qt.MouseButton.LeftButton)
    timer.stop()
    assert blocker.args[0].cancelled
    assert "cancelled" in ws.gap_explanation.text()
    qtbot.waitUntil(lambda: not bc.gap.running, timeout=5000)


GAP_START = "11-15 23-19"


#: the six missing plies of the board now; three sequences reach it, parting at plies 3 and 4
GAP_MISSING = "8-11 22-17 4-8 17-13 15-18 24-20"


def gap_ready(qtbot, ws):
    bc = ws.board_controller
    bc.editing.type_moves(GAP_START)
    target = bc.position()
    for text in GAP_MISSING.split():
        target = target.play(text)
    assert bc.gap.mark_board_now(target)
    ws.gap_kind.setCurrentIndex(0)
    ws.gap_plies.setValue(6)
    with qtbot.waitSignal(bc.gap.finished, timeout=20000) as blocker:
        qtbot.mouseClick(ws.gap_search_button, Qt.MouseButton.LeftButton)
    return blocker.args[0], target


def test_gap_sequences_are_previewed_on_the_board(qtbot, ws):
    bc = ws.board_controller
    result, target = gap_ready(qtbot, ws)
    assert len(result.sequences) == 3 and result.diverge_at == (3, 4)
    record_end = bc.positions[2]
    # the first sequence is shown at once, from the end of the record
    assert bc.gap.previewing and bc.gap.preview_index == 0 and bc.gap.preview_ply == 0
    assert ws.board.position() == record_end
    assert ws.preview_box.isEnabled()

    # choose the second sequence; step with the arrow keys in the list
    seq = result.sequences[1]
    ws.gap_list.setFocus()
    ws.gap_list.setCurrentRow(1)
    assert bc.gap.preview_index == 1
    qtbot.keyClick(ws.gap_list, Qt.Key.Key_Right)
    qtbot.keyClick(ws.gap_list, Qt.Key.Key_Right)
    assert bc.gap.preview_ply == 2 and ws.gap_list.currentRow() == 1
    assert ws.board.position() == record_end.play(seq[0]).play(seq[1])
    assert ws.board.highlights()["last"] == seq[1].path
    assert ws.preview_slider.value() == 2
    # where the sequences part: marked on the slider and in the moves, and on the board
    # the other sequences' moves (dashed) beside this one's next move
    assert ws.preview_slider.marks() == (3, 4) == bc.gap.branch_plies(1)
    assert bc.gap.branch_plies(0) == (3,)
    arrows = ws.board.highlights()["arrows"]
    assert any(a.path == seq[2].path and not a.dashed for a in arrows)
    assert any(a.path == result.sequences[0][2].path and a.dashed for a in arrows)
    assert "the sequences part here" in ws.board._caption
    strip = ws.preview_moves_text()
    assert "Sequence 2:" in strip and "▼15-18" in strip and "▼17-13" in strip
    assert "▼8-11" not in strip
    # the slider steps too; the board's arrow keys and End follow the preview
    ws.preview_slider.setValue(4)
    assert bc.gap.preview_ply == 4
    assert ws.board.position() == bc.gap.preview_position(4)
    ws.board.setFocus()
    qtbot.keyClick(ws.board, Qt.Key.Key_Left)
    assert bc.gap.preview_ply == 3 and ws.preview_slider.value() == 3
    qtbot.keyClick(ws.board, Qt.Key.Key_End)
    assert bc.gap.preview_ply == 6 and ws.board.position() == target
    assert "ply 6/6" in ws.preview_ply_label.text()
    # switching sequences keeps the ply, so they can be compared
    ws.gap_list.setCurrentRow(2)
    assert bc.gap.preview_index == 2 and bc.gap.preview_ply == 6
    ws.gap_list.setCurrentRow(1)
    ws.preview_slider.setValue(3)
    # a click on the board does not change the record while previewing
    click_square(qtbot, ws, 9)
    assert [m.text for m in bc.moves] == GAP_START.split() and "Previewing" in ws.status_text()
    # Esc goes back to the record; the record was never changed by the preview
    qtbot.keyClick(ws.board, Qt.Key.Key_Escape)
    assert not bc.gap.previewing and ws.board.position() == record_end
    assert not ws.preview_box.isEnabled()
    # clicking the sequence again shows it again; then it is adopted
    rect = ws.gap_list.visualItemRect(ws.gap_list.item(1))
    qtbot.mouseClick(ws.gap_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert bc.gap.previewing and bc.gap.preview_index == 1
    qtbot.mouseClick(ws.gap_adopt_button, Qt.MouseButton.LeftButton)
    assert not bc.gap.previewing
    assert [m.text for m in bc.moves[2:]] == list(result.texts[1])
    assert bc.position() == target
