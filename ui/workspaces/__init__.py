"""Workspaces: the app's main views (Rules, Compare, Editions; later Board,
Rulings, Ballots...).

To add one, subclass :class:`Workspace` in a module of this package and add
the class to ``WORKSPACES`` in ``ui/mainwindow.py``. The main window gives
each workspace the :class:`~ui.controller.AppController`, a navigation entry
with a ``Ctrl+<n>`` shortcut, and saves/restores its state.
"""
from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QSplitter, QTabWidget, QWidget

from rulesbook import Library

from ..controller import AppController
from ..settings import setting_bytes


class Workspace(QWidget):
    """Base class of a workspace. Display and forward; state lives in the controller."""

    #: stable id, used in QSettings and ``controller.workspaceRequested``
    id: str = ""
    #: the navigation label
    title: str = ""
    #: a one-line description (navigation tooltip)
    description: str = ""
    #: a sentence the main window shows at start whatever workspace is shown
    #: (the Board restored an autosave); "" when there is nothing to announce
    start_notice: str = ""
    #: what :meth:`in_force_words` says changed (the Board's game changed variant)
    inForceChanged = Signal()

    def __init__(self, controller: AppController, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.setObjectName(f"workspace-{self.id}")
        controller.libraryLoaded.connect(self.on_library)
        controller.editionChanged.connect(self.on_edition)

    # -- hooks -------------------------------------------------------------
    def on_library(self, library: Library) -> None:
        """A library was loaded (also called again after "Open data folder")."""

    def on_edition(self, edition_id: str) -> None:
        """The edition in force changed."""

    def in_force_words(self) -> tuple[str, str]:
        """What the status bar's "In force" label says while the workspace is shown,
        and its tooltip; ("", "") for the edition in force (the Board: the rulebooks
        that govern a game of another variant, issue 31)."""
        return "", ""

    def save_state(self, settings: QSettings) -> None:
        """Store splitter sizes, column choices... under ``workspace/<id>/``."""

    def restore_state(self, settings: QSettings) -> None:
        """Read back what :meth:`save_state` stored."""

    def export_document(self) -> tuple[str, str] | None:
        """(title, HTML body) of what is shown, for File ▸ Export; None when nothing."""
        return None

    def focus_main(self) -> None:
        """Give the keyboard focus to the workspace's main widget."""
        self.setFocus()

    def key(self, name: str) -> str:
        return f"workspace/{self.id}/{name}"

    def save_layout(self, settings: QSettings, **widgets: QSplitter | QTabWidget) -> None:
        """Store splitter states and current tabs, each under ``workspace/<id>/<name>``."""
        for name, widget in widgets.items():
            if isinstance(widget, QSplitter):
                settings.setValue(self.key(name), widget.saveState())
            else:
                settings.setValue(self.key(name), widget.currentIndex())

    def restore_layout(self, settings: QSettings, **widgets: QSplitter | QTabWidget) -> None:
        """Read back what :meth:`save_layout` stored; missing or bad values are ignored."""
        for name, widget in widgets.items():
            if isinstance(widget, QSplitter):
                state = setting_bytes(settings, self.key(name))
                if state is not None:
                    widget.restoreState(state)
                continue
            value = settings.value(self.key(name))
            if value is None:
                continue
            try:
                widget.setCurrentIndex(int(value))
            except (TypeError, ValueError):
                pass
