"""The game list of a multi-game PDN file and the variant of a record without a
GameType tag, driven through the real widgets (offscreen): typing into the
filter, reading the rows, arrows, Enter, double-click, the header, "Read as"."""
from __future__ import annotations

import re

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication

from rulesbook.reconstruct import split_games
from tests.datapaths import CORPUS
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    private_autosave_dir,
)

TINSLEY = CORPUS / "english-tinsley-1946-1960s.pdn"
#: the number of games of Tinsley's file, as its README publishes it
TINSLEY_GAMES = 724


def tags_of_file(text: str) -> list[dict[str, str]]:
    """Each game's tags read straight from the file (the test's own reading: a game
    is a block of tag lines; Tinsley's file has no comment before its tags)."""
    games: list[dict[str, str]] = []
    previous_tag = False
    for line in text.splitlines():
        found = re.match(r'\s*\[(\w+)\s+"([^"]*)"\]', line)
        if found and not previous_tag:
            games.append({})
        if found:
            games[-1][found.group(1)] = found.group(2)
        if line.strip():
            previous_tag = bool(found)
    return games


def make_dialog(qtbot, text: str, source: str = "games.pdn"):
    from ui.board.gamelist import GameListDialog

    dialog = GameListDialog(split_games(text), source)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def finish_scan(qtbot, dialog) -> None:
    qtbot.waitUntil(lambda: dialog.progress_label.text().startswith("Records checked"),
                    timeout=60_000)


def test_every_game_is_listed_and_the_filter_matches_every_word(qtbot):
    text = TINSLEY.read_text(encoding="utf-8")
    dialog = make_dialog(qtbot, text)
    assert dialog.count_label.text() == f"{TINSLEY_GAMES} of {TINSLEY_GAMES} games"
    headers = [dialog.model.headerData(c, Qt.Orientation.Horizontal)
               for c in range(dialog.model.columnCount())]
    assert headers == ["White", "Black", "Event", "Date", "Round", "Result"]
    # the first game as its tags say (the file has no Date or Round tags)
    assert dialog.rows_text()[0] == ["M Rex", "MF Tinsley", "Ohio State Ty 1946", "", "",
                                     "1/2-1/2"]
    # several words, any case, each in some column: Tinsley's games with Chinook
    qtbot.keyClicks(dialog.filter_edit, "CHINOOK  tinsley")
    expected = [t for t in tags_of_file(text)
                if any("chinook" in v.lower() for v in t.values())
                and any("tinsley" in v.lower() for v in t.values())]
    rows = dialog.rows_text()
    assert len(rows) == len(expected) > 10
    assert dialog.count_label.text() == f"{len(expected)} of {TINSLEY_GAMES} games"
    assert all("Chinook" in (row[0], row[1]) for row in rows)
    # one more word narrows it: the event (a word only some of those games have)
    qtbot.keyClicks(dialog.filter_edit, " 1992")
    narrower = [t for t in expected if any("1992" in v for v in t.values())]
    assert 0 < len(dialog.rows_text()) == len(narrower) < len(expected)
    # a word no game has: nothing, and Open is off
    dialog.filter_edit.clear()
    qtbot.keyClicks(dialog.filter_edit, "tinsley zzzz")
    assert dialog.rows_text() == []
    assert not dialog.buttons.buttons()[0].isEnabled() or \
        dialog.count_label.text() == f"0 of {TINSLEY_GAMES} games"
    dialog.filter_edit.clear()
    assert len(dialog.rows_text()) == TINSLEY_GAMES
    dialog.reject()


def test_arrows_and_enter_open_the_game_shown(qtbot):
    text = TINSLEY.read_text(encoding="utf-8")
    dialog = make_dialog(qtbot, text)
    qtbot.keyClicks(dialog.filter_edit, "fuller")
    rows = dialog.rows_text()
    assert len(rows) >= 2 and all("Fuller" in " ".join(r) for r in rows)
    # Down from the filter moves to the second game shown, Enter opens it
    qtbot.keyClick(dialog.filter_edit, Qt.Key.Key_Down)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Return)
    assert dialog.result() == dialog.DialogCode.Accepted
    chosen = dialog.chosen
    tags = tags_of_file(text)[chosen]
    assert [tags["White"], tags["Black"]] == rows[1][:2]


def test_typing_in_the_list_filters_and_double_click_opens(qtbot):
    text = TINSLEY.read_text(encoding="utf-8")
    dialog = make_dialog(qtbot, text)
    dialog.table.setFocus()
    qtbot.keyClicks(dialog.table, "rex")
    assert dialog.filter_edit.text() == "rex"
    rows = dialog.rows_text()
    assert rows and all("rex" in " ".join(r).lower() for r in rows)
    rect = dialog.table.visualRect(dialog.model.index(0, 2))
    # a double-click as Qt sees one: a click, then the second press
    qtbot.mouseClick(dialog.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(dialog.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert dialog.chosen is not None
    assert tags_of_file(text)[dialog.chosen]["White"] == rows[0][0]


def test_header_sorts_numbers_as_numbers(qtbot):
    # rounds 10, 2, 1 and an unknown one: sorted by the number, as a scoresheet reads
    games = [("Ann", "10"), ("Bob", "2"), ("Cy", "?"), ("Dee", "1")]
    text = "".join(f'[White "{w}"]\n[Black "X"]\n[Round "{r}"]\n1. 11-15 *\n\n'
                   for w, r in games)
    dialog = make_dialog(qtbot, text)
    header = dialog.table.horizontalHeader()

    def click_round_header():
        at = QPoint(header.sectionViewportPosition(4) + 5, header.height() // 2)
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=at)

    click_round_header()
    assert [r[4] for r in dialog.rows_text()] == ["1", "2", "10", ""]
    click_round_header()  # again: descending
    assert [r[4] for r in dialog.rows_text()][:3] == ["10", "2", "1"]
    # the filter keeps the order
    qtbot.keyClicks(dialog.filter_edit, "x")
    assert [r[0] for r in dialog.rows_text()][:3] == ["Ann", "Bob", "Dee"]


def test_a_defective_record_is_listed_and_marked(qtbot):
    from ui.board.gamelist import DEFECT_MARK

    text = TINSLEY.read_text(encoding="utf-8")
    dialog = make_dialog(qtbot, text)
    finish_scan(qtbot, dialog)
    # game 623 ends "8-11Redoversteppedthetimecontrolonthismove." (a comment
    # without braces, as the corpus README says): still listed, marked
    assert "Redoversteppedthetimecontrolonthismove." in text
    qtbot.keyClicks(dialog.filter_edit, "petal 15 lafferty")
    rows = dialog.rows_text()
    assert len(rows) == 1 and rows[0][0].startswith(DEFECT_MARK)
    tip = dialog.model.data(dialog.model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    assert "unreadable text" in tip and "Redovers" in tip
    assert not dialog.rows_text()[0][1].startswith(DEFECT_MARK)
    dialog.filter_edit.clear()
    first = dialog.rows_text()[0]
    assert not first[0].startswith(DEFECT_MARK)  # a clean record is not marked
    assert "with a defect" in dialog.progress_label.text()
    # the "missing move" of the README: game 541 plays 32-28 from an empty square;
    # pydraughts (a peer) cannot play that record either, and plays game 1 whole
    chunks = split_games(text)
    assert 540 in dialog.model.marked() and 0 not in dialog.model.marked()
    assert "move 32-28 is illegal" in dialog.model.entry(540).defect
    assert not pydraughts_plays_all(chunks[540].text)
    assert pydraughts_plays_all(chunks[0].text)


def pydraughts_plays_all(text: str) -> bool:
    import draughts
    from draughts.PDN import PDNReader

    (game,) = PDNReader(pdn_text=text).games
    board = draughts.Board("english")
    try:
        for move in game.moves:
            board.push(draughts.Move(board, pdn_move=move))
    except Exception:  # noqa: BLE001 - pydraughts raises several kinds
        return False
    return True


# ---------------------------------------------------------------- the board


def drive_game_list(qtbot, words: str, key=Qt.Key.Key_Return) -> list:
    """Type ``words`` into the modal game list once it is shown, then press ``key``."""
    seen: list = []

    def act():
        from ui.board.gamelist import GameListDialog

        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, GameListDialog):
            QTimer.singleShot(20, act)
            return
        qtbot.keyClicks(dialog.filter_edit, words)
        seen.append(dialog.rows_text())
        qtbot.keyClick(dialog.filter_edit, key)

    QTimer.singleShot(0, act)
    return seen


def test_open_a_file_type_enter_an_english_game_without_gametype(qtbot, ws):
    text = TINSLEY.read_text(encoding="utf-8")
    seen = drive_game_list(qtbot, "ohio rex")
    assert ws.open_pdn(TINSLEY)
    assert seen and len(seen[0]) == 1
    bc = ws.board_controller
    assert bc.record.tags["White"] == "M Rex" and bc.record.tags["Black"] == "MF Tinsley"
    assert "GameType" not in text  # the file has no GameType tag at all
    # game 1 ends "28. 17x10 24x15x6": 56 plies, legal in English (Tinsley's game)
    assert bc.variant.name == "english" and len(bc.moves) == 56
    assert ws.variant_notice.isVisible()
    assert ws.variant_notice.text() == ("No GameType tag: read as English checkers — the only "
                                        "variant in which all 56 moves are legal")
    assert ws.variant_notice.combo.currentData() == "english"
    # no "?" on its legal moves; Check Record finds nothing
    assert not any(ws.move_list.item_for_ply(p).text().startswith("?")
                   for p in range(1, 57))
    ws.mode_actions["check"].trigger()
    assert bc.check.first_illegal is None and ws.marked_plies() == []


def test_read_as_another_variant_reads_the_record_again(qtbot, ws):
    drive_game_list(qtbot, "ohio rex")
    assert ws.open_pdn(TINSLEY)
    bc = ws.board_controller
    combo = ws.variant_notice.combo
    combo.setFocus()
    # choose pool in the "Read as" box with the keyboard, as a user does
    row = combo.findData("pool")
    combo.setCurrentIndex(row)
    combo.activated.emit(row)
    assert bc.variant.name == "pool"
    assert bc.record.tags["White"] == "M Rex"  # the same game, read again
    note = ws.variant_notice.text()
    assert note.startswith("No GameType tag: read as pool checkers (your choice;")
    found = re.search(r"ply (\d+) \((Black|White)'s (\d+)\w\w move\) of 56 is the first "
                      r"that is not legal", note)
    assert found, note
    # named as on the scoresheet: Black moves first in English, so ply p is move (p+1)//2
    ply = int(found.group(1))
    assert found.group(2) == ("Black" if ply % 2 == 1 else "White")
    assert int(found.group(3)) == (ply + 1) // 2
    # the record check (replay, another module) agrees on the first illegal move
    ws.mode_actions["check"].trigger()
    assert bc.check.first_illegal is not None and bc.check.first_illegal.ply == int(found.group(1))
    # Undo brings back the English reading
    ws.undo_action.trigger()
    assert bc.variant.name == "english"


def test_a_file_with_gametype_shows_no_notice_and_new_hides_it(qtbot, ws):
    assert ws.open_pdn(CORPUS / "pool-3-kings-vs-1-theory.pdn")
    assert not ws.variant_notice.isVisible()
    drive_game_list(qtbot, "ohio rex")
    assert ws.open_pdn(TINSLEY)
    assert ws.variant_notice.isVisible()
    ws.new_action.trigger()
    assert not ws.variant_notice.isVisible()


def test_cancel_in_the_game_list_keeps_the_board(qtbot, ws):
    bc = ws.board_controller
    before = bc.record
    drive_game_list(qtbot, "rex", key=Qt.Key.Key_Escape)
    assert not ws.open_pdn(TINSLEY)
    assert bc.record is before


def test_a_file_whose_every_record_is_defective_lists_and_marks_them_all(qtbot):
    from ui.board.gamelist import DEFECT_MARK

    games = 2000
    text = "".join(f'[White "P{i}"]\n[Black "Q"]\n1. 11-15 junk{i} *\n\n' for i in range(games))
    dialog = make_dialog(qtbot, text)
    finish_scan(qtbot, dialog)
    assert dialog.count_label.text() == f"{games:,} of {games:,} games"
    assert sorted(dialog.model.marked()) == list(range(games))
    assert all(row[0].startswith(DEFECT_MARK) for row in dialog.rows_text())
    assert dialog.progress_label.text().startswith(f"Records checked: {games:,} with a defect")
    # the filter reads the tags, not the mark
    qtbot.keyClicks(dialog.filter_edit, "p1999")
    assert [row[0] for row in dialog.rows_text()] == [DEFECT_MARK + "P1999"]


def test_a_record_started_from_a_set_up_position_hides_the_notice(qtbot, ws):
    """The notice speaks of the imported record; once Start Record from Here made
    another one (none of its players or event kept: issue 33), it is gone."""
    drive_game_list(qtbot, "ohio rex")
    assert ws.open_pdn(TINSLEY)
    assert ws.variant_notice.isVisible()
    ws.mode_actions["setup"].trigger()
    ws.board_controller.setup.set_fen("W:WK29:BK1,K2,K3")
    ws.use_start_button.click()
    assert ws.board_controller.start.fen() == "W:WK29:BK1,K2,K3"
    assert not ws.variant_notice.isVisible()


OCA = CORPUS / "english-oca-2.0.pdn"
#: the number of games of the OCA collection, as the corpus README publishes it ("43 |
#: English | clean records from the FMJD PDN test collection")
OCA_GAMES = 43


def test_every_game_of_an_english_collection_opens_as_english_and_says_why(ws, tmp_path):
    """#31 Must 2: a game legal in several variants takes the variant the file's other
    games need. The OCA collection is English (corpus README) and has no GameType tag;
    some of its games are also legal in pool: they open as English, the note says why,
    and Export PDN does not stamp the guess into the file (and says so)."""
    from rulesbook.draughts import Position, Variant
    from rulesbook.draughts.pdn_variant import legal_prefix

    text = OCA.read_text(encoding="utf-8")
    assert "GameType" not in text
    bc = ws.board_controller
    also_pool = []
    for index in range(OCA_GAMES):
        ws.choose_game = lambda chunks, i=index: i
        assert ws.open_pdn(OCA), index
        assert bc.variant.name == "english", (index, ws.variant_notice.text())
        note = ws.variant_notice.text()
        assert ws.variant_notice.isVisible() and note.startswith(
            "No GameType tag: read as English checkers — "), note
        texts = [m.text for m in bc.moves]
        if legal_prefix(Position.start(Variant.named("pool")), texts) == len(texts):
            also_pool.append(index)
            assert ("also in pool checkers; the file's other games need English checkers ("
                    in note), note
        else:
            assert "the only variant in which" in note, note
    assert also_pool  # the collection has games legal in both (the case of #31)
    # the last of them exported: its variant was guessed, so no GameType is written
    ws.choose_game = lambda chunks: also_pool[-1]
    assert ws.open_pdn(OCA)
    said: list[str] = []
    bc.export.statusMessage.connect(said.append)
    out = tmp_path / "game.pdn"
    bc.export.write_pdn(out)
    assert "GameType" not in out.read_text(encoding="utf-8")
    assert said and said[-1].endswith("no GameType tag written: the record had none and was "
                                      "read as English checkers from its moves"), said
