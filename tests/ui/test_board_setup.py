"""Set-up mode driven through the real widgets (offscreen), by the conventions of
CheckerBoard (left button Black, right button White, a second click crowns or
removes) and the Lidraughts editor (spare pieces dragged onto the board, a piece
dragged off the board is removed, FEN in a field): issue 19, set-up in seconds.

Every position expected here is either typed from the rule of the move (a piece
dragged from a to b is on b) or played by the engine from the moves of the issue;
none is copied from what the app printed.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractButton, QApplication, QWidget

from rulesbook.draughts import Color, Piece, Position
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    private_autosave_dir,
)
from ui.workspaces.board import GAP_TAB

#: the 6-ply position of issue 19 (pool), from the start position
SIX_PLIES = "11-15 23-19 8-11 22-17 4-8 17-13"

BLACK_MAN, BLACK_KING = Piece(Color.BLACK, False), Piece(Color.BLACK, True)
WHITE_MAN, WHITE_KING = Piece(Color.WHITE, False), Piece(Color.WHITE, True)




def engine_position(moves: str, variant: str = "pool") -> Position:
    """The position after ``moves``, played by the engine from the start."""
    pos = Position.start(variant)
    for text in moves.split():
        pos = pos.play(text)
    return pos


class Actions:
    """Real input events, counted as the issue counts them: a click, a drag or a
    key press is one action each."""

    def __init__(self, qtbot):
        self.qtbot = qtbot
        self.done: list[str] = []

    @property
    def count(self) -> int:
        return len(self.done)

    def click(self, widget: QWidget, what: str, pos: QPoint | None = None,
              button: Qt.MouseButton = Qt.MouseButton.LeftButton,
              modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        assert widget.isVisible() and widget.isEnabled(), f"{what}: not clickable"
        self.qtbot.mouseClick(widget, button, modifier,
                              pos if pos is not None else widget.rect().center())
        self.done.append(f"click {what}")

    def key(self, widget: QWidget, key: Qt.Key, what: str,
            modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        self.qtbot.keyClick(widget, key, modifier)
        self.done.append(f"key {what}")

    def drag(self, source: QWidget, start: QPoint, target: QWidget, end: QPoint,
             what: str) -> None:
        """Press on ``source`` at ``start``, move in steps, release over ``target`` at
        ``end`` (the events go to ``source``, which holds the mouse grab)."""
        drag(self.qtbot, source, start, target, end)
        self.done.append(f"drag {what}")


def drag(qtbot, source: QWidget, start: QPoint, target: QWidget, end: QPoint) -> None:
    local_end = source.mapFromGlobal(target.mapToGlobal(end))
    qtbot.mousePress(source, Qt.MouseButton.LeftButton, pos=start)
    for k in range(1, 5):
        qtbot.mouseMove(source, start + (local_end - start) * (k / 4))
    qtbot.mouseRelease(source, Qt.MouseButton.LeftButton, pos=local_end)


def centre(ws, square: int) -> QPoint:
    return ws.board.square_rect(square).center()


def click_square(qtbot, ws, square: int, button=Qt.MouseButton.LeftButton,
                 modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.mouseClick(ws.board, button, modifier, centre(ws, square))


def mode_button(ws, mode: str) -> QWidget:
    button = ws.toolbar.widgetForAction(ws.mode_actions[mode])
    assert button is not None and button.isVisible(), f"{mode} is not on the toolbar"
    return button


def enter_setup(qtbot, ws) -> None:
    qtbot.mouseClick(mode_button(ws, "setup"), Qt.MouseButton.LeftButton)
    assert ws.board_controller.mode == "setup"


# -- the conventions -------------------------------------------------------------------
def test_left_click_places_right_click_and_shift_the_other_colour(qtbot, ws):
    bc = ws.board_controller
    enter_setup(qtbot, ws)
    qtbot.mouseClick(ws.clear_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(ws.tool_buttons["black-man"], Qt.MouseButton.LeftButton)
    click_square(qtbot, ws, 14)
    click_square(qtbot, ws, 15, Qt.MouseButton.RightButton)
    click_square(qtbot, ws, 16, modifier=Qt.KeyboardModifier.ShiftModifier)
    assert bc.setup.position().pieces() == {14: BLACK_MAN, 15: WHITE_MAN, 16: WHITE_MAN}
    # the same piece again takes it off (the same colour as the button that placed it)
    click_square(qtbot, ws, 14)
    click_square(qtbot, ws, 15, Qt.MouseButton.RightButton)
    assert bc.setup.position().pieces() == {16: WHITE_MAN}
    # another piece replaces it; a king tool places kings of either colour
    click_square(qtbot, ws, 16)
    qtbot.mouseClick(ws.tool_buttons["white-king"], Qt.MouseButton.LeftButton)
    click_square(qtbot, ws, 1, Qt.MouseButton.RightButton)
    click_square(qtbot, ws, 32)
    assert bc.setup.position().pieces() == {16: BLACK_MAN, 1: BLACK_KING, 32: WHITE_KING}
    # the eraser takes off whatever the button
    qtbot.mouseClick(ws.tool_buttons["eraser"], Qt.MouseButton.LeftButton)
    click_square(qtbot, ws, 1, Qt.MouseButton.RightButton)
    click_square(qtbot, ws, 32)
    assert bc.setup.position().pieces() == {16: BLACK_MAN}
    # a click on a light square or off the board changes nothing
    light = ws.board.square_rect(1).center() - QPoint(ws.board.square_rect(1).width(), 0)
    qtbot.mouseClick(ws.board, Qt.MouseButton.LeftButton, pos=light)
    qtbot.mouseClick(ws.board, Qt.MouseButton.LeftButton, pos=QPoint(2, 2))
    assert bc.setup.position().pieces() == {16: BLACK_MAN}


def test_spares_are_dragged_onto_the_board_and_pieces_off_it(qtbot, ws):
    bc = ws.board_controller
    enter_setup(qtbot, ws)
    qtbot.mouseClick(ws.clear_button, Qt.MouseButton.LeftButton)
    spare = ws.tool_buttons["white-king"]
    drag(qtbot, spare, spare.rect().center(), ws.board, centre(ws, 18))
    assert bc.setup.position().pieces() == {18: WHITE_KING}
    # a drag is not a click: the tool chosen stays the black man
    assert bc.setup.tool == "black-man" and ws.tool_buttons["black-man"].isChecked()
    spare = ws.tool_buttons["black-man"]
    drag(qtbot, spare, spare.rect().center(), ws.board, centre(ws, 9))
    assert bc.setup.position().pieces() == {18: WHITE_KING, 9: BLACK_MAN}
    # dropped onto an occupied square, the spare replaces the piece there
    drag(qtbot, spare, spare.rect().center(), ws.board, centre(ws, 18))
    assert bc.setup.position().pieces() == {18: BLACK_MAN, 9: BLACK_MAN}
    # dropped beside the board (the palette itself): nothing
    drag(qtbot, spare, spare.rect().center(), ws.board_now_button,
         ws.board_now_button.rect().center())
    assert bc.setup.position().pieces() == {18: BLACK_MAN, 9: BLACK_MAN}
    # a piece on the board dragged to another square moves there
    drag(qtbot, ws.board, centre(ws, 9), ws.board, centre(ws, 14))
    assert bc.setup.position().pieces() == {18: BLACK_MAN, 14: BLACK_MAN}
    # ... and dragged off the board (into the margin, or over the palette) is taken off
    board_rect = ws.board.square_rect(5)  # the left edge of the 8x8 squares
    margin = QPoint(board_rect.left() - 6, board_rect.center().y())
    assert not ws.board.on_board(margin)
    drag(qtbot, ws.board, centre(ws, 14), ws.board, margin)
    assert bc.setup.position().pieces() == {18: BLACK_MAN}
    drag(qtbot, ws.board, centre(ws, 18), ws.sanity_label, ws.sanity_label.rect().center())
    assert bc.setup.position().pieces() == {}
    # in play mode a drag off the board is not a set-up edit
    qtbot.mouseClick(ws.start_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(mode_button(ws, "play"), Qt.MouseButton.LeftButton)
    before = bc.position()
    drag(qtbot, ws.board, centre(ws, 11), ws.board, margin)
    assert bc.position() == before and bc.moves == ()


def test_k_crowns_the_piece_under_the_mouse_or_the_last_placed(qtbot, ws):
    bc = ws.board_controller
    enter_setup(qtbot, ws)
    qtbot.mouseClick(ws.clear_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(ws.tool_buttons["white-man"], Qt.MouseButton.LeftButton)
    click_square(qtbot, ws, 22)
    click_square(qtbot, ws, 10, Qt.MouseButton.RightButton)
    qtbot.mouseMove(ws.board, centre(ws, 22))
    assert ws.board.hover_square() == 22
    qtbot.keyClick(ws.board, Qt.Key.Key_K)
    assert bc.setup.position().pieces() == {22: WHITE_KING, 10: BLACK_MAN}
    qtbot.keyClick(ws.board, Qt.Key.Key_K)  # again: a man once more
    assert bc.setup.position().piece_at(22) == WHITE_MAN
    # the mouse on an empty square (or off the board): the piece placed last
    qtbot.mouseMove(ws.board, centre(ws, 30))
    click_square(qtbot, ws, 5, Qt.MouseButton.RightButton)
    qtbot.mouseMove(ws.board, centre(ws, 30))
    qtbot.keyClick(ws.board, Qt.Key.Key_K)
    assert bc.setup.position().piece_at(5) == BLACK_KING
    # the key works wherever the focus is in the workspace, except in the FEN field,
    # where K is a letter
    ws.clear_button.setFocus()
    qtbot.keyClick(ws.clear_button, Qt.Key.Key_K)
    assert bc.setup.position().piece_at(5) == BLACK_MAN
    ws.fen_edit.setFocus()
    qtbot.keyClick(ws.fen_edit, Qt.Key.Key_K)
    assert bc.setup.position().piece_at(5) == BLACK_MAN
    # nothing placed, nothing under the mouse: a sentence, no change
    qtbot.mouseClick(ws.clear_button, Qt.MouseButton.LeftButton)
    ws.board.setFocus()
    qtbot.keyClick(ws.board, Qt.Key.Key_K)
    assert bc.setup.position().pieces() == {}
    assert "No piece to crown" in ws.status_text()
    # in play mode K does nothing
    qtbot.mouseClick(mode_button(ws, "play"), Qt.MouseButton.LeftButton)
    start = bc.position()
    qtbot.keyClick(ws.board, Qt.Key.Key_K)
    assert bc.position() == start


def test_ctrl_v_and_the_fen_field_set_the_whole_position(qtbot, ws):
    bc = ws.board_controller
    clipboard = QGuiApplication.clipboard()
    enter_setup(qtbot, ws)
    # APCA/PDN FEN: White men on 18 and 23, a White king on 30, Black men 1 and 3,
    # White to move
    clipboard.setText("W:W18,23,K30:B1,3")
    ws.board.setFocus()
    qtbot.keyClick(ws.board, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    pos = bc.setup.position()
    assert pos.turn is Color.WHITE
    assert pos.pieces() == {18: WHITE_MAN, 23: WHITE_MAN, 30: WHITE_KING,
                            1: BLACK_MAN, 3: BLACK_MAN}
    assert ws.turn_buttons[Color.WHITE].isChecked()
    # a FEN tag copied from a PDN file is read too
    clipboard.setText('[FEN "B:W32:BK5"]')
    qtbot.keyClick(ws.board, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert bc.setup.position().pieces() == {32: WHITE_MAN, 5: BLACK_KING}
    assert bc.setup.position().turn is Color.BLACK
    # what is not a FEN leaves the board as it was and says why, in one line
    for junk in ("", "hello", "B:W99:B1", "11-15 23-19\n8-11 22-17", "B:W" + "1," * 5000):
        clipboard.setText(junk)
        qtbot.keyClick(ws.board, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        assert bc.setup.position().pieces() == {32: WHITE_MAN, 5: BLACK_KING}, junk
        status = ws.status_text()
        assert status.startswith(("Cannot read the FEN", "The clipboard is empty")), status
        assert "Traceback" not in status and len(status) < 300
    # the field: Enter sets it up
    ws.fen_edit.setFocus()
    ws.fen_edit.clear()
    qtbot.keyClicks(ws.fen_edit, "W:W21-32:B1-12")
    qtbot.keyClick(ws.fen_edit, Qt.Key.Key_Return)
    assert bc.setup.position() == Position.start("pool").with_turn(Color.WHITE)
    # the Paste FEN button does what Ctrl+V does
    clipboard.setText("B:W32:B1")
    qtbot.mouseClick(ws.paste_fen_button, Qt.MouseButton.LeftButton)
    assert bc.setup.position().pieces() == {32: WHITE_MAN, 1: BLACK_MAN}
    # in play mode Ctrl+V is not a set-up edit
    qtbot.mouseClick(ws.setup_done_button, Qt.MouseButton.LeftButton)
    clipboard.setText("B:W30:B2")
    ws.board.setFocus()
    before = bc.position()
    qtbot.keyClick(ws.board, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert bc.position() == before


def test_side_to_move_is_one_click_and_numbers_show_in_set_up_mode(qtbot, ws):
    bc = ws.board_controller
    assert not ws.board.numbers_visible()
    enter_setup(qtbot, ws)
    assert ws.board.numbers_visible()
    assert not ws.board.shows_numbers()  # the user's own choice is left alone
    qtbot.mouseClick(ws.turn_buttons[Color.WHITE], Qt.MouseButton.LeftButton)
    assert bc.setup.position().turn is Color.WHITE
    qtbot.mouseClick(ws.turn_buttons[Color.BLACK], Qt.MouseButton.LeftButton)
    assert bc.setup.position().turn is Color.BLACK
    qtbot.mouseClick(mode_button(ws, "play"), Qt.MouseButton.LeftButton)
    assert not ws.board.numbers_visible()


# -- the goal: the 6-ply position in a few actions --------------------------------------
def test_the_six_ply_position_from_the_start_position_in_at_most_6_actions(qtbot, ws):
    """Black's 11-15, 8-11, 4-8 leave 4 empty and fill 15; White's 23-19, 22-17,
    17-13 leave 23 and 22 empty and fill 19 and 13: three drags."""
    bc = ws.board_controller
    assert bc.position() == Position.start("pool") and bc.mode == "play"
    act = Actions(qtbot)
    act.click(mode_button(ws, "setup"), "Set Up")
    for start, end in ((4, 15), (23, 19), (22, 13)):
        act.drag(ws.board, centre(ws, start), ws.board, centre(ws, end), f"{start}->{end}")
    act.click(ws.board_now_button, "This Is the Board Now")
    expected = engine_position(SIX_PLIES)
    assert bc.session.target == expected and ws.panels.currentIndex() == GAP_TAB
    assert act.count == 5 and act.count <= 6, act.done


def test_the_six_ply_position_from_scratch_in_at_most_12_actions(qtbot, ws):
    bc = ws.board_controller
    expected = engine_position(SIX_PLIES)
    # -- from an empty board, with the pieces: the start position, three drags
    enter_setup(qtbot, ws)
    qtbot.mouseClick(ws.clear_button, Qt.MouseButton.LeftButton)
    assert bc.setup.position().pieces() == {}
    act = Actions(qtbot)
    act.click(ws.start_button, "Start Position")
    for start, end in ((4, 15), (23, 19), (22, 13)):
        act.drag(ws.board, centre(ws, start), ws.board, centre(ws, end), f"{start}->{end}")
    act.click(ws.board_now_button, "This Is the Board Now")
    assert bc.session.target == expected and ws.panels.currentIndex() == GAP_TAB
    assert act.count == 5 and act.count <= 12, act.done

    # -- from an empty board, with a FEN on the clipboard (e.g. copied from a game file)
    bc.editing.new_game()
    QGuiApplication.clipboard().setText(expected.fen())
    enter_setup(qtbot, ws)
    qtbot.mouseClick(ws.clear_button, Qt.MouseButton.LeftButton)
    assert bc.setup.position().pieces() == {}
    act = Actions(qtbot)
    ws.board.setFocus()
    act.key(ws.board, Qt.Key.Key_V, "Ctrl+V", Qt.KeyboardModifier.ControlModifier)
    act.click(ws.board_now_button, "This Is the Board Now")
    assert bc.session.target == expected and ws.panels.currentIndex() == GAP_TAB
    assert act.count == 2, act.done


# -- the board keeps its size; nothing cut off ---------------------------------------------
def _fully_shown(widget: QWidget) -> bool:
    return widget.isVisible() and widget.visibleRegion().boundingRect() == widget.rect()


@pytest.mark.parametrize("size", [None, (1024, 700), (1280, 800)])
def test_the_board_keeps_its_size_and_the_palette_fits(qtbot, window, size, tmp_path):
    from ui.workspaces.board import BoardWorkspace

    if size is not None:
        window.resize(*size)
    window.show_workspace("board")
    ws = window.findChild(BoardWorkspace)
    ws.confirm_close = lambda: "discard"
    qtbot.waitUntil(lambda: ws.board.isVisible())
    QApplication.processEvents()  # laid out at the window's size
    before = ws.board.square_rect(1).width()
    qtbot.mouseClick(mode_button(ws, "setup"), Qt.MouseButton.LeftButton)
    QApplication.processEvents()  # the palette is laid out beside the board
    assert ws.board.square_rect(1).width() == before
    # the palette beside the board: no scrolling, every control fully shown
    scroll = ws.setup_scroll
    assert scroll.verticalScrollBar().maximum() == 0
    assert scroll.horizontalScrollBar().maximum() == 0
    for button in ws.setup_panel.findChildren(QAbstractButton):
        assert _fully_shown(button), button.text() or button.accessibleName()
    assert _fully_shown(ws.board_now_button) and _fully_shown(ws.fen_edit)
    window.grab().save(str(tmp_path / f"setup-{window.width()}x{window.height()}.png"))
    qtbot.mouseClick(ws.setup_done_button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert ws.board.square_rect(1).width() == before


def test_the_goal_in_the_main_window_at_1024x700(qtbot, window):
    """The same sequences in the app's window at its smallest supported size, where
    the toolbar, the palette and the keys must all be within reach."""
    from ui.workspaces.board import BoardWorkspace

    window.resize(1024, 700)
    window.show_workspace("board")
    ws = window.findChild(BoardWorkspace)
    ws.confirm_close = lambda: "discard"
    qtbot.waitUntil(lambda: ws.board.isVisible())
    bc = ws.board_controller
    expected = engine_position(SIX_PLIES)
    act = Actions(qtbot)
    act.click(mode_button(ws, "setup"), "Set Up")
    for start, end in ((4, 15), (23, 19), (22, 13)):
        act.drag(ws.board, centre(ws, start), ws.board, centre(ws, end), f"{start}->{end}")
    act.click(ws.board_now_button, "This Is the Board Now")
    assert bc.session.target == expected and act.count == 5, act.done

    bc.editing.new_game()
    QGuiApplication.clipboard().setText(expected.fen())
    act = Actions(qtbot)
    act.click(mode_button(ws, "setup"), "Set Up")
    act.key(ws.board, Qt.Key.Key_V, "Ctrl+V", Qt.KeyboardModifier.ControlModifier)
    act.click(ws.board_now_button, "This Is the Board Now")
    assert bc.session.target == expected and act.count == 3, act.done
    # and K in the window: crown the man under the mouse (the set-up starts from the
    # board shown, the start position of the empty record: paste the FEN again)
    enter_setup(qtbot, ws)
    qtbot.keyClick(ws.board, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    qtbot.mouseMove(ws.board, centre(ws, 13))
    qtbot.keyClick(ws.board, Qt.Key.Key_K)
    assert bc.setup.position().piece_at(13) == WHITE_KING
