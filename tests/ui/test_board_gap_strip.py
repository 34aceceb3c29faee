"""The strip under a gap result ("Sequence 1: 2. 8-11 27-23 …", the moves of the
sequence shown on the board) is readable whole at 1024x700 and 1280x800 (issue
21: its last line was cut off at 1024x700). Real window, real search, offscreen.

The gaps are 16 and 20 plies of the first Tinsley game after its second ply,
all but the last four given as known moves (so the search is quick); the
moves are the game's, read from the corpus file."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QLabel, QTextEdit, QWidget

from rulesbook.draughts import Position
from rulesbook.reconstruct import import_record
from rulesbook.reconstruct.display import SEQUENCE_LINK
from tests.datapaths import CORPUS
from tests.ui.layout_fit import misfits

SIZES = [(1024, 700), (1280, 800)]


def tinsley(plies: int) -> tuple[list[str], Position]:
    """The first game's moves and the position after ``plies`` of them."""
    text = (CORPUS / "english-tinsley-1946-1960s.pdn").read_text(encoding="utf-8")
    record = import_record(text, 0, "english").record
    moves = [m.text for m in record.moves]
    position = record.start
    for move in moves[:plies]:
        position = position.play(move)
    return moves, position


def link_rect(strip: QTextEdit, ply: int):
    """Where the move of ``ply`` is drawn in the strip's viewport."""
    href = f"{SEQUENCE_LINK}{ply}"
    block = strip.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() == href:
                cursor = QTextCursor(strip.document())
                cursor.setPosition(fragment.position())
                return strip.cursorRect(cursor)
            it += 1
        block = block.next()
    raise AssertionError(f"no move of ply {ply} in the strip")


def unread(strip: QWidget, ply: int) -> list[str]:
    """What of the strip a user cannot read: lines cut off (a label shorter than
    its wrapped text), or a strip that hides lines without a scroll bar to
    reach them, or hides the move of the ply shown."""
    problems = []
    shown = strip.visibleRegion().boundingRect()
    if shown.height() < strip.height() - 1:
        problems.append(f"the strip shows {shown.height()} of its {strip.height()} px")
    if isinstance(strip, QLabel):
        need = strip.heightForWidth(strip.width())
        if strip.height() < need:
            problems.append(f"the strip is {strip.height()} px high, its text needs {need}")
    elif isinstance(strip, QTextEdit):
        bar = strip.verticalScrollBar()
        if bar.maximum() > 0 and not bar.isVisible():
            problems.append("the strip hides lines and has no scroll bar")
        if not strip.viewport().rect().contains(link_rect(strip, max(ply, 1))):
            problems.append(f"the move of ply {ply} is scrolled out of sight")
    if strip.toolTip() and "Sequence 1:" not in strip.toolTip():
        problems.append("the tooltip does not hold the strip")
    return problems


def search(qtbot, board, plies: int) -> list[str]:
    bc = board.board_controller
    moves, start = tinsley(2)
    _, now = tinsley(2 + plies)
    bc.editing.new_game("english", tinsley(0)[1])
    bc.editing.type_moves(" ".join(moves[:2]))
    assert bc.position() == start
    assert bc.gap.mark_board_now(now)
    board.panels.setCurrentIndex(2)
    board.gap_kind.setCurrentIndex(0)
    board.gap_plies.setValue(plies)
    board.gap_known.setText(", ".join(f"{i + 1}:{moves[2 + i]}" for i in range(plies - 4)))
    with qtbot.waitSignal(bc.gap.finished, timeout=60000) as blocker:
        qtbot.mouseClick(board.gap_search_button, Qt.MouseButton.LeftButton)
    result = blocker.args[0]
    assert result.status == "unique"
    position = start
    for move in result.sequences[0]:  # the game's moves (the file writes 10x14 for 10-14)
        position = position.play(move)
    assert position == now
    qtbot.waitUntil(lambda: not bc.gap.running, timeout=5000)
    QApplication.processEvents()
    return list(result.texts[0])


@pytest.mark.parametrize("plies", [16, 20])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_sequence_strip_is_readable_whole(window, qtbot, size, plies):
    window.workspaces["board"].confirm_close = lambda: "discard"
    window.resize(*size)
    window.show_workspace("board")
    board = window.workspaces["board"]
    bc = board.board_controller
    texts = search(qtbot, board, plies)
    strip = board.gap_panel.findChild(QWidget, "gap-preview-moves")
    assert bc.gap.previewing and strip is not None
    for text in texts:  # every move of the sequence is in the strip
        assert text in board.preview_moves_text()
    problems = unread(strip, bc.gap.preview_ply)
    # the last ply, reached with the preview's ▶ (a click per ply)
    for _ in range(plies):
        qtbot.mouseClick(board.preview_next, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert bc.gap.preview_ply == plies
    problems += unread(strip, plies)
    # nothing else of the tab is cut off either (the list of sequences may
    # scroll sideways for a long sequence: each row has the whole as a tooltip)
    problems += [str(m) for m in misfits(window, f"gap result, {plies} plies")
                 if "scrolls sideways: QListWidget" not in m.what]
    page = board.panels.currentWidget()
    assert isinstance(page, QAbstractScrollArea)
    assert page.verticalScrollBar().maximum() == 0, "the Gap tab scrolls"
    assert not problems, "\n".join(problems)


def test_a_click_on_a_move_of_the_strip_shows_that_ply(window, qtbot):
    window.workspaces["board"].confirm_close = lambda: "discard"
    window.resize(1024, 700)
    window.show_workspace("board")
    board = window.workspaces["board"]
    bc = board.board_controller
    search(qtbot, board, 16)
    strip = board.gap_panel.findChild(QWidget, "gap-preview-moves")
    assert isinstance(strip, QTextEdit)
    where = link_rect(strip, 3)
    # the cursor's rectangle is a caret before the move: click just right of it
    spot = where.center()
    spot.setX(spot.x() + 4)
    qtbot.mouseClick(strip.viewport(), Qt.MouseButton.LeftButton, pos=spot)
    assert bc.gap.preview_ply == 3
    assert board.board.position() == bc.gap.preview_position(3)


def test_a_long_answer_is_readable_whole_with_its_advice(window, qtbot):
    # more than 200 sequences: the answer ends with what the referee could add
    # ("add a move the players agree on"), which a one-line label cut off
    window.workspaces["board"].confirm_close = lambda: "discard"
    window.resize(1024, 700)
    window.show_workspace("board")
    board = window.workspaces["board"]
    bc = board.board_controller
    bc.editing.new_game("pool", Position.from_fen(
        "B:W17,21,25,27,28,29,30:B1,2,3,4,8,9,14,19", "pool"))
    assert bc.gap.mark_board_now(Position.from_fen("B:W16,21,22,25,28,30:B4,5,11,12,15", "pool"))
    board.panels.setCurrentIndex(2)
    board.gap_kind.setCurrentIndex(0)
    board.gap_plies.setValue(16)
    with qtbot.waitSignal(bc.gap.finished, timeout=60000) as blocker:
        qtbot.mouseClick(board.gap_search_button, Qt.MouseButton.LeftButton)
    assert blocker.args[0].truncated
    qtbot.waitUntil(lambda: not bc.gap.running, timeout=5000)
    QApplication.processEvents()
    label = board.gap_panel.explanation
    assert "add a move the players agree on" in label.text()
    assert label.height() >= label.heightForWidth(label.width()), (
        f"{label.height()} px shown of the {label.heightForWidth(label.width())} it needs")
    assert "add a move the players agree on" in label.toolTip()
