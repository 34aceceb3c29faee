"""The Board asks the Rulings workspace for the rulings of a game (issue 20): driven
through the real widgets of the app's window, from a game on the board to the fields
the Rulings workspace shows.

Every expected value comes from the game text: the ply and the move planted in a
real record, the tags as the PDN file writes them, the ply of the lone king's 13th
move from the words of Rule 28 (see tests/ui/test_board_claims)."""
from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from rulesbook.draughts import Position
from tests.datapaths import CORPUS
from tests.ui.board_helpers import private_autosave_dir  # noqa: F401 - autouse fixture
from tests.ui.test_board_claims import THREE_V_ONE, THREE_V_ONE_LINE, nth_ply_of, pdn

#: the first game of the FMJD test collection: "Manchester 1841", Moorhead - Wyllie
OCA = CORPUS / "english-oca-2.0.pdn"
#: the quiet move planted for Black instead of the capture the game record plays: 4-8
#: (square 8 is empty since 2. 8-11; 4 is Black's own man, never moved before)
PLANTED = "4-8"
MOVE_NUMBER = re.compile(r"^\d+\.+$")


def first_game(path) -> tuple[list[str], list[str]]:
    """The tag lines and the moves (numbers and the result left out) of the first
    game of a PDN file, read as text."""
    text = path.read_text(encoding="utf-8").split("\n\n")[0]
    tags = [line for line in text.splitlines() if line.startswith("[")]
    body = " ".join(line for line in text.splitlines() if not line.startswith("["))
    moves = [t for t in body.split() if not MOVE_NUMBER.match(t) and t not in
             ("1-0", "0-1", "1/2-1/2", "*")]
    return tags, moves


def shown(rulings, name: str) -> str:
    """What the report form shows in its field ``name`` (a line or a text box)."""
    editor = rulings.report.editors[name]
    return editor.toPlainText() if hasattr(editor, "toPlainText") else editor.text()


def tag(tags: list[str], name: str) -> str:
    found = [line for line in tags if line.startswith(f"[{name} ")]
    return found[0].split('"')[1] if found else ""


def paste(ws, text: str) -> None:
    """Paste a record with the toolbar's Paste Record (the clipboard, as a user does);
    the pasted work is not saved: closing the window at the end discards it."""
    ws.confirm_close = lambda: "discard"
    QGuiApplication.clipboard().setText(text)
    ws.paste_action.trigger()


def test_check_record_on_a_real_game_opens_the_rulings_with_the_record(window, qtbot):
    tags, moves = first_game(OCA)
    # the record's first capture is the ply where the rules compel it: write a quiet
    # move there instead, and stop the record at it
    ply = next(i for i, m in enumerate(moves, 1) if "x" in m)
    assert (ply, moves[ply - 1]) == (7, "15x22")  # 4. 15x22, as the file writes it
    record = moves[:ply - 1] + [PLANTED]
    text = "\n".join(tags + ['[GameType "21"]', "", " ".join(record) + " *", ""])
    window.show_workspace("board")
    board = window.workspaces["board"]
    paste(board, text)
    assert len(board.board_controller.moves) == ply
    qtbot.mouseClick(board.check_button, Qt.MouseButton.LeftButton)
    assert "Legal moves were: 15x22" in board.check_view.toPlainText()
    assert board.rulings_button.isEnabled()
    qtbot.mouseClick(board.rulings_button, Qt.MouseButton.LeftButton)

    rulings = window.workspaces["rulings"]
    assert window.current_workspace() is rulings
    assert rulings.tabs.currentIndex() == rulings.TAB_RULINGS
    assert rulings.chooser.current_id() == "failure_to_capture"
    # the illegal move is the last one written: it is noticed at once
    assert rulings.facts_form.fields["discovered"].currentText() == "at once"
    assert shown(rulings, "moves") == " ".join(record)
    assert shown(rulings, "disputed_ply") == str(ply)
    assert shown(rulings, "fen") == Position.start("english").fen()
    for name, pdn_tag in (("event", "Event"), ("date", "Date"), ("black", "Black"),
                          ("white", "White")):
        assert shown(rulings, name) == tag(tags, pdn_tag) != ""
    assert shown(rulings, "round") == ""  # the file has no Round tag
    assert rulings.rulings.context["move"] == PLANTED


def test_draw_rulings_at_the_13_count_fills_the_rulings_workspace(window, qtbot):
    # Rule 28: the count starts with the lone king's first move; White (the lone king)
    # moves second here, so its 13th move is ply 26
    draw_ply = nth_ply_of(Position.from_fen(THREE_V_ONE), side_first=False, n=13)
    moves = THREE_V_ONE_LINE.split()
    window.show_workspace("board")
    board = window.workspaces["board"]
    paste(board, pdn(THREE_V_ONE, THREE_V_ONE_LINE, Event="Club night", Round="3",
                     Black="Ann", White="Bob"))
    assert len(board.board_controller.moves) == len(moves)
    board.board.setFocus()
    qtbot.keyClick(board.board, Qt.Key.Key_Home)
    for _ in range(draw_ply):
        qtbot.keyClick(board.board, Qt.Key.Key_Right)
    assert board.claim_bar.text().startswith("13-count reached")
    qtbot.mouseClick(board.claim_bar.button, Qt.MouseButton.LeftButton)

    rulings = window.workspaces["rulings"]
    assert window.current_workspace() is rulings
    assert rulings.chooser.current_id() == "thirteen_count"
    form = rulings.facts_form
    assert form.value("three_kings_vs_one") is True and form.value("lone_king_moves") == 13
    assert shown(rulings, "moves") == THREE_V_ONE_LINE
    assert shown(rulings, "disputed_ply") == str(draw_ply)
    assert shown(rulings, "fen") == Position.from_fen(THREE_V_ONE).fen()
    assert (shown(rulings, "event"), shown(rulings, "round"), shown(rulings, "black"),
            shown(rulings, "white")) == ("Club night", "3", "Ann", "Bob")
    # the claim in words goes to the report (no move is disputed)
    assert "13-count reached at the lone king's 13th move (White's move 13)" in rulings.rulings.report_case().description

    # then a second game, with no tags, to the same claim: the report must not
    # keep the first game's event, round and players (it would name the wrong game)
    window.show_workspace("board")
    paste(board, pdn(THREE_V_ONE, THREE_V_ONE_LINE))
    board.board.setFocus()
    qtbot.keyClick(board.board, Qt.Key.Key_Home)
    for _ in range(draw_ply):
        qtbot.keyClick(board.board, Qt.Key.Key_Right)
    qtbot.mouseClick(board.claim_bar.button, Qt.MouseButton.LeftButton)
    assert window.current_workspace() is rulings
    assert (shown(rulings, "event"), shown(rulings, "round"), shown(rulings, "black"),
            shown(rulings, "white")) == ("", "", "", "")
    assert shown(rulings, "disputed_ply") == str(draw_ply)


def test_an_english_game_is_ruled_by_the_standard_laws_on_screen_and_in_the_report(
        window, qtbot, tmp_path):
    """Issue 31: an English game (GameType 21) with a quiet move planted where the
    record captures: the Board's rulings button answers with the rulebooks of English
    checkers (Standard Laws, Law 10: "he shall instantly forfeit the game to his
    opponent"), never APCA Rule 10, and says so on screen and in the report."""
    from tests.rulings.test_variants import PLANTED_PLY, SENTENCE, planted_record

    window.show_workspace("board")
    board = window.workspaces["board"]
    paste(board, planted_record("21"))
    assert len(board.board_controller.moves) == PLANTED_PLY
    qtbot.mouseClick(board.check_button, Qt.MouseButton.LeftButton)
    assert "Legal moves were: 9x18" in board.check_view.toPlainText()
    qtbot.mouseClick(board.rulings_button, Qt.MouseButton.LeftButton)

    rulings = window.workspaces["rulings"]
    assert window.current_workspace() is rulings
    assert rulings.chooser.current_id() == "failure_to_capture"
    screen = rulings.rulings_view.toPlainText()
    assert SENTENCE in screen
    assert screen.index("standard-laws:10") < screen.index("acf-guide:3")
    assert "apca:10 " not in screen and "apca:10\n" not in screen
    assert "forfeits the game" in screen
    rulings.tabs.setCurrentIndex(rulings.TAB_REPORT)
    html = rulings.report.report
    page = re.sub(r"<[^>]+>", "", html)
    head = page.split("Incident", 1)[0]
    assert "English checkers" in head and "The Standard Laws of Checkers" in head
    assert "Rulings under the Standard Laws and the ACF guide" in page
    window.grab().save(str(tmp_path / "english-rulings.png"))
