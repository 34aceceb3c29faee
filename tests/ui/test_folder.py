"""The rules folder in the app: a rule's history and redline in the Rules
workspace, File > Sync with progress, and the ahead/behind status."""
from __future__ import annotations

from pathlib import Path

import yaml
from dulwich.repo import Repo
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from rulesbook.cli import main
from rulesbook.rulesfolder import init_folder, open_repo
from rulesbook.rulesfolder.sync import commit_pending
from rulesbook.rulesfolder.trailer import split_trailer
from rulesbook.version import version
from tests.rulesfolder.computers import on_computer_of

BALLOT = "apca/ballots/2026-committee.yaml"


def start(qtbot, settings, folder: Path):
    from ui.controller import AppController
    from ui.mainwindow import MainWindow

    controller = AppController()
    assert controller.load(folder).ok
    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


def cli(*argv, owner: Path | None = None) -> int:
    """The command line, run on the computer of the member who works in ``owner``."""
    with on_computer_of(owner):
        return main([str(a) for a in argv])


def shared_pair(tmp_path) -> tuple[Path, Path]:
    """``mine`` (the chair A's folder), shared through a bare repository, and
    ``theirs`` (the secretary B's clone), each member with their key on their own
    computer, confirmed through sync; both in step with the remote."""
    bare = tmp_path / "shared.git"
    Repo.init_bare(str(bare), mkdir=True, default_branch=b"main").close()
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    init_folder(mine)
    assert cli("--data", mine, "member", "keygen", "--member", "A", owner=mine) == 0
    assert cli("--data", mine, "member", "role", "A", "chair", owner=mine) == 0
    # the chair opens the seed's ballot (its settings signed): it takes votes
    assert cli("--data", mine, "ballot", "sign", mine / "apca" / "ballots" / "2026-committee.yaml",
               "--as", "A", owner=mine) == 0
    assert cli("--data", mine, "sync", "--quiet", "--remote", bare) == 0
    assert cli("clone", bare, theirs, "--quiet") == 0
    assert cli("--data", theirs, "member", "keygen", "--member", "B", owner=theirs) == 0
    assert cli("--data", theirs, "sync", "--quiet") == 0
    assert cli("--data", mine, "sync", "--quiet") == 0
    assert cli("--data", mine, "member", "role", "B", "secretary", owner=mine) == 0
    assert cli("--data", mine, "sync", "--quiet") == 0
    assert cli("--data", theirs, "sync", "--quiet") == 0
    return mine, theirs


def test_the_app_and_the_command_line_share_one_folder(qapp):
    from rulesbook.datapath import user_rules_dir
    from ui.folder import app_rules_dir

    assert app_rules_dir() == user_rules_dir()


def test_rule_history_text_at_a_commit_and_redline(qtbot, settings, tmp_path):
    folder = tmp_path / "rules"
    init_folder(folder)
    book = folder / "apca" / "rulebook.yaml"
    seed_text = next(r["text"] for r in yaml.safe_load(book.read_text())["rules"]
                     if r["id"] == "28")
    # a word that no ruling quotes (an edit of quoted words would not validate)
    assert book.read_text().count("COUNT STARTS") == 1
    book.write_text(book.read_text().replace("COUNT STARTS", "COUNT BEGINS", 1))
    with open_repo(folder) as repo:
        commit_pending(repo, lambda _m: None)
    win = start(qtbot, settings, folder)
    rules = win.workspaces["rules"]
    win.controller.open_ref("28")
    tabs = rules.views
    qtbot.mouseClick(tabs.tabBar(), Qt.MouseButton.LeftButton,
                     pos=tabs.tabBar().tabRect(1).center())
    panel = rules.history_panel
    qtbot.waitUntil(lambda: panel.table.rowCount() == 2, timeout=10000)
    panel.history.wait()
    changes = [panel.table.item(r, 2).text() for r in range(2)]
    assert changes == ["changed", "added"]
    assert panel.table.item(0, 4).text() == "Edit by hand: apca/rulebook.yaml"
    panel.table.selectRow(1)  # the first version: the seed's text
    assert seed_text.split()[0] in panel.view.toPlainText()
    assert "BEGINS" not in panel.view.toPlainText()
    panel.table.selectAll()
    html = panel.view.page_html()
    assert '<del class="del">STARTS' in html and '<ins class="ins">BEGINS' in html


def test_history_of_an_unversioned_folder_says_so(qtbot, settings, tmp_path):
    from tests.ui.conftest import copy_data

    win = start(qtbot, settings, copy_data(tmp_path / "plain"))
    rules = win.workspaces["rules"]
    rules.views.setCurrentIndex(1)
    assert "not versioned" in rules.history_panel.note.text()
    assert win.folder_status.text() == "Not versioned"
    assert not win.start_sync()


def test_file_sync_receives_sends_and_shows_the_status(qtbot, settings, tmp_path):
    mine, theirs = shared_pair(tmp_path)
    assert cli("ballot", "vote", theirs / BALLOT, "--member", "B", "--question", "10",
               "--ranking", "10C", owner=theirs) == 0
    assert cli("--data", theirs, "sync", "--quiet") == 0
    win = start(qtbot, settings, mine)  # opening the folder looks at the remote
    qtbot.waitUntil(lambda: win.folder_status.text() == "Sync: 1 to receive", timeout=20000)
    win.folder.wait()
    assert cli("ballot", "vote", mine / BALLOT, "--member", "A", "--question", "10",
               "--ranking", "10A", owner=mine) == 0
    win.folder.refresh()
    assert win.folder_status.text() == "Sync: 1 to send, 1 to receive"
    steps = []
    win.folder.syncProgress.connect(steps.append)
    file_menu = win.menuBar().actions()[0].menu()
    assert win.sync_action in file_menu.actions()
    with qtbot.waitSignal(win.folder.syncFinished, timeout=20000) as finished:
        win.sync_action.trigger()
        assert not win.sync_action.isEnabled()  # one sync at a time
    result = finished.args[0]
    assert result.merged and result.pushed == 2 and result.fetched == 1
    assert any(s.startswith("Fetching") for s in steps) and "Pushing" in " ".join(steps)
    assert win.sync_action.isEnabled() and win.sync_progress is None
    assert win.folder_status.text() == "In step with the remote"
    ballots = [d for d in win.controller.library.extra["ballot"]
               if d.data["id"] == "2026-committee"]
    assert {(v["member"], v["question"]) for v in ballots[0].data["votes"]} == {
        ("A", "10"), ("B", "10")}


def test_a_sync_conflict_is_shown_with_the_records(qtbot, settings, tmp_path):
    mine, theirs = shared_pair(tmp_path)
    # D phoned the secretary B and wrote to the chair A, differently
    for folder, ranking, proxy in ((theirs, "10C", "B"), (mine, "10A", "A")):
        assert cli("ballot", "vote", folder / BALLOT, "--member", "D", "--question", "10",
                   "--ranking", ranking, "--proxy-by", proxy, owner=folder) == 0
    assert cli("--data", theirs, "sync", "--quiet") == 0
    win = start(qtbot, settings, mine)
    win.folder.wait()
    with qtbot.waitSignal(win.folder.syncFailed, timeout=20000):
        assert win.start_sync()
    box = win.findChild(QMessageBox, "SyncFailed")
    assert box is not None and box.isVisible()
    assert "member=D, question=10" in box.text() and BALLOT in box.text()
    assert win.folder_status.text() == "Sync: 1 to send, 1 to receive"
    box.close()


def test_an_unreachable_remote_is_shown_not_raised(qtbot, settings, tmp_path):
    folder = tmp_path / "mine"
    init_folder(folder)
    with Repo(str(folder)) as repo:
        config = repo.get_config()
        config.set((b"remote", b"origin"), b"url", b"http://127.0.0.1:1/nothing.git")
        config.write_to_path()
    win = start(qtbot, settings, folder)
    qtbot.waitUntil(lambda: "remote not reached" in win.folder_status.text(), timeout=20000)
    assert win.folder_status.text().startswith("Sync: 1 to send")  # the first commit
    assert "cannot fetch from http://127.0.0.1:1/nothing.git" in win.folder_status.toolTip()


def test_a_case_file_saved_from_the_board_into_the_folder_is_one_commit(qtbot, tmp_path,
                                                                         monkeypatch):
    from ui.controller import AppController
    from ui.workspaces.board import BoardWorkspace

    monkeypatch.setenv("RULESBOOK_AUTOSAVE_DIR", str(tmp_path / "autosave"))
    folder = tmp_path / "rules"
    init_folder(folder)
    controller = AppController()
    assert controller.load(folder).ok
    ws = BoardWorkspace(controller)
    ws.confirm_close = lambda: "discard"
    qtbot.addWidget(ws)
    ws.board_controller.editing.type_moves("11-15 23-19 8-11 22-17")
    target = folder / "cases" / "club-dispute.yaml"
    assert ws.save_case(target)
    with open_repo(folder) as repo:
        head = repo[repo.head()]
        # the message, and the trailer naming the program that wrote it (issue 32)
        assert split_trailer(head.message.decode()) == ("Case file: club-dispute.yaml",
                                                        version())
        assert len(head.parents) == 1
    from rulesbook.loading import load_library

    load_library(folder)  # the folder still validates (a sync would push it)
    assert ws.save_case(target)  # saved again unchanged: no empty commit
    with open_repo(folder) as repo:
        assert repo[repo.head()].id == head.id


def test_a_key_created_in_the_app_is_one_commit_by_the_member(open_ballots, tmp_path):
    folder = tmp_path / "rules"
    init_folder(folder)
    win, ws = open_ballots(folder)
    panel = ws.key_panel
    panel.member_combo.setCurrentIndex(panel.member_combo.findData("A"))
    panel.create_button.click()
    assert "created and registered in members.yaml" in panel.status.text()
    name = next(m["name"] for m in yaml.safe_load((folder / "members.yaml").read_text())
                ["members"] if m["id"] == "A")
    with open_repo(folder) as repo:
        head = repo[repo.head()]
        assert split_trailer(head.message.decode()) == ("Member A: new signing key",
                                                        version())
        assert head.author.decode().startswith(f"{name} (member A)")
        assert len(head.parents) == 1
    from rulesbook.rulesfolder import folder_status

    assert folder_status(folder).pending == ()  # members.yaml committed, nothing left over
    assert "registry" in yaml.safe_load((folder / "members.yaml").read_text())


def test_a_sync_conflict_is_settled_in_the_app_by_keeping_the_remotes_version(
        qtbot, settings, tmp_path):
    mine, theirs = shared_pair(tmp_path)
    for folder, ranking, proxy in ((theirs, "10C", "B"), (mine, "10A", "A")):
        assert cli("ballot", "vote", folder / BALLOT, "--member", "D", "--question", "10",
                   "--ranking", ranking, "--proxy-by", proxy, owner=folder) == 0
    assert cli("--data", theirs, "sync", "--quiet") == 0
    win = start(qtbot, settings, mine)
    win.folder.wait()
    with qtbot.waitSignal(win.folder.syncFailed, timeout=20000):
        assert win.start_sync()
    box = win.findChild(QMessageBox, "SyncFailed")
    take = next(b for b in box.buttons() if b.objectName() == "TakeTheirs")
    with qtbot.waitSignal(win.folder.syncFinished, timeout=20000) as finished:
        qtbot.mouseClick(take, Qt.MouseButton.LeftButton)
    result = finished.args[0]
    assert [d.record for d in result.dropped] == ["votes[member=D, question=10].ranking"]
    dropped = win.findChild(QMessageBox, "SyncDropped")
    assert dropped is not None and dropped.isVisible() and "apca:10A" in dropped.text()
    assert win.folder_status.text() == "In step with the remote"
    ballots = [d for d in win.controller.library.extra["ballot"]
               if d.data["id"] == "2026-committee"]
    ranking = [v["ranking"] for v in ballots[0].data["votes"] if v["member"] == "D"]
    assert ranking == [["apca:10C"]]
    dropped.close()


def test_a_host_that_asks_for_a_login_gets_it_from_a_dialog(qtbot, settings, tmp_path,
                                                             monkeypatch):
    """Issue #28 Must 1: when the server asks for a login, the app shows a dialog (the
    sync waits on its worker); the login is used for the fetch and the push, and kept
    in no file of the folder."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from rulesbook.rulesfolder.credentials import forget_logins
    from tests.rulesfolder.servers import git_http_backend
    from ui.login import LoginDialog

    (tmp_path / "gitconfig").write_text("")  # no credential helper: someone must ask
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    (tmp_path / "base").mkdir()
    Repo.init_bare(str(tmp_path / "base" / "shared.git"), mkdir=True,
                   default_branch=b"main").close()
    secret = "app-Token-42"
    with git_http_backend(tmp_path / "base", "secretary", secret) as host:
        url = host + "shared.git"
        folder = tmp_path / "secretary"
        init_folder(folder)
        assert cli("--data", folder, "sync", "--quiet", "--remote",
                   url.replace("http://", f"http://secretary:{secret}@")) == 0
        assert cli("--data", folder, "member", "add", "Ada App") == 0  # one to send
        forget_logins()  # the app starts as a process of its own
        win = start(qtbot, settings, folder)
        win.folder.wait()  # the look on opening asks no one (and fails quietly)
        shown: list[str] = []
        keeping: list[str] = []

        def answer() -> None:
            for widget in QApplication.topLevelWidgets():
                if isinstance(widget, LoginDialog) and widget.isVisible():
                    shown.append(widget.windowTitle())
                    widget.resize(480, 200)
                    widget.grab().save(str(tmp_path / "login-dialog.png"))
                    assert widget.password.echoMode() == widget.password.EchoMode.Password
                    keeping.append(widget.keeping.text())
                    widget.user.setText("secretary")
                    widget.password.setText(secret)
                    widget.accept()

        timer = QTimer()
        timer.timeout.connect(answer)
        timer.start(100)
        with qtbot.waitSignal(win.folder.syncFinished, timeout=60000) as finished:
            assert win.start_sync()
        timer.stop()
        assert len(shown) == 1 and host.split("//")[1].rstrip("/") in shown[0]
        # before the password is typed, the dialog says how it will be remembered:
        # this git has no credential helper, so not at all, and how to set one up
        assert "is not remembered" in keeping[0] and "credential.helper" in keeping[0]
        assert "never written into the rules folder" in keeping[0]
        assert finished.args[0].pushed == 1
        with Repo(str(tmp_path / "base" / "shared.git")) as shared, Repo(str(folder)) as mine:
            assert shared.refs[b"refs/heads/main"] == mine.refs[b"refs/heads/main"]
        for path in folder.rglob("*"):
            if path.is_file():
                assert secret.encode() not in path.read_bytes(), path


def test_the_login_dialog_says_which_helper_keeps_the_login(qtbot, tmp_path, monkeypatch):
    """Issue #28 (left by the last stop): the dialog said nothing of how the login
    typed is remembered. With git's ``store`` helper set up, it names it; the
    password is never written into the folder."""
    from rulesbook.rulesfolder.credentials import LoginRequest, how_login_is_kept
    from ui.login import LoginDialog

    config = tmp_path / "gitconfig"
    config.write_text(f"[credential]\n\thelper = store --file {tmp_path / 'kept'}\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    request = LoginRequest("git.example.org", "ada",
                           how_login_is_kept("https://git.example.org/apca/rules.git"))
    dialog = LoginDialog(request.host, request.user, keeping=request.keeping)
    qtbot.addWidget(dialog)
    text = dialog.keeping.text()
    assert "kept by git's credential helper (store" in text, text
    assert "later syncs use it" in text and "never written into the rules folder" in text
    assert "not remembered" not in text
    assert dialog.user.text() == "ada"

