"""The proposal controller: every write of a member or a proposal from the app, each
one commit in the rules folder (``recorded_change``), then the library reloaded and
the new record shown. The core does the checking (:mod:`rulesbook.proposing`)."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from rulesbook.errors import RulesbookError
from rulesbook.proposing import (
    Draft,
    NewMember,
    Withdrawal,
    add_member,
    edit_proposal,
    plan_member,
    plan_proposal,
    propose,
    withdraw_proposal,
)
from rulesbook.rulesfolder import recorded_change
from rulesbook.storage import durability_notes


class ProposalController(QObject):
    """Signals:
      written(str)         a record was written: its ref (or a member's letter)
      statusMessage(str)   a sentence for the status line
    """

    written = Signal(str)
    statusMessage = Signal(str)

    def __init__(self, app, parent: QObject | None = None):
        super().__init__(parent)
        self.app = app  # the AppController: library, data folder, reload

    @property
    def root(self):
        if self.app.library is None:
            raise RulesbookError("no rules folder is open")
        return self.app.library.root

    def _reload(self, ref: str | None, message: str) -> None:
        self.app.load(self.root)
        if ref:
            self.app.open_ref(ref)
        self.statusMessage.emit(message)
        self.written.emit(ref or "")

    def add_member(self, name: str, letter: str | None = None) -> NewMember:
        planned = plan_member(self.app.library, name, letter or None)  # the letter, checked
        with durability_notes(), recorded_change(self.root / "members.yaml",
                                                 f"Member {planned.id}: {planned.name} joins "
                                                 "the committee"):
            member = add_member(self.root, name, letter or None)
        self._reload(None, f"Member {member.id}: {member.name} added")
        return member

    def propose(self, **fields) -> Draft:
        planned = plan_proposal(self.app.library, **fields)  # the id, and every check
        what = f"{planned.kind} for {planned.rule.partition(':')[2]}" if planned.rule else \
            f"{planned.kind} {planned.title}"
        with durability_notes(), recorded_change(
                self.root, f"Proposal {planned.id} by member {planned.member}: {what[:120]}",
                member=planned.member):
            draft = propose(self.root, **fields)
        self._reload(draft.ref, f"{draft.ref} written ({draft.kind} by member {draft.member})")
        return draft

    def edit(self, ref: str, text: str) -> None:
        with durability_notes(), recorded_change(self.root, f"Proposal {ref}: text edited"):
            prop = edit_proposal(self.root, ref, text)
        self._reload(prop.ref, f"{prop.ref}: text replaced")

    def withdraw(self, ref: str, reason: str = "") -> Withdrawal:
        why = f" ({reason.strip()[:120]})" if reason.strip() else ""
        with durability_notes(), recorded_change(self.root, f"Proposal {ref}: withdrawn{why}"):
            done = withdraw_proposal(self.root, ref, reason)
        self._reload(done.ref, f"{done.ref}: withdrawn on {done.date}")
        return done
