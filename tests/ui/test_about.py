"""Help ▸ About Rulesbook (issue 32), opened from the real menu: the version (as
pyproject.toml writes it), the Qt and Python versions, the rules folder in use,
the licence of every component, Qt's LGPL notice and where its source is."""
from __future__ import annotations

import platform
import re

import pytest
from PySide6.QtCore import qVersion
from PySide6.QtGui import QGuiApplication

from tests.datapaths import REPO

tomllib = pytest.importorskip("tomllib")


def pyproject() -> dict:
    with (REPO / "pyproject.toml").open("rb") as fh:
        return tomllib.load(fh)["project"]


def menu_action(win, menu: str, text: str):
    bar = win.menuBar()
    top = next(a.menu() for a in bar.actions() if a.text().replace("&", "") == menu)
    return next(a for a in top.actions() if a.text().replace("&", "") == text)


def open_about(qtbot, win):
    menu_action(win, "Help", "About Rulesbook").trigger()
    dialog = win.about_dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def test_about_names_the_version_qt_python_and_the_rules_folder(qtbot, window):
    dialog = open_about(qtbot, window)
    assert dialog.windowTitle() == "About Rulesbook" and not dialog.isModal()
    text = " ".join(dialog.browser.toPlainText().split())  # table cells on one line
    assert f"Rulesbook {pyproject()['version']}" in text
    assert f"Qt: {qVersion()}" in text and f"Python: {platform.python_version()}" in text
    assert str(window.controller.data_dir) in text
    assert "Edition in force:" in text and "original" in text


def test_about_lists_every_dependency_with_its_licence_and_qts_lgpl_notice(qtbot, window):
    dialog = open_about(qtbot, window)
    text = " ".join(dialog.browser.toPlainText().split())
    for requirement in pyproject()["dependencies"]:
        name = re.match(r"[A-Za-z0-9._-]+", requirement).group(0)
        assert re.search(re.escape(name).replace(r"\-", "[-_]"), text, re.I), name
    assert "GNU Lesser General Public License version 3" in text
    assert "https://download.qt.io/official_releases/qt/" in text
    assert "https://code.qt.io/cgit/pyside/pyside-setup.git/" in text
    # the licence texts it points to are there
    from ui.about import licence_folder

    for name in ("LGPL-3.0.txt", "GPL-3.0.txt"):
        assert (licence_folder() / name).read_text(encoding="utf-8").lstrip().startswith("GNU")


def test_copy_puts_the_facts_on_the_clipboard_and_close_closes(qtbot, window):
    dialog = open_about(qtbot, window)
    dialog.copy_button.click()
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith(f"Rulesbook {pyproject()['version']}")
    assert "PySide6_Essentials" in copied and "LGPL" in copied
    from PySide6.QtWidgets import QDialogButtonBox

    dialog.buttons.button(QDialogButtonBox.StandardButton.Close).click()
    assert not dialog.isVisible()
    again = open_about(qtbot, window)  # opened again: a new window, shown
    assert again.isVisible()


def test_data_texts_are_escaped(qtbot, window, monkeypatch):
    """The rules folder's path is shown as typed, never as HTML."""
    from pathlib import Path

    monkeypatch.setattr(window.controller, "data_dir", Path("/tmp/<b>rules</b>"))
    dialog = open_about(qtbot, window)
    assert "/tmp/<b>rules</b>" in dialog.browser.toPlainText()
