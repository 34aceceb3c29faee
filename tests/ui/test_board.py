"""The Board workspace driven through the real widgets (offscreen): set-up by the
palette, moves by clicks, refusals, PDN import and keyboard stepping, the record
check, case files, clocks (gap filling: test_board_gap.py; autosave and
recovery: test_board_autosave.py)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from rulesbook.draughts import Color, Piece, Position
from rulesbook.draughts.pdn import iter_games
from tests.datapaths import CORPUS  # noqa: E402
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    PLANTED,
    board_workspace,
    click_square,
    private_autosave_dir,
)


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
    bc.editing.type_moves("11-15 23-19 8-11 22-17 15-18 19-15")
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
    rect = ws.move_list.cell_rect(4)
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
    # no GameType tag; game 3's 27 moves are legal in pool and in English: the file's
    # games 1 and 2 are legal in English only (Tinsley's English games, the corpus
    # README), so English is taken and the note says why, counting every game of the
    # file that tells the variants apart (#31 retest: it counted the first two only);
    # "Read as" changes it
    assert bc.variant.name == "english"
    import re
    told = re.search(r"also in pool checkers; the file's other games need English checkers "
                     r"\((\d+) of the (\d+) games that tell the variants apart\)$",
                     ws.variant_notice.text())
    assert told, ws.variant_notice.text()
    assert told[1] == told[2] and int(told[1]) > 100  # all of Tinsley's English games
    combo = ws.variant_notice.combo
    combo.setCurrentIndex(combo.findData("pool"))
    combo.activated.emit(combo.currentIndex())
    assert bc.variant.name == "pool"
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
    first = bc.check.first_illegal
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
    (request,) = blocker.args
    incident = request.incident
    assert incident.incident == "failure_to_capture" and incident.ply == 7
    assert request.side is Color.BLACK
    # the record context the rulings panel needs travels with the request
    assert request.moves_text == PLANTED
    assert request.fen == Position.start("pool").fen() == bc.start.fen()
    assert incident.move == "9-13" and request.variant.name == "pool"
    # let illegal moves stand: every one is listed
    bc.commit(bc.session.replace(record=bc.record.with_moves(
        bc.moves + (bc.moves[-1].__class__("20-11"),))), bc.ply)
    ws.let_stand_box.setChecked(True)
    bc.check.run()
    assert len(bc.check.result.illegal) >= 2
    assert ws.marked_plies()[0] == 7 and len(ws.marked_plies()) >= 2


def test_case_file_round_trip_and_export(qtbot, ws, tmp_path, controller):
    from ui.board import BoardController

    bc = ws.board_controller
    bc.editing.type_moves(PLANTED)
    bc.check.run()
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
    text = bc.export.pdn()
    game = next(iter_games(text))
    assert [n.text for n in game.mainline][:6] == PLANTED.split()[:6]
    assert '[GameType "23' in text
    assert bc.export.fen() == bc.positions[4].fen()


def test_undo_and_replacing_later_moves(qtbot, ws):
    bc = ws.board_controller
    bc.editing.type_moves("11-15 23-19 8-11 22-17")
    bc.go(2)
    click_square(qtbot, ws, 9)
    click_square(qtbot, ws, 14)
    assert [m.text for m in bc.moves] == ["11-15", "23-19", "9-14"]
    assert "replaced 2 later moves" in ws.status_text()
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
    bc.editing.type_moves("11-15 23-19")
    assert bc.available_plies == 2
    ws.variant_combo.setCurrentIndex(ws.variant_combo.findData("russian"))
    ws.variant_combo.activated.emit(ws.variant_combo.currentIndex())
    assert bc.variant.name == "russian" and bc.start.turn is Color.WHITE


def test_rulings_request_reaches_the_app_controller(qtbot, ws, controller):
    received = []
    controller.rulingsRequested.connect(received.append)
    ws.board_controller.editing.type_moves(PLANTED)
    ws.board_controller.check.run()
    assert ws.board_controller.check.request_rulings()
    assert received and received[0].incident.incident == "failure_to_capture"
    assert received[0].incident.ply == 7


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
    bc.editing.new_game(start=Position.from_fen("W:W6:B8,9,10,17,18,19,21"))
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
    bc.editing.new_game(start=Position.from_fen("W:W6:B8,9,10,17,18,19,21"))
    bc.editing.type_moves("6-2")  # White must capture
    bc.check.run()
    request = bc.check.rulings_request()
    assert request.fen == "W:W6:B8,9,10,17,18,19,21"
    assert request.moves_text == "6-2" and request.incident.ply == 1


def test_clock_pro_rating_after_the_first_illegal_move(qtbot, ws):
    from rulesbook.reconstruct import prorate_clocks
    from ui.board.clocks import FORMULA

    bc = ws.board_controller
    bc.editing.type_moves("11-15 23-19")
    bc.check.run()
    assert not ws.clock_toggle.isVisibleTo(ws)  # every move legal: nothing to pro-rate
    bc.editing.new_game()
    bc.editing.type_moves(PLANTED)
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
