"""A settings file edited by hand (or written by another version) never stops the app.

QSettings hands back whatever the file holds: in an INI file ``@Size(1 2)`` reads as
a QSize, ``@Variant(...)`` as any type, a value with commas as a list. The main
window reads the recent folders, the window layout and every workspace's state from
it at start; each of the values below made ``MainWindow`` or ``restore()`` raise
(TypeError / AttributeError / ValueError) before the reads were typed (issue #20).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings


def _ini(path: Path, lines: list[str]) -> QSettings:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return QSettings(str(path), QSettings.Format.IniFormat)


def _window(qtbot, controller, settings: QSettings):
    from ui.mainwindow import MainWindow

    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    return win


def test_recent_folders_that_are_not_text_are_dropped(qtbot, controller, tmp_path):
    settings = _ini(tmp_path / "s.ini", ["[recent]", "folders=@Size(1 2)"])
    assert not isinstance(settings.value("recent/folders"), (str, list))  # what Qt reads
    win = _window(qtbot, controller, settings)  # built the File ▸ Recent menu from it
    # the folder the window opened is the only recent one (it was added on opening)
    assert win.recent_folders() == [str(controller.data_dir)]
    assert [a.text() for a in win.recent_menu.actions()] == [f"&1 {controller.data_dir}"]


@pytest.mark.parametrize("key", ["window/geometry", "window/state", "window/splitter",
                                 "workspace/rules/splitter", "workspace/compare/hidden",
                                 "workspace/compare/subject", "workspace/rulings/tab"])
def test_a_layout_value_of_the_wrong_type_is_ignored(qtbot, controller, tmp_path, key):
    group, _, name = key.rpartition("/")
    settings = _ini(tmp_path / "s.ini", [f"[{group}]", f"{name}=@Size(1 2)"])
    win = _window(qtbot, controller, settings)
    win.restore()
    win.show_workspace("compare")
    compare = win.workspaces["compare"]
    assert compare.hidden == set()
    assert win.current_workspace() is compare


def test_a_rulings_draft_with_wrong_types_is_ignored(qtbot, controller, tmp_path):
    draft = {"fields": ["title"], "context": "move", "incident": ["failure_to_capture"],
             "case": 5, "facts": "x"}
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings.setValue("workspace/rulings/draft", json.dumps(draft))
    win = _window(qtbot, controller, settings)
    win.restore()
    rulings = win.workspaces["rulings"].rulings
    # the workspace shows its first incident, as with no draft at all
    assert rulings.incident_id != "failure_to_capture" and rulings.case_id is None
    assert rulings.context == {} and rulings.fields["title"] == ""


def test_a_rulings_draft_keeps_what_has_the_right_type(qtbot, controller, tmp_path):
    draft = {"fields": {"title": "Game 3", "notes": 12}, "context": {"move": "10-14"},
             "incident": "failure_to_capture", "facts": ["not", "a", "mapping"]}
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings.setValue("workspace/rulings/draft", json.dumps(draft))
    win = _window(qtbot, controller, settings)
    win.restore()
    rulings = win.workspaces["rulings"].rulings
    assert rulings.incident_id == "failure_to_capture"
    assert rulings.fields["title"] == "Game 3" and rulings.fields["notes"] == ""
    assert rulings.context == {"move": "10-14"}
    assert win.workspaces["rulings"].facts_form.title.text() != "Choose an incident"


def test_an_export_folder_that_is_not_text_falls_back_to_home(qtbot, controller, tmp_path,
                                                              monkeypatch):
    from ui import mainwindow

    settings = _ini(tmp_path / "s.ini", ["[export]", "folder=@Size(1 2)"])
    win = _window(qtbot, controller, settings)
    offered: list[str] = []

    def no_file(_parent, _title, default, _filters):
        offered.append(default)
        return "", ""
    monkeypatch.setattr(mainwindow.QFileDialog, "getSaveFileName", no_file)
    assert win.export_as("html", "Rule 1", "<p>x</p>") is None
    assert offered == [str(Path.home() / "Rule_1.html")]
