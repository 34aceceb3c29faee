"""The facts form of the rulings panel: one typed field per fact of the incident
(moved out of ``panel.py``, which had grown past 600 lines)."""
from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
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
    with "—" for "not known", numbers a spin box whose lowest value means "not known"."""

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
        holder = QWidget()
        inner = QVBoxLayout(holder)
        inner.addWidget(self.title)
        inner.addWidget(self.description)
        inner.addLayout(self.form)
        inner.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.questions_scroll = scroll
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(scroll, 1)
        # under the questions, never scrolled away with them (issue 33)
        lay.addWidget(self.clear_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.fields: dict[str, QSpinBox | QComboBox] = {}
        self.facts: dict[str, object] = {}

    def set_incident(self, incident: Incident | None) -> None:
        while self.form.count():
            item = self.form.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.fields = {}
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
            self.form.addWidget(label)
            self.form.addWidget(field)
            self.form.addSpacing(6)
            self.fields[fact.id] = field
        # the questions, made after the rest, in the Tab order where they are shown
        chain = [self.questions_scroll, *self.fields.values(), self.clear_button]
        for first, then in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, then)

    def height_needed(self) -> int:
        """The height that shows every question at the form's width, unscrolled."""
        holder = self.questions_scroll.widget()
        width = self.questions_scroll.viewport().width()
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
