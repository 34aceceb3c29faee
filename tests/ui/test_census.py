"""The control census: every QAction, toolbar button and push button of the main
window, its workspaces and the dialogs they open is found by walking the widgets
and menus, triggered in a sensible state (a corpus record on the Board, the
committee ballot open, a case open), and its visible effect checked (the table is
tests/ui/census_table.py). A control without an entry in the table fails the test,
and so does any control that raises, logs a traceback, or shows an error dialog."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QCheckBox

from tests.ui.census import Dialogs, Watchdog, controls, reveal
from tests.ui.census_state import GAME, Census
from tests.ui.census_table import EXPECT, PROBLEMS, Expect
from tests.ui.conftest import copy_data


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
        failures += [f"{key}: {p}" for p in c.dialogs.problems + c.dialogs.leftovers()]
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
    from tests.ballots.helpers import make_keys

    data = copy_data(tmp_path / "data")
    keys = make_keys(data, open_seed=True)  # every vote and seal is signed (keys in $RULESBOOK_CONFIG)
    controller = AppController()
    assert controller.load(data).ok
    window = MainWindow(controller, settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    c = Census(window, dialogs, qtbot, data, tmp_path, corpus_dir / GAME, keys=keys)
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
