"""The Ballots workspace's guard on the main window: it asks before the window
closes while the ballot has unsaved votes."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject

#: the banner's look for an intact ballot and for a failure
OK_STYLE = "QLabel { background: #c8e6c9; color: #1b5e20; padding: 6px; font-weight: bold; }"
BAD_STYLE = "QLabel { background: #ffcdd2; color: #b71c1c; padding: 6px; font-weight: bold; }"


class CloseGuard(QObject):
    """Asks (the workspace's ``may_discard``) before the main window closes."""

    def __init__(self, workspace) -> None:
        super().__init__(workspace)
        self.workspace = workspace

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Close and not self.workspace.may_discard():
            event.ignore()
            return True
        return False
