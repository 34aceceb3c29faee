"""The list of problems of a data folder that failed validation."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rulesbook import Problem

from .widgets import plain_tip


def location(problem: Problem) -> str:
    return f"{problem.file}:{problem.line}" if problem.line else problem.file


class ProblemsDialog(QDialog):
    """Shows every problem (file:line, message); offers to open another folder."""

    openFolder = Signal(str)

    def __init__(self, folder: Path | str, problems: list[Problem],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rulesbook — the rules data has problems")
        self.folder = str(folder)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Location", "Problem"])
        self.tree.setRootIsDecorated(False)
        self.tree.setWordWrap(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setAccessibleName("Problems")
        buttons = QDialogButtonBox()
        self.open_button = QPushButton("&Open Another Folder…")
        self.copy_button = QPushButton("&Copy List")
        buttons.addButton(self.open_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        quit_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        quit_button.setText("&Quit")
        self.open_button.clicked.connect(lambda: self.choose_folder())
        self.copy_button.clicked.connect(lambda: self.copy())
        buttons.rejected.connect(self.reject)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Open), self, self.choose_folder)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        self.resize(900, 480)
        self.set_problems(folder, problems)

    def set_problems(self, folder: Path | str, problems: list[Problem]) -> None:
        self.folder = str(folder)
        self.problems = list(problems)
        n = len(problems)
        self.heading.setText(
            f"The data folder {self.folder} cannot be opened: {n} problem{'s' * (n != 1)} "
            "found. Fix the files listed below and open the folder again, or open "
            "another folder.")
        self.tree.clear()
        for problem in problems:
            item = QTreeWidgetItem([location(problem), problem.message])
            item.setToolTip(1, plain_tip(str(problem)))
            self.tree.addTopLevelItem(item)
        self.tree.resizeColumnToContents(0)
        self.tree.setColumnWidth(0, self.tree.columnWidth(0) + self.fontMetrics().averageCharWidth() * 3)

    def text(self) -> str:
        return "\n".join(f"{location(p)}: {p.message}" for p in self.problems)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text())

    def choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Open a rules data folder", self.folder)
        if path:
            self.openFolder.emit(path)
