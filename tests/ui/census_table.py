"""The census table: for every control (by ``scope/Text`` of an action or
``scope/[Text]`` of a button) the state it is triggered in and the visible effect
it must have (tests/ui/test_census.py runs it)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from rulesbook.ballots import load_ballot
from rulesbook.draughts import Color, Piece, Position
from tests.ui.census import pdn_moves
from tests.ui.census_state import BALLOT, PLANTED
from tests.ui.census_steps import (
    Expect,
    adopt_prepare,
    case_open_prepare,
    choose_case,
    choose_member,
    columns_check,
    columns_prepare,
    copy_prepare,
    create_key_check,
    draft_prepare,
    editor_shown,
    export,
    export_votes_check,
    export_votes_prepare,
    import_key_check,
    import_key_prepare,
    import_prepare,
    mode,
    nav,
    ok,
    quit_prepare,
    receipt_check,
    receipt_prepare,
    save_case_prepare,
    seal_prepare,
    select_all_prepare,
    set_a_fact,
    setup,
    shown,
    sign_prepare,
    sync_check,
    sync_prepare,
    toggled,
    tool,
    use_key_check,
    workspace,
    written,
)


def _paging_prepare(c, steps: int = 0):
    """Compare rule 28 in a 1024-wide window: more columns than fit, so they page."""
    c.restore_size = c.window.size()
    c.window.resize(1024, 700)
    c.window.show_workspace("compare")
    c.window.controller.compare("28")
    QApplication.processEvents()
    ws = c.ws("compare")
    for _ in range(steps):
        ws.next_button.click()
    return [col.ref for col in ws.shown_columns()]


def _paging_check(c, before):
    shown = [col.ref for col in c.ws("compare").shown_columns()]
    c.window.resize(c.restore_size)
    ok(shown != before and shown[0] == before[0], f"columns {before} -> {shown}")


def _recent_messages_shown(c) -> bool:
    """The Recent Status Messages window is shown, with the message said before (then
    closed)."""
    from PySide6.QtWidgets import QDialog, QPlainTextEdit

    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QDialog) and widget.isVisible() \
                and widget.windowTitle() == "Recent Status Messages":
            text = widget.findChild(QPlainTextEdit).toPlainText()
            widget.close()
            return "Census: a message to find again" in text
    return False


EXPECT: dict[str, Expect] = {
    # -- File, Edit, View, Help ------------------------------------------------------------
    "menu/File/Open Data Folder…": Expect(
        prepare=lambda c: c.dialogs.files.append(c.data),
        check=lambda c, _b: ok(Path(c.window.controller.data_dir) == c.data
                               and str(c.data) in c.window.windowTitle())),
    "menu/File/Open Recent/(a recent folder)": Expect(
        check=lambda c, _b: ok(str(c.data) in c.window.windowTitle()
                               and c.window.statusBar().currentMessage().startswith("Loaded"))),
    "menu/File/Export View as HTML…": export("view.html", "rules", b"<!DOCTYPE", "apca"),
    "menu/File/Export View as PDF…": export("view.pdf", "rules", b"%PDF"),
    "menu/Edit/Copy": Expect(prepare=copy_prepare, check=lambda c, sel: ok(
        sel.strip() and c.clipboard().strip() == sel.strip(), "the selection was not copied")),
    "menu/Edit/Select All": Expect(prepare=select_all_prepare, check=lambda c, _b: ok(
        c.ws("rules").page.textCursor().hasSelection())),
    "menu/Edit/Find…": Expect(check=lambda c, _b: ok(c.window.search_field.hasFocus())),
    "menu/View/1 Rules": workspace("rules"),
    "menu/View/2 Compare": workspace("compare"),
    "menu/View/3 Editions": workspace("editions"),
    "menu/View/4 Board": workspace("board"),
    "menu/View/5 Rulings": workspace("rulings"),
    "menu/View/6 Ballots": workspace("ballots"),
    "menu/View/Choose Edition in Force": Expect(
        prepare=lambda c: c.window.controller.edition_id,
        check=lambda c, before: ok((c.window.edition_combo.view().isVisible()
                                    or shown(c, "popup", ""))
                                   and c.window.controller.edition_id == before)
        or c.window.edition_combo.hidePopup()),
    "menu/View/Toggle Navigation": Expect(
        prepare=lambda c: c.window.nav.isVisible(),
        check=lambda c, before: ok(c.window.nav.isVisible() != before)
        or c.window.nav.setVisible(True)),
    "menu/View/Recent Status Messages": Expect(  # the messages whole (issue 33)
        prepare=lambda c: c.window.statusBar().showMessage("Census: a message to find again"),
        check=lambda c, _b: ok(_recent_messages_shown(c), "the message is not listed")),
    "menu/View/Full Screen": Expect(
        check=lambda c, _b: ok(c.window.isFullScreen()) or c.window.showNormal()),
    "menu/Help/About Rulesbook": Expect(  # a window of its own, not modal (ui/about.py)
        check=lambda c, _b: ok(c.window.about_dialog is not None
                               and c.window.about_dialog.isVisible()
                               and c.window.about_dialog.windowTitle() == "About Rulesbook")
        or c.window.about_dialog.close()),
    "menu/Help/About Qt": Expect(check=lambda c, _b: ok(shown(c, "about-qt", "About Qt"))),
    # -- Rules, Compare, Editions --------------------------------------------------------------
    "rules/Back": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.ws("rules").show_ref("apca:1"),
                           c.ws("rules").show_ref("apca:2")),
        check=lambda c, _b: ok(c.ws("rules").current == "apca:1")),
    "rules/Compare Variants": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.ws("rules").show_ref("apca:10")),
        check=lambda c, _b: ok(c.window.current_workspace().id == "compare"
                               and c.ws("compare").comparison.subject == "apca:10")),
    "rules/New Proposal…": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.ws("rules").show_ref("apca:28")),
        check=lambda c, _b: editor_shown(c, None, "apca:28")),
    "rules/Edit Proposal…": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.ws("rules").show_ref("apca:28A")),
        check=lambda c, _b: editor_shown(c, "apca:28A", "apca:28")),
    "rules/Withdraw Proposal…": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.ws("rules").show_ref("apca:28B"),
                           c.dialogs.texts.append("census")),
        check=lambda c, _b: written(c, lambda: "Withdrawn on" in c.ws("rules").page.toPlainText())),
    "rules/Add Member…": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.dialogs.texts.append("Census")),
        check=lambda c, _b: written(c, lambda: "Census" in [
            m.name for m in c.window.controller.library.members])),
    "compare/[Next ▶]": Expect(prepare=_paging_prepare, check=_paging_check),
    "compare/[◀ Previous]": Expect(prepare=lambda c: _paging_prepare(c, 1),
                                   check=_paging_check),
    "compare/[Columns]": Expect(check=lambda c, _b: ok(shown(c, "popup", ""))),
    "compare/Choose Columns…": Expect(
        prepare=lambda c: c.window.show_workspace("compare"),
        check=lambda c, _b: ok(shown(c, "popup", ""))),
    "compare/[Columns]/(a group)": Expect(prepare=columns_prepare, check=columns_check),
    "compare/[Columns]/(a column)": Expect(prepare=columns_prepare, check=columns_check),
    "editions/[Export HTML…]": export("redline.html", "editions", b"<!DOCTYPE", "Changes from"),
    "editions/[Export PDF…]": export("redline.pdf", "editions", b"%PDF"),
    # -- Board: toolbar -----------------------------------------------------------------------------
    "board/New": Expect(prepare=lambda c: c.record(),
                        check=lambda c, _b: ok(not c.bc.moves and c.bc.ply == 0
                                               and "New record" in c.ws("board").record_title.text())),
    "board/Open PDN…": Expect(
        prepare=lambda c: (c.bc.editing.new_game(), c.dialogs.files.append(c.pdn)),
        check=lambda c, _b: ok([m.text for m in c.bc.moves] == pdn_moves(c.pdn))),
    "board/Paste Record": Expect(
        prepare=lambda c: (c.bc.editing.new_game(), QGuiApplication.clipboard().setText("11-15 23-19")),
        check=lambda c, _b: ok([m.text for m in c.bc.moves] == ["11-15", "23-19"])),
    "board/Play": mode("play"),
    "board/Set Up": mode("setup"),
    "board/Check Record": mode("check"),
    "board/Flip": toggled(lambda c: c.ws("board").board.is_flipped()),
    "board/Numbers": toggled(lambda c: c.ws("board").board.shows_numbers()),
    "board/Export PDN…": Expect(
        prepare=lambda c: (c.record(), c.dialogs.files.append(c.tmp / "game.pdn")),
        check=lambda c, _b: ok(pdn_moves(c.tmp / "game.pdn") == pdn_moves(c.pdn))),
    "board/Copy FEN": Expect(
        prepare=lambda c: (c.record(), c.bc.go(4)),
        check=lambda c, _b: ok(Position.from_fen(c.clipboard(), c.bc.variant).fen()
                               == c.ws("board").board.position().fen())),
    "board/[Open]": Expect(check=lambda c, _b: ok(shown(c, "popup", ""))),
    "board/[Open]/Open PDN…": Expect(
        prepare=lambda c: (c.bc.editing.new_game(), c.dialogs.files.append(c.pdn)),
        check=lambda c, _b: ok([m.text for m in c.bc.moves] == pdn_moves(c.pdn))),
    "board/[Open]/Paste Record": Expect(
        prepare=lambda c: (c.bc.editing.new_game(), QGuiApplication.clipboard().setText("11-15 23-19")),
        check=lambda c, _b: ok([m.text for m in c.bc.moves] == ["11-15", "23-19"])),
    "board/[Open]/Open Case…": Expect(
        prepare=case_open_prepare,
        check=lambda c, path: ok(c.bc.case_path == path
                                 and [m.text for m in c.bc.moves] == pdn_moves(c.pdn))),
    "board/[More]": Expect(check=lambda c, _b: ok(shown(c, "popup", ""))),
    "board/[More]/Flip": toggled(lambda c: c.ws("board").board.is_flipped()),
    "board/[More]/Numbers": toggled(lambda c: c.ws("board").board.shows_numbers()),
    "board/[More]/Export PDN…": Expect(
        prepare=lambda c: (c.record(), c.dialogs.files.append(c.tmp / "game.pdn")),
        check=lambda c, _b: ok(pdn_moves(c.tmp / "game.pdn") == pdn_moves(c.pdn))),
    "board/[More]/Copy FEN": Expect(
        prepare=lambda c: (c.record(), c.bc.go(4)),
        check=lambda c, _b: ok(Position.from_fen(c.clipboard(), c.bc.variant).fen()
                               == c.ws("board").board.position().fen())),
    "board/Open Case…": Expect(
        prepare=case_open_prepare,
        check=lambda c, path: ok(c.bc.case_path == path
                                 and [m.text for m in c.bc.moves] == pdn_moves(c.pdn))),
    "board/Save Case": Expect(
        prepare=save_case_prepare,
        check=lambda c, _b: ok(not c.bc.dirty and c.bc.case_path is not None
                               and c.bc.case_path.exists())),
    "board/Undo": Expect(
        prepare=lambda c: (c.record(), c.bc.editing.new_game(), c.bc.editing.type_moves("11-15")),
        check=lambda c, _b: ok(not c.bc.moves)),
    "board/Previous Move": nav(2),
    "board/Next Move": nav(4),
    "board/First Position": nav(0),
    "board/Last Position": nav(lambda c: len(c.bc.moves)),
    # -- Board: set-up palette --------------------------------------------------------------------
    "board/[Black man]": tool("black-man"),
    "board/[Black king]": tool("black-king"),
    "board/[White man]": tool("white-man"),
    "board/[White king]": tool("white-king"),
    "board/[Eraser]": tool("eraser"),
    "board/[Clear Board]": Expect(prepare=setup,
                                  check=lambda c, _b: ok(not c.bc.setup.position().pieces())),
    "board/[Start Position]": Expect(
        prepare=lambda c: (setup(c), c.bc.setup.clear()),
        check=lambda c, _b: ok(c.bc.setup.position().fen()
                               == Position.start(c.bc.variant).fen())),
    "board/[Paste FEN]": Expect(
        prepare=lambda c: (setup(c), QGuiApplication.clipboard().setText("W:W18,K30:B14")),
        check=lambda c, _b: ok(c.bc.setup.position().fen()
                               == Position.from_fen("W:W18,K30:B14").fen())),
    "board/[Copy FEN]": Expect(
        prepare=setup, check=lambda c, _b: ok(c.clipboard() == c.bc.export.fen()
                                               and c.clipboard() == c.bc.setup.position().fen())),
    "board/[Start Record from Here]": Expect(
        prepare=lambda c: (setup(c), c.bc.setup.set_fen("W:W18,K30:B14"),
                           c.bc.setup.position().fen())[-1],
        check=lambda c, fen: ok(c.bc.mode == "play" and c.bc.start.fen() == fen
                                and not c.bc.moves)),
    "board/[This Is the Board Now]": Expect(
        prepare=setup, check=lambda c, _b: ok(c.bc.gap_target is not None
                                               and c.ws("board").panels.currentIndex() == 2)),
    "board/[Back to Record]": Expect(prepare=setup, check=lambda c, _b: ok(c.bc.mode == "play")),
    "board/[Black to move]": Expect(
        prepare=lambda c: (setup(c), c.bc.setup.set_turn(Color.WHITE)),
        check=lambda c, _b: ok(c.bc.setup.turn is Color.BLACK)),
    "board/[White to move]": Expect(
        prepare=lambda c: (setup(c), c.bc.setup.set_turn(Color.BLACK)),
        check=lambda c, _b: ok(c.bc.setup.turn is Color.WHITE)),
    "board/Paste FEN": Expect(  # Ctrl+V in set-up mode
        prepare=lambda c: (setup(c), QGuiApplication.clipboard().setText("W:W18,K30:B14")),
        check=lambda c, _b: ok(c.bc.setup.position().fen()
                               == Position.from_fen("W:W18,K30:B14").fen())),
    "board/Man / King": Expect(  # K: the piece placed last (the mouse is not on the board)
        prepare=lambda c: (setup(c), c.bc.setup.clear(),
                           c.bc.setup.place(18, Piece(Color.BLACK, False))),
        check=lambda c, _b: ok(c.bc.setup.position().piece_at(18) == Piece(Color.BLACK, True))),
    # -- Board: check, clocks, rulings ------------------------------------------------------------
    "board/[Check Record]": Expect(
        prepare=lambda c: (c.planted(), c.bc.set_mode("play"), c.ws("board").check_view.clear()),
        check=lambda c, _b: ok("Ply 7" in c.ws("board").check_view.toPlainText())),
    "board/[Let illegal moves stand]": toggled(lambda c: c.bc.let_stand),
    "board/[Pro-rate the Clocks]": Expect(
        prepare=lambda c: c.planted(),
        check=lambda c, _b: ok(c.ws("board").clock_form.isVisible())
        or c.ws("board").clock_toggle.setChecked(False)),
    "board/[Draw Rulings…]": Expect(
        prepare=lambda c: c.claim(),
        check=lambda c, _b: ok(c.window.current_workspace().id == "rulings"
                               and c.ws("rulings").rulings.incident_id == "thirteen_count")),
    "board/Draw Rulings": Expect(
        prepare=lambda c: c.claim(),
        check=lambda c, _b: ok(c.window.current_workspace().id == "rulings"
                               and c.ws("rulings").rulings.incident_id == "thirteen_count")),
    "board/[Rulings for This Incident…]": Expect(
        prepare=lambda c: c.planted(),
        check=lambda c, _b: ok(c.window.current_workspace().id == "rulings"
                               and c.ws("rulings").rulings.incident is not None)),
    # -- Board: gap -----------------------------------------------------------------------------------
    "board/[Board Shown Is the Board Now]": Expect(
        prepare=lambda c: (c.record(), c.bc.go(6)),
        check=lambda c, _b: ok(c.bc.gap_target is not None
                               and c.bc.gap_target.fen() == c.ws("board").board.position().fen())),
    "board/[Search]": Expect(
        prepare=lambda c: c.gap(),
        check=lambda c, missing: ok(c.gap_result() is not None
                                    and list(missing) in [list(t) for t in c.bc.gap.result.texts])),
    "board/[Cancel]": Expect(
        prepare=lambda c: c.long_gap(),
        check=lambda c, _b: ok(c.gap_result() is not None and c.bc.gap.result.cancelled
                               and "cancelled" in c.ws("board").gap_progress.format())),
    "board/[◀]": Expect(
        prepare=lambda c: (c.gap_found(), c.bc.gap.preview_go(2)),
        check=lambda c, _b: ok(c.bc.gap.previewing and c.bc.gap.preview_ply == 1)),
    "board/[▶]": Expect(
        prepare=lambda c: (c.gap_found(), c.bc.gap.preview_go(0)),
        check=lambda c, _b: ok(c.bc.gap.previewing and c.bc.gap.preview_ply == 1)),
    "board/[Show Record]": Expect(prepare=lambda c: c.gap_found(),
                                  check=lambda c, _b: ok(not c.bc.gap.previewing)),
    "board/[Adopt Sequence into the Record]": Expect(
        prepare=lambda c: c.gap_found(),
        check=lambda c, missing: ok([m.text for m in c.bc.moves] == PLANTED.split()[:4] + missing)),
    "board/[Forgot]": Expect(  # "They don't remember": the next best question is asked
        prepare=lambda c: c.interview(),
        check=lambda c, result: ok(
            c.bc.gap.question() == result.questions[1]
            and result.questions[1].ply != result.questions[0].ply
            and c.ws("board").gap_panel.interview.question_label.text()
            == c.bc.gap.question_text(result.questions[1], 2),
            c.ws("board").gap_panel.interview.question_label.text())),
    "board/[Tree]": Expect(  # the sequences as a tree of move choices, instead of the list
        prepare=lambda c: c.interview(),
        check=lambda c, result: ok(
            c.ws("board").gap_panel.tree.isVisible() and not c.ws("board").gap_list.isVisible()
            and c.ws("board").gap_panel.tree.texts()[0].endswith(
                f"{result.count:,} sequences"), c.ws("board").gap_panel.tree.texts()[:1])),
    # the banner shows after a crash, when a new window recovers the autosave: here it
    # is shown by hand over a record (tests/ui/test_recovery.py has the real session)
    "board/[Discard Restored Work]": Expect(
        prepare=lambda c: (c.record(), c.ws("board").banner.show()),
        check=lambda c, _b: ok(not c.bc.moves and not c.ws("board").banner.isVisible()
                               and "Discarded" in c.ws("board").status_text())),
    "board/[OK]": Expect(prepare=lambda c: c.ws("board").banner.show(),
                         check=lambda c, _b: ok(not c.ws("board").banner.isVisible())),
    # -- Rulings --------------------------------------------------------------------------------------
    "rulings/[Clear the answers]": Expect(
        prepare=lambda c: set_a_fact(c),
        check=lambda c, _b: ok(not any(v is not None for v in c.ws("rulings").rulings.facts.values()))),
    "rulings/[Use this case]": Expect(
        prepare=lambda c: choose_case(c),
        check=lambda c, case: ok(c.ws("rulings").rulings.incident_id == case.incident
                                 and c.ws("rulings").tabs.currentIndex() == 0)),
    "rulings/[Export as HTML…]": export("report.html", "rulings", b"<!DOCTYPE", "Dispute"),
    "rulings/[Export as PDF…]": export("report.pdf", "rulings", b"%PDF"),
    # -- Ballots ----------------------------------------------------------------------------------------
    "ballots/[Open…]": Expect(
        prepare=lambda c: (c.ballot(), c.dialogs.files.append(c.data / BALLOT)),
        check=lambda c, _b: ok(c.ballots.path == c.data / BALLOT and not c.ballots.dirty)),
    "ballots/[New from Library…]": Expect(
        prepare=lambda c: (c.ballot(), c.dialogs.texts.append("census-test"),
                           c.dialogs.files.append(c.tmp / "census-test.yaml")),
        check=lambda c, _b: ok(c.ballots.ballot.id == "census-test"
                               and c.ballots.path == c.tmp / "census-test.yaml")),
    "ballots/[Show changes against the original]": Expect(
        prepare=lambda c: (c.ballot(), c.ws("ballots").tabs.setCurrentIndex(0),
                           c.ws("ballots").question_list.setCurrentRow(c.question_row("10")),
                           c.ws("ballots").options_view.page_html())[-1],
        check=lambda c, before: ok(c.ws("ballots").diff_box.isChecked()
                                   and c.ws("ballots").options_view.page_html() != before)),
    "ballots/[Restore Unsaved Votes]": Expect(
        prepare=lambda c: c.recovery(),
        check=lambda c, _b: ok(c.ballots.dirty and c.ballots.ranking_of("B", "10") is not None
                               and not c.ws("ballots").recovery_banner.isVisible())),
    "ballots/[Discard Them]": Expect(
        prepare=lambda c: c.recovery(),
        check=lambda c, _b: ok(not c.ballots.dirty and c.ballots.ranking_of("B", "10") is None
                               and not c.ballots.recovery_file.exists())),
    "ballots/[OK]": Expect(
        prepare=lambda c: (c.ballot(), c.ws("ballots")._recovery_notice("A notice.")),
        check=lambda c, _b: ok(not c.ws("ballots").recovery_banner.isVisible())),
    "ballots/[Save]": Expect(
        prepare=lambda c: c.ballot(votes=True),
        check=lambda c, _b: ok(not c.ballots.dirty and any(
            v.member == "B" and v.question == "10" for v in load_ballot(c.data / BALLOT).votes))),
    "ballots/[Import Ballot…]": Expect(
        prepare=import_prepare,
        check=lambda c, _b: ok(c.ballots.ranking_of("A", "12") == ("apca:12A",))),
    "ballots/[Use This Method for the Ballot]": Expect(  # an unsigned draft (issue 27)
        prepare=lambda c: (draft_prepare(c), c.ws("ballots").method_combo.setCurrentIndex(
            c.ws("ballots").method_combo.findData("plurality"))),
        check=lambda c, _b: ok(c.ballots.ballot.method == "plurality")),
    "ballots/[Sign Settings (J)]": Expect(  # its Alt key is J (Sign and Settings' letters are taken)
        prepare=sign_prepare,
        check=lambda c, _b: ok(c.ballots.ballot.opened is not None
                               and c.ballots.ballot.opened.by == "A")),
    "ballots/[Use Key]": Expect(prepare=lambda c: choose_member(c, "C"), check=use_key_check),
    "ballots/[Create Key]": Expect(prepare=lambda c: choose_member(c, "E"),
                                   check=create_key_check),
    "ballots/[Import Key…]": Expect(prepare=import_key_prepare, check=import_key_check),
    "ballots/[Export My Votes…]": Expect(prepare=export_votes_prepare,
                                         check=export_votes_check),
    "ballots/[Close and Seal…]": Expect(
        prepare=seal_prepare,
        check=lambda c, _b: ok(not c.ballots.ballot.is_open and c.ballots.ballot.seal)),
    "ballots/[Verify the Seal]": Expect(check=lambda c, _b: ok(
        "Seal verified" in c.ws("ballots").banner.text() and c.ws("ballots").banner.isVisible())),
    "ballots/[Check Receipt]": Expect(prepare=receipt_prepare, check=receipt_check),
    "ballots/[Adopt…]": Expect(
        prepare=adopt_prepare,
        check=lambda c, _b: ok(c.window.current_workspace().id == "editions"
                               and c.window.controller.edition_id == "census-edition")),
    # -- a rules folder shared through a remote (it replaces the data folder) -----------------
    "menu/File/Sync Rules Folder": Expect(prepare=sync_prepare, check=sync_check),
    # -- last: Quit ------------------------------------------------------------------------------------
    "menu/File/Quit": Expect(prepare=quit_prepare,
                             check=lambda c, _b: ok(not c.window.isVisible())),
}

PROBLEMS: dict[str, Expect] = {
    "ProblemsDialog/[Copy List]": Expect(
        check=lambda c, _b: ok("unknown member 'Z'" in c.clipboard())),
    "ProblemsDialog/[Quit]": Expect(check=lambda c, _b: ok(not c.window.problems_dialog.isVisible())),
    "ProblemsDialog/[Open Another Folder…]": Expect(
        prepare=lambda c: (c.window.problems_dialog.open(), c.dialogs.files.append(c.data)),
        check=lambda c, _b: ok(Path(c.window.controller.data_dir) == c.data
                               and not c.window.problems_dialog.isVisible())),
}
