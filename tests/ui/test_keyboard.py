"""The keyboard: Alt keys unique in each window and on every dialog button, the
edition in force never changed by a stray key, the Board's keys wherever the
focus is while the Board is shown, shortcuts for Copy FEN, Export PDN, Open Case.
Every test sends key events to the real window."""
from __future__ import annotations

from collections import defaultdict

import pytest
from PySide6.QtCore import QPoint, QPointF, QRect, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QShortcut, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from ui.dialogs import mnemonic

PLANTED = "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20"
ALT = Qt.KeyboardModifier.AltModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


# -- Alt keys ------------------------------------------------------------------------

def _hidden_page(widget: QWidget, top: QWidget) -> bool:
    """True when ``widget`` is on a tab page that is not the current one."""
    w = widget
    while w is not None and w is not top:
        parent = w.parentWidget()
        if isinstance(parent, QStackedWidget) and isinstance(parent.parentWidget(), QTabWidget) \
                and parent.currentWidget() is not w:
            return True
        w = parent
    return False


def alt_keys(top: QWidget, extra: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """Alt key -> the controls under ``top`` (not on hidden tab pages) that use it:
    buttons, labels with a buddy, tabs and group boxes."""
    keys: dict[str, list[str]] = defaultdict(list)
    for k, v in (extra or {}).items():
        keys[k] += v
    for w in top.findChildren(QWidget):
        if _hidden_page(w, top) or w.objectName().startswith("qt_"):
            continue
        texts = []
        if isinstance(w, QAbstractButton):
            texts.append(w.text())
        elif isinstance(w, QLabel) and w.buddy() is not None:
            texts.append(w.text())
        elif isinstance(w, QGroupBox):
            texts.append(w.title())
        elif isinstance(w, QTabWidget):
            texts += [w.tabText(i) for i in range(w.count())]
        for text in texts:
            key = mnemonic(text)
            if key:
                keys[key].append(text)
    return keys


def clashes(keys: dict[str, list[str]]) -> list[str]:
    return [f"Alt+{k.upper()}: {', '.join(v)}" for k, v in sorted(keys.items()) if len(v) > 1]


def test_alt_keys_are_unique_in_every_workspace_and_menu(window, qtbot):
    menubar = window.menuBar()
    bar_keys: dict[str, list[str]] = defaultdict(list)
    for action in menubar.actions():
        bar_keys[mnemonic(action.text())].append(f"menu {action.text()}")
    bar_keys.pop("", None)
    problems = clashes(alt_keys(window.toolbar, bar_keys))
    for ws in window.workspaces.values():
        window.show_workspace(ws.id)
        tabs = [t for t in ws.findChildren(QTabWidget)] or [None]
        for tab in tabs:
            for i in range(tab.count() if tab is not None else 1):
                if tab is not None:
                    tab.setCurrentIndex(i)
                keys = alt_keys(window.toolbar, bar_keys)
                for k, v in alt_keys(ws).items():
                    keys[k] += v
                problems += [f"{ws.title}: {p}" for p in clashes(keys)]
    for menu in window.findChildren(QMenu):
        keys = defaultdict(list)
        for action in menu.actions():
            if mnemonic(action.text()):
                keys[mnemonic(action.text())].append(action.text())
        problems += [f"menu {menu.title()}: {p}" for p in clashes(keys)]
    assert not sorted(set(problems)), "\n".join(sorted(set(problems)))


def test_the_first_alt_f_opens_the_file_menu(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.workspaces["rules"].tree.setFocus()
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_F, ALT)
    popup = QApplication.activePopupWidget()
    assert isinstance(popup, QMenu) and popup.title() == "&File"
    popup.close()
    assert not window.edition_combo.hasFocus()


# -- the edition in force ----------------------------------------------------------------

@pytest.fixture
def two(qtbot, two_editions, settings):
    from ui.controller import AppController
    from ui.mainwindow import MainWindow

    controller = AppController()
    assert controller.load(two_editions).ok
    # adopting "second" through its ballot put it in force (as `ballot adopt` does);
    # these tests start, as the report did, with the original edition in force
    controller.set_edition("original")
    assert controller.edition_id == "original"
    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    return win


def test_no_stray_key_changes_the_edition_in_force(two, qtbot):
    win = two
    combo = win.edition_combo
    assert win.controller.edition_id == "original" and combo.count() == 2
    asked = []
    win.confirm_edition = lambda old, new: asked.append((old, new)) or False
    # the key sequence of the report: Alt+F, then Up, Down, Return
    win.workspaces["rules"].tree.setFocus()
    for key, mod in ((Qt.Key.Key_F, ALT), (Qt.Key.Key_Up, Qt.KeyboardModifier.NoModifier),
                     (Qt.Key.Key_Down, Qt.KeyboardModifier.NoModifier)):
        qtbot.keyClick(QApplication.focusWidget() or win, key, mod)
    if QApplication.activePopupWidget() is not None:
        QApplication.activePopupWidget().close()
    # the combo itself, focused: arrows, Home/End, letters and the wheel do nothing
    combo.setFocus()
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_End, Qt.Key.Key_PageDown,
                Qt.Key.Key_S, Qt.Key.Key_P):
        qtbot.keyClick(combo, key)
        if combo.view().isVisible():
            combo.hidePopup()
    wheel = QWheelEvent(QPointF(5, 5), QPointF(combo.mapToGlobal(QPoint(5, 5))), QPoint(0, 0),
                        QPoint(0, -120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(combo, wheel)
    assert win.controller.edition_id == "original"
    assert combo.currentData() == "original" and not asked
    assert "original" in win.edition_status.text()


def test_changing_the_edition_is_chosen_from_the_list_and_confirmed(two, qtbot):
    win = two
    combo = win.edition_combo
    asked = []
    answer = [False]
    win.confirm_edition = lambda old, new: asked.append((old, new)) or answer[0]

    def choose_second():
        qtbot.keyClick(win.focusWidget() or win, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
        assert combo.view().isVisible()
        view = combo.view()
        view.setCurrentIndex(view.model().index(combo.findData("second"), 0))
        qtbot.keyClick(view, Qt.Key.Key_Return)

    choose_second()
    assert asked == [("Proposed Playing Rules (original text)", "Second edition (test)")]
    assert win.controller.edition_id == "original" and combo.currentData() == "original"
    answer[0] = True
    choose_second()
    assert win.controller.edition_id == "second" and combo.currentData() == "second"
    assert "Second edition (test)" in win.edition_status.text()


def test_the_confirmation_names_both_editions_and_keeps_by_default(two, qtbot):
    seen = []

    def look():
        box = QApplication.activeModalWidget()
        seen.append((box.text(), [b.text() for b in box.buttons()]))
        qtbot.keyClick(box, Qt.Key.Key_Escape)

    QTimer.singleShot(0, look)
    assert two._confirm_edition("Old (test)", "New (test)") is False
    text, buttons = seen[0]
    assert "New (test)" in text and "Old (test)" in text
    assert sorted(buttons) == ["&Keep Old (test)", "&Put It in Force"]


# -- the Board's keys --------------------------------------------------------------------

@pytest.fixture
def board(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    ws = window.workspaces["board"]
    ws.confirm_close = lambda: "discard"
    window.show_workspace("board")
    bc = ws.board_controller
    bc.editing.new_game()
    assert bc.editing.type_moves(PLANTED)
    bc.go(0)
    yield window, ws, bc
    bc.shutdown()


def test_board_keys_work_wherever_the_focus_is_while_the_board_is_shown(board, qtbot):
    window, ws, bc = board
    window.nav.setFocus()  # the navigation list, outside the Board
    assert QApplication.focusWidget() is window.nav
    for key, ply in ((Qt.Key.Key_Right, 1), (Qt.Key.Key_Right, 2), (Qt.Key.Key_Left, 1),
                     (Qt.Key.Key_End, 8), (Qt.Key.Key_Home, 0)):
        qtbot.keyClick(QApplication.focusWidget(), key)
        assert bc.ply == ply and window.current_workspace() is ws
    ws.check_view.setFocus()
    qtbot.keyClick(ws.check_view, Qt.Key.Key_End)
    assert bc.ply == 8
    flipped = ws.board.is_flipped()
    window.nav.setFocus()
    qtbot.keyClick(window.nav, Qt.Key.Key_F, CTRL_SHIFT)
    assert ws.board.is_flipped() != flipped
    # a text field keeps its own arrows
    ws.move_entry.setFocus()
    ws.move_entry.setText("11-15")
    qtbot.keyClick(ws.move_entry, Qt.Key.Key_Home)
    assert bc.ply == 8 and ws.move_entry.cursorPosition() == 0
    # another workspace shown: the keys are its own again
    window.show_workspace("rules")
    window.workspaces["rules"].tree.setFocus()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Home)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_F, CTRL_SHIFT)
    assert bc.ply == 8 and ws.board.is_flipped() != flipped


def test_copy_fen_export_pdn_and_open_case_have_shortcuts(board, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    window, ws, bc = board
    for action in (ws.copy_fen_action, ws.export_action, ws.open_case_action):
        assert not action.shortcut().isEmpty(), action.text()
        assert action.shortcut().toString() in action.toolTip()
    bc.go(3)
    window.nav.setFocus()
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(window.nav, Qt.Key.Key_C, CTRL_SHIFT)
    assert QGuiApplication.clipboard().text() == ws.board.position().fen()
    pdn, case = tmp_path / "k.pdn", tmp_path / "k.yaml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(pdn), "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(case), "")))
    qtbot.keyClick(window.nav, Qt.Key.Key_S, CTRL_SHIFT)
    assert pdn.exists() and "9-13" in pdn.read_text(encoding="utf-8")
    assert bc.files.save_case(case) is not None
    bc.editing.new_game()
    qtbot.keyClick(window.nav, Qt.Key.Key_D, CTRL_SHIFT)
    assert bc.case_path == case and [m.text for m in bc.moves] == PLANTED.split()


def test_no_shortcut_means_two_things_in_any_workspace(window):
    for ws in window.workspaces.values():
        window.show_workspace(ws.id)
        seen: dict[str, list[str]] = defaultdict(list)
        actions = list(window.actions()) + list(ws.actions())
        for action in actions:
            for seq in action.shortcuts():
                seen[seq.toString()].append(action.text())
        for shortcut in ws.findChildren(QShortcut):
            seen[shortcut.key().toString()].append("a shortcut")
        same = {k: v for k, v in seen.items() if len(v) > 1}
        assert not same, f"{ws.title}: {same}"


# -- every dialog button has an Alt key -----------------------------------------------------

def _dialog_buttons(open_dialog, press: str | None = None) -> list[str]:
    """Open a dialog, read its buttons, then press Alt+<key of ``press``> (or Esc)."""
    seen: list[list[str]] = []

    def look():
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            return
        try:
            buttons = [b for b in dialog.findChildren(QAbstractButton)
                       if b.isVisible() and b.text()]
            seen.append([b.text() for b in buttons])
            if press is None:
                return
            dialog.activateWindow()  # Alt keys go to the active window
            QApplication.processEvents()
            QTest.keyClick(dialog, Qt.Key(ord(mnemonic(press).upper())), ALT)
        finally:
            if dialog.isVisible():  # the key did nothing: close it, the test fails
                QTimer.singleShot(200, dialog.reject)

    QTimer.singleShot(0, look)
    open_dialog()
    assert seen, "the dialog was not shown"
    return seen[0]


def _alt_keyed(labels: list[str]) -> None:
    keys = [mnemonic(t) for t in labels]
    assert all(keys), f"a button without an Alt key: {labels}"
    assert len(set(keys)) == len(keys), f"two buttons with one Alt key: {labels}"


def test_every_dialog_button_has_an_alt_key(window, qtbot, monkeypatch):
    from rulesbook.reconstruct import split_games
    from ui import dialogs

    board = window.workspaces["board"]
    ballots = window.workspaces["ballots"]
    cases = [
        ("unsaved case", board._ask_close, "&Discard", "discard"),
        ("unsaved votes", ballots._ask_unsaved, "&Cancel", "cancel"),
        ("seal", lambda: dialogs.ask(window, "Close and seal", "Seal?"), "&Yes", "yes"),
        ("conflict", lambda: ballots._ask_conflict("the file changed"), "&Overwrite",
         "overwrite"),
        ("edition", lambda: window._confirm_edition("A", "B"), "&Put It in Force", True),
        ("warning", lambda: dialogs.warn(window, "Export failed", "disk full"), "&OK", None),
        ("game", lambda: board._ask_game(split_games('[White "A"]\n1. 11-15 *\n\n'
                                                     '[White "B"]\n1. 11-15 *\n')),
         "&Open", 0),
        ("text", lambda: dialogs.ask_text(window, "New ballot", "Id:", text="b-1"), "&OK",
         ("b-1", True)),
    ]
    for name, open_dialog, press, answer in cases:
        got = []
        labels = _dialog_buttons(lambda: got.append(open_dialog()), press)  # noqa: B023
        _alt_keyed(labels)
        assert got == [answer], f"{name}: Alt on {press} gave {got}"


def test_the_problems_dialog_buttons_have_alt_keys(qtbot, tmp_path):
    from rulesbook import Problem
    from ui.problems import ProblemsDialog

    dialog = ProblemsDialog(tmp_path, [Problem("a.yaml", 1, 1, "bad")])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    labels = [b.text() for b in dialog.findChildren(QAbstractButton) if b.text()]
    _alt_keyed(labels)
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(dialog, Qt.Key.Key_C, ALT)  # a mnemonic "animates" its click: wait
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text() == dialog.text())


# -- the Tab chain (issue 33) ------------------------------------------------------------

def _tab_stops(root: QWidget) -> list[QWidget]:
    """The controls under ``root`` a user can reach now: shown, enabled, taking the
    focus by Tab (a widget with a focus proxy counts as its proxy)."""
    out = []
    for w in root.findChildren(QWidget):
        if w.objectName().startswith("qt_") or not w.isVisible() or not w.isEnabled() \
                or w.focusProxy() is not None or w.visibleRegion().isEmpty():
            continue
        # a control Qt leaves out of the Tab chain (a toolbar's buttons) counts too
        control = isinstance(w, (QAbstractButton, QComboBox, QLineEdit, QAbstractSpinBox))
        if not w.focusPolicy() & Qt.FocusPolicy.TabFocus and not control:
            continue
        if isinstance(w.parentWidget(), QComboBox) or w.window() is not root.window():
            continue  # a combo's own line edit or popup
        group = w.group() if isinstance(w, QAbstractButton) else None
        if group is not None and group.exclusive() and w.isCheckable() and not w.isChecked() \
                and group.checkedButton() is not None:
            continue  # one Tab stop for an exclusive group: its checked button (arrows)
        out.append(w)
    return out


def tab_walk(window, start: QWidget, presses: int) -> list[QWidget]:
    """The widgets that have the focus after each of ``presses`` Tab keys from ``start``."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    QApplication.processEvents()
    seen = []
    for _ in range(presses):
        qtbot_target = QApplication.focusWidget() or window
        QTest.keyClick(qtbot_target, Qt.Key.Key_Tab)
        QApplication.processEvents()
        seen.append(QApplication.focusWidget())
    return seen


def _label(w: QWidget | None) -> str:
    if w is None:
        return "None"
    text = w.text() if hasattr(w, "text") and callable(w.text) else ""
    return f"{type(w).__name__} '{text or w.accessibleName() or w.objectName()}'"


def assert_tab_chain(window, root: QWidget, start: QWidget, where: str) -> list[QWidget]:
    """Tab from ``start`` reaches every tab stop under ``root``, no widget keeps the
    focus on Tab, and the chain comes back round to ``start``."""
    stops = _tab_stops(root)
    assert start in stops, f"{where}: the start {_label(start)} is no tab stop"
    seen = tab_walk(window, start, 3 * len(stops) + 40)
    for a, b in zip(seen, seen[1:], strict=False):
        assert a is not b, f"{where}: {_label(a)} keeps the focus on Tab"
    assert start in seen, f"{where}: Tab never comes back to {_label(start)}: " \
        f"{[_label(w) for w in seen[:40]]}"
    cycle = seen[:seen.index(start) + 1]
    missed = [w for w in stops if w not in cycle]
    assert not missed, f"{where}: not reached by Tab: {[_label(w) for w in missed]}"
    wrong = reading_order_errors(window, cycle)
    assert not wrong, f"{where}: Tab goes against the reading order: " + "; ".join(wrong)
    return cycle


def reading_order_errors(window, cycle: list[QWidget]) -> list[str]:
    """Where Tab reaches a control after one below it in the same column (above
    it, overlapping it sideways): read from the window's first control."""
    top = {w: w.mapTo(window, QPoint(0, 0)) for w in cycle}
    highest = min(p.y() for p in top.values())
    first = min((w for w in cycle if top[w].y() <= highest + 8), key=lambda w: top[w].x())
    at = cycle.index(first)
    order = cycle[at:] + cycle[:at]
    rects = [QRect(w.mapTo(window, QPoint(0, 0)), w.size()) for w in order]
    errors = []
    for i, (a, ra) in enumerate(zip(order, rects, strict=True)):
        for b, rb in zip(order[i + 1:], rects[i + 1:], strict=True):
            sideways = min(ra.right(), rb.right()) - max(ra.left(), rb.left())
            if rb.bottom() < ra.top() and sideways > 0:
                errors.append(f"{_label(b)} after {_label(a)} below it")
    return errors


@pytest.fixture
def tab_window(window, qtbot):
    window.resize(1024, 700)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.workspaces["board"].confirm_close = lambda: "discard"
    window.workspaces["ballots"].ask_unsaved = lambda: "discard"
    yield window
    window.workspaces["board"].board_controller.shutdown()


def test_tab_reaches_every_control_of_every_workspace(tab_window):
    window = tab_window
    for ws in window.workspaces.values():
        if ws.id == "board":
            continue
        window.show_workspace(ws.id)
        QApplication.processEvents()
        tabs = ws.findChildren(QTabWidget)
        pages = [(t, i) for t in tabs for i in range(t.count())] or [(None, 0)]
        for tab, index in pages:
            if tab is not None:
                if not tab.isVisible():
                    continue
                tab.setCurrentIndex(index)
                QApplication.processEvents()
            stops = _tab_stops(ws)
            where = f"{ws.title}" + (f", {tab.tabText(index)}" if tab is not None else "")
            assert_tab_chain(window, ws, stops[0], where)


@pytest.mark.parametrize("state", ["play", "check", "set-up", "gap", "counts"])
def test_tab_reaches_every_control_of_the_board(tab_window, qtbot, state):
    from tests.ui.layout_states import put_board_in

    window = tab_window
    ws = put_board_in(window, qtbot, state)
    for index in range(ws.panels.count()) if state != "set-up" else [None]:
        if index is not None:
            ws.panels.setCurrentIndex(index)
            QApplication.processEvents()
        assert_tab_chain(window, ws, ws.board, f"Board {state}, tab {index}")


def test_after_this_is_the_board_now_tab_leaves_the_move_list(tab_window, qtbot):
    # the report: after "This Is the Board Now" 40 Tabs stayed in the move list, even
    # with the Gap tab shown (Alt+G); the plies box and Search were never reached
    from tests.ui.layout_states import put_board_in

    window = tab_window
    ws = put_board_in(window, qtbot, "set-up")
    assert not ws.move_list.tabKeyNavigation()
    qtbot.mouseClick(ws.board_now_button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert ws.board_controller.mode != "setup" and ws.panels.currentIndex() == 2
    ws.move_list.setFocus(Qt.FocusReason.TabFocusReason)
    seen = tab_walk(window, ws.move_list, 40)
    assert ws.gap_plies in seen and ws.gap_search_button in seen


def test_in_set_up_the_fen_field_is_a_few_tabs_from_the_board(tab_window, qtbot):
    from tests.ui.layout_states import put_board_in

    window = tab_window
    ws = put_board_in(window, qtbot, "set-up")
    seen = tab_walk(window, ws.board, 4)
    assert ws.fen_edit in seen, [_label(w) for w in seen]
