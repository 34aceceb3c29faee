"""The app's small modal dialogs (questions, warnings, a choice from a list, a line
of text), built in one place so that every button has an Alt key and every data
text is shown as plain text."""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PySide6.QtCore import QEventLoop, Qt, SignalInstance
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialogButtonBox,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QWidget,
)

Icon = QMessageBox.Icon
Role = QMessageBox.ButtonRole


class Choice(NamedTuple):
    """One button of a question: the answer it gives, its label with ``&`` before
    the Alt key, and its role (Reject makes it the Esc answer)."""

    key: str
    label: str
    role: QMessageBox.ButtonRole = Role.AcceptRole


SAVE_DISCARD_CANCEL = (Choice("save", "&Save", Role.AcceptRole),
                       Choice("discard", "&Discard", Role.DestructiveRole),
                       Choice("cancel", "&Cancel", Role.RejectRole))
YES_NO = (Choice("yes", "&Yes", Role.YesRole), Choice("no", "&No", Role.NoRole))
OK = (Choice("ok", "&OK", Role.AcceptRole),)


def mnemonic(text: str) -> str:
    """The Alt key of a label ("&Save" -> "s"), "" when it has none."""
    i = 0
    while True:
        i = text.find("&", i)
        if i < 0 or i + 1 >= len(text):
            return ""
        if text[i + 1] != "&":
            return text[i + 1].lower()
        i += 2


def give_mnemonics(buttons: list[QAbstractButton]) -> None:
    """Give every button without an Alt key one (the first free letter of its text)."""
    used = {mnemonic(b.text()) for b in buttons} - {""}
    for button in buttons:
        text = button.text()
        if mnemonic(text):
            continue
        for i, ch in enumerate(text):
            if ch.isalnum() and ch.lower() not in used:
                used.add(ch.lower())
                button.setText(text[:i] + "&" + text[i:])
                break


def message_box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str,
                choices: Sequence[Choice] = OK, informative: str = "", detail: str = "",
                default: str | None = None) -> tuple[QMessageBox, dict[QAbstractButton, str]]:
    """A message box (not shown yet) whose texts are plain and whose buttons are
    ``choices``; returns it and a map button -> answer key."""
    box = QMessageBox(parent)
    box.setIcon(icon)
    box.setWindowTitle(title)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    if informative:
        box.setInformativeText(informative)
        label = box.findChild(QWidget, "qt_msgbox_informativelabel")
        if label is not None and hasattr(label, "setTextFormat"):
            label.setTextFormat(Qt.TextFormat.PlainText)
    if detail:
        box.setDetailedText(detail)
    answers: dict[QAbstractButton, str] = {}
    for choice in choices:
        button = box.addButton(choice.label, choice.role)
        answers[button] = choice.key
        if choice.key == default:
            box.setDefaultButton(button)
        if choice.role in (Role.RejectRole, Role.NoRole):
            box.setEscapeButton(button)
    give_mnemonics(list(box.buttons()))
    return box, answers


def ask(parent: QWidget | None, title: str, text: str, choices: Sequence[Choice] = YES_NO, *,
        icon: QMessageBox.Icon = Icon.Question, informative: str = "",
        default: str | None = None) -> str:
    """Ask and wait; the key of the button pressed (the Esc button's when closed)."""
    box, answers = message_box(parent, icon, title, text, choices, informative,
                               default=default or choices[0].key)
    box.exec()
    clicked = box.clickedButton()
    if clicked in answers:
        return answers[clicked]
    escape = box.escapeButton()
    return answers.get(escape, choices[-1].key)


def warn(parent: QWidget | None, title: str, text: str, informative: str = "") -> None:
    """A warning with one &OK button; waits until it is closed."""
    box, _answers = message_box(parent, Icon.Warning, title, text, OK, informative)
    box.exec()


def inform(parent: QWidget | None, title: str, text: str, informative: str = "") -> None:
    box, _answers = message_box(parent, Icon.Information, title, text, OK, informative)
    box.exec()


def _input_dialog(parent: QWidget | None, title: str, label: str) -> QInputDialog:
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setLabelText(label)
    dialog.setOkButtonText("&OK")
    dialog.setCancelButtonText("&Cancel")
    return dialog


def ask_item(parent: QWidget | None, title: str, label: str, items: list[str],
             current: int = 0) -> str | None:
    """One of ``items`` chosen from a list, or None when cancelled."""
    dialog = _input_dialog(parent, title, label)
    dialog.setComboBoxItems(items)
    dialog.setComboBoxEditable(False)
    if 0 <= current < len(items):
        dialog.setTextValue(items[current])
    if dialog.exec() != QInputDialog.DialogCode.Accepted:
        return None
    return dialog.textValue()


def ask_text(parent: QWidget | None, title: str, label: str,
             echo: QLineEdit.EchoMode = QLineEdit.EchoMode.Normal,
             text: str = "") -> tuple[str, bool]:
    """A line of text, like ``QInputDialog.getText``: (text, ok)."""
    dialog = _input_dialog(parent, title, label)
    dialog.setTextEchoMode(echo)
    dialog.setTextValue(text)
    ok = dialog.exec() == QInputDialog.DialogCode.Accepted
    return (dialog.textValue() if ok else "", ok)


def dialog_buttons(widget: QWidget) -> list[QAbstractButton]:
    """The buttons of a dialog's button boxes (for tests and mnemonics)."""
    out: list[QAbstractButton] = []
    for box in widget.findChildren(QDialogButtonBox):
        out += box.buttons()
    return out


def wait_for(parent: QWidget, title: str, text: str, finished: SignalInstance) -> object:
    """Wait until ``finished`` is emitted, the window still painted: a modal note
    (``text``, no Cancel: the work must end) keeps the user's input away from the
    window meanwhile. Returns the signal's first argument (None without one)."""
    note = QProgressDialog(text, "", 0, 0, parent)
    note.setWindowTitle(title)
    note.setCancelButton(None)
    note.setWindowModality(Qt.WindowModality.WindowModal)
    note.setMinimumDuration(0)
    loop = QEventLoop()
    outcome: list[object] = []

    def done(*args: object) -> None:
        outcome.append(args[0] if args else None)
        loop.quit()

    finished.connect(done)
    note.show()
    try:
        loop.exec()
    finally:
        finished.disconnect(done)
        note.close()
        note.deleteLater()
    return outcome[0] if outcome else None
