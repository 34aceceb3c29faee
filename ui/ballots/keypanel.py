"""The "Your key" row of the Ballots workspace: which member signs, the passphrase,
Use / Create / Import, and a plain sentence on what happened (a missing key, a
wrong passphrase). The passphrase field is cleared as soon as it was used."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rulesbook.ballots import BallotError, SigningKey

from .keyring import KeyRing

OK = "QLabel { color: #1b5e20; }"
BAD = "QLabel { color: #b71c1c; font-weight: bold; }"


class KeyPanel(QWidget):
    def __init__(self, keys: KeyRing, parent: QWidget | None = None):
        super().__init__(parent)
        self.keys = keys
        self.open_dialog = QFileDialog.getOpenFileName  # tests replace it
        self.member_combo = QComboBox()
        self.member_combo.setAccessibleName("Sign as member")
        label = QLabel("Your &key:")
        label.setBuddy(self.member_combo)
        self.passphrase_edit = QLineEdit()
        self.passphrase_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase_edit.setAccessibleName("Passphrase")
        self.passphrase_edit.setPlaceholderText("passphrase (if the key has one)")
        self.use_button = QPushButton("&Use Key")
        self.create_button = QPushButton("&Create Key")
        self.import_button = QPushButton("Import Key…")
        self.use_button.setToolTip("Open your key from this computer's configuration folder")
        self.create_button.setToolTip("Make a new key for the member: the private key stays "
                                      "in your configuration folder, the public key goes "
                                      "into members.yaml")
        self.status = QLabel("No key in use: votes and seals cannot be signed.")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        # two lines: the key's controls, then what happened (and the buttons the
        # workspace lays beside it, see add_beside_status): in one row they made the
        # window at least 691 px wide (issue 33)
        lines = QVBoxLayout(self)
        lines.setContentsMargins(0, 0, 0, 0)
        lines.setSpacing(0)
        row = QHBoxLayout()
        row.addWidget(label)
        row.addWidget(self.member_combo)
        row.addWidget(self.passphrase_edit, 1)
        for b in (self.use_button, self.create_button, self.import_button):
            row.addWidget(b)
        lines.addLayout(row)
        self.status_row = QHBoxLayout()
        self.status_row.addWidget(self.status, 1)
        lines.addLayout(self.status_row)
        self.use_button.clicked.connect(lambda: self.use())
        self.passphrase_edit.returnPressed.connect(lambda: self.use())
        self.create_button.clicked.connect(lambda: self.create_key())
        self.import_button.clicked.connect(lambda: self.import_key())
        keys.message.connect(self._message)
        keys.keyChanged.connect(self._key_changed)

    def add_beside_status(self, widget: QWidget) -> None:
        """``widget`` at the end of the status line (the workspace's Sign Settings)."""
        self.status_row.addWidget(widget)

    def set_members(self, members: list[tuple[str, str]]) -> None:
        """(id, name) of the members one can sign as."""
        current = self.member_combo.currentData()
        self.member_combo.clear()
        for mid, name in members:
            self.member_combo.addItem(f"{mid} {name}".strip(), mid)
        index = self.member_combo.findData(current)
        if index < 0 and self.keys.root is not None:
            try:
                local = self.keys.local_members()
            except BallotError:
                local = []
            index = self.member_combo.findData(local[0]) if local else 0
        self.member_combo.setCurrentIndex(max(0, index))

    def _key_changed(self, signer: SigningKey | None) -> None:
        """The member shown is the one whose key is in use, however it was chosen."""
        if signer is not None:
            index = self.member_combo.findData(signer.member)
            if index >= 0:
                self.member_combo.setCurrentIndex(index)

    def _message(self, text: str, error: bool) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(BAD if error else OK)

    def _passphrase(self) -> str:
        text = self.passphrase_edit.text()
        self.passphrase_edit.clear()
        return text

    def use(self) -> bool:
        member = self.member_combo.currentData()
        if member is None:
            return False
        try:
            self.keys.use(member, self._passphrase())
        except BallotError:
            return False
        return True

    def create_key(self) -> bool:
        member = self.member_combo.currentData()
        if member is None:
            return False
        try:
            self.keys.create(member, self._passphrase())
        except BallotError:
            return False
        return True

    def import_key(self, path: str | None = None) -> bool:
        member = self.member_combo.currentData()
        if member is None:
            return False
        if path is None:
            path, _ = self.open_dialog(self, f"Import the private key of {member}", "",
                                       "Private keys (*.pem)")
            if not path:
                return False
        try:
            self.keys.import_file(member, path, self._passphrase())
        except BallotError:
            return False
        return True
