"""Issue 31 retest, items 1 and 2, through the app's window: a draw claim of an
English checkers game (PDN GameType "21"). Neither the Standard Laws nor the ACF
guide has a 13-count (their count is "within forty of his own moves"); the APCA
rules' 13-count ("THIS RULE IS USED ONLY WHEN THERE ARE FOUR PIECES ON THE BOARD, AND
ALL PIECES ARE KINGS") and its proposals are pool rules ("for the Game of American
Pool Checkers"). So at the lone king's 13th move the Board's status line, the
Rulings workspace and the report may show the APCA rulings only named as the APCA
rules' and as guidance, after the sentence saying who governs the game, and the
workspace's heading names the rulebooks that govern it first."""
from __future__ import annotations

import re

from PySide6.QtCore import Qt

from rulesbook.draughts import Position
from tests.datapaths import SEEDS
from tests.ui.board_helpers import private_autosave_dir  # noqa: F401 - autouse fixture
from tests.ui.test_rulings_request import paste

SENTENCE = ("An English checkers game: the Standard Laws and the ACF guide govern it; "
            "the APCA edition in force is for pool checkers")
THREE_V_ONE = "B:WK32:BK1,K2,K3"
#: English kings move one square: the black king shuttles 1-5-1, the lone white king
#: 32-28-32; the lone king moves second, so its 13th move is ply 26
LINE = " ".join(("1-5 32-28" if i % 2 == 0 else "5-1 28-32") for i in range(15))


def record() -> str:
    return f'[GameType "21"]\n[SetUp "1"]\n[FEN "{THREE_V_ONE}"]\n\n{LINE} *\n'


def test_sources_say_the_13_count_is_a_pool_rule():
    laws = (SEEDS / "standard-laws-of-checkers.txt").read_text(encoding="utf-8").lower()
    guide = (SEEDS / "acf-tournament-director-guide.txt").read_text(encoding="utf-8").lower()
    apca = (SEEDS / "apca-proposed-rules-with-amendments.txt").read_text(encoding="utf-8")
    assert "thirteen" not in laws and "thirteen" not in guide
    assert "Pool Checkers" in apca and "COUNTS THIRTEEN" in apca


def test_attack_an_english_13_count_is_never_given_an_apca_ruling_as_its_own(window, qtbot,
                                                                          tmp_path):
    window.show_workspace("board")
    board = window.workspaces["board"]
    paste(board, record())
    bc = board.board_controller
    assert bc.variant.name == "english" and len(bc.moves) == 30 == bc.available_plies
    start = Position.from_fen(THREE_V_ONE, "english")
    assert start.turn.title == "Black"
    board.board.setFocus()
    qtbot.keyClick(board.board, Qt.Key.Key_Home)
    for _ in range(26):
        qtbot.keyClick(board.board, Qt.Key.Key_Right)
    status = board.claim_bar.text()
    assert status.startswith("Lone king, its 13th move (White's move 13)"), status
    # the APCA refs are named with their rulebook and as guidance, never bare
    assert "a draw under 24B" not in status and "under 28" not in status, status
    assert "guidance only, not rules of English checkers: the APCA rules (pool checkers) " \
           in status, status
    assert "no rule of the Standard Laws or the ACF guide decides a draw" in status
    qtbot.mouseClick(board.claim_bar.button, Qt.MouseButton.LeftButton)

    rulings = window.workspaces["rulings"]
    assert window.current_workspace() is rulings
    assert rulings.chooser.current_id() == "thirteen_count"
    screen = rulings.rulings_view.toPlainText()
    # who governs first; the heading names the Standard Laws and the ACF guide, the
    # edition in force after them and only as guidance
    assert screen.index(SENTENCE) == 0, screen[:300]
    heading = screen.splitlines()[1]
    assert heading.startswith("Under the Standard Laws and the ACF guide (English checkers)"), \
        heading
    assert "only as guidance" in heading
    assert "Standard Laws" in rulings.rulings_view.accessibleName()
    # every APCA ruling shown is marked as the APCA rules' guidance
    apca = [m.start() for m in re.finditer(r"apca:28\b", screen)]
    assert apca
    marks = screen.count("Guidance only: the APCA rules are for pool checkers, not for this "
                         "English checkers game.")
    shown = len(rulings.rulings.suggestions.rulings)
    apca_rulings = [r for r in rulings.rulings.suggestions.rulings if r.rulebook == "apca"]
    assert apca_rulings and marks == len(apca_rulings) <= shown
    # said before the verdict it marks, not after it
    assert screen.index("Guidance only: the APCA rules") < screen.index("\u2014 apca:28")
    # the report: the sentence in its first lines, each guidance ruling marked
    rulings.tabs.setCurrentIndex(rulings.TAB_REPORT)
    body = re.sub(r"<style.*?</style>", "", rulings.report.report, flags=re.S)
    page = re.sub(r"<[^>]+>", "", body)
    first = [line for line in page.splitlines() if line.strip()][:3]
    assert any(SENTENCE in line for line in first), first
    assert page.count("Guidance only: the APCA rules are for pool checkers, not for this "
                      "English checkers game.") == len(apca_rulings)


def test_the_silences_tab_flags_law_10_against_the_acf_guide(window, qtbot):
    """Item 3: Law 10 ("he shall instantly forfeit the game") against the ACF guide's
    section 3 ("Typical rules allow one warning by the referee"), both rules of English
    checkers: a conflict on the committee's list, with both quotes in its tooltip."""
    window.show_workspace("rulings")
    rulings = window.workspaces["rulings"]
    rulings.tabs.setCurrentIndex(rulings.TAB_SILENCES)
    table = rulings.silences_view.table
    rows = [r for r in range(table.rowCount())
            if "standard-laws:10" in table.item(r, 3).text()
            and "acf-guide:3" in table.item(r, 3).text()]
    assert rows
    status = table.item(rows[0], 3)
    assert status.text().startswith("CONFLICT")
    assert "among the rulebooks that govern English checkers" in status.text()
    tip = status.toolTip()
    assert "he shall instantly forfeit the game" in tip and "Typical rules allow one warning" \
        in tip
