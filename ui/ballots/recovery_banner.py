"""The banner of the Ballots workspace about unsaved votes of an earlier session:
an offer (Restore / Discard) or a notice (OK)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from .recovery import Recovery

__all__ = ["RecoveryBanner"]


class RecoveryBanner(QFrame):
    """Hidden until there is something to offer or to say.

    Signals:
      restoreRequested()   the user asked to restore the offered votes
      discardRequested()   the user asked to discard them
    """

    restoreRequested = Signal()
    discardRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ballot-recovery-banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.restore_button = QPushButton("Restore Unsave&d Votes")
        self.discard_button = QPushButton("Discard Them")
        self.ok_button = QPushButton("OK")
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 2, 6, 2)
        row.addWidget(self.label, 1)
        for b in (self.restore_button, self.discard_button, self.ok_button):
            row.addWidget(b)
        self.restore_button.clicked.connect(lambda: self.restoreRequested.emit())
        self.discard_button.clicked.connect(lambda: self.discardRequested.emit())
        self.ok_button.clicked.connect(lambda: self.hide())
        #: an offer (Restore / Discard) is shown, not a notice
        self.offering = False
        self.setVisible(False)

    def offer(self, recovery: Recovery | None, current: Path | None) -> None:
        """Offer ``recovery`` (None: the offer is withdrawn); ``current``: the ballot
        file open now (the recovery's file is named when it is another)."""
        if recovery is None:
            if self.offering:
                self.hide()
            return
        where = "" if current is not None and current.resolve() == recovery.path.resolve() \
            else f" (file {recovery.path})"
        self.label.setText(
            f"Unsaved changes to ballot {recovery.ballot_id}{where} were found from "
            f"{recovery.saved_at or 'an earlier session'}: {recovery.summary}. Restore them "
            f"(they stay unsaved until you save) or discard them?")
        self.offering = True
        self.restore_button.show()
        self.discard_button.show()
        self.ok_button.hide()
        self.show()

    def notice(self, text: str) -> None:
        """Say ``text`` with an OK button (an empty text hides the banner)."""
        self.offering = False
        if not text:
            self.hide()
            return
        self.label.setText(text)
        self.restore_button.hide()
        self.discard_button.hide()
        self.ok_button.show()
        self.show()

    def close_offer(self) -> None:
        self.offering = False
        self.hide()
