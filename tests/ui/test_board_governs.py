"""Issue 31, Must 1 on the Board: an English checkers game (PDN GameType "21") is
governed by the Standard Laws and the ACF guide, not by the APCA rules ("for the Game
of American Pool Checkers"). The rulings button's tooltip and the status bar's "In
force" label name the rulebooks that govern the game; the edition in force is named
only for a pool game. The record's header names the variant as a sentence does
("English checkers"), not by its engine code."""
from __future__ import annotations

from rulesbook.draughts import Variant
from rulesbook.draughts.pdn_variant import variant_title
from tests.datapaths import SEEDS
from tests.ui.board_helpers import PLANTED, private_autosave_dir  # noqa: F401 - autouse
from tests.ui.test_rulings_request import paste

ENGLISH = f'[GameType "21"]\n\n{PLANTED} *\n'
POOL = f'[GameType "23"]\n\n{PLANTED} *\n'
EDITION = "In force: Proposed Playing Rules (original text) (original)"


def test_sources_say_which_game_each_rulebook_governs():
    apca = (SEEDS / "apca-proposed-rules-with-amendments.txt").read_text(encoding="utf-8")
    assert "Pool Checkers" in apca
    assert variant_title(Variant.named("english")) == "English checkers"


def checked(window, qtbot, text: str):
    window.show_workspace("board")
    board = window.workspaces["board"]
    paste(board, text)
    board.check_button.click()
    qtbot.waitUntil(lambda: board.check_panel.rulings_button.isEnabled(), timeout=20000)
    return board


def test_an_english_game_names_the_standard_laws_and_the_acf_guide(window, qtbot):
    board = checked(window, qtbot, ENGLISH)
    assert board.board_controller.variant.name == "english"
    tip = board.check_panel.rulings_button.toolTip()
    assert "the Standard Laws and the ACF guide govern it" in tip, tip
    assert "the APCA edition in force is for pool checkers" in tip, tip
    status = window.edition_status.text()
    assert status == "In force for English checkers: the Standard Laws and the ACF guide", status
    assert "Proposed Playing Rules" not in status
    assert "the Standard Laws and the ACF guide govern it" in window.edition_status.toolTip()
    title = board.record_title.text()
    assert " · English checkers" in title, title
    assert "english" not in title, title
    # another workspace shows the edition in force again
    window.show_workspace("rules")
    assert window.edition_status.text() == EDITION
    window.show_workspace("board")
    assert window.edition_status.text().startswith("In force for English checkers: ")


def test_a_pool_game_is_ruled_by_the_edition_in_force(window, qtbot):
    board = checked(window, qtbot, POOL)
    assert board.board_controller.variant.name == "pool"
    assert window.edition_status.text() == EDITION
    tip = board.check_panel.rulings_button.toolTip()
    assert "the APCA edition in force governs it" in tip, tip
    assert "Standard Laws and the ACF guide govern it" not in tip, tip
    assert " · pool checkers" in board.record_title.text()
    # the same board, now an English game: the label follows the record's variant
    paste(board, ENGLISH)
    qtbot.waitUntil(lambda: board.board_controller.variant.name == "english", timeout=20000)
    assert window.edition_status.text().startswith("In force for English checkers: ")


def test_attack_a_game_illegal_in_every_variant_is_ruled_as_the_files_english(window, qtbot,
                                                                              tmp_path):
    """Issue 31 retest, finding 1: an English collection's game 1 with a missed capture
    (no variant makes all its moves legal; pool goes as far as English) was read as
    pool, and the Check panel gave APCA rule 10 "under edition original (pool
    checkers)". The file's other games are English: the board reads it as they do."""
    from tests.cli.test_rulings_file_variant import planted_file

    path = planted_file(tmp_path)
    window.show_workspace("board")
    board = window.workspaces["board"]
    board.confirm_close = lambda: "discard"
    assert board.open_pdn(path, 0)
    assert board.board_controller.variant.name == "english"
    # the status names the variant as a sentence does, not by its code "(english)"
    status = board.status_text()
    assert status.startswith("Imported planted.pdn: 7 plies (English checkers) — "), status
    assert "(english)" not in status
    notice = board.variant_notice.text()
    assert "English checkers and pool checkers go equally far (6 of 7 moves legal)" in notice
    assert "the file's other games need English checkers" in notice, notice
    board.check_button.click()
    qtbot.waitUntil(lambda: board.check_panel.rulings_button.isEnabled(), timeout=20000)
    check = board.check_view.toPlainText()
    assert "Under the Standard Laws and the ACF guide (English checkers)" in check, check
    assert "standard-laws:10" in check and "apca:" not in check, check
    assert window.edition_status.text().startswith("In force for English checkers: ")


def test_attack_the_import_status_names_the_variant_in_words(window, qtbot):
    """Issue 31 retest, finding 4: "Imported …: 8 plies (english)" named the variant by
    its engine code."""
    window.show_workspace("board")
    board = window.workspaces["board"]
    paste(board, ENGLISH)
    qtbot.waitUntil(lambda: "plies (" in board.status_text(), timeout=20000)
    status = board.status_text()
    assert f"plies ({variant_title(Variant.named('english'))})" in status, status
    assert "(english)" not in status, status
