"""The window's status messages kept whole (issue 33: the status bar cut them,
"…in 0.7"): the status bar's tooltip holds the message shown, whole, and View ▸
Recent Status Messages lists the last ones, whole, to read or copy."""
from __future__ import annotations

from collections import deque
from datetime import datetime

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QPlainTextEdit,
    QPushButton,
    QStatusBar,
    QVBoxLayout,
    QWidget,
)

from .widgets import plain_tip

__all__ = ["StatusLog"]

KEEP = 100


class StatusLog(QObject):
    def __init__(self, bar: QStatusBar, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bar = bar
        self.messages: deque[str] = deque(maxlen=KEEP)
        bar.messageChanged.connect(self._changed)

    def _changed(self, text: str) -> None:
        # the whole message, also when the bar is too narrow for it
        self.bar.setToolTip(plain_tip(text) if text else "")
        self.add(text)

    def add(self, text: str) -> None:
        """Keep ``text`` (a message said elsewhere: the Board's own status line)."""
        if text and (not self.messages or not self.messages[-1].endswith(f"  {text}")):
            self.messages.append(f"{datetime.now():%H:%M:%S}  {text}")

    def text(self) -> str:
        return "\n".join(self.messages)

    def show(self, parent: QWidget) -> QWidget:
        """A window with the recent messages, newest last, whole."""
        from PySide6.QtWidgets import QDialog

        dialog = QDialog(parent)
        dialog.setWindowTitle("Recent Status Messages")
        view = QPlainTextEdit(self.text() or "No messages yet.")
        view.setReadOnly(True)
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        view.setAccessibleName("Recent status messages")
        lay = QVBoxLayout(dialog)
        lay.addWidget(view)
        buttons = QDialogButtonBox()
        close = QPushButton("&Close")
        buttons.addButton(close, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.rejected.connect(dialog.reject)
        lay.addWidget(buttons)
        dialog.resize(640, 360)
        view.moveCursor(view.textCursor().MoveOperation.End)
        dialog.show()
        return dialog
