"""The record beside the board: its title (players, event, variant, case, unsaved
changes), the move list, the comment of the current move and the move entry."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QLabel, QLineEdit, QTextBrowser, QVBoxLayout, QWidget

from rulesbook.draughts.pdn_variant import variant_title
from rulesbook.reconstruct.display import comment_html
from rulesbook.textio import visible_controls

from ..controller import BoardController
from ..movelist import MoveList

__all__ = ["RecordPanel", "CommentView", "record_title", "ORIGIN_TITLES"]

#: the title of a record without players, by where it came from (BoardController.origin)
ORIGIN_TITLES = {"opened": "Imported record", "setup": "Record from a set-up position",
                 "new": "New record"}


def record_title(bc: BoardController) -> str:
    """``Black – White · event · variant · case file · unsaved changes``; without
    players what the record is: imported, started from a set-up position, new.
    While a long record is read, how far its reader is."""
    files = bc.files
    if files.reading is not None and files.progress:
        return files.progress
    tags = bc.record.tags
    names = [visible_controls(tags.get(k, "?")) for k in ("Black", "White")]
    players = " – ".join(names) if any(n not in ("", "?") for n in names) else ""
    origin = "Case record" if bc.opened and bc.case_path else \
        ORIGIN_TITLES.get(bc.origin, "New record")
    if bc.origin == "setup" or not players:  # players typed in after a set-up start
        players = origin + (f" · {players}" if players else "")
    event = visible_controls(tags.get("Event", ""))
    case = f" · case {bc.case_path.name}" if bc.case_path else ""
    # a record just imported is not saved in a case, but replacing it loses nothing
    dirty = (" · unsaved changes (autosaved)" if bc.unsaved_work else
             " · not saved as a case" if bc.dirty else "")
    return f"{players}{' · ' + event if event else ''} · {variant_title(bc.variant)}{case}{dirty}"


class CommentView(QTextBrowser):
    """The comment and variations of the current move (the game's comment at ply 0)."""

    def __init__(self, bc: BoardController):
        super().__init__()
        self._bc = bc
        self.setAccessibleName("Comment")
        self.setOpenLinks(False)
        self.setMaximumHeight(80)
        self.setMinimumHeight(30)
        self.setPlaceholderText("Comments and variations of the current move")
        bc.changed.connect(self.refresh)
        bc.recordChanged.connect(self.refresh)

    def focusNextPrevChild(self, next_child: bool) -> bool:  # noqa: N802 - Qt API
        return QWidget.focusNextPrevChild(self, next_child)  # Tab leaves (issue 33)

    def refresh(self) -> None:
        self.setHtml(comment_html(self._bc.record, self._bc.ply))


class MoveEntry(QLineEdit):
    """The field moves are typed in. Ctrl+Z (and redo) undo its own typing while it
    has some to undo; otherwise they go to the Board's Undo: after Enter the field is
    empty, and the status line's "(Ctrl+Z to undo)" means the record's change (found
    by the #33 retest: the field took the keys and nothing happened)."""

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            own = (event.matches(QKeySequence.StandardKey.Undo) and self.isUndoAvailable()) \
                or (event.matches(QKeySequence.StandardKey.Redo) and self.isRedoAvailable())
            if (event.matches(QKeySequence.StandardKey.Undo)
                    or event.matches(QKeySequence.StandardKey.Redo)) and not own:
                event.ignore()  # the window's shortcut (the Board's Undo) takes it
                return False
        return super().event(event)


class RecordPanel(QWidget):
    """Title, move list (a click goes to the move), comment, move entry (Enter adds)."""

    def __init__(self, bc: BoardController):
        super().__init__()
        self._bc = bc
        self.move_list = MoveList()
        self.move_list.plyClicked.connect(bc.go)
        self.comment_view = CommentView(bc)
        self.move_entry = MoveEntry()
        self.move_entry.setPlaceholderText("Type moves as written: 11-15 23-19 8-11… (Enter)")
        self.move_entry.setAccessibleName("Type moves")
        self.move_entry.setMinimumWidth(120)  # its placeholder must not widen the column
        self.move_entry.returnPressed.connect(self._typed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.record_title = QLabel()
        self.record_title.setTextFormat(Qt.TextFormat.PlainText)
        self.record_title.setWordWrap(True)
        layout.addWidget(self.record_title)
        layout.addWidget(self.move_list, 1)
        layout.addWidget(self.comment_view)
        layout.addWidget(self.move_entry)
        bc.recordChanged.connect(self.rebuild)
        bc.check.resultChanged.connect(lambda _result: self.rebuild())
        bc.plyChanged.connect(self.move_list.set_current)
        bc.changed.connect(self.update_title)
        bc.dirtyChanged.connect(lambda _dirty: self.update_title())
        bc.files.progressChanged.connect(lambda _text: self.update_title())
        bc.files.readFinished.connect(lambda _ok: self.update_title())
        self.rebuild()

    def rebuild(self) -> None:
        self.move_list.rebuild(self._bc)
        self.update_title()

    def update_title(self) -> None:
        self.record_title.setText(record_title(self._bc))

    def _typed(self) -> None:
        text = self.move_entry.text().strip()
        if not text:
            return
        entry = self._bc.editing.enter_moves(text)
        word = entry.unreadable
        if word is not None:
            # what was not added stays, the word that cannot be read selected
            at = 0 if entry.moves else word.offset
            self.move_entry.setText(entry.rest if entry.moves else text)
            self.move_entry.setSelection(at, len(word.text))
        elif entry.moves:
            self.move_entry.setText("")  # setText: its own undo history goes too
