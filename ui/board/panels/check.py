"""The Check tab: Check Record, let illegal moves stand, the result (from the
core's :func:`~rulesbook.reconstruct.display.check_html`), the rulings request
and clock pro-rating."""
from __future__ import annotations

import html

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from rulesbook.draughts.notation import count_text
from rulesbook.reconstruct import Replay
from rulesbook.reconstruct.display import CHECK_LINK, check_html

from ..controller import BoardController
from ..governs import rulings_tip
from .clocks import ClockBox
from .common import CompactBrowser

__all__ = ["CheckPanel"]


class CheckPanel(QWidget):
    def __init__(self, bc: BoardController):
        super().__init__()
        self._bc = bc
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        self.check_button = QPushButton("Check Record")
        self.check_button.setToolTip("Replay the record and find the first illegal move")
        self.check_button.clicked.connect(lambda: bc.check.run())
        self.let_stand_box = QCheckBox("Let illegal moves stand")
        self.let_stand_box.toggled.connect(bc.set_let_stand)
        row.addWidget(self.check_button)
        row.addWidget(self.let_stand_box, 1)
        lay.addLayout(row)
        self.check_view = CompactBrowser()
        self.check_view.setAccessibleName("Check result")
        self.check_view.setOpenLinks(False)
        self.check_view.anchorClicked.connect(self._link)
        self.check_view.setPlaceholderText("Check the record to find the first illegal move.")
        self.check_view.setMinimumHeight(90)
        lay.addWidget(self.check_view, 1)
        self.clocks = ClockBox(bc)
        self.rulings_button = QPushButton("Rulings for This Incident…")
        self.rulings_button.setEnabled(False)
        self.rulings_button.clicked.connect(lambda: bc.check.request_rulings())
        # the tooltip names the rulebooks that govern the game (issue 31): the
        # edition in force for a pool game, the Standard Laws and the ACF guide for
        # an English one; the record's variant and the edition change it
        bc.changed.connect(self._tip)
        bc.recordChanged.connect(self._tip)
        self._tip()
        # one per row: side by side they widened the column past 1024 px (issue 19)
        lay.addWidget(self.rulings_button)
        row = QHBoxLayout()
        row.addWidget(self.clocks.toggle)
        row.addStretch(1)
        lay.addLayout(row)
        lay.addWidget(self.clocks)
        bc.check.resultChanged.connect(self.show_result)

    def _tip(self) -> None:
        tip = rulings_tip(self._bc)
        if tip != self.rulings_button.toolTip():
            self.rulings_button.setToolTip(tip)

    def show_result(self, result: Replay | None) -> None:
        if result is None:
            self.check_view.clear()
            self.rulings_button.setEnabled(False)
            return
        titles, verdict = self._words(result)
        page = check_html(result, self._bc.let_stand, titles, verdict)
        draw = self._bc.check.draw_claim()
        if draw is not None:
            page += f"<p><b>{html.escape(draw.text)}</b></p>"
            later = self._bc.counts.after_draw_text(draw.ply + 1)
            played = len(result.moves) - draw.ply
            if later and played > 0:
                page += (f"<p>The {count_text(played, 'later move')} (from ply {draw.ply + 1}) "
                         f"{'was' if played == 1 else 'were'} "
                         f"{html.escape(later)}.</p>")
        self.check_view.setHtml(page)
        self.rulings_button.setEnabled(result.first_illegal is not None or draw is not None)

    def _words(self, result: Replay) -> tuple[dict[str, str], str]:
        """The incidents' titles, and the ruling of the first illegal move in words
        with its rule and the rulebooks that govern the game (issue 31)."""
        library = self._bc.counts.library
        if library is None:
            return {}, ""
        from rulesbook.rulings import incidents, verdict_line

        titles = {i.id: i.title for i in incidents(library)}
        request = self._bc.check.rulings_request() if result.first_illegal else None
        if request is None:
            return titles, ""
        return titles, verdict_line(library, request)

    def _link(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith(CHECK_LINK):
            self._bc.go(int(text[len(CHECK_LINK):]) - 1)
