"""The facts form of the rulings panel: one typed field per fact of the incident
(moved out of ``panel.py``, which had grown past 600 lines)."""
from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QEvent, QObject, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from rulesbook.rulings import Incident

from ..widgets import plain_label
from .controller import FactValue

UNKNOWN = "—"


def choice_label(choice: str) -> str:
    return choice.replace("_", " ")


# -- the facts form ----------------------------------------------------------------

class FactsForm(QWidget):
    """One typed field per fact of the incident: yes/no and choices are combo boxes
    with "—" for "not known", numbers a spin box whose lowest value means "not known".

    The workspace gives the form the height its questions need (:meth:`height_needed`);
    where a window or font leaves too little, the questions scroll: a note beside
    Clear the answers says how many are below, and Tab to a question scrolls it (and
    its words) into sight."""

    factEdited = Signal(str, object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.title = plain_label()
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title.setFont(font)
        self.description = plain_label()
        self.form = QVBoxLayout()
        self.form.setSpacing(4)
        self.clear_button = QPushButton("Clear the &answers")
        #: "▼ 2 more questions below": shown only while some are scrolled out of sight
        self.more_below = QLabel()
        self.more_below.setTextFormat(Qt.TextFormat.PlainText)
        self.more_below.setAccessibleName("Questions below")
        self.more_below.setVisible(False)
        holder = QWidget()
        inner = QVBoxLayout(holder)
        inner.setContentsMargins(6, 4, 6, 4)
        inner.addWidget(self.title)
        inner.addWidget(self.description)
        inner.addLayout(self.form)
        inner.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.questions_scroll = scroll
        bar = scroll.verticalScrollBar()
        bar.valueChanged.connect(lambda _v: self.count_below())
        bar.rangeChanged.connect(lambda _a, _b: self.count_below())
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(scroll, 1)
        # under the questions, never scrolled away with them (issue 33)
        row = QHBoxLayout()
        row.addWidget(self.clear_button)
        row.addStretch(1)
        row.addWidget(self.more_below)
        lay.addLayout(row)
        self.fields: dict[str, QSpinBox | QComboBox] = {}
        self.labels: dict[str, QLabel] = {}
        self.facts: dict[str, object] = {}

    def set_incident(self, incident: Incident | None) -> None:
        while self.form.count():
            item = self.form.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.fields, self.labels = {}, {}
        if incident is None:
            self.title.setText("Choose an incident")
            self.description.setText("")
            return
        self.title.setText(incident.title)
        self.description.setText(incident.description)
        for fact in incident.facts:
            field: QSpinBox | QComboBox
            if fact.type == "number":
                spin = field = QSpinBox()
                spin.setRange(-1, 9999)
                spin.setSpecialValueText(UNKNOWN)
                spin.setValue(-1)
                spin.valueChanged.connect(
                    lambda v, f=fact.id: self.factEdited.emit(f, None if v < 0 else v))
            else:
                combo = field = QComboBox()
                combo.addItem(UNKNOWN, None)
                if fact.type == "yes/no":
                    combo.addItem("yes", True)
                    combo.addItem("no", False)
                else:
                    for choice in fact.choices:
                        combo.addItem(choice_label(choice), choice)
                combo.currentIndexChanged.connect(
                    lambda _i, f=fact.id, w=combo: self.factEdited.emit(f, w.currentData()))
            field.setObjectName(f"fact-{fact.id}")
            field.setAccessibleName(fact.question)
            label = plain_label(fact.question, buddy=field)
            if self.fields:  # a little room between two questions, none after the last
                self.form.addSpacing(4)
            self.form.addWidget(label)
            self.form.addWidget(field)
            self.fields[fact.id] = field
            self.labels[fact.id] = label
            field.installEventFilter(self)  # focused: the question scrolled into sight
        # the questions, made after the rest, in the Tab order where they are shown
        chain = [self.questions_scroll, *self.fields.values(), self.clear_button]
        for first, then in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, then)
        self.questions_scroll.verticalScrollBar().setValue(0)  # a new incident: its top
        QTimer.singleShot(0, self.count_below)  # once the questions are laid out

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        QTimer.singleShot(0, self.count_below)  # the scroll area's viewport resized

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.FocusIn:
            for fact_id, field in self.fields.items():
                if field is watched:  # the words of the question too, then its field
                    self.questions_scroll.ensureWidgetVisible(self.labels[fact_id], 0, 4)
                    self.questions_scroll.ensureWidgetVisible(field, 0, 4)
        return super().eventFilter(watched, event)

    def hidden_below(self) -> list[str]:
        """The facts whose field is (partly) below what the scroll area shows now."""
        viewport = self.questions_scroll.viewport()
        return [fact_id for fact_id, field in self.fields.items()
                if field.mapTo(viewport, field.rect().bottomLeft()).y() > viewport.height()]

    def count_below(self) -> None:
        """Say how many questions are below the fold (none: the note is hidden)."""
        holder = self.questions_scroll.widget()
        layout = holder.layout() if holder is not None else None
        if layout is not None:
            layout.activate()
        below = len(self.hidden_below())
        self.more_below.setText(f"▼ {below} more question{'s' if below > 1 else ''} below"
                                if below else "")
        self.more_below.setToolTip("Scroll, or press Tab to go to the next question")
        self.more_below.setVisible(below > 0)

    def height_needed(self) -> int:
        """The height that shows every question at the form's width, unscrolled."""
        holder = self.questions_scroll.widget()
        bar = self.questions_scroll.verticalScrollBar()
        # the width the questions have beside a scroll bar: Qt keeps a scroll bar shown
        # while the questions wrapped beside it would not fit (at the width without it
        # they would, just: the last one stayed below the fold, issue 33)
        width = self.questions_scroll.viewport().width() - (0 if bar.isVisible() else
                                                            bar.sizeHint().width())
        layout = holder.layout() if holder is not None else None
        if layout is None:
            return self.sizeHint().height()
        inner = layout.heightForWidth(width) if layout.hasHeightForWidth() \
            else layout.sizeHint().height()
        outer = self.layout()
        spacing = outer.spacing() if outer is not None else 6
        return inner + 2 * self.questions_scroll.frameWidth() + spacing + \
            self.clear_button.sizeHint().height()

    def set_facts(self, facts: Mapping[str, FactValue]) -> None:
        self.facts = dict(facts)
        for fact_id, field in self.fields.items():
            value = facts.get(fact_id)
            blocker = QSignalBlocker(field)
            if isinstance(field, QSpinBox):
                field.setValue(-1 if value is None else int(value))
            else:
                row = 0
                for i in range(1, field.count()):
                    data = field.itemData(i)
                    if value is not None and data == value and type(data) is type(value):
                        row = i
                field.setCurrentIndex(row)
            del blocker

    def value(self, fact_id: str) -> object:
        field = self.fields[fact_id]
        if isinstance(field, QSpinBox):
            return None if field.value() < 0 else field.value()
        return field.currentData()
