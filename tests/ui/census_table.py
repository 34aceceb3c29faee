"""The census table: for every control (by ``scope/Text`` of an action or
``scope/[Text]`` of a button) the state it is triggered in and the visible effect
it must have (tests/ui/test_census.py runs it)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from rulesbook.ballots import load_ballot
from rulesbook.draughts import Color, Piece, Position
from tests.ui.census import pdn_moves
from tests.ui.census_state import BALLOT, PLANTED


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


def _written(c, landed) -> None:
    """A proposal write runs on a worker thread: wait for it, then check ``landed``."""
    c.qtbot.waitUntil(lambda: not c.ws("rules").proposal_actions.proposals.busy)
    ok(landed(), "the change did not land")


def _editor_shown(c, editing, rule) -> None:
    """The proposal editor is open on ``rule`` (editing ``editing``); closed again."""
    editor = c.ws("rules").proposal_actions.editor
    ok(editor is not None and editor.isVisible(), "the proposal editor is not shown")
    ok(editor.editing == editing and editor.rule == rule,
       f"the editor is on {editor.rule} editing {editor.editing}")
    editor.saved = True
    editor.close()


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
                  check=lambda c, _b: ok(c.bc.setup.tool == tool and
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
    c.dialogs.files.append(c.member_file("A", "12", "12A"))


def _seal_prepare(c):
    """A's signed ballot imported and saved (so A's receipt is in the sealed file), then
    the secretary's key seals it."""
    c.ballot()
    ws = c.ws("ballots")
    assert ws.import_member(str(c.member_file("A", "12", "12A")))
    assert ws.save() is not None
    c.dialogs.buttons.append("&Yes")


def _choose_member(c, member: str) -> None:
    c.ballot()
    c.ballots.keys.forget()
    panel = c.ws("ballots").key_panel
    panel.member_combo.setCurrentIndex(panel.member_combo.findData(member))
    panel.passphrase_edit.clear()


def _use_key_check(c, _before):
    signer = c.ballots.keys.signer
    ok(signer is not None and signer.member == "C" and signer.public == c.keys["C"].public,
       f"signing as {signer}")
    ok(c.ws("ballots").key_panel.status.text().startswith("Signing as C"))


def _create_key_check(c, _before):
    from rulesbook.ballots import load_registry

    signer = c.ballots.keys.signer
    ok(signer is not None and signer.member == "E" and signer.public != c.keys["E"].public,
       f"signing as {signer}")
    ok(any(r.member == "E" and r.key == signer.public for r in load_registry(c.data).keys),
       "the new key is not registered in members.yaml")
    ok("created and registered" in c.ws("ballots").key_panel.status.text())


def _import_key_prepare(c):
    """D brings a key made on another computer (a PEM file, no passphrase); the public
    key it must register is written as members.yaml keeps it: ed25519:<base64 raw>."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    _choose_member(c, "D")
    key = Ed25519PrivateKey.generate()
    path = c.tmp / "d-key.pem"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    c.dialogs.files.append(path)
    raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)
    return "ed25519:" + base64.b64encode(raw).decode("ascii")


def _import_key_check(c, public):
    from rulesbook.ballots import load_registry

    signer = c.ballots.keys.signer
    ok(signer is not None and signer.member == "D" and signer.public == public,
       f"signing as {signer}")
    ok(any(r.member == "D" and r.key == public for r in load_registry(c.data).keys),
       "the imported key is not registered in members.yaml")


def _export_votes_prepare(c):
    c.ballot(votes=True)
    c.dialogs.files.append(c.tmp / "my-votes.yaml")


def _export_votes_check(c, _before):
    from rulesbook.ballots import load_member_ballot

    path = c.tmp / "my-votes.yaml"
    ok(path.exists(), f"{path} was not written")
    doc = load_member_ballot(path).data
    ok(doc["member"] == "B" and [v["question"] for v in doc["votes"]] == ["10"],
       f"exported {doc['member']}: {doc['votes']}")
    ok(doc.get("signature") and doc.get("key") == c.keys["B"].public,
       "the export is not signed with B's key")
    receipt = c.ballots.last_receipt
    banner = c.ws("ballots").banner
    ok(receipt and banner.isVisible() and receipt in banner.text(),
       f"receipt {receipt!r} not shown: {banner.text()!r}")


def _adopt_prepare(c):
    """The Adopt dialog asks for the edition's id, title and date (with its redline):
    fill it in as the chair would and press its Adopt button."""
    def answer():
        dialog = c.ws("ballots").adopt_dialog
        if dialog is not None:
            dialog.id_edit.setText("census-edition")
            dialog.title_edit.setText("Census edition")
            assert dialog.adopt_button.isEnabled(), dialog.preview.page_html()
            dialog.adopt_button.click()
    QTimer.singleShot(0, answer)


def _receipt_prepare(c):
    c.ballot()
    ok(c.ballots.ballot.seal is not None, "the ballot is not sealed")
    c.ws("ballots").receipt_edit.setText(c.receipts["A"].lower())  # as a member might type it


def _receipt_check(c, _before):
    banner = c.ws("ballots").banner
    ok(banner.isVisible() and banner.text().startswith("✔")
       and "not sealed" not in banner.text(), banner.text())


SYNC_REMOTE = "shared.git"
# a sentence of rule 28 that no ruling quotes (a quote must stay in the rule's text)
OLD_WORDS, NEW_WORDS = "THE FIRST COUNT STARTS", "THE FIRST COUNT BEGINS"


def _sync_prepare(c):
    """A rules folder (made from the census's data folder) that shares a local bare
    remote, open in the app, with an edit by hand of rule 28 to send."""
    from dulwich.repo import Repo

    from rulesbook.rulesfolder import init_folder
    from rulesbook.rulesfolder.sync import sync

    folder, bare = c.tmp / "rules-folder", c.tmp / SYNC_REMOTE
    Repo.init_bare(str(bare), mkdir=True, default_branch=b"main").close()
    init_folder(folder, source=c.data)
    sync(folder, remote=str(bare))
    assert c.window.controller.load(folder).ok
    c.window.folder.wait()
    book = folder / "apca" / "rulebook.yaml"
    book.write_text(book.read_text(encoding="utf-8").replace(OLD_WORDS, NEW_WORDS, 1),
                    encoding="utf-8")
    with Repo(str(bare)) as remote:
        return remote.refs[b"refs/heads/main"]


def _sync_check(c, before):
    from dulwich.repo import Repo

    win = c.window
    c.qtbot.waitUntil(lambda: not win.folder.running and (win.folder.last_result is not None
                                                          or win.folder.last_error is not None),
                      timeout=30000)
    win.folder.wait()
    ok(win.folder.last_error is None, f"sync failed: {win.folder.last_error}")
    result = win.folder.last_result
    with Repo(str(c.tmp / SYNC_REMOTE)) as remote:
        after = remote.refs[b"refs/heads/main"]
    ok(result.pushed >= 1 and after != before, f"nothing sent: {result}")
    ok(win.folder_status.text() == "In step with the remote", win.folder_status.text())
    ok(win.sync_action.isEnabled() and win.sync_progress is None)
    # the Rules workspace's History tab shows the edit that was sent
    win.show_workspace("rules")
    rules = win.workspaces["rules"]
    win.controller.open_ref("28")
    rules.views.setCurrentWidget(rules.history_panel)
    panel = rules.history_panel
    c.qtbot.waitUntil(lambda: panel.table.rowCount() == 2, timeout=10000)
    panel.history.wait()
    ok([panel.table.item(r, 2).text() for r in range(2)] == ["changed", "added"])
    panel.table.selectRow(0)
    ok(NEW_WORDS in panel.view.toPlainText(), "the text after the edit is not shown")


def _quit_prepare(c):
    if c.bc.dirty:
        c.dialogs.buttons.append("&Discard")
    if c.ballots.dirty:
        c.dialogs.buttons.append("&Discard")


def _columns_prepare(c):
    c.window.show_workspace("compare")
    return len(c.ws("compare").columns)


def _columns_check(c, before):
    ws = c.ws("compare")
    ok(len(ws.columns) < before, f"{len(ws.columns)} columns shown, {before} before")
    ws.hidden.clear()  # every column back for the next control
    ws._rebuild_menu()
    ws._rebuild_columns()


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
    "rules/New Proposal…": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.ws("rules").show_ref("apca:28")),
        check=lambda c, _b: _editor_shown(c, None, "apca:28")),
    "rules/Edit Proposal…": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.ws("rules").show_ref("apca:28A")),
        check=lambda c, _b: _editor_shown(c, "apca:28A", "apca:28")),
    "rules/Withdraw Proposal…": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.ws("rules").show_ref("apca:28B"),
                           c.dialogs.texts.append("census")),
        check=lambda c, _b: _written(c, lambda: "Withdrawn on" in c.ws("rules").page.toPlainText())),
    "rules/Add Member…": Expect(
        prepare=lambda c: (c.window.show_workspace("rules"), c.dialogs.texts.append("Census")),
        check=lambda c, _b: _written(c, lambda: "Census" in [
            m.name for m in c.window.controller.library.members])),
    "compare/[Next ▶]": Expect(prepare=_paging_prepare, check=_paging_check),
    "compare/[◀ Previous]": Expect(prepare=lambda c: _paging_prepare(c, 1),
                                   check=_paging_check),
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
                                  check=lambda c, _b: ok(not c.bc.setup.position().pieces())),
    "board/[Start Position]": Expect(
        prepare=lambda c: (_setup(c), c.bc.setup.clear()),
        check=lambda c, _b: ok(c.bc.setup.position().fen()
                               == Position.start(c.bc.variant).fen())),
    "board/[Paste FEN]": Expect(
        prepare=lambda c: (_setup(c), QGuiApplication.clipboard().setText("W:W18,K30:B14")),
        check=lambda c, _b: ok(c.bc.setup.position().fen()
                               == Position.from_fen("W:W18,K30:B14").fen())),
    "board/[Copy FEN]": Expect(
        prepare=_setup, check=lambda c, _b: ok(c.clipboard() == c.bc.export_fen()
                                               and c.clipboard() == c.bc.setup.position().fen())),
    "board/[Start Record from Here]": Expect(
        prepare=lambda c: (_setup(c), c.bc.setup.set_fen("W:W18,K30:B14"),
                           c.bc.setup.position().fen())[-1],
        check=lambda c, fen: ok(c.bc.mode == "play" and c.bc.start.fen() == fen
                                and not c.bc.moves)),
    "board/[This Is the Board Now]": Expect(
        prepare=_setup, check=lambda c, _b: ok(c.bc.gap_target is not None
                                               and c.ws("board").panels.currentIndex() == 2)),
    "board/[Back to Record]": Expect(prepare=_setup, check=lambda c, _b: ok(c.bc.mode == "play")),
    "board/[Black to move]": Expect(
        prepare=lambda c: (_setup(c), c.bc.setup.set_turn(Color.WHITE)),
        check=lambda c, _b: ok(c.bc.setup.turn is Color.BLACK)),
    "board/[White to move]": Expect(
        prepare=lambda c: (_setup(c), c.bc.setup.set_turn(Color.BLACK)),
        check=lambda c, _b: ok(c.bc.setup.turn is Color.WHITE)),
    "board/Paste FEN": Expect(  # Ctrl+V in set-up mode
        prepare=lambda c: (_setup(c), QGuiApplication.clipboard().setText("W:W18,K30:B14")),
        check=lambda c, _b: ok(c.bc.setup.position().fen()
                               == Position.from_fen("W:W18,K30:B14").fen())),
    "board/Man / King": Expect(  # K: the piece placed last (the mouse is not on the board)
        prepare=lambda c: (_setup(c), c.bc.setup.clear(),
                           c.bc.setup.place(18, Piece(Color.BLACK, False))),
        check=lambda c, _b: ok(c.bc.setup.position().piece_at(18) == Piece(Color.BLACK, True))),
    # -- Board: check, clocks, rulings ------------------------------------------------------------
    "board/[Check Record]": Expect(
        prepare=lambda c: (c.planted(), c.bc.set_mode("play"), c.ws("board").check_view.clear()),
        check=lambda c, _b: ok("Ply 7" in c.ws("board").check_view.toPlainText())),
    "board/[Let illegal moves stand (show all)]": _toggled(lambda c: c.bc.let_stand),
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
        prepare=lambda c: _set_a_fact(c),
        check=lambda c, _b: ok(not any(v is not None for v in c.ws("rulings").rulings.facts.values()))),
    "rulings/[Use this case]": Expect(
        prepare=lambda c: _choose_case(c),
        check=lambda c, case: ok(c.ws("rulings").rulings.incident_id == case.incident
                                 and c.ws("rulings").tabs.currentIndex() == 0)),
    "rulings/[Export as HTML…]": _export("report.html", "rulings", b"<!DOCTYPE", "Dispute"),
    "rulings/[Export as PDF…]": _export("report.pdf", "rulings", b"%PDF"),
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
    "ballots/[Use Key]": Expect(prepare=lambda c: _choose_member(c, "C"), check=_use_key_check),
    "ballots/[Create Key]": Expect(prepare=lambda c: _choose_member(c, "E"),
                                   check=_create_key_check),
    "ballots/[Import Key…]": Expect(prepare=_import_key_prepare, check=_import_key_check),
    "ballots/[Export My Votes…]": Expect(prepare=_export_votes_prepare,
                                         check=_export_votes_check),
    "ballots/[Close and Seal…]": Expect(
        prepare=_seal_prepare,
        check=lambda c, _b: ok(not c.ballots.ballot.is_open and c.ballots.ballot.seal)),
    "ballots/[Verify the Seal]": Expect(check=lambda c, _b: ok(
        "Seal verified" in c.ws("ballots").banner.text() and c.ws("ballots").banner.isVisible())),
    "ballots/[Check Receipt]": Expect(prepare=_receipt_prepare, check=_receipt_check),
    "ballots/[Adopt…]": Expect(
        prepare=_adopt_prepare,
        check=lambda c, _b: ok(c.window.current_workspace().id == "editions"
                               and c.window.controller.edition_id == "census-edition")),
    # -- a rules folder shared through a remote (it replaces the data folder) -----------------
    "menu/File/Sync Rules Folder": Expect(prepare=_sync_prepare, check=_sync_check),
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
