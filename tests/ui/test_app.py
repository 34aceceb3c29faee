"""The shell: start on good and broken data, menus, shortcuts, settings, errors."""
from __future__ import annotations

import sys

from PySide6.QtCore import QSettings, Qt, QUrl

from rulesbook.datapath import bundled_data_dir
from tests.ui.conftest import copy_data


def test_starts_on_the_users_rules_folder_in_background(qtbot, settings, tmp_path):
    from rulesbook.datapath import user_rules_dir
    from rulesbook.rulesfolder import is_rules_folder
    from ui.app import Launcher

    launcher = Launcher(settings)
    qtbot.addWidget(launcher.window)
    launcher.start(None, background=True)
    qtbot.waitUntil(lambda: launcher.window.isVisible(), timeout=10000)
    launcher.controller.wait()
    win = launcher.window
    assert launcher.problems_dialog is None
    assert list(win.workspaces) == ["rules", "compare", "editions", "board", "rulings", "ballots"]
    assert win.edition_combo.currentData() == "original"
    assert "original" in win.edition_status.text()
    about = win.about_text()
    # first start: the user's rules folder is made from the seed, where the CLI looks too
    folder = tmp_path / "xdg-data" / "Rulesbook" / "rules"
    assert launcher.controller.data_dir == folder == user_rules_dir()
    assert is_rules_folder(folder)
    assert str(folder) in about and str(bundled_data_dir()) not in about and "original" in about
    assert win.workspaces["rules"].current == "apca:1"


def test_broken_folder_lists_problems_instead_of_the_app(qtbot, tmp_path, settings):
    from ui.app import Launcher

    folder = copy_data(tmp_path / "broken")
    book = folder / "apca" / "rulebook.yaml"
    lines = book.read_text(encoding="utf-8").splitlines()
    line_no = next(i for i, line in enumerate(lines, 1) if "member: A" in line)
    lines[line_no - 1] = lines[line_no - 1].replace("member: A", "member: Z")
    book.write_text("\n".join(lines) + "\n", encoding="utf-8")

    launcher = Launcher(settings)
    qtbot.addWidget(launcher.window)
    launcher.start(folder, background=False)
    dialog = launcher.problems_dialog
    assert dialog is not None
    qtbot.addWidget(dialog)
    assert dialog.isVisible()
    assert not launcher.window.isVisible()
    locations = [dialog.tree.topLevelItem(i).text(0) for i in range(dialog.tree.topLevelItemCount())]
    assert f"apca/rulebook.yaml:{line_no}" in locations
    assert "unknown member 'Z'" in dialog.text()
    assert dialog.open_button.text().replace("&", "") == "Open Another Folder…"

    # Opening a good folder from the list brings up the app.
    dialog.openFolder.emit(str(bundled_data_dir()))
    qtbot.waitUntil(lambda: launcher.window.isVisible(), timeout=10000)
    launcher.controller.wait()


def test_yaml_syntax_error_is_listed(qtbot, tmp_path, settings):
    from ui.app import Launcher

    folder = copy_data(tmp_path / "bad-yaml")
    (folder / "topics.yaml").write_text("schema_version: 1\nkind: topics\ntopics: [\n",
                                        encoding="utf-8")
    launcher = Launcher(settings)
    qtbot.addWidget(launcher.window)
    launcher.start(folder, background=False)
    qtbot.addWidget(launcher.problems_dialog)
    assert "topics.yaml:" in launcher.problems_dialog.text()


def test_shortcuts_focus_search_and_switch_workspaces(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(lambda: window.isActiveWindow())
    for key in (Qt.Key.Key_K, Qt.Key.Key_F):
        window.workspaces["rules"].tree.setFocus()
        qtbot.keyClick(window, key, Qt.KeyboardModifier.ControlModifier)
        assert window.search_field.hasFocus()
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.current_workspace().id == "compare"
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert window.current_workspace().id == "editions"
    # Every menu action shows its shortcut (or is reachable by a mnemonic).
    for menu in window.menuBar().findChildren(type(window.recent_menu)):
        for action in menu.actions():
            assert action.isSeparator() or "&" in action.text() or action.shortcut()


def test_settings_persist_layout_workspace_edition_and_recent(qtbot, two_editions, tmp_path):
    from ui.controller import AppController
    from ui.mainwindow import MainWindow

    path = str(tmp_path / "persist.ini")
    ctrl = AppController()
    ctrl.load(two_editions)
    win = MainWindow(ctrl, QSettings(path, QSettings.Format.IniFormat))
    qtbot.addWidget(win)
    win.show()
    win.show_workspace("editions")
    ctrl.set_edition("second")
    win.resize(640, 480)  # also: every workspace fits a window this narrow
    win.close()

    ctrl2 = AppController()
    ctrl2.load(two_editions)
    win2 = MainWindow(ctrl2, QSettings(path, QSettings.Format.IniFormat))
    qtbot.addWidget(win2)
    win2.restore()
    assert win2.current_workspace().id == "editions"
    assert ctrl2.edition_id == "second"
    assert win2.edition_combo.currentData() == "second"
    assert (win2.size().width(), win2.size().height()) == (640, 480)
    assert win2.recent_folders()[0] == str(two_editions)


def test_external_links_ask_first_and_file_links_are_refused(window, monkeypatch):
    from ui import widgets

    asked, opened, refused = [], [], []
    monkeypatch.setattr(widgets, "ask", lambda *a, **k: asked.append(a) or "cancel")
    monkeypatch.setattr(widgets, "inform", lambda *a, **k: refused.append(a))
    monkeypatch.setattr(widgets.QDesktopServices, "openUrl", lambda url: opened.append(url))
    page = window.workspaces["rules"].page
    page.anchorClicked.emit(QUrl("https://example.org/rules"))
    assert asked and not opened
    page.anchorClicked.emit(QUrl("file:///etc/passwd"))
    assert refused and not opened
    page.anchorClicked.emit(QUrl("rule:apca:24B"))
    assert window.workspaces["rules"].current == "apca:24B"


def test_unexpected_exception_is_logged_and_explained(qapp, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    from ui import errors

    shown = []
    monkeypatch.setattr(QMessageBox, "exec", lambda self: shown.append(self.informativeText()))
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    errors.install_excepthook()
    try:
        raise RuntimeError("boom in a slot")
    except RuntimeError:
        sys.excepthook(*sys.exc_info())
    log = (tmp_path / "logs" / "rulesbook.log").read_text(encoding="utf-8")
    assert "RuntimeError: boom in a slot" in log and "Traceback" in log
    assert shown and "boom in a slot" in shown[0] and "Traceback" not in shown[0]


def test_a_status_message_too_long_for_the_bar_is_kept_whole(window, qtbot):
    # issue 33: the status bar cut its messages ("…in 0.7"); its tooltip has the
    # message whole, and View > Recent Status Messages lists it whole
    from PySide6.QtWidgets import QApplication, QPlainTextEdit

    window.resize(1024, 700)
    message = "Searched 1,234,567 positions in 0.7 s; " + "a long status message " * 8 + "END"
    window.controller.statusMessage.emit(message)
    bar = window.statusBar()
    assert bar.currentMessage() == message
    assert bar.fontMetrics().horizontalAdvance(message) > bar.width()  # it is cut there
    assert message in bar.toolTip() and "END" in bar.toolTip()
    action = next(a for m in window.menuBar().actions() if m.menu() is not None
                  for a in m.menu().actions() if a.text() == "Recent Status &Messages")
    action.trigger()
    dialog = next(w for w in QApplication.topLevelWidgets()
                  if w.isVisible() and w.windowTitle() == "Recent Status Messages")
    qtbot.addWidget(dialog)
    assert message in dialog.findChild(QPlainTextEdit).toPlainText()
    dialog.close()
