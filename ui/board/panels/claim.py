"""The draw claim beside the board's status line: the count reached (or the claim
a proposal would decide) at the ply shown, in words, with the button (and
Ctrl+Shift+R) that opens the rulings with the facts filled in."""
from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from rulesbook.draughts import CountState
from rulesbook.draughts.notation import count_text

from ..controller import BoardController

__all__ = ["DrawClaimBar", "CLAIM_SHORTCUT"]

CLAIM_SHORTCUT = "Ctrl+Shift+R"


class DrawClaimBar(QWidget):
    """Hidden while no draw claim is decided at or before the ply shown."""

    def __init__(self, bc: BoardController, owner: QWidget):
        super().__init__()
        self._bc = bc
        # the claim above its button: under the board the column is narrow (issue 33)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 0, 4, 0)
        self.label = QLabel()
        self.label.setObjectName("board-draw-claim")
        self.label.setAccessibleName("Draw claim")
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # tags and moves: never HTML
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self.button = QPushButton("Draw Rulings…")
        shown = QKeySequence(CLAIM_SHORTCUT).toString(QKeySequence.SequenceFormat.NativeText)
        self.button.setToolTip(f"Open the rulings on this draw claim, facts filled in ({shown})")
        self.button.clicked.connect(lambda: self.request())
        # the shortcut works wherever the focus is while the Board is shown
        self.action = QAction("Draw Rulings", owner)
        self.action.setShortcut(QKeySequence(CLAIM_SHORTCUT))
        self.action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.action.triggered.connect(lambda _checked=False: self.request())
        owner.addAction(self.action)
        lay.addWidget(self.label)
        lay.addWidget(self.button, 0, Qt.AlignmentFlag.AlignRight)
        bc.changed.connect(self.refresh)
        bc.modeChanged.connect(lambda _mode: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        bc = self._bc
        claim = None if bc.mode == "setup" else bc.counts.current()
        self.action.setEnabled(claim is not None)
        if claim is None:
            self.hide()
            return
        text = claim.text
        if bc.ply > claim.ply and claim.reached:
            text += f" — ply {bc.ply} is {count_text(bc.ply - claim.ply, 'move')} after the draw"
        elif bc.ply > claim.ply:
            # the claim's "N move(s) remain" was true at its own ply; say where the
            # count stands now instead (a referee reads the line at every move)
            text = re.sub(r" \(\d+ move\(s\) remain\)", "", text)
            now = live_count(bc.counts.at())
            if now:
                text += f" — now, after ply {bc.ply}: {now}"
        if self.label.text() != text:
            self.label.setText(text)
        self.label.setStyleSheet("color: #c00000; font-weight: bold;" if claim.reached else
                                 "font-weight: bold;")
        self.show()

    def text(self) -> str:
        """The claim shown ("" while hidden)."""
        return "" if self.isHidden() else self.label.text()

    def request(self) -> bool:
        return self._bc.counts.request_rulings()


def live_count(state: CountState | None) -> str:
    """Where the counts stand: "13-count 12 of 13 (1 left)", "stronger side 20 of 30
    (10 left)"; "" when no count runs."""
    if state is None:
        return ""
    parts = []
    if state.three_vs_one_active and state.three_vs_one_limit:
        left = max(0, state.three_vs_one_limit - state.three_vs_one_moves)
        parts.append(f"13-count {state.three_vs_one_moves} of {state.three_vs_one_limit} "
                     f"({left} left)")
    if state.strong_side is not None and state.strong_side_limit:
        left = max(0, state.strong_side_limit - state.strong_side_moves)
        parts.append(f"stronger side's count {state.strong_side_moves} of "
                     f"{state.strong_side_limit} ({left} left)")
    return "; ".join(parts)
