"""The steps of the census table (tests/ui/census_table.py): what puts the app in
the state a control needs (``prepare``) and what checks its visible effect
(``check``)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication


def ok(condition, message: str = "") -> None:
    if not condition:
        raise AssertionError(message)


@dataclass(frozen=True)
class Expect:
    """``prepare`` puts the app in the state the control needs (and returns what the
    check compares against); ``check(census, before)`` asserts the visible effect."""

    check: Callable
    prepare: Callable | None = None


def toggled(get):
    return Expect(prepare=lambda c: get(c), check=lambda c, before: ok(get(c) != before))


def file(path_of, *, starts: bytes = b"", contains: str = ""):
    def prepare(c):
        c.dialogs.files.append(path_of(c))

    def check(c, _before):
        path = path_of(c)
        ok(path.exists(), f"{path} was not written")
        ok(path.read_bytes().startswith(starts), f"{path} does not start with {starts!r}")
        ok(contains in path.read_text(encoding="utf-8", errors="replace"),
           f"{contains!r} not in {path}")
    return prepare, check


def shown(c, kind: str, title: str) -> bool:
    return any(s.kind == kind and title in s.title for s in c.dialogs.shown)


def then(*steps):
    def run(c):
        out = None
        for step in steps:
            out = step(c)
        return out
    return run


def written(c, landed) -> None:
    """A proposal write runs on a worker thread: wait for it, then check ``landed``."""
    c.qtbot.waitUntil(lambda: not c.ws("rules").proposal_actions.proposals.busy)
    ok(landed(), "the change did not land")


def editor_shown(c, editing, rule) -> None:
    """The proposal editor is open on ``rule`` (editing ``editing``); closed again."""
    editor = c.ws("rules").proposal_actions.editor
    ok(editor is not None and editor.isVisible(), "the proposal editor is not shown")
    ok(editor.editing == editing and editor.rule == rule,
       f"the editor is on {editor.rule} editing {editor.editing}")
    editor.saved = True
    editor.close()


def export(name: str, workspace: str, starts: bytes = b"", contains: str = ""):
    prepare, check = file(lambda c: c.tmp / name, starts=starts, contains=contains)
    return Expect(prepare=then(lambda c: c.window.show_workspace(workspace), prepare),
                  check=check)


def nav(to: int | Callable):
    def prepare(c):
        c.record()
        c.bc.go(3)

    def check(c, _before):
        want = to(c) if callable(to) else to
        ok(c.bc.ply == want, f"ply {c.bc.ply}, expected {want}")
    return Expect(prepare=prepare, check=check)


def mode(mode: str):
    return Expect(prepare=lambda c: c.record() or c.bc.set_mode("play" if mode != "play"
                                                                 else "check"),
                  check=lambda c, _b: ok(c.bc.mode == mode and
                                         c.ws("board").mode_actions[mode].isChecked()))


def tool(tool: str):
    return Expect(prepare=lambda c: c.record() or c.bc.set_mode("setup"),
                  check=lambda c, _b: ok(c.bc.setup.tool == tool and
                                         c.ws("board").tool_buttons[tool].isChecked()))


def workspace(name: str):
    return Expect(check=lambda c, _b: ok(c.window.current_workspace().id == name))


def setup(c):
    c.record()
    c.bc.set_mode("setup")


def copy_prepare(c):
    c.window.show_workspace("rules")
    page = c.ws("rules").page
    page.setFocus()
    page.selectAll()
    QGuiApplication.clipboard().clear()
    return page.textCursor().selectedText().replace("\u2029", "\n")


def select_all_prepare(c):
    c.window.show_workspace("rules")
    page = c.ws("rules").page
    page.setFocus()
    cursor = page.textCursor()
    cursor.clearSelection()
    page.setTextCursor(cursor)


def case_open_prepare(c):
    path = c.case_file()
    c.bc.editing.new_game()
    c.bc.mark_saved()
    c.dialogs.files.append(path)
    return path


def save_case_prepare(c):
    c.record()
    c.bc.go(5)
    if c.bc.case_path is None:
        c.dialogs.files.append(c.tmp / "case.yaml")


def import_prepare(c):
    c.dialogs.files.append(c.member_file("A", "12", "12A"))


def seal_prepare(c):
    """A's signed ballot imported and saved (so A's receipt is in the sealed file), then
    the secretary's key seals it."""
    c.ballot()
    ws = c.ws("ballots")
    assert ws.import_member(str(c.member_file("A", "12", "12A")))
    assert ws.save() is not None
    c.dialogs.buttons.append("&Yes")


def draft_prepare(c) -> None:
    """The ballot as an unsigned draft with no vote (its settings not signed yet)."""
    import dataclasses

    c.ballot()
    c.ballots._set(dataclasses.replace(c.ballots.ballot, opened=None, votes=(), history=()))


def sign_prepare(c) -> None:
    """An unsigned draft, and the chair's key in use."""
    draft_prepare(c)
    _choose_key(c, "A")  # not choose_member: its c.ballot() would reopen the signed file
    c.ws("ballots").key_panel.use_button.click()


def choose_member(c, member: str) -> None:
    c.ballot()
    _choose_key(c, member)


def _choose_key(c, member: str) -> None:
    """No key in use, ``member`` chosen in the key panel (its passphrase empty)."""
    c.ballots.keys.forget()
    panel = c.ws("ballots").key_panel
    panel.member_combo.setCurrentIndex(panel.member_combo.findData(member))
    panel.passphrase_edit.clear()


def use_key_check(c, _before):
    signer = c.ballots.keys.signer
    ok(signer is not None and signer.member == "C" and signer.public == c.keys["C"].public,
       f"signing as {signer}")
    ok(c.ws("ballots").key_panel.status.text().startswith("Signing as C"))


def create_key_check(c, _before):
    from rulesbook.ballots import load_registry

    signer = c.ballots.keys.signer
    ok(signer is not None and signer.member == "E" and signer.public != c.keys["E"].public,
       f"signing as {signer}")
    ok(any(r.member == "E" and r.key == signer.public for r in load_registry(c.data).keys),
       "the new key is not registered in members.yaml")
    ok("created and registered" in c.ws("ballots").key_panel.status.text())


def import_key_prepare(c):
    """D brings a key made on another computer (a PEM file, no passphrase); the public
    key it must register is written as members.yaml keeps it: ed25519:<base64 raw>."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    choose_member(c, "D")
    key = Ed25519PrivateKey.generate()
    path = c.tmp / "d-key.pem"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    c.dialogs.files.append(path)
    raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)
    return "ed25519:" + base64.b64encode(raw).decode("ascii")


def import_key_check(c, public):
    from rulesbook.ballots import load_registry

    signer = c.ballots.keys.signer
    ok(signer is not None and signer.member == "D" and signer.public == public,
       f"signing as {signer}")
    ok(any(r.member == "D" and r.key == public for r in load_registry(c.data).keys),
       "the imported key is not registered in members.yaml")


def export_votes_prepare(c):
    c.ballot(votes=True)
    c.dialogs.files.append(c.tmp / "my-votes.yaml")


def export_votes_check(c, _before):
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


def adopt_prepare(c):
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


def receipt_prepare(c):
    c.ballot()
    ok(c.ballots.ballot.seal is not None, "the ballot is not sealed")
    c.ws("ballots").receipt_edit.setText(c.receipts["A"].lower())  # as a member might type it


def receipt_check(c, _before):
    banner = c.ws("ballots").banner
    ok(banner.isVisible() and banner.text().startswith("✔")
       and "not sealed" not in banner.text(), banner.text())


SYNC_REMOTE = "shared.git"
# the association's annotation of rule 28, edited by hand: a topic added. (Not its text:
# since #27 a text that differs from the one its edition adopted, or its open ballot
# bound, is refused by validate and sync, naming the edition.)
OLD_TOPICS = '"28"\n    number: 28\n    title: "The 13-count"\n'
TOPICS_LINE = "    topics: [thirteen-count]\n"
NEW_TOPICS = "    topics: [thirteen-count, draw]\n"


def sync_prepare(c):
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
    text = book.read_text(encoding="utf-8")
    start = text.index(OLD_TOPICS)
    at = text.index(TOPICS_LINE, start)
    assert text.count("\n", start, at) == 4  # rule 28's own topics (after id, number, title, text)
    book.write_text(text[:at] + NEW_TOPICS + text[at + len(TOPICS_LINE):], encoding="utf-8")
    with Repo(str(bare)) as remote:
        return remote.refs[b"refs/heads/main"]


def sync_check(c, before):
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
    ok("Edit by hand: apca/rulebook.yaml" in panel.view.toPlainText(),
       "the edit that was sent is not shown")
    topics = win.controller.library.resolve("apca:28").topics
    ok("draw" in topics, f"rule 28's topics after the sync: {topics}")


def quit_prepare(c):
    if c.bc.dirty:
        c.dialogs.buttons.append("&Discard")
    if c.ballots.dirty:
        c.dialogs.buttons.append("&Discard")


def columns_prepare(c):
    c.window.show_workspace("compare")
    return len(c.ws("compare").columns)


def columns_check(c, before):
    ws = c.ws("compare")
    ok(len(ws.columns) < before, f"{len(ws.columns)} columns shown, {before} before")
    ws.hidden.clear()  # every column back for the next control
    ws._rebuild_menu()
    ws._rebuild_columns()


def set_a_fact(c):
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


def choose_case(c):
    c.window.show_workspace("rulings")
    ws = c.ws("rulings")
    ws.tabs.setCurrentIndex(ws.TAB_CASES)
    ws.cases.list.setCurrentRow(ws.cases.list.count() - 1)
    case = ws.cases.list.currentItem().data(Qt.ItemDataRole.UserRole + 1)
    ws.rulings.select_incident(next(i.id for i in ws.rulings.incidents()
                                    if i.id != case.incident))
    return case
