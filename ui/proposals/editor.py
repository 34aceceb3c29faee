"""The proposal editor: the text in force beside the member's draft, the word
redline of the draft against it updated as the member types, kind and topics from
lists; the draft is autosaved as typed (:class:`ui.autosave.AutosaveSlot`) and
offered back after a crash. Not modal: the rule pages stay readable while writing.

Keyboard: every field has an Alt key (its label's), Ctrl+Return saves, Esc closes
(asking before an unsaved draft is thrown away)."""
from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from rulesbook.errors import RulesbookError
from rulesbook.model import PROPOSAL_KINDS, Proposal, Rule
from rulesbook.proposing import suggest_topics
from rulesbook.proposing.redline import redline, text_in_force

from ..autosave import AutosaveSlot, autosave_dir
from ..dialogs import YES_NO, ask, give_mnemonics, warn
from ..theme import document_css
from ..widgets import PopupOnlyComboBox

if TYPE_CHECKING:
    from .controller import ProposalController

DRAFT_VERSION = 1
#: how long typing must pause before the redline and the autosave are refreshed
TYPING_PAUSE_MS = 250


def draft_slot() -> AutosaveSlot:
    return AutosaveSlot(autosave_dir() / "proposal-draft.json", DRAFT_VERSION)


class ProposalEditor(QDialog):
    """A new proposal (``rule``: the rule it is filed under, or None for new text) or
    the edit of an existing one (``editing``: its ref)."""

    closedWithoutSaving = Signal()

    def __init__(self, proposals: ProposalController, rule: str | None = None,
                 editing: str | None = None, recovered: dict[str, object] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.proposals = proposals
        library = proposals.require_library()
        self.library = library
        self.editing = editing
        self.slot = draft_slot()
        self.saved = False
        entry = library.index.get(editing) if editing else None
        if editing and not isinstance(entry, Proposal):
            raise RulesbookError(f"{editing} is not a proposal: only a proposal's text "
                                 "can be edited")
        edited = entry if isinstance(entry, Proposal) else None
        if edited is not None:
            rule = edited.rule
        self.rule = rule
        self.setWindowTitle(f"Edit Proposal {edited.ref}" if edited else "New Proposal")
        self.setWindowModality(Qt.WindowModality.NonModal)

        self.member = PopupOnlyComboBox()
        for m in library.members:
            if m.id != "unknown":
                self.member.addItem(m.label, m.id)
        self.kind = PopupOnlyComboBox()
        for kind in PROPOSAL_KINDS:
            self.kind.addItem(kind, kind)
        self.rule_label = QLabel(self._rule_text())
        self.rule_label.setTextFormat(Qt.TextFormat.PlainText)
        self.title_edit = QLineEdit()
        self.title_edit.setPlaceholderText("needed for new text not filed under a rule")
        self.topics = QListWidget()
        self.topics.setAccessibleName("Topics")
        for topic in library.topics:
            item = QListWidgetItem(f"{topic.title} ({topic.id})")
            item.setData(Qt.ItemDataRole.UserRole, topic.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.topics.addItem(item)
        self.suggest_button = QPushButton("S&uggest Topics")
        self.suggest_button.clicked.connect(lambda: self.suggest())

        self.in_force = QTextBrowser()
        self.in_force.setAccessibleName("Text in force")
        self.draft = QPlainTextEdit()
        self.draft.setAccessibleName("Draft")
        self.draft.setTabChangesFocus(True)
        self.redline_view = QTextBrowser()
        self.redline_view.setAccessibleName("Redline")
        self.redline_view.document().setDefaultStyleSheet(document_css())
        self.notice = QLabel()
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        self.notice.setWordWrap(True)
        self.notice.hide()

        form = QFormLayout()
        for label, widget in (("&Member:", self.member), ("&Kind:", self.kind),
                              ("Rule:", self.rule_label), ("T&itle:", self.title_edit)):
            lab = QLabel(label)
            if widget is not self.rule_label:
                lab.setBuddy(widget)
            form.addRow(lab, widget)
        topics_label = QLabel("T&opics:")
        topics_label.setBuddy(self.topics)
        topics_box = QVBoxLayout()
        topics_box.addWidget(self.topics)
        topics_box.addWidget(self.suggest_button)
        form.addRow(topics_label, topics_box)
        left = QWidget()
        left.setLayout(form)

        def column(title: str, widget: QWidget, buddy: bool = True) -> QWidget:
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(0, 0, 0, 0)
            lab = QLabel(title)
            if buddy:
                lab.setBuddy(widget)
            lay.addWidget(lab)
            lay.addWidget(widget)
            return box

        texts = QSplitter(Qt.Orientation.Horizontal)
        texts.addWidget(column("Text in &force:", self.in_force))
        texts.addWidget(column("&Draft:", self.draft))
        texts.addWidget(column("&Redline against the text in force:", self.redline_view))
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(left)
        top.addWidget(texts)
        top.setStretchFactor(1, 3)
        top.setSizes([260, 740])

        self.buttons = QDialogButtonBox()
        self.save_button = self.buttons.addButton("&Save Proposal",
                                                  QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton("&Close",
                                                    QDialogButtonBox.ButtonRole.RejectRole)
        self.save_button.setToolTip("Save the proposal (Ctrl+Return): one commit in the "
                                    "rules folder")
        self.save_button.clicked.connect(lambda: self.save())
        self.cancel_button.clicked.connect(lambda: self.reject())
        give_mnemonics(self.buttons.buttons())
        save_shortcut = QShortcut(QKeySequence("Ctrl+Return"), self)
        save_shortcut.activated.connect(lambda: self.save())

        layout = QVBoxLayout(self)
        layout.addWidget(self.notice)
        layout.addWidget(top, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.buttons)
        layout.addLayout(row)
        self.resize(1000, 640)

        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(TYPING_PAUSE_MS)
        self.timer.timeout.connect(self.refresh)
        self._pending = False
        proposals.written.connect(self._written)
        proposals.failed.connect(self._failed)

        in_force = text_in_force(library, rule, proposals.app.edition_id)
        self._in_force = in_force
        self.in_force.setPlainText(in_force.text if in_force else
                                   "(new text: nothing is in force yet)")
        if edited is not None:
            self._set_member(edited.member)
            self.kind.setCurrentIndex(self.kind.findData(edited.kind))
            self.title_edit.setText(edited.title or "")
            self.draft.setPlainText(edited.text)
            self.set_topics(edited.topics)
            fixed: tuple[QWidget, ...] = (self.member, self.kind, self.title_edit, self.topics,
                                          self.suggest_button)
            for control in fixed:
                control.setEnabled(False)  # an edit changes the text only
        else:
            self.kind.setCurrentIndex(self.kind.findData("replacement" if rule else
                                                         "addition"))
        self._initial = self.draft.toPlainText()
        if recovered:
            self.restore(recovered)
        self.refresh()
        for signal in (self.draft.textChanged, self.title_edit.textChanged,
                       self.kind.currentIndexChanged, self.member.currentIndexChanged,
                       self.topics.itemChanged):
            signal.connect(self.changed)
        self.draft.setFocus()

    # -- fields ----------------------------------------------------------------
    def _rule_text(self) -> str:
        if self.rule is None:
            return "new text (not filed under a rule)"
        entry = self.library.index[self.rule]
        return entry.label if isinstance(entry, Rule) else self.rule

    def _set_member(self, member: str) -> None:
        i = self.member.findData(member)
        if i >= 0:
            self.member.setCurrentIndex(i)

    def chosen_topics(self) -> list[str]:
        return [self.topics.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(self.topics.count())
                if self.topics.item(i).checkState() == Qt.CheckState.Checked]

    def set_topics(self, topics: Iterable[str]) -> None:
        wanted = set(topics)
        for i in range(self.topics.count()):
            item = self.topics.item(i)
            item.setCheckState(Qt.CheckState.Checked if item.data(Qt.ItemDataRole.UserRole)
                               in wanted else Qt.CheckState.Unchecked)

    def suggest(self) -> None:
        rule = self.library.index.get(self.rule) if self.rule else None
        self.set_topics(suggest_topics(self.library, self.draft.toPlainText(),
                                       rule if isinstance(rule, Rule) else None))

    # -- typing: redline and autosave ------------------------------------------------
    def changed(self, *_args: object) -> None:
        self.timer.start()

    def refresh(self) -> None:
        """The redline of the draft as it stands, and the autosave."""
        self.timer.stop()
        diff = redline(self._in_force, self.draft.toPlainText())
        self.redline_view.setHtml(f'<div style="white-space: pre-wrap">{diff.html()}</div>')
        self.autosave()

    def to_draft(self) -> dict[str, object]:
        text = self.draft.toPlainText()
        return {"dirty": bool(text.strip()) and text != self._initial and not self.saved,
                "editing": self.editing, "rule": self.rule,
                "member": self.member.currentData(), "kind": self.kind.currentData(),
                "title": self.title_edit.text(), "topics": self.chosen_topics(),
                "text": self.draft.toPlainText(),
                "saved_at": time.strftime("%Y-%m-%d %H:%M:%S")}

    def autosave(self) -> None:
        if self.saved:
            return
        error = self.slot.write(self.to_draft())
        if error:
            self.notice.setText(f"The draft could not be autosaved: {error}")
            self.notice.show()

    def restore(self, data: Mapping[str, object]) -> None:
        member, kind, title = data.get("member"), data.get("kind"), data.get("title")
        topics, text = data.get("topics"), data.get("text")
        if isinstance(member, str):
            self._set_member(member)
        if kind in PROPOSAL_KINDS and self.editing is None:
            self.kind.setCurrentIndex(self.kind.findData(kind))
        if isinstance(title, str) and self.editing is None:
            self.title_edit.setText(title)
        if isinstance(topics, list) and self.editing is None:
            self.set_topics([t for t in topics if isinstance(t, str)])
        if isinstance(text, str):
            self.draft.setPlainText(text)
        self.notice.setText(f"Recovered the unsaved draft of {data.get('saved_at', '?')}; "
                            "save it or close to throw it away.")
        self.notice.show()

    # -- saving ----------------------------------------------------------------
    def save(self) -> None:
        """Start the write (on the controller's worker thread); the editor closes when
        it has landed, or shows why it was refused and stays open."""
        if self._pending:
            return
        try:
            if self.editing:
                started = self.proposals.edit(self.editing, self.draft.toPlainText())
            else:
                started = self.proposals.propose(
                    member=self.member.currentData(), rule=self.rule,
                    kind=self.kind.currentData(), text=self.draft.toPlainText(),
                    title=self.title_edit.text() or None, topics=self.chosen_topics())
        except (RulesbookError, OSError) as exc:  # refused before anything is written
            warn(self, "Proposal not saved", str(exc))
            return
        if started:
            self._pending = True
            self.save_button.setEnabled(False)
            self.notice.setText("Saving…")
            self.notice.show()

    def _written(self, _ref: str) -> None:
        if not self._pending:
            return
        self._pending = False
        self.saved = True
        self.slot.discard()
        self.accept()

    def _failed(self, message: str) -> None:
        if not self._pending:
            return
        self._pending = False
        self.save_button.setEnabled(True)
        self.notice.setText("Not saved.")
        warn(self, "Proposal not saved", message)

    def reject(self) -> None:
        text = self.draft.toPlainText()
        if not self.saved and text.strip() and text != self._initial:
            if ask(self, "Close the draft", "Throw away this draft? It is not saved.",
                   YES_NO, default="no") != "yes":
                return
        self.saved = True  # nothing more to autosave
        self.timer.stop()
        self.slot.discard()
        self.closedWithoutSaving.emit()
        super().reject()
