"""The Adopt dialog: the new edition's id, title and date, and the redline of
what it changes, shown before anything is written (issue 19)."""
from __future__ import annotations

import html
import re

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from rulesbook import Library
from rulesbook.ballots import Ballot, BallotError
from rulesbook.ballots.adopt import plan_adoption
from rulesbook.editions import consolidate
from rulesbook.textdiff import word_diff

from ..widgets import DocBrowser

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def adoption_preview(library: Library, ballot: Ballot, edition_id: str, title: str,
                     date: str) -> tuple[str, bool]:
    """(HTML, ok): the redline of every adopted text against the text in force, or
    why the edition cannot be written (``ok`` False)."""
    if not edition_id.strip():
        return "<p>Give the new edition an id.</p>", False
    if date and not _DATE.match(date):
        return "<p>The date is written YYYY-MM-DD.</p>", False
    try:
        plan = plan_adoption(library, ballot, edition_id.strip(), title=title or None,
                             date=date or None)
    except BallotError as exc:
        return f"<p><b>It cannot be adopted:</b> {html.escape(str(exc))}</p>", False
    in_force = consolidate(library)
    parts = [f"<h3>{html.escape(plan.edition['title'])}</h3>",
             f"<p class='muted'>{html.escape(plan.edition['id'])}, "
             f"{html.escape(str(plan.edition['date']))}; based on "
             f"{html.escape(plan.base)}. It is put in force when adopted.</p>"]
    adopted = plan.edition.get("adopted", ())
    if not adopted:
        parts.append("<p>No proposal wins: the edition repeats the rules in force.</p>")
    for entry in adopted:
        proposal = library.resolve(entry["proposal"])
        rule = entry.get("rule")
        if rule:
            try:
                old = in_force.rule(rule).text
            except KeyError:
                old = ""
            head = f"{rule} → text of {entry['proposal']}"
        else:
            old, head = "", f"{entry['proposal']} (new text)"
        diff = word_diff(old, proposal.text)
        parts.append(f"<h4>{html.escape(head)}</h4>")
        parts.append("<p>" + diff.html().replace("\n", "<br/>") + "</p>")
    return "\n".join(parts), True


class AdoptDialog(QDialog):
    """Id, title and date of the new edition, with its redline; Adopt writes it."""

    def __init__(self, library: Library, ballot: Ballot, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self.ballot = ballot
        self.setWindowTitle(f"Adopt ballot {ballot.id}")
        self.id_edit = QLineEdit(ballot.id)
        self.title_edit = QLineEdit()
        base = library.edition()
        self.title_edit.setPlaceholderText(f"{base.title.split(' (')[0]} — edition …")
        closed = ballot.seal.closed_at[:10] if ballot.seal is not None else ""
        self.date_edit = QLineEdit(closed)
        self.date_edit.setPlaceholderText("YYYY-MM-DD (the day the ballot closed)")
        form = QFormLayout()
        for text, edit in (("Edition &id:", self.id_edit), ("&Title:", self.title_edit),
                           ("&Date:", self.date_edit)):
            label = QLabel(text)
            label.setBuddy(edit)
            form.addRow(label, edit)
            edit.textChanged.connect(lambda _t: self.refresh())
        self.preview = DocBrowser()
        self.preview.setAccessibleName("What the edition changes")
        self.preview.setMinimumSize(560, 320)
        self.buttons = QDialogButtonBox()
        self.adopt_button = self.buttons.addButton("&Adopt and Put in Force",
                                                   QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton("&Cancel",
                                                    QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("What the new edition changes:"))
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.buttons)
        self.refresh()

    def refresh(self) -> None:
        page, ok = adoption_preview(self.library, self.ballot, self.id_edit.text(),
                                    self.title_edit.text().strip(), self.date_edit.text().strip())
        self.preview.set_page(page)
        self.adopt_button.setEnabled(ok)

    def answer(self) -> tuple[str, str, str]:
        return (self.id_edit.text().strip(), self.title_edit.text().strip(),
                self.date_edit.text().strip())
