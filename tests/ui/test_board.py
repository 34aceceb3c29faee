"""The Board workspace driven through the real widgets (offscreen): set-up by the
palette, moves by clicks, refusals, PDN import and keyboard stepping, the record
check, gap filling off the GUI thread, autosave and recovery, case files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication

from rulesbook.draughts import Color, Piece, Position
from rulesbook.draughts.pdn import iter_games
from tests.datapaths import CORPUS  # noqa: E402

#: Black has to capture 10x19 at ply 7 but plays 9-13 (a failure to capture)
PLANTED = "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20"


@pytest.fixture(autouse=True)
def autosave_dir(tmp_path, monkeypatch) -> Path:
    """Never autosave into the real user's app data folder."""
    folder = tmp_path / "autosave"
    monkeypatch.setenv("RULESBOOK_AUTOSAVE_DIR", str(folder))
    return folder


def make_workspace(qtbot, controller):
    from ui.workspaces.board import BoardWorkspace

    ws = BoardWorkspace(controller)
    ws.confirm_close = lambda: "discard"
    qtbot.addWidget(ws)
    ws.resize(1100, 720)
    ws.show()
    qtbot.waitExposed(ws)
    return ws


@pytest.fixture
def ws(qtbot, controller):
    ws = make_workspace(qtbot, controller)
    yield ws
    ws.board_controller.shutdown()


def click_square(qtbot, ws, square: int, button=Qt.MouseButton.LeftButton) -> None:
    qtbot.mouseClick(ws.board, button, pos=ws.board.square_rect(square).center())


def test_square_geometry_follows_the_standard_numbering(ws):
    board = ws.board
    # Black at the top: 1 is b8 (top row, second file), 4 is h8, 29 is a1, 32 is g1
    r1, r4, r29, r32 = (board.square_rect(n) for n in (1, 4, 29, 32))
    assert r1.top() == r4.top() < r29.top() == r32.top()
    assert r29.left() < r1.left() < r32.left() < r4.left()
    for n in range(1, 33):
        assert board.square_at(board.square_rect(n).center()) == n
    board.set_flipped(True)
    assert board.square_rect(1).top() > board.square_rect(29).top()
    for n in (1, 15, 32):
        assert board.square_at(board.square_rect(n).center()) == n
    assert board.square_at(QPoint(1, 1)) is None


def test_set_up_a_position_with_the_palette(qtbot, ws):
    bc = ws.board_controller
    ws.mode_actions["setup"].trigger()
    assert bc.mode == "setup" and ws.setup_scroll.isVisible()
    qtbot.mouseClick(ws.clear_button, Qt.MouseButton.LeftButton)
    assert bc.setup.position().pieces() == {}
    assert "empty" in ws.sanity_label.text()
    qtbot.mouseClick(ws.tool_buttons["white-man"], Qt.MouseButton.LeftButton)
    click_square(qtbot, ws, 22)
    qtbot.mouseClick(ws.tool_buttons["black-man"], Qt.MouseButton.LeftButton)
    click_square(qtbot, ws, 18)
    click_square(qtbot, ws, 11)
    qtbot.mouseClick(ws.tool_buttons["black-king"], Qt.MouseButton.LeftButton)
    click_square(qtbot, ws, 3)
    click_square(qtbot, ws, 5)
    click_square(qtbot, ws, 5)  # the same piece again takes it off
    # right-click: the same kind of the other colour (CheckerBoard's right button);
    # again: taken off
    click_square(qtbot, ws, 9, Qt.MouseButton.RightButton)
    assert bc.setup.position().piece_at(9) == Piece(Color.WHITE, True)
    click_square(qtbot, ws, 9, Qt.MouseButton.RightButton)
    assert bc.setup.position().piece_at(9) is None
    qtbot.mouseClick(ws.turn_buttons[Color.WHITE], Qt.MouseButton.LeftButton)
    pos = bc.setup.position()
    assert pos.turn is Color.WHITE
    assert pos.pieces() == {3: Piece(Color.BLACK, True), 11: Piece(Color.BLACK),
                            18: Piece(Color.BLACK), 22: Piece(Color.WHITE)}
    assert pos.fen() == "W:W22:BK3,11,18"
    assert ws.sanity_label.text().startswith("✓")
    # a black man on its king row is not a position of a game
    qtbot.mouseClick(ws.tool_buttons["black-man"], Qt.MouseButton.LeftButton)
    click_square(qtbot, ws, 30)
    assert "black man on 30" in ws.sanity_label.text()
    qtbot.mouseClick(ws.tool_buttons["eraser"], Qt.MouseButton.LeftButton)
    click_square(qtbot, ws, 30)
    assert ws.sanity_label.text().startswith("✓")
    qtbot.mouseClick(ws.use_start_button, Qt.MouseButton.LeftButton)
    assert bc.mode == "play" and bc.start.fen() == "W:W22:BK3,11,18"
    assert bc.moves == ()

    # -- play the capture 22x15x8 by clicks: the piece, then the squares it stops on
    click_square(qtbot, ws, 22)
    assert bc.input.partial == (22,)
    assert set(bc.input.hint_squares()) >= {15, 8}
    click_square(qtbot, ws, 15)  # an intermediate stop: the capture goes on
    assert bc.input.partial == (22, 15)
    click_square(qtbot, ws, 8)
    assert [m.text for m in bc.moves] == ["22x8"]
    assert bc.position().fen() == "B:W8:BK3"
    assert ws.board.highlights()["last"] == (22, 15, 8)
    assert ws.move_list.item_for_ply(1).text() == "22x8"


def test_capture_by_clicking_its_end_and_fen_paste(qtbot, ws):
    bc = ws.board_controller
    ws.mode_actions["setup"].trigger()
    ws.fen_edit.setText("W:W22:B11,18")
    qtbot.keyClick(ws.fen_edit, Qt.Key.Key_Return)
    assert bc.setup.position().fen() == "W:W22:B11,18"
    bc.setup.use_as_start()
    click_square(qtbot, ws, 22)
    click_square(qtbot, ws, 8)  # the only capture ending on 8
    assert bc.position().fen() == "B:W8:B"
    assert "White wins" in ws.status_text() or "no move" in ws.status_text()


def test_illegal_move_is_refused_with_the_engines_reason(qtbot, ws):
    bc = ws.board_controller
    bc.type_moves("11-15 23-19 8-11 22-17 15-18 19-15")
    assert bc.ply == 6 and bc.position().turn is Color.BLACK
    click_square(qtbot, ws, 9)
    assert "must capture: 10x19" in ws.status_text()
    click_square(qtbot, ws, 13)
    assert "Refused" in ws.status_text()
    assert "you must capture: 10x19" in ws.status_text()
    assert len(bc.moves) == 6  # nothing played
    click_square(qtbot, ws, 10)
    assert bc.input.partial == (10,) and bc.input.hint_squares() == (19,)
    qtbot.keyClick(ws.board, Qt.Key.Key_Escape)
    assert bc.input.partial == ()
    # the legal capture is accepted, by dragging
    start = ws.board.square_rect(10).center()
    end = ws.board.square_rect(19).center()
    qtbot.mousePress(ws.board, Qt.MouseButton.LeftButton, pos=start)
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent

    for k in range(1, 6):
        p = QPointF(start + (end - start) * (k / 5))
        move = QMouseEvent(QEvent.Type.MouseMove, p, ws.board.mapToGlobal(p),
                           Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton,
                           Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(ws.board, move)
    qtbot.mouseRelease(ws.board, Qt.MouseButton.LeftButton, pos=end)
    assert [m.text for m in bc.moves][-1] == "10x19"


def test_import_pdn_and_step_with_the_keyboard(qtbot, ws):
    path = CORPUS / "pool-3-kings-vs-1-theory.pdn"
    bc = ws.board_controller
    assert ws.open_pdn(path)
    assert bc.variant.name == "pool"
    assert len(bc.moves) == 25 and bc.ply == 0
    assert bc.start.fen() == "W:WK21:BK2,K22,K31"
    game = next(iter_games(path.read_text(encoding="utf-8")))
    expected = game.positions()
    ws.board.setFocus()
    for _ in range(20):
        qtbot.keyClick(ws.board, Qt.Key.Key_Right)
    assert bc.ply == 20
    assert ws.board.position().fen() == expected[20].fen()
    assert ws.move_list.current_ply() == 20
    qtbot.keyClick(ws.board, Qt.Key.Key_Left)
    assert bc.ply == 19
    qtbot.keyClick(ws.move_list, Qt.Key.Key_End)
    assert bc.ply == 25 and ws.board.position().fen() == expected[25].fen()
    qtbot.keyClick(ws.move_list, Qt.Key.Key_Home)
    assert bc.ply == 0
    # the opening comment and the variations of the PDN are shown
    assert "Petrov" in bc.record.comment or "Black claims" in bc.record.comment
    assert "Black claims" in ws.comment_view.toPlainText()
    with_variations = [i for i, m in enumerate(bc.moves, 1) if m.variations]
    assert with_variations
    bc.go(with_variations[0])
    assert "Variation:" in ws.comment_view.toPlainText()
    # a click on a move goes to it
    row, col = ws.move_list.cell_of(4)
    rect = ws.move_list.visualItemRect(ws.move_list.item(row, col))
    qtbot.mouseClick(ws.move_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert bc.ply == 4
    # the counts panel: three kings against one, the 13-count is running
    assert "13-count" in ws.counts_text() or "moves" in ws.counts_text()
    state = bc.counts.at()
    assert state is not None and state.three_vs_one_active


def test_choose_a_game_of_a_multi_game_file(ws):
    path = CORPUS / "english-tinsley-1946-1960s.pdn"
    asked = []

    def choose(chunks):
        asked.append(len(chunks))
        return 2

    ws.choose_game = choose
    assert ws.open_pdn(path)
    assert asked and asked[0] > 700
    bc = ws.board_controller
    # no GameType tag; game 3's 27 moves are legal in pool and in English: the
    # first that fits (pool) is taken and English named; "Read as" changes it
    assert bc.variant.name == "pool"
    assert "also in English checkers" in ws.variant_notice.text()
    combo = ws.variant_notice.combo
    combo.setCurrentIndex(combo.findData("english"))
    combo.activated.emit(combo.currentIndex())
    assert bc.variant.name == "english"
    assert bc.record.tags["Black"] == "E Fuller" and bc.record.tags["White"] == "MF Tinsley"
    assert [m.text for m in bc.moves[:3]] == ["11-15", "23-18", "9-14"]
    assert bc.available_plies == len(bc.moves)


def test_check_record_marks_the_failure_to_capture(qtbot, ws):
    bc = ws.board_controller
    ws.move_entry.setText(PLANTED)
    qtbot.keyClick(ws.move_entry, Qt.Key.Key_Return)
    assert len(bc.moves) == 8 and ws.move_entry.text() == ""
    ws.mode_actions["check"].trigger()
    assert bc.mode == "check"
    first = bc.first_illegal
    assert first is not None and first.ply == 7 and first.move == "9-13"
    assert first.incident == "failure_to_capture"
    assert first.facts["ply"] == 7
    assert ws.marked_plies() == [7]
    assert bc.ply == 6  # the board shows the position the illegal move was played in
    assert ws.board.highlights()["marks"] == (9,)
    arrows = ws.board.highlights()["arrows"]
    assert any(a.path == (9, 13) for a in arrows) and any(a.path == (10, 19) for a in arrows)
    assert "At move 4 Black played 9-13, but Black had to capture: 10x19." in ws.status_text()
    assert "Legal moves were: 10x19" in ws.check_view.toPlainText()
    # the rulings panel's hook
    assert ws.rulings_button.isEnabled()
    with qtbot.waitSignal(bc.rulingsRequested, timeout=1000) as blocker:
        qtbot.mouseClick(ws.rulings_button, Qt.MouseButton.LeftButton)
    incident, facts = blocker.args
    assert incident == "failure_to_capture" and facts["ply"] == 7 and facts["side"] == "black"
    # the record context the rulings panel needs travels with the request
    assert facts["moves"] == PLANTED
    assert facts["fen"] == Position.start("pool").fen() == bc.start.fen()
    assert facts["move"] == "9-13" and facts["variant"] == "pool"
    # let illegal moves stand: every one is listed
    bc.set_record(bc.record.with_moves(bc.moves + (bc.moves[-1].__class__("20-11"),)))
    ws.let_stand_box.setChecked(True)
    bc.check_record()
    assert len(bc.checked.illegal) >= 2
    assert ws.marked_plies()[0] == 7 and len(ws.marked_plies()) >= 2


def test_fill_a_six_ply_gap_and_adopt_it(qtbot, ws):
    bc = ws.board_controller
    bc.type_moves("11-15 23-19")
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
    bc.mark_board_now(Position.from_fen("B:W21-32:B1-11,13"))
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
    bc.new_game("english", Position.from_fen(
        "B:W17,19,21,22,25,26,27,28,29,31:B2,3,4,9,10,11,12,13,14,20", "english"))
    bc.mark_board_now(Position.from_fen("B:WK6,21,22,25,26,29:B2,3,8,9,13,K31", "english"))
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


def test_autosave_survives_a_crash_and_is_recovered(qtbot, controller, settings,
                                                   autosave_dir):
    from ui.mainwindow import MainWindow
    from ui.workspaces.board import BoardWorkspace

    first = BoardWorkspace(controller)
    first.show()
    bc = first.board_controller
    bc.type_moves("11-15 23-19 8-11")
    click_square(qtbot, first, 22)
    click_square(qtbot, first, 17)
    bc.set_comment(2, "the referee saw this")
    saved = json.loads((autosave_dir / "board-autosave.json").read_text(encoding="utf-8"))
    assert saved["dirty"] and [m if isinstance(m, str) else m["text"]
                               for m in saved["moves"]] == ["11-15", "23-19", "8-11", "22-17"]
    # the app dies: the widget is dropped without being closed
    first.hide()
    first.deleteLater()
    del first, bc
    QApplication.processEvents()

    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    board = win.workspaces["board"]
    board.confirm_close = lambda: "discard"
    restored = board.board_controller
    assert [m.text for m in restored.moves] == ["11-15", "23-19", "8-11", "22-17"]
    assert restored.moves[1].comment == "the referee saw this"
    assert restored.dirty
    assert board.banner.isVisibleTo(board)
    assert "Restored" in board.banner_label.text()


def test_ask_before_closing_with_unsaved_changes(qtbot, controller, settings, autosave_dir):
    from ui.mainwindow import MainWindow

    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    board = win.workspaces["board"]
    win.show_workspace("board")
    board.board_controller.type_moves("11-15")
    asked = []
    board.confirm_close = lambda: asked.append(1) or "cancel"
    assert not win.close()
    assert asked and win.isVisible()
    assert (autosave_dir / "board-autosave.json").exists()
    board.confirm_close = lambda: "discard"
    assert win.close()
    assert not (autosave_dir / "board-autosave.json").exists()


def test_case_file_round_trip_and_export(qtbot, ws, tmp_path, controller):
    from ui.board import BoardController

    bc = ws.board_controller
    bc.type_moves(PLANTED)
    bc.check_record()
    path = tmp_path / "case.yaml"
    assert ws.save_case(path)
    assert not bc.dirty
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["kind"] == "dispute" and data["variant"] == "pool"
    assert data["findings"]["first_illegal"]["ply"] == 7
    assert data["findings"]["first_illegal"]["incident"] == "failure_to_capture"
    from rulesbook.reconstruct import load_case

    assert load_case(path).record.split() == PLANTED.split()
    assert not list(tmp_path.glob(".case.yaml.*.tmp"))
    other = BoardController(autosave_path=tmp_path / "other.json")
    assert other.files.open_case(path)
    assert [m.text for m in other.moves] == PLANTED.split()
    assert not other.dirty
    # PDN export reads back to the same moves; FEN of the board shown
    bc.go(4)
    text = bc.export_pdn()
    game = next(iter_games(text))
    assert [n.text for n in game.mainline][:6] == PLANTED.split()[:6]
    assert '[GameType "23' in text
    assert bc.export_fen() == bc.positions[4].fen()


def test_undo_and_replacing_later_moves(qtbot, ws):
    bc = ws.board_controller
    bc.type_moves("11-15 23-19 8-11 22-17")
    bc.go(2)
    click_square(qtbot, ws, 9)
    click_square(qtbot, ws, 14)
    assert [m.text for m in bc.moves] == ["11-15", "23-19", "9-14"]
    assert "replaced 2 later move(s)" in ws.status_text()
    bc.undo()
    assert [m.text for m in bc.moves] == ["11-15", "23-19", "8-11", "22-17"]
    # playing the move already recorded just steps forward
    bc.go(0)
    click_square(qtbot, ws, 11)
    click_square(qtbot, ws, 15)
    assert len(bc.moves) == 4 and bc.ply == 1


def test_variant_choice_rereads_the_record(ws):
    bc = ws.board_controller
    ws.variant_combo.setCurrentIndex(ws.variant_combo.findData("english"))
    ws.variant_combo.activated.emit(ws.variant_combo.currentIndex())
    assert bc.variant.name == "english"
    bc.type_moves("11-15 23-19")
    assert bc.available_plies == 2
    ws.variant_combo.setCurrentIndex(ws.variant_combo.findData("russian"))
    ws.variant_combo.activated.emit(ws.variant_combo.currentIndex())
    assert bc.variant.name == "russian" and bc.start.turn is Color.WHITE


def test_rulings_request_reaches_the_app_controller(qtbot, ws, controller):
    received = []
    controller.rulingsRequested.connect(lambda incident, facts: received.append((incident,
                                                                                 facts)))
    ws.board_controller.type_moves(PLANTED)
    ws.board_controller.check_record()
    assert ws.board_controller.check.request_rulings()
    assert received and received[0][0] == "failure_to_capture"
    assert received[0][1]["ply"] == 7


def test_screenshots_script(tmp_path):
    from ui.board.screenshots import shoot

    paths = shoot(tmp_path / "shots", size=(900, 600))
    assert [p.name for p in paths] == ["board-play.png", "board-setup.png", "board-check.png",
                                       "board-gap.png"]
    from PySide6.QtGui import QImage

    for path in paths:
        image = QImage(str(path))
        assert image.width() >= 900 and image.height() >= 600


def test_ambiguous_capture_asks_for_the_square_it_stops_on(qtbot, ws):
    bc = ws.board_controller
    bc.new_game(start=Position.from_fen("W:W6:B8,9,10,17,18,19,21"))
    click_square(qtbot, ws, 6)
    click_square(qtbot, ws, 24)  # 6x15x24 and 6x13x22x15x24 both end on 24
    assert not bc.moves
    assert "Several captures end on 24" in ws.status_text()
    assert bc.input.pending_end == 24 and 13 in bc.input.hint_squares()
    click_square(qtbot, ws, 13)
    assert len(bc.moves) == 1 and bc.played_move(1).path == (6, 13, 22, 15, 24)
    assert bc.moves[0].text == Position.from_fen("W:W6:B8,9,10,17,18,19,21").move_text(
        bc.played_move(1))


def test_rulings_request_carries_a_set_up_start(qtbot, ws):
    bc = ws.board_controller
    bc.new_game(start=Position.from_fen("W:W6:B8,9,10,17,18,19,21"))
    bc.type_moves("6-2")  # White must capture
    bc.check_record()
    facts = bc.check.rulings_facts()
    assert facts["fen"] == "W:W6:B8,9,10,17,18,19,21"
    assert facts["moves"] == "6-2" and facts["ply"] == 1


GAP_START = "11-15 23-19"
#: the six missing plies of the board now; three sequences reach it, parting at plies 3 and 4
GAP_MISSING = "8-11 22-17 4-8 17-13 15-18 24-20"


def gap_ready(qtbot, ws):
    bc = ws.board_controller
    bc.type_moves(GAP_START)
    target = bc.position()
    for text in GAP_MISSING.split():
        target = target.play(text)
    assert bc.mark_board_now(target)
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


def test_clock_pro_rating_after_the_first_illegal_move(qtbot, ws):
    from rulesbook.reconstruct import prorate_clocks
    from ui.board.clocks import FORMULA

    bc = ws.board_controller
    bc.type_moves("11-15 23-19")
    bc.check_record()
    assert not ws.clock_toggle.isVisibleTo(ws)  # every move legal: nothing to pro-rate
    bc.new_game()
    bc.type_moves(PLANTED)
    ws.mode_actions["check"].trigger()
    ws.panels.setCurrentIndex(0)
    assert ws.clock_toggle.isVisible() and not ws.clock_form.isVisible()
    qtbot.mouseClick(ws.clock_toggle, Qt.MouseButton.LeftButton)
    assert ws.clock_form.isVisible()
    assert ws.clock_formula.text() == FORMULA
    # 8 plies, the illegal move is ply 7: each side played 4 moves, 1 is taken back
    assert bc.clocks.moves()._asdict() == {"black_total": 4, "white_total": 4, "black_since": 1,
                                          "white_since": 1}
    qtbot.keyClicks(ws.clock_black, "18:40")
    assert "Type both clock readings" in ws.clock_text()
    qtbot.keyClicks(ws.clock_white, "21:05")
    assert "no time control" in ws.clock_text()
    assert "Black 18:40" in ws.clock_text() and "White 21:05" in ws.clock_text()
    ws.clock_control.setValue(30)
    expected = prorate_clocks(18 * 60 + 40, 21 * 60 + 5, 4, 4, 1, 1, 30 * 60)
    assert ws.last_clock_advice == expected
    text = ws.clock_text()
    assert "Set Black 21:30, White 23:19" in text
    assert "given back: Black 2:50, White 2:14" in text
    assert "Taken back: Black 1 of 4 moves, White 1 of 4" in text
    # readings that cannot be right are refused in words
    ws.clock_white.setText("31:00")
    assert "White's clock reads more than the time control" in ws.clock_text()
    ws.clock_white.setText("21:75")
    assert "seconds go up to 59" in ws.clock_text()


def test_clock_readings_are_read_as_written():
    from ui.board.clocks import format_clock, parse_clock

    assert parse_clock("12:30") == 750 and parse_clock("1:02:03") == 3723
    assert parse_clock("25") == 1500 and parse_clock(" ") is None
    assert format_clock(750) == "12:30" and format_clock(3723) == "1:02:03"
    for bad in ("12:3x", "1.5:20", "abc"):
        with pytest.raises(ValueError):
            parse_clock(bad)


def test_two_apps_running_at_once_keep_separate_autosaves(qtbot, autosave_dir):
    """A second app does not take over the first one's live autosave, and neither
    overwrites the other; once the first is gone, its work is offered. "Running"
    is the OS lock on the autosave (held by a child process here), not a pid."""
    import subprocess
    import sys

    from ui.autosave import owner_lock_path, release
    from ui.board.controller import AUTOSAVE_NAME, BoardController

    first = BoardController()
    first.autosave()
    live = autosave_dir / AUTOSAVE_NAME
    data = json.loads(live.read_text(encoding="utf-8"))
    data["dirty"] = True
    live.write_text(json.dumps(data), encoding="utf-8")
    release(live)  # this process lets go; the other app (a child) takes the lock
    other = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(owner_lock_path(live))],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"
        before = live.read_bytes()
        second = BoardController()
        with qtbot.waitSignal(second.statusMessage) as said:
            assert second.files.recoverable() is None
        assert "still running" in said.args[0] and str(live) in said.args[0]
        assert second.autosave()
        assert second.autosave_path != live and live.read_bytes() == before
    finally:
        other.kill()
        other.wait()
        if other.stdout is not None:
            other.stdout.close()
    third = BoardController()  # the other app is gone: its unsaved work is offered
    found = third.files.recoverable()
    assert found is not None and third.autosave_path == live


def test_a_live_process_with_the_recorded_pid_does_not_hide_a_recovery(qtbot, autosave_dir):
    """After a reboot the pid written in an autosave may belong to any process:
    the work must still be offered (main treated it as "in use" and hid it)."""
    import subprocess
    import sys

    from ui.board.controller import AUTOSAVE_NAME, BoardController

    first = BoardController()
    first.autosave()
    first.files.discard_autosave()  # releases the lock, as a crash would
    live = autosave_dir / AUTOSAVE_NAME
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        session = first.files.to_session()
        session["dirty"] = True
        session["pid"] = stranger.pid  # a live process that is no Rulesbook
        live.write_text(json.dumps(session), encoding="utf-8")
        found = BoardController().files.recoverable()
        assert found is not None and found["pid"] == stranger.pid
    finally:
        stranger.kill()
        stranger.wait()


#: A child process that holds an owner lock (as another running app does).
HOLD_LOCK = ("import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, "
             "0o600); fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)")
