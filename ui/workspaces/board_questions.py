"""The Board's questions before its record is replaced or closed, the choice of a
game of a multi-game file and where to save a case: dialogs only (the workspace
acts on the answers)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from ..dialogs import SAVE_DISCARD_CANCEL, Icon, ask


def ask_replace(parent: QWidget, what: str) -> str:
    """Save / Discard / Cancel before ``what`` replaces unsaved work."""
    from rulesbook.textio import shorten, visible_controls

    what = shorten(visible_controls(what), 80)  # a file name as typed, never too long
    return ask(parent, "Unsaved work",
               f"The board has work that is not saved in a case file; {what} "
               "would replace it.", SAVE_DISCARD_CANCEL, icon=Icon.Warning,
               informative="Save it first?", default="save")


def ask_close(parent: QWidget) -> str:
    """Save / Discard / Cancel before closing with unsaved changes."""
    return ask(parent, "Unsaved case",
               "The board has changes that are not saved in a case file.",
               SAVE_DISCARD_CANCEL, icon=Icon.Warning, informative="Save them before closing?",
               default="save")


def ask_game(parent: QWidget, chunks: list, importing: str) -> int | None:
    """The game of a multi-game PDN file to open (None: none chosen)."""
    from ..board.gamelist import GameListDialog

    dialog = GameListDialog(chunks, importing, parent)
    try:
        return dialog.chosen if dialog.exec() == GameListDialog.DialogCode.Accepted else None
    finally:
        dialog.stop_scan()
        dialog.deleteLater()


def ask_case_path(parent: QWidget, file_filter: str) -> str | None:
    """Where to save a case with no file yet (a YAML name, whatever was typed;
    None: not chosen)."""
    chosen, _ = QFileDialog.getSaveFileName(parent, "Save the case",
                                            str(Path.home() / "case.yaml"), file_filter)
    if not chosen:
        return None
    if Path(chosen).suffix.lower() not in (".yaml", ".yml"):
        chosen += ".yaml"  # a case file is YAML, whatever name was typed
    return chosen
