"""The control census: every QAction, toolbar button and push button of the main
window, its workspaces and the dialogs they open is found by walking the widgets
and menus, triggered in a sensible state (a corpus record on the Board, the
committee ballot open, a case open), and its visible effect checked. A control
without an entry in EXPECT fails the test, and so does any control that raises,
logs a traceback, or shows an error dialog."""
from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractButton, QApplication, QCheckBox

from rulesbook.ballots import load_ballot, member_copy
from rulesbook.draughts import Position
from tests.ui.census import Dialogs, Watchdog, controls, pdn_moves, reveal
from tests.ui.conftest import copy_data

BALLOT = Path("apca") / "ballots" / "2026-committee.yaml"
PLANTED = "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20"  # ply 7 misses a capture
GAME = "pool-3-kings-vs-1-theory.pdn"
# the first twelve plies of a Tinsley game (shared/corpus/english-tinsley-1946-1960s.pdn)
LONG_GAP = "11-15 23-18 8-11 27-23 4-8 23-19 10x14 19x10 14x23 26x19 7x14 24-20"


@dataclass
class Census:
    window: object
    dialogs: Dialogs
    qtbot: object
    data: Path
    tmp: Path
    pdn: Path
    watchdog: Watchdog | None = None

    # -- shortcuts to the parts ---------------------------------------------------
    def ws(self, name: str):
        return self.window.workspaces[name]

    @property
    def bc(self):
        return self.ws("board").board_controller

    @property
    def ballots(self):
        return self.ws("ballots").ballots

    def clipboard(self) -> str:
        return QGuiApplication.clipboard().text()

    # -- sensible states --------------------------------------------------------------
    def record(self) -> None:
        """The corpus game on the Board, at its start, not in a preview."""
        self.window.show_workspace("board")
        bc = self.bc
        bc.stop_preview()
        if [m.text for m in bc.moves] != pdn_moves(self.pdn) or bc.mode != "play":
            bc.set_mode("play")
            assert self.ws("board").open_pdn(self.pdn)
        bc.go(0)

    def planted(self) -> None:
        """A typed record whose ply 7 is illegal, checked."""
        self.window.show_workspace("board")
        bc = self.bc
        bc.set_mode("play")
        bc.new_game()
        assert bc.type_moves(PLANTED)
        bc.set_mode("check")
        assert bc.first_illegal is not None

    def gap(self, plies: int = 2) -> list[str]:
        """The board now is ``plies`` after the record: returns the missing moves."""
        self.window.show_workspace("board")
        bc = self.bc
        bc.set_mode("play")
        bc.new_game()
        moves = PLANTED.split()[:4 + plies]
        assert bc.type_moves(" ".join(moves))
        target = bc.position()
        bc.new_game()
        assert bc.type_moves(" ".join(moves[:4]))
        assert bc.mark_board_now(target)
        ws = self.ws("board")
        ws.gap_kind.setCurrentIndex(ws.gap_kind.findData("exact"))
        ws.gap_plies.setValue(plies)
        return moves[4:]

    def gap_result(self):
        assert self.bc.wait_gap()
        self.qtbot.waitUntil(lambda: self.bc.gap_result is not None)
        return self.bc.gap_result

    def long_gap(self) -> None:
        """A search of about a second (English, 12 plies from the start), running."""
        self.window.show_workspace("board")
        bc = self.bc
        bc.set_mode("play")
        bc.new_game("english")
        assert bc.type_moves(LONG_GAP)
        target = bc.position()
        bc.new_game("english")
        assert bc.mark_board_now(target)
        assert bc.start_gap(plies=len(LONG_GAP.split()))

    def gap_found(self) -> list[str]:
        missing = self.gap()
        ws = self.ws("board")
        assert ws.start_gap()
        self.gap_result()
        self.qtbot.waitUntil(lambda: ws.gap_list.count() > 0)
        ws.gap_list.setCurrentRow(0)
        return missing

    def ballot(self, votes: bool = False) -> None:
        """The committee ballot of the data folder, open and saved."""
        self.window.show_workspace("ballots")
        b = self.ballots
        if b.dirty:
            b.discard_changes()
        if b.path != self.data / BALLOT or b.ballot is None or not b.ballot.is_open:
            b.open(self.data / BALLOT)
        if votes:
            ws = self.ws("ballots")
            ws.tabs.setCurrentIndex(ws.TAB_VOTES)
            ws.member_combo.setCurrentIndex(ws.member_combo.findData("B"))
            ws.question_list.setCurrentRow(self.question_row("10"))
            ws.ranking_edit.setText("2 1")
            self.qtbot.keyClick(ws.ranking_edit, Qt.Key.Key_Return)
            assert b.dirty

    def question_row(self, qid: str) -> int:
        return [q.id for q in self.ballots.ballot.questions].index(qid)

    def recovery(self) -> None:
        """Unsaved votes of an "earlier session" offered for the ballot."""
        self.ballot(votes=True)
        b = self.ballots
        kept = b.recovery_file.read_bytes()
        b.discard_changes()
        b.open(self.data / BALLOT)
        b.recovery_file.write_bytes(kept)
        assert b.check_recovery() is not None

    def case_file(self) -> Path:
        path = self.tmp / "saved-case.yaml"
        if not path.exists():
            self.record()
            assert self.bc.save_case(path) is not None
        return path


def ok(condition, message: str = "") -> None:
    if not condition:
        raise AssertionError(message)


@dataclass(frozen=True)
class Expect:
    """``prepare`` puts the app in the state the control needs (and returns what the
    check compares against); ``check(census, before)`` asserts the visible effect."""

    check: Callable
    prepare: Callable | None = None


def _toggled(get):
    return Expect(prepare=lambda c: get(c), check=lambda c, before: ok(get(c) != before))


def _file(path_of, *, starts: bytes = b"", contains: str = ""):
    def prepare(c):
        c.dialogs.files.append(path_of(c))

    def check(c, _before):
        path = path_of(c)
        ok(path.exists(), f"{path} was not written")
        ok(path.read_bytes().startswith(starts), f"{path} does not start with {starts!r}")
        ok(contains in path.read_text(encoding="utf-8", errors="replace"),
           f"{contains!r} not in {path}")
    return prepare, check


def _shown(c, kind: str, title: str) -> bool:
    return any(s.kind == kind and title in s.title for s in c.dialogs.shown)


def _then(*steps):
    def run(c):
        out = None
        for step in steps:
            out = step(c)
        return out
    return run


def _export(name: str, workspace: str, starts: bytes = b"", contains: str = ""):
    prepare, check = _file(lambda c: c.tmp / name, starts=starts, contains=contains)
    return Expect(prepare=_then(lambda c: c.window.show_workspace(workspace), prepare),
                  check=check)


def _nav(to: int | Callable):
    def prepare(c):
        c.record()
        c.bc.go(3)

    def check(c, _before):
        want = to(c) if callable(to) else to
        ok(c.bc.ply == want, f"ply {c.bc.ply}, expected {want}")
    return Expect(prepare=prepare, check=check)


def _mode(mode: str):
    return Expect(prepare=lambda c: c.record() or c.bc.set_mode("play" if mode != "play"
                                                                 else "check"),
                  check=lambda c, _b: ok(c.bc.mode == mode and
                                         c.ws("board").mode_actions[mode].isChecked()))


def _tool(tool: str):
    return Expect(prepare=lambda c: c.record() or c.bc.set_mode("setup"),
                  check=lambda c, _b: ok(c.bc.tool == tool and
                                         c.ws("board").tool_buttons[tool].isChecked()))


def _workspace(name: str):
    return Expect(check=lambda c, _b: ok(c.window.current_workspace().id == name))


def _setup(c):
    c.record()
    c.bc.set_mode("setup")


def _copy_prepare(c):
    c.window.show_workspace("rules")
    page = c.ws("rules").page
    page.setFocus()
    page.selectAll()
    QGuiApplication.clipboard().clear()
    return page.textCursor().selectedText().replace("\u2029", "\n")


def _select_all_prepare(c):
    c.window.show_workspace("rules")
    page = c.ws("rules").page
    page.setFocus()
    cursor = page.textCursor()
    cursor.clearSelection()
    page.setTextCursor(cursor)


def _case_open_prepare(c):
    path = c.case_file()
    c.bc.new_game()
    c.bc._set_dirty(False)
    c.dialogs.files.append(path)
    return path


def _save_case_prepare(c):
    c.record()
    c.bc.go(5)
    if c.bc.case_path is None:
        c.dialogs.files.append(c.tmp / "case.yaml")


def _import_prepare(c):
    c.ballot()
    copy = member_copy(c.ballots.ballot, "A")
    for v in copy["votes"]:
        if v["question"] == "12":
            v["ranking"] = ["12A"]
    path = c.tmp / "member-a.yaml"
    path.write_text(yaml.safe_dump(copy, sort_keys=False), encoding="utf-8")
    c.dialogs.files.append(path)


def _quit_prepare(c):
    if c.bc.dirty:
        c.dialogs.buttons.append("&Discard")
    if c.ballots.dirty:
        c.dialogs.buttons.append("&Discard")


def _columns_group(c):
    return len(c.ws("compare").columns)


def _columns_prepare(c):
    c.window.show_workspace("compare")
    return len(c.ws("compare").columns)


def _columns_check(c, before):
    ws = c.ws("compare")
    ok(len(ws.columns) < before, f"{len(ws.columns)} columns shown, {before} before")
    ws.hidden.clear()  # every column back for the next control
    ws._rebuild_menu()
    ws._rebuild_columns()


EXPECT: dict[str, Expect] = {
    # -- File, Edit, View, Help ------------------------------------------------------------
    "menu/File/Open Data Folder…": Expect(
        prepare=lambda c: c.dialogs.files.append(c.data),
        check=lambda c, _b: ok(Path(c.window.controller.data_dir) == c.data
                               and str(c.data) in c.window.windowTitle())),
    "menu/File/Open Recent/(a recent folder)": Expect(
        check=lambda c, _b: ok(str(c.data) in c.window.windowTitle()
                               and c.window.statusBar().currentMessage().startswith("Loaded"))),
    "menu/File/Export View as HTML…": _export("view.html", "rules", b"<!DOCTYPE", "apca"),
    "menu/File/Export View as PDF…": _export("view.pdf", "rules", b"%PDF"),
    "menu/Edit/Copy": Expect(prepare=_copy_prepare, check=lambda c, sel: ok(
        sel.strip() and c.clipboard().strip() == sel.strip(), "the selection was not copied")),
    "menu/Edit/Select All": Expect(prepare=_select_all_prepare, check=lambda c, _b: ok(
        c.ws("rules").page.textCursor().hasSelection())),
    "menu/Edit/Find…": Expect(check=lambda c, _b: ok(c.window.search_field.hasFocus())),
    "menu/View/1 Rules": _workspace("rules"),
    "menu/View/2 Compare": _workspace("compare"),
    "menu/View/3 Editions": _workspace("editions"),
    "menu/View/4 Board": _workspace("board"),
    "menu/View/5 Rulings": _workspace("rulings"),
    "menu/View/6 Ballots": _workspace("ballots"),
    "menu/View/Choose Edition in Force": Expect(
        prepare=lambda c: c.window.controller.edition_id,
        check=lambda c, before: ok((c.window.edition_combo.view().isVisible()
                                    or _shown(c, "popup", ""))
                                   and c.window.controller.edition_id == before)
        or c.window.edition_combo.hidePopup()),
    "menu/View/Toggle Navigation": Expect(
        prepare=lambda c: c.window.nav.isVisible(),
        check=lambda c, before: ok(c.window.nav.isVisible() != before)
        or c.window.nav.setVisible(True)),
    "menu/View/Full Screen": Expect(
        check=lambda c, _b: ok(c.window.isFullScreen()) or c.window.showNormal()),
    "menu/Help/About Rulesbook": Expect(
        prepare=lambda c: c.dialogs.buttons.append("&OK"),
        check=lambda c, _b: ok(_shown(c, "message", "About Rulesbook"))),
    "menu/Help/About Qt": Expect(check=lambda c, _b: ok(_shown(c, "about-qt", "About Qt"))),
    # -- Rules, Compare, Editions --------------------------------------------------------------
    "rules/Back": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.ws("rules").show_ref("apca:1"),
                           c.ws("rules").show_ref("apca:2")),
        check=lambda c, _b: ok(c.ws("rules").current == "apca:1")),
    "rules/Compare Variants": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.ws("rules").show_ref("apca:10")),
        check=lambda c, _b: ok(c.window.current_workspace().id == "compare"
                               and c.ws("compare").comparison.subject == "apca:10")),
    "compare/[Columns]": Expect(check=lambda c, _b: ok(_shown(c, "popup", ""))),
    "compare/Choose Columns…": Expect(
        prepare=lambda c: c.window.show_workspace("compare"),
        check=lambda c, _b: ok(_shown(c, "popup", ""))),
    "compare/[Columns]/(a group)": Expect(prepare=_columns_prepare, check=_columns_check),
    "compare/[Columns]/(a column)": Expect(prepare=_columns_prepare, check=_columns_check),
    "editions/[Export HTML…]": _export("redline.html", "editions", b"<!DOCTYPE", "Changes from"),
    "editions/[Export PDF…]": _export("redline.pdf", "editions", b"%PDF"),
    # -- Board: toolbar -----------------------------------------------------------------------------
    "board/New": Expect(prepare=lambda c: c.record(),
                        check=lambda c, _b: ok(not c.bc.moves and c.bc.ply == 0
                                               and "New record" in c.ws("board").record_title.text())),
    "board/Open PDN…": Expect(
        prepare=lambda c: (c.bc.new_game(), c.dialogs.files.append(c.pdn)),
        check=lambda c, _b: ok([m.text for m in c.bc.moves] == pdn_moves(c.pdn))),
    "board/Paste Record": Expect(
        prepare=lambda c: (c.bc.new_game(), QGuiApplication.clipboard().setText("11-15 23-19")),
        check=lambda c, _b: ok([m.text for m in c.bc.moves] == ["11-15", "23-19"])),
    "board/Play": _mode("play"),
    "board/Set Up": _mode("setup"),
    "board/Check Record": _mode("check"),
    "board/Flip": _toggled(lambda c: c.ws("board").board.is_flipped()),
    "board/Numbers": _toggled(lambda c: c.ws("board").board.shows_numbers()),
    "board/Export PDN…": Expect(
        prepare=lambda c: (c.record(), c.dialogs.files.append(c.tmp / "game.pdn")),
        check=lambda c, _b: ok(pdn_moves(c.tmp / "game.pdn") == pdn_moves(c.pdn))),
    "board/Copy FEN": Expect(
        prepare=lambda c: (c.record(), c.bc.go(4)),
        check=lambda c, _b: ok(Position.from_fen(c.clipboard(), c.bc.variant).fen()
                               == c.ws("board").board.position().fen())),
    "board/Open Case…": Expect(
        prepare=_case_open_prepare,
        check=lambda c, path: ok(c.bc.case_path == path
                                 and [m.text for m in c.bc.moves] == pdn_moves(c.pdn))),
    "board/Save Case": Expect(
        prepare=_save_case_prepare,
        check=lambda c, _b: ok(not c.bc.dirty and c.bc.case_path is not None
                               and c.bc.case_path.exists())),
    "board/Undo": Expect(
        prepare=lambda c: (c.record(), c.bc.new_game(), c.bc.type_moves("11-15")),
        check=lambda c, _b: ok(not c.bc.moves)),
    "board/Previous Move": _nav(2),
    "board/Next Move": _nav(4),
    "board/First Position": _nav(0),
    "board/Last Position": _nav(lambda c: len(c.bc.moves)),
    # -- Board: set-up palette --------------------------------------------------------------------
    "board/[Black man]": _tool("black-man"),
    "board/[Black king]": _tool("black-king"),
    "board/[White man]": _tool("white-man"),
    "board/[White king]": _tool("white-king"),
    "board/[Eraser]": _tool("eraser"),
    "board/[Clear Board]": Expect(prepare=_setup,
                                  check=lambda c, _b: ok(not c.bc.setup_position().pieces())),
    "board/[Start Position]": Expect(
        prepare=lambda c: (_setup(c), c.bc.setup_clear()),
        check=lambda c, _b: ok(c.bc.setup_position().fen()
                               == Position.start(c.bc.variant).fen())),
    "board/[Paste FEN]": Expect(
        prepare=lambda c: (_setup(c), QGuiApplication.clipboard().setText("W:W18,K30:B14")),
        check=lambda c, _b: ok(c.bc.setup_position().fen()
                               == Position.from_fen("W:W18,K30:B14").fen())),
    "board/[Copy FEN]": Expect(
        prepare=_setup, check=lambda c, _b: ok(c.clipboard() == c.bc.export_fen()
                                               and c.clipboard() == c.bc.setup_position().fen())),
    "board/[Start Record from Here]": Expect(
        prepare=lambda c: (_setup(c), c.bc.set_setup_fen("W:W18,K30:B14"),
                           c.bc.setup_position().fen())[-1],
        check=lambda c, fen: ok(c.bc.mode == "play" and c.bc.start.fen() == fen
                                and not c.bc.moves)),
    "board/[This Is the Board Now]": Expect(
        prepare=_setup, check=lambda c, _b: ok(c.bc.gap_target is not None
                                               and c.ws("board").panels.currentIndex() == 2)),
    "board/[Back to Record]": Expect(prepare=_setup, check=lambda c, _b: ok(c.bc.mode == "play")),
    # -- Board: check, clocks, rulings ------------------------------------------------------------
    "board/[Check Record]": Expect(
        prepare=lambda c: (c.planted(), c.bc.set_mode("play"), c.ws("board").check_view.clear()),
        check=lambda c, _b: ok("Ply 7" in c.ws("board").check_view.toPlainText())),
    "board/[Let illegal moves stand (show all)]": _toggled(lambda c: c.bc.let_stand),
    "board/[Pro-rate the Clocks]": Expect(
        prepare=lambda c: c.planted(),
        check=lambda c, _b: ok(c.ws("board").clock_form.isVisible())
        or c.ws("board").clock_toggle.setChecked(False)),
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
                                    and list(missing) in [list(t) for t in c.bc.gap_result.texts])),
    "board/[Cancel]": Expect(
        prepare=lambda c: c.long_gap(),
        check=lambda c, _b: ok(c.gap_result() is not None and c.bc.gap_result.cancelled
                               and "cancelled" in c.ws("board").gap_progress.format())),
    "board/[◀]": Expect(
        prepare=lambda c: (c.gap_found(), c.bc.preview_go(2)),
        check=lambda c, _b: ok(c.bc.previewing and c.bc.preview_ply == 1)),
    "board/[▶]": Expect(
        prepare=lambda c: (c.gap_found(), c.bc.preview_go(0)),
        check=lambda c, _b: ok(c.bc.previewing and c.bc.preview_ply == 1)),
    "board/[Show Record]": Expect(prepare=lambda c: c.gap_found(),
                                  check=lambda c, _b: ok(not c.bc.previewing)),
    "board/[Adopt Sequence into the Record]": Expect(
        prepare=lambda c: c.gap_found(),
        check=lambda c, missing: ok([m.text for m in c.bc.moves] == PLANTED.split()[:4] + missing)),
    "board/[Discard Restored Work]": Expect(
        prepare=lambda c: (c.record(), c.ws("board").banner.show()),
        check=lambda c, _b: ok(not c.bc.moves and not c.ws("board").banner.isVisible()
                               and "Discarded" in c.ws("board").status_text())),
    "board/[OK]": Expect(prepare=lambda c: c.ws("board").banner.show(),
                         check=lambda c, _b: ok(not c.ws("board").banner.isVisible())),
    # -- Rulings --------------------------------------------------------------------------------------
    "rulings/[Clear the answers]": Expect(
        prepare=lambda c: _set_a_fact(c),
        check=lambda c, _b: ok(not any(v is not None for v in c.ws("rulings").rulings.facts.values()))),
    "rulings/[Use this case]": Expect(
        prepare=lambda c: _choose_case(c),
        check=lambda c, case: ok(c.ws("rulings").rulings.incident_id == case.incident
                                 and c.ws("rulings").tabs.currentIndex() == 0)),
    "rulings/[Save as HTML…]": _export("report.html", "rulings", b"<!DOCTYPE", "Dispute"),
    "rulings/[Save as PDF…]": _export("report.pdf", "rulings", b"%PDF"),
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
    "ballots/[Import Member Ballot…]": Expect(
        prepare=_import_prepare,
        check=lambda c, _b: ok(c.ballots.ranking_of("A", "12") == ("apca:12A",))),
    "ballots/[Use This Method for the Ballot]": Expect(
        prepare=lambda c: (c.ballot(), c.ws("ballots").method_combo.setCurrentIndex(
            c.ws("ballots").method_combo.findData("plurality"))),
        check=lambda c, _b: ok(c.ballots.ballot.method == "plurality")),
    "ballots/[Close and Seal…]": Expect(
        prepare=lambda c: (c.ballot(), c.ws("ballots").save(), c.dialogs.buttons.append("&Yes")),
        check=lambda c, _b: ok(not c.ballots.ballot.is_open and c.ballots.ballot.seal)),
    "ballots/[Verify the Seal]": Expect(check=lambda c, _b: ok(
        "Seal verified" in c.ws("ballots").banner.text() and c.ws("ballots").banner.isVisible())),
    "ballots/[Adopt…]": Expect(
        prepare=lambda c: c.dialogs.texts.append("census-edition"),
        check=lambda c, _b: ok(c.window.current_workspace().id == "editions"
                               and c.window.controller.edition_id == "census-edition")),
    # -- last: Quit ------------------------------------------------------------------------------------
    "menu/File/Quit": Expect(prepare=_quit_prepare,
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


def _set_a_fact(c):
    c.window.show_workspace("rulings")
    rulings = c.ws("rulings").rulings
    incident = rulings.incident
    fact = incident.facts[0]
    field = c.ws("rulings").facts_form.fields[fact.id]
    if hasattr(field, "setValue"):
        field.setValue(3)
    else:
        field.setCurrentIndex(1)
    ok(any(v is not None for v in rulings.facts.values()), "no fact was answered")


def _choose_case(c):
    c.window.show_workspace("rulings")
    ws = c.ws("rulings")
    ws.tabs.setCurrentIndex(ws.TAB_CASES)
    ws.cases.list.setCurrentRow(ws.cases.list.count() - 1)
    case = ws.cases.list.currentItem().data(Qt.ItemDataRole.UserRole + 1)
    ws.rulings.select_incident(next(i.id for i in ws.rulings.incidents()
                                    if i.id != case.incident))
    return case


def _dynamic(window) -> dict:
    compare = window.workspaces["compare"]
    return {window.recent_menu: "(a recent folder)",
            compare.columns_menu: lambda a: "(a column)" if a.text().startswith(" ")
            else "(a group)"}


def _run(c: Census, window, table: dict[str, Expect], dynamic) -> list[str]:
    """Trigger every control of ``window`` in table order; the failures."""
    found = controls(window, dynamic)
    keys = {ctl.key for ctl in found}
    failures = [f"{k}: a control with no entry in the census table" for k in sorted(keys - set(table))]
    failures += [f"{k}: in the table, but no such control" for k in table if k not in keys]
    qtbot = c.qtbot
    for key, expect in table.items():
        if key not in keys:
            continue
        c.dialogs.reset()
        logged: list = []
        before = None
        with qtbot.captureExceptions() as exceptions:
            try:
                before = expect.prepare(c) if expect.prepare else None
            except Exception as exc:  # noqa: BLE001 - reported below
                failures.append(f"{key}: its state could not be prepared: {exc!r}")
                continue
            control = next((x for x in controls(window, dynamic) if x.key == key), None)
            if control is None:
                failures.append(f"{key}: gone after its preparation")
                continue
            obj = control.obj
            if isinstance(obj, QAbstractButton):
                reveal(obj, window)
                if not (obj.isVisible() and obj.isEnabled()):
                    failures.append(f"{key}: not visible and enabled in its state")
                    continue
                # a check box takes the click on its box and text, not anywhere in its row
                pos = QPoint(8, obj.height() // 2) if isinstance(obj, QCheckBox) else \
                    obj.rect().center()
                qtbot.mouseClick(obj, Qt.MouseButton.LeftButton, pos=pos)
            else:
                if not obj.isEnabled():
                    failures.append(f"{key}: disabled in its state")
                    continue
                obj.trigger()
            QApplication.processEvents()
            try:
                expect.check(c, before)
            except AssertionError as exc:
                failures.append(f"{key}: no visible effect: {exc}")
            except Exception as exc:  # noqa: BLE001
                failures.append(f"{key}: the check raised {exc!r}")
        for exc_type, exc, _tb in exceptions:
            failures.append(f"{key}: raised {exc_type.__name__}: {exc}")
        failures += [f"{key}: {p}" for p in c.dialogs.problems + c.dialogs.leftovers() + logged]
    return failures


@pytest.fixture
def census(qtbot, tmp_path, monkeypatch, settings, corpus_dir):
    from ui import errors
    from ui.controller import AppController
    from ui.mainwindow import MainWindow

    dialogs = Dialogs()
    dialogs.install(monkeypatch)
    logged = []
    monkeypatch.setattr(errors, "log_exception", lambda *a: logged.append(a) or None)
    data = copy_data(tmp_path / "data")
    controller = AppController()
    assert controller.load(data).ok
    window = MainWindow(controller, settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    c = Census(window, dialogs, qtbot, data, tmp_path, corpus_dir / GAME)
    watchdog = Watchdog(dialogs)
    c.watchdog = watchdog
    c.record()
    c.ballot()
    c.case_file()
    window.workspaces["rulings"].rulings.load_case(
        window.workspaces["rulings"].rulings.cases()[0])
    yield c, logged
    watchdog.timer.stop()
    window.workspaces["board"].board_controller.shutdown()


def test_every_control_does_what_it_says(census):
    c, logged = census
    failures = _run(c, c.window, EXPECT, _dynamic(c.window))
    failures += [f"a traceback was logged: {a[1]!r}" for a in logged]
    assert not failures, "\n".join(failures)


def test_every_button_of_the_problems_dialog(census, tmp_path):
    c, logged = census
    broken = copy_data(tmp_path / "broken")
    book = broken / "apca" / "rulebook.yaml"
    text = book.read_text(encoding="utf-8")
    book.write_text(re.sub(r"member: A\b", "member: Z", text, count=1), encoding="utf-8")
    c.dialogs.files.append(broken)
    c.window.open_action.trigger()
    dialog = c.window.problems_dialog
    c.watchdog.allowed.add(dialog)  # the dialog under test stays open
    assert dialog.isVisible()
    failures = _run(c, dialog, PROBLEMS, {})
    failures += [f"a traceback was logged: {a[1]!r}" for a in logged]
    assert not failures, "\n".join(failures)
    shutil.rmtree(broken)


def test_connections_never_pass_a_signals_bool_by_accident():
    """``clicked`` and ``triggered`` go to a lambda that says what it takes: a bound
    method with an optional first parameter would get the signal's bool (the Board's
    New once read False as a variant)."""
    import ast

    root = Path(__file__).resolve().parents[2] / "ui"
    bad = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "connect"
                    and isinstance(node.func.value, ast.Attribute)
                    and node.func.value.attr in ("clicked", "triggered")):
                continue
            slot = node.args[0] if node.args else None
            if not isinstance(slot, ast.Lambda):
                bad.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert not bad, "signal bool may reach a slot: " + ", ".join(bad)
