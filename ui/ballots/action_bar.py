"""The row of ballot actions of the Ballots workspace: the file (open, new, save,
import a member's ballot, export my votes), the settings' signature (sign), the
seal (close and seal; verify and adopt, shown on the Tally tab) and the receipt check
(shown on the Tally tab), each enabled only when it can act."""
from __future__ import annotations

from PySide6.QtWidgets import QLineEdit, QPushButton, QToolBar, QWidget

from rulesbook.ballots import Ballot

__all__ = ["BallotActionBar"]


class BallotActionBar(QToolBar):
    """The buttons; the workspace connects them to its actions."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Ballot", parent)
        self.setAccessibleName("Ballot actions")
        self.open_button = QPushButton("&Open…")
        self.new_button = QPushButton("&New from Library…")
        self.save_button = QPushButton("&Save")
        self.import_button = QPushButton("Import &Ballot…")
        self.import_button.setToolTip("Import the signed votes a member sent (their "
                                      "exported ballot file)")
        self.export_button = QPushButton("E&xport My Votes…")
        self.export_button.setToolTip("Save your own votes, signed with your key, to send "
                                      "to the secretary")
        self.sign_button = QPushButton("Sign Settings (&J)")
        self.sign_button.setToolTip("Open the ballot: sign its settings (method, threshold, "
                                    "quorum, roll, questions and options) with your key, the "
                                    "chair's or the secretary's; until then it takes no vote")
        self.seal_button = QPushButton("C&lose and Seal…")
        self.verify_button = QPushButton("Ver&ify the Seal")
        self.adopt_button = QPushButton("&Adopt…")
        self.save_button.setToolTip("Save the votes (Ctrl+S)")
        self.seal_button.setToolTip("Count with the chosen method, close the ballot and seal it")
        self.verify_button.setToolTip("Check the seal of the file on disk")
        self.adopt_button.setToolTip("Write the next edition of the rules from the sealed ballot")
        self.receipt_edit = QLineEdit()
        self.receipt_edit.setAccessibleName("Receipt code")
        self.receipt_edit.setPlaceholderText("receipt code")
        self.receipt_edit.setMaximumWidth(190)
        self.receipt_button = QPushButton("Check Recei&pt")
        self.receipt_button.setToolTip("Is the vote of this receipt in the sealed ballot, "
                                       "unchanged?")
        for b in (self.open_button, self.new_button, self.save_button, self.import_button,
                  self.export_button):
            self.addWidget(b)
        self.addSeparator()
        self.addWidget(self.seal_button)
        # what acts on the sealed ballot (verify its seal, adopt its results) is laid
        # out on the Tally tab with the receipt check, beside the results it acts on:
        # at 1024 px and 1.25x font this bar hid them behind its » (issue 33)
        # the settings' signature is laid out beside the key in use (the workspace puts
        # it there): at 1024 px this bar has no room for it either
        # the receipt check is laid out on the Tally tab (see TallyPanel.add_receipt_row),
        # with the results it checks: at 1024 px this bar has no room for it (issue 19)

    def enable_for(self, ballot: Ballot | None, dirty: bool) -> None:
        """Enable what can act on ``ballot`` (None: no ballot open) with or without
        unsaved votes."""
        has = ballot is not None
        is_open = ballot is not None and ballot.is_open
        sealed = ballot is not None and ballot.seal is not None
        self.save_button.setEnabled(has and dirty)
        self.import_button.setEnabled(is_open)
        self.export_button.setEnabled(has)
        self.sign_button.setEnabled(is_open and ballot is not None and ballot.opened is None
                                    and not ballot.votes)
        self.seal_button.setEnabled(is_open)
        self.verify_button.setEnabled(sealed)
        self.adopt_button.setEnabled(sealed and not dirty)
