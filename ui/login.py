"""The app's answer when a git host asks for a login: a dialog for the user name and
the password or token, shown on the GUI thread while the sync waits on its worker.

:class:`LoginAsker` is the Qt adapter of :data:`rulesbook.rulesfolder.credentials.Ask`:
the worker calls :meth:`LoginAsker.ask`, which hands the question to the GUI thread
(a blocking queued signal) and returns the login given (None: cancelled). What the
user types is handed to git's credential helpers by the core, never saved by the app.
"""
from __future__ import annotations

import re

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from rulesbook.rulesfolder.credentials import Keeping, Login, LoginRequest


class LoginDialog(QDialog):
    """User name and password (or access token) for one host."""

    def __init__(self, host: str, user: str | None, parent: QWidget | None = None,
                 keeping: Keeping | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("loginDialog")
        self.setWindowTitle(f"Log in to {host}")
        intro = QLabel(f"{host} asks for a user name and a password or token. A host such "
                       f"as GitHub or GitLab takes an access token in place of the password.")
        intro.setWordWrap(True)
        self.user = QLineEdit(user or "")
        self.user.setObjectName("loginUser")
        self.password = QLineEdit()
        self.password.setObjectName("loginPassword")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        #: how the login typed is remembered, said before the password is typed
        self.keeping = QLabel(_keeping_sentence(keeping))
        self.keeping.setObjectName("loginKeeping")
        self.keeping.setWordWrap(True)
        self.keeping.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form = QFormLayout()
        form.addRow("User name", self.user)
        form.addRow("Password or token", self.password)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.keeping)
        layout.addWidget(buttons)
        (self.password if user else self.user).setFocus()

    def login(self) -> Login | None:
        name, secret = self.user.text().strip(), self.password.text()
        return Login(name, secret) if name and secret else None


class LoginAsker(QObject):
    """Lives on the GUI thread; :meth:`ask` may be called from any thread."""

    _asked = Signal(object)

    def __init__(self, parent_widget: QWidget | None = None, parent: QObject | None = None
                 ) -> None:
        super().__init__(parent)
        self.parent_widget = parent_widget
        self._answer: Login | None = None
        self._asked.connect(self._show, Qt.ConnectionType.BlockingQueuedConnection)

    def ask(self, request: LoginRequest) -> Login | None:
        if QThread.currentThread() is self.thread():
            self._show(request)
        else:
            self._asked.emit(request)  # waits until the dialog is closed
        answer, self._answer = self._answer, None
        return answer

    @Slot(object)
    def _show(self, request: LoginRequest) -> None:
        dialog = LoginDialog(request.host, request.user, self.parent_widget, request.keeping)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        self._answer = dialog.login() if accepted else None
        dialog.deleteLater()


def _keeping_sentence(keeping: Keeping | None) -> str:
    """The dialog's line on how the login is remembered: by git's credential helper
    or the system keychain, or not at all (then each sync asks again, and how to set
    a helper up); never in the rules folder."""
    if keeping is None:
        return "The password is never written into the rules folder."
    text = re.sub(r"`([^`]*)`", "“\\1”", keeping.text.removeprefix("warning: "))
    sentence = text[:1].upper() + text[1:] + "."
    if keeping.kept:  # the not-kept sentence says it already
        sentence += " The password is never written into the rules folder."
    return sentence
