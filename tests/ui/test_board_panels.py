"""Each panel of the Board workspace on its own, with only a board controller: it
follows the controller's signals (no workspace refreshes it) and drives it
through its real widgets."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from rulesbook.draughts import Color, Position

#: Black has to capture 10x19 at ply 7 but plays 9-13 (a failure to capture)
PLANTED = "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20"


@pytest.fixture
def bc(tmp_path, qtbot):
    from ui.board import BoardController

    controller = BoardController(autosave_path=tmp_path / "autosave.json")
    yield controller
    controller.shutdown()


def shown(qtbot, widget):
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_record_panel_typing_fills_the_move_list(qtbot, bc):
    from ui.board.panels.record import RecordPanel

    panel = shown(qtbot, RecordPanel(bc))
    qtbot.keyClicks(panel.move_entry, "11-15 23-19 8-11")
    qtbot.keyClick(panel.move_entry, Qt.Key.Key_Return)
    assert panel.move_entry.text() == ""
    cells = [panel.move_list.item_for_ply(p).text() for p in (1, 2, 3)]
    assert cells == ["11-15", "23-19", "8-11"]
    # the row labels are move numbers: Black and White share move 1
    assert panel.move_list.header_text(1) == "2."
    assert "unsaved changes" in panel.record_title.text()
    bc.go(1)  # the controller moves: the list follows without being told
    assert panel.move_list.current_cell().text() == "11-15"
    bc.go(0)  # the start position: no move is the current one
    assert panel.move_list.current_cell() is None and panel.move_list.selected_ply() is None


def test_check_panel_shows_what_the_check_found(qtbot, bc):
    from ui.board.panels.check import CheckPanel

    panel = shown(qtbot, CheckPanel(bc))
    bc.editing.type_moves(PLANTED)
    assert not panel.rulings_button.isEnabled()
    qtbot.mouseClick(panel.check_button, Qt.MouseButton.LeftButton)
    text = panel.check_view.toPlainText()
    assert "Ply 7 (move 4, Black): written 9-13" in text
    assert "Legal moves were: 10x19" in text
    assert panel.rulings_button.isEnabled() and panel.clocks.toggle.isVisible()
    bc.editing.type_moves("24-20")  # the record changes: the result no longer applies
    assert panel.check_view.toPlainText() == "" and not panel.rulings_button.isEnabled()


def test_counts_panel_follows_the_ply(qtbot, bc):
    from ui.board.panels.counts import CountsPanel

    panel = shown(qtbot, CountsPanel(bc))
    # three kings against one: rule 28, "The first count starts with the first move
    # of the lone King. Each move by the lone king, counts as one move."
    bc.editing.new_game(start=Position.from_fen("B:WK32:BK1,K2,K3", "pool"))
    bc.editing.type_moves("1-5 32-27")
    assert "13-count (3 kings v 1)" in panel.form.itemAt(0, panel.form.ItemRole.LabelRole) \
        .widget().text()
    assert panel.text().splitlines()[0].startswith("1 of ")
    bc.go(1)  # Black's move only: the lone king has not moved yet
    assert panel.text().splitlines()[0].startswith("0 of ")


def test_setup_palette_edits_the_position_set_up(qtbot, bc):
    from ui.board.panels.palette import SetupPalette

    panel = shown(qtbot, SetupPalette(bc))
    bc.set_mode("setup")
    qtbot.mouseClick(panel.clear_button, Qt.MouseButton.LeftButton)
    assert "the board is empty" in panel.sanity_label.text()
    qtbot.mouseClick(panel.tool_buttons["white-king"], Qt.MouseButton.LeftButton)
    assert bc.setup.tool == "white-king"
    bc.input.click_square(18)
    assert bc.setup.position().fen() == "B:WK18:B"
    panel.fen_edit.setText("W:W21-32:B1-12")
    qtbot.keyClick(panel.fen_edit, Qt.Key.Key_Return)
    assert bc.setup.position() == Position.start("pool").with_turn(
        Position.start("pool").turn.opponent)
    assert panel.turn_buttons[Color.WHITE].isChecked()
    assert not panel.turn_buttons[Color.BLACK].isChecked()
    assert panel.sanity_label.text().startswith("✓ The position is possible")


def test_the_board_mode_is_an_enum_that_signals_the_plain_word(qtbot):
    """Issue 20: the mode is not a bare string inside the controller; its signal and
    the saved session still carry the plain word."""
    from ui.board.controller import BoardController
    from ui.board.mode import BoardMode

    bc = BoardController()
    seen: list[object] = []
    bc.modeChanged.connect(seen.append)
    assert bc.mode is BoardMode.PLAY
    bc.set_mode("setup")
    assert bc.mode is BoardMode.SETUP and seen == ["setup"]
    assert type(seen[0]) is str  # receivers get the word, not the enum
    bc.set_mode(BoardMode.PLAY)
    assert bc.mode is BoardMode.PLAY
    import pytest

    with pytest.raises(ValueError):
        bc.set_mode("dance")
    bc.shutdown()
