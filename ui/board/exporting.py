"""What leaves the board: the record as PDN (the core's one writer,
:func:`rulesbook.reconstruct.record_pdn`), the position shown as FEN (copied to
the clipboard) and the record for the window's report."""
from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtGui import QGuiApplication

from rulesbook.draughts.pdn_variant import variant_title
from rulesbook.reconstruct import record_pdn
from rulesbook.storage import atomic_write_text

from .part import BoardPart

__all__ = ["RecordExport"]


class RecordExport(BoardPart):
    """Export PDN, Copy FEN and the report of the board."""

    def pdn(self) -> str:
        """The record as PDN (tags, moves, comments, variations, result); no
        GameType tag when the record had none and its variant was guessed."""
        board = self._board
        return record_pdn(board.record, variant_guess=board.files.variant_guess(board.record),
                          previous=board.replay)  # the board's replay: not replayed again

    def fen(self) -> str:
        """The position shown (the set-up position in set-up mode) as FEN."""
        return self._board.position().fen()

    def copy_fen(self) -> str:
        """Copy :meth:`fen` to the clipboard; returns it."""
        fen = self.fen()
        QGuiApplication.clipboard().setText(fen)
        self.statusMessage.emit(f"Copied {fen}")
        return fen

    def write_pdn(self, path: str | Path) -> None:
        """Write the record as PDN to ``path`` atomically (raises
        :class:`rulesbook.storage.SaveError` with a readable message)."""
        text = self.pdn()
        atomic_write_text(path, text)
        record = self._board.record
        guess = self._board.files.variant_guess(record)
        said = ""
        if guess is not None:
            said = (f" — no GameType tag written: the record had none and was read as "
                    f"{variant_title(guess.chosen)} from its moves")
        elif not (record.tags.get("GameType") or "").strip():
            # a GameType the record did not have is never written without saying so
            written = next((line for line in text.splitlines()
                            if line.startswith("[GameType ")), "")
            if written:
                said = (f" — {written.strip('[]')} written: the record had no GameType tag; "
                        f"the board plays it as {variant_title(record.variant)}")
        self.statusMessage.emit(f"Exported {path}{said}")

    def report(self) -> tuple[str, str] | None:
        """The record (and the first illegal move found) for the window's report:
        (title, HTML body); None when there is no move."""
        board = self._board
        if not board.moves:
            return None
        body = f"<h1>Game record</h1><pre>{html.escape(self.pdn())}</pre>"
        first = board.check.first_illegal
        if first is not None:
            body += f"<h2>First illegal move</h2><p>{html.escape(first.message)}</p>"
        return ("Board record", body)
