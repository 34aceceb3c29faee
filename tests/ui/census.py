"""What the control census needs: every control of a window found by walking its
widgets and menus (keyed by workspace and text), dialogs answered instead of
blocking, and a record of everything that went wrong while a control ran."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QFileDialog,
    QInputDialog,
    QLineEdit,
    QMenu,
    QMessageBox,
    QScrollArea,
    QStackedWidget,
    QTabBar,
    QTabWidget,
    QToolButton,
    QWidget,
    QWidgetAction,
)

from ui.workspaces import Workspace


@dataclass(frozen=True)
class Control:
    """One control: ``key`` names it in the expectation table (``scope/Text`` for an
    action, ``scope/[Text]`` for a button), ``obj`` is the QAction or the button."""

    key: str
    obj: QObject
    scope: str


def clean(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").strip()


def scope_of(widget: QObject) -> str:
    """The workspace id, the dialog's class name, or "window"."""
    obj = widget
    while obj is not None:
        if isinstance(obj, Workspace):
            return obj.id
        if isinstance(obj, QDialog):
            return type(obj).__name__
        obj = obj.parent()
    return "window"


def _menu_controls(menu: QMenu, path: str, out: list[Control], dynamic: dict) -> None:
    for action in menu.actions():
        if action.isSeparator() or isinstance(action, QWidgetAction):
            continue
        if action.menu() is not None:
            _menu_controls(action.menu(), f"{path}/{clean(action.text())}", out, dynamic)
            continue
        name = dynamic.get(menu, clean(action.text()))
        if callable(name):
            name = name(action)
        out.append(Control(f"{path}/{name}", action, path.split("/")[0]))


def _internal(button: QAbstractButton) -> bool:
    """Qt's own buttons (tab scrollers, toolbar extension, line-edit clear buttons)."""
    parent = button.parentWidget()
    return (button.objectName().startswith("qt_") or isinstance(parent, (QTabBar, QLineEdit))
            or (isinstance(button, QToolButton) and button.defaultAction() is not None))


def controls(window: QWidget, dynamic: dict | None = None) -> list[Control]:
    """Every QAction of the menus and workspaces and every button under ``window``.

    ``dynamic`` maps a menu whose entries come from data (recent folders, columns)
    to one name for its entries, or to a function naming an entry."""
    dynamic = dynamic or {}
    out: list[Control] = []
    menubar = window.menuBar() if hasattr(window, "menuBar") else None
    in_menus: set[int] = set()
    if menubar is not None:
        for action in menubar.actions():
            if action.menu() is not None:
                _menu_controls(action.menu(), f"menu/{clean(action.text())}", out, dynamic)
        in_menus = {id(c.obj) for c in out}
    for action in window.actions():
        if id(action) not in in_menus:
            out.append(Control(f"window/{clean(action.text())}", action, "window"))
    for ws in window.findChildren(Workspace):
        for action in ws.actions():
            out.append(Control(f"{ws.id}/{clean(action.text())}", action, ws.id))
    seen = {id(c.obj) for c in out}
    for button in window.findChildren(QAbstractButton):
        if button.objectName().startswith("qt_") or isinstance(button.parentWidget(),
                                                               (QTabBar, QLineEdit)):
            continue  # Qt's own: tab scrollers, toolbar extension, clear buttons
        action = button.defaultAction() if isinstance(button, QToolButton) else None
        if action is not None and id(action) not in seen:  # a toolbar's own action
            seen.add(id(action))
            scope = scope_of(button)
            out.append(Control(f"{scope}/{clean(action.text())}", action, scope))
        if _internal(button):
            continue
        scope = scope_of(button)
        name = clean(button.text()) or button.objectName() or button.accessibleName()
        out.append(Control(f"{scope}/[{name}]", button, scope))
        menu = button.menu() if isinstance(button, QToolButton) else None
        if menu is not None:
            _menu_controls(menu, f"{scope}/[{name}]", out, dynamic)
    return out


def reveal(widget: QWidget, window) -> None:
    """Make the tabs and the workspace that hold ``widget`` current."""
    chain = []
    obj = widget
    while obj is not None and obj is not window:
        chain.append(obj)
        obj = obj.parentWidget()
    for child in reversed(chain):
        parent = child.parentWidget()
        if isinstance(child, Workspace) and hasattr(window, "show_workspace"):
            window.show_workspace(child.id)
        elif isinstance(parent, QStackedWidget) and isinstance(parent.parentWidget(), QTabWidget):
            parent.parentWidget().setCurrentWidget(child)
        elif isinstance(parent, QWidget) and isinstance(parent.parentWidget(), QScrollArea):
            parent.parentWidget().ensureWidgetVisible(widget)


@dataclass
class Shown:
    """A dialog the app showed: its kind ("file", "message", "input", "popup"...),
    title, texts and buttons."""

    kind: str
    title: str
    text: str = ""
    buttons: tuple[str, ...] = ()
    icon: object = None


@dataclass
class Dialogs:
    """Answers the app's dialogs from queues the test fills, and records them.

    ``files``: paths returned by the file dialogs ("" cancels); ``buttons``: the
    label of the button to press in the next message box; ``texts``: what to type
    in the next input dialog (None cancels)."""

    files: deque = field(default_factory=deque)
    buttons: deque = field(default_factory=deque)
    texts: deque = field(default_factory=deque)
    shown: list[Shown] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def reset(self) -> None:
        self.files.clear()
        self.buttons.clear()
        self.texts.clear()
        self.shown.clear()
        self.problems.clear()

    def leftovers(self) -> list[str]:
        left = [f"file dialog answer {f!r} never asked" for f in self.files]
        left += [f"message box answer {b!r} never asked" for b in self.buttons]
        left += [f"input answer {t!r} never asked" for t in self.texts]
        return left

    # -- the patched functions --------------------------------------------------
    def file(self, kind: str, title: str):
        self.shown.append(Shown("file", title))
        if not self.files:
            self.problems.append(f"unexpected {kind} dialog {title!r}")
            return ""
        return str(self.files.popleft())

    def message_exec(self, box: QMessageBox) -> int:
        labels = tuple(b.text() for b in box.buttons())
        self.shown.append(Shown("message", box.windowTitle(),
                                f"{box.text()}\n{box.informativeText()}", labels, box.icon()))
        if box.icon() in (QMessageBox.Icon.Warning, QMessageBox.Icon.Critical) and \
                not self.buttons:
            self.problems.append(f"error dialog {box.windowTitle()!r}: {box.text()} "
                                 f"{box.informativeText()}")
        wanted = self.buttons.popleft() if self.buttons else None
        button = next((b for b in box.buttons() if b.text() == wanted), None)
        if button is None:
            if wanted is not None:
                self.problems.append(f"no button {wanted!r} in {box.windowTitle()!r} {labels}")
            button = box.escapeButton() or box.buttons()[-1]
        button.click()
        return box.result()

    def input_exec(self, dialog: QInputDialog) -> int:
        self.shown.append(Shown("input", dialog.windowTitle(), dialog.labelText()))
        if not self.texts:
            self.problems.append(f"unexpected input dialog {dialog.windowTitle()!r}")
            return QDialog.DialogCode.Rejected
        text = self.texts.popleft()
        if text is None:
            return QDialog.DialogCode.Rejected
        dialog.setTextValue(text)
        dialog.done(QDialog.DialogCode.Accepted)
        return QDialog.DialogCode.Accepted

    def install(self, monkeypatch) -> None:
        monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(
            lambda _p=None, title="", *_a, **_k: (self.file("open", title), "")))
        monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(
            lambda _p=None, title="", *_a, **_k: (self.file("save", title), "")))
        monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(
            lambda _p=None, title="", *_a, **_k: self.file("folder", title)))
        monkeypatch.setattr(QMessageBox, "exec", lambda box: self.message_exec(box))
        monkeypatch.setattr(QInputDialog, "exec", lambda dialog: self.input_exec(dialog))
        monkeypatch.setattr(QMessageBox, "aboutQt", staticmethod(
            lambda _p=None, title="": self.shown.append(Shown("about-qt", title))))


class Watchdog(QObject):
    """Every 100 ms: closes a popup menu (recording it) and any other modal window
    (a failure: a control must never leave the user in a dialog the test did not
    expect), so that no test hangs."""

    def __init__(self, dialogs: Dialogs):
        super().__init__()
        self.dialogs = dialogs
        self.allowed: set[QWidget] = set()
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def tick(self) -> None:
        popup = QApplication.activePopupWidget()
        if popup is not None:
            self.dialogs.shown.append(Shown("popup", type(popup).__name__, buttons=tuple(
                clean(a.text()) for a in popup.actions() if not a.isSeparator())))
            popup.close()
        modal = QApplication.activeModalWidget()
        if modal is not None and modal not in self.allowed:
            self.dialogs.problems.append(f"a modal window was left open: "
                                         f"{type(modal).__name__} {modal.windowTitle()!r}")
            modal.close()


def pdn_moves(path: Path) -> list[str]:
    """The move texts of the first game of a PDN file, read by the core's reader."""
    from rulesbook.draughts.pdn import iter_games

    game = next(iter(iter_games(path.read_text(encoding="utf-8"))))
    return [node.text for node in game.mainline]


__all__ = ["Control", "Dialogs", "QAction", "Shown", "Watchdog", "clean", "controls",
           "pdn_moves", "reveal", "scope_of"]
