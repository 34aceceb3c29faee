"""The app's proposal editor, driven through its widgets: Add Member…, New Proposal…
on rule 28 with the live redline, an addition, autosave and recovery after a crash,
edit and withdraw from the proposal's page, each one commit; keyboard and 1024×700."""
from __future__ import annotations

import json

import pytest
import yaml
from dulwich.repo import Repo
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QInputDialog

from rulesbook.rulesfolder.trailer import split_trailer
from tests.ui.conftest import copy_data

# rule 28's first and last sentences with "fifteen" for "thirteen" (see
# tests/cli/test_proposal_cmds.py): the redline must mark that word
NEW_28 = ("The lone King must be caught before the player with the lone King counts "
          "fifteen, or the game is declared a draw. This rule is used only when there are "
          "four pieces on the board, and all pieces are Kings.")


@pytest.fixture
def club(tmp_path, capsys):
    from rulesbook.cli import main

    folder = tmp_path / "club"
    assert main(["init", str(folder), "--from", str(copy_data(tmp_path / "seed"))]) == 0
    capsys.readouterr()
    return folder


def open_app(qtbot, settings, folder):
    from ui.controller import AppController
    from ui.mainwindow import MainWindow

    controller = AppController()
    assert controller.load(folder).ok
    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    win.resize(1024, 700)
    win.show()
    qtbot.waitExposed(win)
    return win, win.workspaces["rules"]


def commits(folder) -> list[str]:
    with Repo(str(folder)) as repo:
        # the messages without the trailer naming the program (issue 32)
        return [split_trailer(w.commit.message.decode())[0] for w in repo.get_walker()]


def answer_input(monkeypatch, *texts):
    """The next input dialogs get ``texts`` typed and OK pressed (None: Cancel)."""
    queue = list(texts)

    def run(dialog):
        text = queue.pop(0)
        if text is None:
            return QDialog.DialogCode.Rejected
        dialog.setTextValue(text)
        return QDialog.DialogCode.Accepted
    monkeypatch.setattr(QInputDialog, "exec", run)
    return queue


def test_member_proposal_redline_save_edit_withdraw(qtbot, settings, club, monkeypatch,
                                                    tmp_path):
    win, rules = open_app(qtbot, settings, club)
    actions = rules.proposal_actions
    answer_input(monkeypatch, "Frank")
    actions.member_action.trigger()
    qtbot.waitUntil(lambda: not actions.proposals.busy)  # written on a worker thread
    assert commits(club)[0] == "Member F: Frank joins the committee"
    assert {"id": "F", "name": "Frank", "aliases": []} in \
        yaml.safe_load((club / "members.yaml").read_text())["members"]

    # a proposal is signed with the key signed in: F signs in (a new key; no chair yet,
    # so it counts at once)
    keys = win.workspaces["ballots"].ballots.keys
    keys.create("F")
    assert keys.signer is not None and keys.signer.member == "F"

    # New Proposal… on rule 28: the text in force beside the draft, the redline live
    win.controller.open_ref("28")
    actions.new_action.trigger()
    editor = actions.editor
    assert editor.isVisible() and not editor.isModal()
    assert "COUNTS THIRTEEN" in editor.in_force.toPlainText()
    editor.member.setCurrentIndex(editor.member.findData("F"))
    assert editor.kind.currentData() == "replacement"
    qtbot.keyClicks(editor.draft, NEW_28)
    qtbot.waitUntil(lambda: "fifteen" in editor.redline_view.toPlainText())
    html = editor.redline_view.toHtml()
    assert "fifteen" in html and "THIRTEEN" in html  # both marked: inserted and deleted
    draft_file = editor.slot.path
    qtbot.waitUntil(lambda: draft_file.exists()
                    and json.loads(draft_file.read_text())["text"] == NEW_28)
    qtbot.mouseClick(editor.suggest_button, Qt.MouseButton.LeftButton)
    assert editor.chosen_topics()  # suggested from the text
    qtbot.keyClick(editor.draft, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not editor.isVisible())
    assert not draft_file.exists()  # saved: the autosave goes
    assert commits(club)[0].startswith("Proposal 28F by member F: replacement for 28")
    assert rules.current == "apca:28F"
    assert "Against the text in force" in rules.page.toPlainText()
    # everywhere a proposal is: search (the index rebuilt with the library) and compare
    assert "apca:28F" in [h.ref for h in win.controller.search("fifteen")]
    win.controller.compare("apca:28")
    compare = win.workspaces["compare"]
    assert "apca:28F" in [v.ref for v in compare.comparison.variants]
    win.controller.open_ref("apca:28F")

    # Edit from the proposal's page: only the text changes
    rules.proposal_actions.edit_action.trigger()
    editor = actions.editor
    assert editor.draft.toPlainText() == NEW_28 and not editor.kind.isEnabled()
    editor.draft.selectAll()
    qtbot.keyClicks(editor.draft, NEW_28.replace("fifteen", "fourteen"))
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not editor.isVisible())
    assert commits(club)[0] == "Proposal apca:28F: text edited (by member F)"
    assert "fourteen" in (club / "apca" / "rulebook.yaml").read_text(encoding="utf-8")

    # Withdraw from the proposal's page: it stays, marked
    answer_input(monkeypatch, "a better one is coming")
    rules.proposal_actions.withdraw_action.trigger()
    qtbot.waitUntil(lambda: not actions.proposals.busy)
    assert commits(club)[0] == ("Proposal apca:28F: withdrawn (a better one is coming) "
                                "(by member F)")
    assert "Withdrawn on" in rules.page.toPlainText()
    assert not rules.proposal_actions.edit_action.isEnabled()


def test_a_proposal_is_never_saved_with_another_members_key(qtbot, settings, club):
    """Issue #27: the app saved "29F by member F" with the chair's key. Signed in as A,
    a proposal by F is refused before anything is written; signed in as F it is F's."""
    from rulesbook.errors import RulesbookError
    from rulesbook.proposing import add_member

    add_member(club, "Frank")  # F joined before the app opened the folder
    win, rules = open_app(qtbot, settings, club)
    actions = rules.proposal_actions
    keys = win.workspaces["ballots"].ballots.keys
    keys.create("A")  # the chair's key signed in
    before = (club / "apca" / "rulebook.yaml").read_bytes()
    log = commits(club)
    with pytest.raises(RulesbookError, match="only F .or the secretary acting for F. may "
                                             "write it, not member A"):
        actions.proposals.propose(member="F", rule="apca:29", kind="replacement",
                                  text=NEW_28, topics=["crowning"])
    assert (club / "apca" / "rulebook.yaml").read_bytes() == before and commits(club) == log


def key_panel_click(win, member: str, button: str) -> None:
    """On the Ballots workspace's "Your key" row: choose ``member``, press ``button``
    (``use_button`` or ``create_button``); the member's key is then signed in."""
    panel = win.workspaces["ballots"].key_panel
    panel.member_combo.setCurrentIndex(panel.member_combo.findData(member))
    getattr(panel, button).click()
    signer = win.workspaces["ballots"].ballots.keys.signer
    assert signer is not None and signer.member == member, panel.status.text()


def test_an_addition_is_recovered_after_a_crash(qtbot, settings, club, monkeypatch):
    shown: list[str] = []  # the warnings (a modal box would wait offscreen)
    monkeypatch.setattr("ui.proposals.editor.warn", lambda _p, title, text: shown.append(text))
    win, rules = open_app(qtbot, settings, club)
    answer_input(monkeypatch, "Frank")
    rules.proposal_actions.member_action.trigger()
    qtbot.waitUntil(lambda: not rules.proposal_actions.proposals.busy)
    key_panel_click(win, "F", "create_button")  # F makes his key (#27: he signs his proposals)
    rules.show_topic("purpose")
    rules.proposal_actions.new_action.trigger()
    editor = rules.proposal_actions.editor
    assert editor.rule is None and editor.kind.currentData() == "addition"
    editor.member.setCurrentIndex(editor.member.findData("F"))
    qtbot.keyClicks(editor.title_edit, "Time in match play")
    qtbot.keyClicks(editor.draft, "In Match Play each player shall have five minutes.")
    path = editor.slot.path
    qtbot.waitUntil(lambda: path.exists() and "five minutes" in path.read_text())
    # the crash: the window goes without the editor ever being closed
    editor.hide()
    win.hide()
    win2, rules2 = open_app(qtbot, settings, club)
    editor2 = rules2.proposal_actions.editor
    assert editor2 is not None and editor2.isVisible()
    assert editor2.draft.toPlainText() == "In Match Play each player shall have five minutes."
    assert editor2.title_edit.text() == "Time in match play"
    assert "Recovered the unsaved draft" in editor2.notice.text()
    editor2.set_topics(["time-limits", "match-play"])
    # a new session: nobody signed in yet, so the save is refused and the draft kept
    log = commits(club)
    qtbot.mouseClick(editor2.save_button, Qt.MouseButton.LeftButton)
    assert shown and "signed by its author: sign in with your key" in shown[-1]
    assert editor2.isVisible() and path.exists() and commits(club) == log
    key_panel_click(win2, "F", "use_button")
    qtbot.mouseClick(editor2.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not editor2.isVisible())
    assert commits(club)[0] == "Proposal F1 by member F: addition Time in match play"
    assert rules2.current == "apca:F1"
    from rulesbook.cli import main

    assert main(["validate", str(club)]) == 0  # signed by F, his key registered


def test_a_bad_draft_is_refused_and_nothing_written(qtbot, settings, club, monkeypatch):
    win, rules = open_app(qtbot, settings, club)
    shown = []
    monkeypatch.setattr("ui.proposals.editor.warn", lambda _p, title, text: shown.append(text))
    rules.show_topic("purpose")
    rules.proposal_actions.new_action.trigger()
    editor = rules.proposal_actions.editor
    qtbot.keyClicks(editor.draft, "No title given.")
    before = commits(club)
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    assert shown and "needs a title" in shown[0]
    assert editor.isVisible() and commits(club) == before


def test_the_editor_works_from_the_keyboard_at_1024x700(qtbot, settings, club, tmp_path):
    win, rules = open_app(qtbot, settings, club)
    win.controller.open_ref("28")
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    rules.tree.setFocus()
    qtbot.keyClick(rules.tree, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    editor = rules.proposal_actions.editor
    assert editor is not None and editor.isVisible()
    editor.resize(1024, 700)
    qtbot.waitExposed(editor)
    editor.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is editor)
    # every field reachable by Tab from the draft, and back round to it
    editor.draft.setFocus()
    seen = set()
    for _ in range(40):
        qtbot.keyClick(QApplication.focusWidget() or editor, Qt.Key.Key_Tab)
        seen.add(QApplication.focusWidget())
    for widget in (editor.member, editor.kind, editor.topics, editor.draft,
                   editor.save_button):
        assert widget in seen, widget
    # nothing cut off: every control inside the window at 1024×700
    for widget in (editor.save_button, editor.cancel_button, editor.redline_view,
                   editor.topics, editor.suggest_button):
        top_left = widget.mapTo(editor, widget.rect().topLeft())
        bottom_right = widget.mapTo(editor, widget.rect().bottomRight())
        assert editor.rect().contains(top_left) and editor.rect().contains(bottom_right)
        assert widget.width() > 20 and widget.height() > 10
    editor.grab().save(str(tmp_path / "proposal-editor.png"))  # looked at by hand
    editor.saved = True
    editor.close()


def test_screenshot_at_1024x700(qtbot, settings, club, tmp_path):
    """Look at it: docs/screenshots/proposal-editor.png is made the same way."""
    win, rules = open_app(qtbot, settings, club)
    win.controller.open_ref("28")
    rules.proposal_actions.new_action.trigger()
    editor = rules.proposal_actions.editor
    editor.resize(1024, 700)
    qtbot.keyClicks(editor.draft, NEW_28)
    editor.refresh()
    path = tmp_path / "editor.png"
    assert editor.grab().save(str(path))
    assert path.stat().st_size > 0
    editor.saved = True
    editor.close()


def test_the_write_runs_off_the_gui_thread(qtbot, settings, club, monkeypatch):
    import threading

    import ui.proposals.controller as controller_module

    win, rules = open_app(qtbot, settings, club)
    threads = []
    real = controller_module.add_member

    def spy(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)
    monkeypatch.setattr(controller_module, "add_member", spy)
    answer_input(monkeypatch, "Frank")
    rules.proposal_actions.member_action.trigger()
    qtbot.waitUntil(lambda: not rules.proposal_actions.proposals.busy)
    assert threads and threads[0] is not threading.main_thread()
    assert "Frank" in [m.name for m in win.controller.library.members]


def test_a_recovered_draft_naming_a_rule_as_edited_reopens_as_a_new_proposal(
        qtbot, settings, club, monkeypatch):
    """An autosave file is the user's (damaged by the crash, or edited): one whose
    ``editing`` names a rule, not a proposal, opened the editor on the rule's entry
    and stopped the window before the entry was checked (issue #20, found by mypy)."""
    win, rules = open_app(qtbot, settings, club)
    rules.show_topic("purpose")
    rules.proposal_actions.new_action.trigger()
    editor = rules.proposal_actions.editor
    qtbot.keyClicks(editor.draft, "In Match Play each player shall have five minutes.")
    path = editor.slot.path
    qtbot.waitUntil(lambda: path.exists() and "five minutes" in path.read_text())
    editor.hide()
    win.hide()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["editing"] = "apca:28"  # a rule of the library
    path.write_text(json.dumps(data), encoding="utf-8")
    win2, rules2 = open_app(qtbot, settings, club)
    editor2 = rules2.proposal_actions.editor
    assert editor2 is not None and editor2.isVisible() and editor2.editing is None
    assert editor2.draft.toPlainText() == "In Match Play each player shall have five minutes."
    assert "Recovered the unsaved draft" in editor2.notice.text()
    editor2.saved = True  # nothing to ask at teardown
    editor2.close()
