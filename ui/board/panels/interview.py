"""The Gap tab's interview of the players (issue 30): the question that
splits the sequences best, one button per answer and "They Don't Remember"
(what is certain is said on the sequence strip, :mod:`.sequence`); and the
sequences as a tree of move choices.

The questions and their counts come from the core
(:class:`rulesbook.reconstruct.gap.Question`, through the gap controller,
which keeps the plies the players forgot); an answer becomes a known move
(the ``--known`` text) that the panel adds to its known moves before
searching again."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rulesbook.draughts.notation import count_text

from ...widgets import plain_tip
from ..controller import BoardController

__all__ = ["InterviewBox", "SequenceTree", "WrappedLabel", "ANSWERS_PER_ROW"]

#: answers given a button (the others in a list beside them: at 1024x700
#: the panel is about 310 px wide and has room for one row)
ANSWERS_PER_ROW = 2


class WrappedLabel(QLabel):
    """A wrapped label that asks for the lines its text needs at the width it
    is given (a layout would otherwise give it the height of fewer lines and
    squeeze what comes after)."""

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        need = self.heightForWidth(self.width()) if self.text() else 0
        if need != self.minimumHeight():
            self.setMinimumHeight(need)


class InterviewBox(QFrame):
    """``answered(known text)`` is called with the known move an answer makes.

    The likeliest answers are buttons (:data:`ANSWERS_PER_ROW`), the others
    in a list beside "Don't Remember"; the box is hidden while there is
    nothing to ask (it takes no room then)."""

    def __init__(self, bc: BoardController, answered: Callable[[str], None]) -> None:
        super().__init__()
        self._bc = bc
        self._answered = answered
        self._question: Any = None
        self.setObjectName("gap-interview")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)  # at 1024x700 every pixel counts (the buttons have margins)
        self.question_label = WrappedLabel()
        self.question_label.setWordWrap(True)
        self.question_label.setTextFormat(Qt.TextFormat.PlainText)
        self.question_label.setAccessibleName("Question to ask the players")
        lay.addWidget(self.question_label)
        row = QHBoxLayout()
        row.setSpacing(2)
        self._buttons_row = row
        self.more_answers = QComboBox()
        self.more_answers.setAccessibleName("Other answers")
        self.more_answers.setToolTip("The other moves played there, with their sequences")
        self.more_answers.activated.connect(self._more_chosen)
        # narrow: the panel is about 310 px wide at 1024x700
        self.more_answers.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.more_answers.setMinimumContentsLength(3)
        row.addWidget(self.more_answers)
        self.forgot_button = QPushButton("Forgot")
        self.forgot_button.setAccessibleName("They don't remember")
        self.forgot_button.setToolTip("The players don't remember this move: ask about "
                                      "another one")
        self.forgot_button.clicked.connect(lambda: bc.gap.dont_remember())
        row.addWidget(self.forgot_button)
        lay.addLayout(row)
        self.answer_buttons: list[QPushButton] = []
        bc.gap.questionChanged.connect(self.show_question)
        bc.gap.started.connect(lambda: self.show_question(None))
        self.show_question(None)

    def _set_buttons(self, question: Any) -> None:
        # the answers come in the Tab order where they are shown: before "n more"
        # (made later than the rest, they were last in it: issue 33)
        before: QWidget | None = self.more_answers.previousInFocusChain()
        while before is not None and before is not self.more_answers and (
                before in self.answer_buttons
                or not before.focusPolicy() & Qt.FocusPolicy.TabFocus):
            before = before.previousInFocusChain()
        for button in self.answer_buttons:
            self._buttons_row.removeWidget(button)
            button.deleteLater()
        self.answer_buttons = []
        self.more_answers.clear()
        if question is None:
            return
        for n, option in enumerate(question.options):
            text = f"{option.move} ({option.count:,})"
            if n >= ANSWERS_PER_ROW:
                self.more_answers.addItem(text, n)
                continue
            button = QPushButton(text)
            button.setAccessibleName(f"Answer {option.move}")
            button.setToolTip(f"The players agree on {option.move}: search again with "
                              f"it as a known move ({question.known[n]})")
            button.clicked.connect(lambda _c=False, i=n: self._answer(i))
            self._buttons_row.insertWidget(n, button)
            self.answer_buttons.append(button)
        if before is not None:
            for first, then in zip([before, *self.answer_buttons], self.answer_buttons,
                                   strict=False):
                QWidget.setTabOrder(first, then)
        if self.more_answers.count():
            self.more_answers.insertItem(0, f"{self.more_answers.count()} more", -1)
            self.more_answers.setCurrentIndex(0)
        self.more_answers.setVisible(bool(self.more_answers.count()))

    def _more_chosen(self, row: int) -> None:
        index = self.more_answers.itemData(row)
        if isinstance(index, int) and index >= 0:
            self._answer(index)

    def _answer(self, index: int) -> None:
        known = self._bc.gap.answer(index)
        if known is not None:
            self._answered(known)

    def show_question(self, question: Any) -> None:
        gap = self._bc.gap
        result = gap.result
        self._question = question
        self._set_buttons(question)
        if question is None:
            # after an interview: why nothing more is asked (else nothing to say)
            asked = (result is not None and not result.cancelled and (result.count or 0) > 1
                     and bool(gap.skipped))
            self.question_label.setText(
                "The players remember none of the moves asked: no other move splits the "
                "sequences left." if asked else "")
            self.forgot_button.setVisible(False)
            self.more_answers.setVisible(False)
            self.setVisible(asked)
            return
        self.question_label.setText(gap.question_text(question, ANSWERS_PER_ROW))
        self.forgot_button.setVisible(True)
        self.setVisible(True)


class SequenceTree(QTreeWidget):
    """The sequences as a tree of move choices (the core's ``GapResult.tree``:
    common prefixes collapsed, each branch with its count)."""

    def __init__(self) -> None:
        super().__init__()
        self.setHeaderHidden(True)
        self.setAccessibleName("Sequences as a tree")
        self.setToolTip("Each branch: the moves its sequences share from that ply, and how "
                        "many sequences follow it")

    def show_tree(self, tree: Any) -> None:
        self.clear()
        if tree is None or not tree.count:
            return
        root = self._item(tree)
        self.addTopLevelItem(root)
        root.setExpanded(True)

    def _item(self, branch: Any) -> QTreeWidgetItem:
        moves = " ".join(branch.moves) if branch.moves else "(start)"
        text = f"ply {branch.ply}: {moves} — {count_text(branch.count, 'sequence')}"
        if branch.children is None:
            text += " (not expanded: too many branches)"
        item = QTreeWidgetItem([text])
        item.setToolTip(0, plain_tip(text))
        for child in branch.children or ():
            item.addChild(self._item(child))
        return item

    def texts(self) -> list[str]:
        """Every item's text, depth first (tests)."""
        out: list[str] = []

        def walk(item: QTreeWidgetItem | None) -> None:
            if item is None:
                return
            out.append(item.text(0))
            for i in range(item.childCount()):
                walk(item.child(i))

        for i in range(self.topLevelItemCount()):
            walk(self.topLevelItem(i))
        return out
