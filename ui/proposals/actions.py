"""The Rules workspace's proposal actions: New Proposal…, Edit Proposal…, Withdraw
Proposal… and Add Member…, enabled for the page shown."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence

from rulesbook.errors import RulesbookError
from rulesbook.model import Entry, Proposal, Rule
from rulesbook.proposing import closed_ballot_with

from ..dialogs import ask_text, warn
from .controller import ProposalController
from .editor import ProposalEditor, draft_slot

if TYPE_CHECKING:
    from ..workspaces.rules import RulesWorkspace


class ProposalActions(QObject):
    def __init__(self, workspace: RulesWorkspace) -> None:
        super().__init__(workspace)
        self.workspace = workspace
        self.proposals = ProposalController(workspace.controller, self)
        self.proposals.statusMessage.connect(workspace.controller.statusMessage)
        self._failure_title: str | None = None
        self.proposals.failed.connect(self._failed)
        self.proposals.written.connect(self._written)
        self.editor: ProposalEditor | None = None
        self.new_action = self._action("New Proposal…", "Ctrl+Shift+A", self.new_proposal)
        self.edit_action = self._action("Edit Proposal…", "Ctrl+Shift+T", self.edit_proposal)
        self.withdraw_action = self._action("Withdraw Proposal…", "Ctrl+Shift+W",
                                            self.withdraw_proposal)
        self.member_action = self._action("Add Member…", "Ctrl+Shift+M", self.add_member)
        self.actions = (self.new_action, self.edit_action, self.withdraw_action,
                        self.member_action)
        self.update()

    def _action(self, text: str, keys: str, slot: Callable[[], object]) -> QAction:
        action = QAction(text, self.workspace)
        action.setShortcut(QKeySequence(keys))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setToolTip(f"{text.rstrip('…')} ({keys})")
        action.triggered.connect(lambda _checked=False: slot())
        # on the workspace too: the shortcut works when the toolbar is too narrow to show it
        self.workspace.addAction(action)
        return action

    # -- what the page shown allows ----------------------------------------------
    def _entry(self) -> Entry | None:
        library = self.workspace.controller.library
        current = getattr(self.workspace, "current", None)
        if library is None or not current or current.startswith("topic:"):
            return None
        return library.index.get(current)

    def update(self) -> None:
        library = self.workspace.controller.library
        entry = self._entry()
        self.new_action.setEnabled(library is not None)
        self.member_action.setEnabled(library is not None)
        open_prop = isinstance(entry, Proposal) and entry.withdrawn is None
        self.edit_action.setEnabled(open_prop)
        self.withdraw_action.setEnabled(open_prop)

    def _home_rule(self) -> str | None:
        """The rule a new proposal is filed under: the rule shown (or the one the
        proposal shown is filed under), when it is in the book proposals are made to."""
        from rulesbook.proposing import home_book

        entry = self._entry()
        library = self.workspace.controller.library
        if library is None:
            return None
        if isinstance(entry, Proposal):
            entry = library.index.get(entry.rule) if entry.rule else None
        if isinstance(entry, Rule) and entry.rulebook == home_book(library):
            return entry.ref
        return None

    # -- the actions ---------------------------------------------------------------
    def _open(self, editor: ProposalEditor) -> ProposalEditor:
        old = self.editor
        if old is not None:
            if old.isVisible() and not old.close():  # the member kept the unsaved draft
                editor.saved = True
                editor.deleteLater()
                old.raise_()
                old.activateWindow()
                return old
            old.deleteLater()
        self.editor = editor
        editor.show()
        editor.raise_()
        editor.activateWindow()
        return editor

    def new_proposal(self, recovered: dict[str, object] | None = None) -> ProposalEditor | None:
        library = self.workspace.controller.library
        if library is None:
            return None
        rule = recovered.get("rule") if recovered else self._home_rule()
        if not isinstance(rule, str) or rule not in library.index:
            rule = None
        return self._open(ProposalEditor(self.proposals, rule=rule, recovered=recovered,
                                         parent=self.workspace.window()))

    def edit_proposal(self) -> ProposalEditor | None:
        entry = self._entry()
        library = self.workspace.controller.library
        if not isinstance(entry, Proposal) or library is None:
            return None
        ballot = closed_ballot_with(library, entry.ref)
        if ballot:
            warn(self.workspace, "Proposal closed", f"{entry.ref} cannot be edited: the "
                 f"closed ballot {ballot} includes it.")
            return None
        return self._open(ProposalEditor(self.proposals, editing=entry.ref,
                                         parent=self.workspace.window()))

    def withdraw_proposal(self) -> None:
        entry = self._entry()
        if not isinstance(entry, Proposal):
            return
        reason, ok = ask_text(self.workspace, f"Withdraw {entry.ref}",
                              f"Withdraw {entry.ref}? It stays in the record, off every new "
                              "ballot.\nReason (optional):")
        if not ok:
            return
        self._report_failure("Not withdrawn")
        try:
            self.proposals.withdraw(entry.ref, reason)
        except (RulesbookError, OSError) as exc:
            self._failure_title = None
            warn(self.workspace, "Not withdrawn", str(exc))

    def add_member(self) -> None:
        name, ok = ask_text(self.workspace, "Add Member",
                            "Name of the new committee member (the next free letter is "
                            "given):")
        if not ok or not name.strip():
            return
        self._report_failure("Member not added")
        try:
            self.proposals.add_member(name)
        except (RulesbookError, OSError) as exc:
            self._failure_title = None
            warn(self.workspace, "Member not added", str(exc))

    def _report_failure(self, title: str) -> None:
        """A refusal of the write started next (withdraw, member) is shown under ``title``
        (the editor shows its own)."""
        self._failure_title = title

    def _failed(self, message: str) -> None:
        title, self._failure_title = self._failure_title, None
        if title:
            warn(self.workspace, title, message)

    def _written(self, _ref: str) -> None:
        self._failure_title = None

    def recover(self) -> ProposalEditor | None:
        """After a crash: the editor again with the draft that was being written."""
        data = draft_slot().recoverable()
        if data is None:
            return None
        library = self.workspace.controller.library
        editing = data.get("editing")
        if library is None:
            return None
        # the file may be damaged or edited: only a proposal's ref reopens its edit
        if isinstance(editing, str) and isinstance(library.index.get(editing), Proposal):
            editor = ProposalEditor(self.proposals, editing=editing, recovered=data,
                                    parent=self.workspace.window())
            return self._open(editor)
        return self.new_proposal(recovered=data)
