"""The notice shown when a PDN record without a GameType tag was imported: the
variant it was read in and why (the core's
:meth:`~rulesbook.draughts.pdn_variant.VariantGuess.sentence`), and a "Read as"
choice that reads the record again in another variant.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFrame, QHBoxLayout, QLabel, QWidget

from rulesbook.draughts import VARIANTS, Position, Variant
from rulesbook.draughts.pdn_variant import VariantGuess, variant_title
from rulesbook.reconstruct import ImportedRecord, move_number
from rulesbook.textio import ordinal

from .controller import BoardController

__all__ = ["ImportedGame", "VariantNotice", "choice_sentence"]


@dataclass(frozen=True)
class ImportedGame:
    """A record just imported: the text it came from (to read it again), the
    game's number in it, where it came from and what the core read."""

    text: str
    index: int
    source: str
    imported: ImportedRecord


def choice_sentence(guess: VariantGuess, variant: Variant,
                    start: Position | None = None) -> str:
    """The notice after the user chose ``variant`` instead of the guess; the first
    illegal ply is named as Check Record names it (ply 11, Black's 6th move)."""
    fit = guess.fit(variant)
    name = variant_title(variant)
    if fit is None:
        return f"{guess.why}: read as {name} (your choice)"
    if fit.start_error:
        how = f"its set-up position cannot be read in it: {fit.start_error}"
    elif fit.whole:
        how = "every move is legal in it"
    else:
        ply = fit.legal + 1
        named = ""
        if start is not None:
            side = start.turn if ply % 2 == 1 else start.turn.opponent
            named = f" ({side.title}'s {ordinal(move_number(start, ply))} move)"
        how = f"ply {ply}{named} of {fit.total} is the first that is not legal in it"
    return (f"{guess.why}: read as {name} (your choice; {how}); the guess was "
            f"{variant_title(guess.chosen)}")


class VariantNotice(QFrame):
    """The variant a record without GameType was read in, and the control to
    change it. Hidden while the record on the board is not such an import."""

    def __init__(self, board: BoardController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("variant-notice")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._board = board
        self._game: ImportedGame | None = None
        self._guess: VariantGuess | None = None
        self.label = QLabel()
        self.label.setObjectName("variant-notice-text")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.combo = QComboBox()
        self.combo.setAccessibleName("Read the record as")
        self.combo.setToolTip("Read the record again in another variant")
        for name, variant in VARIANTS.items():
            self.combo.addItem(variant_title(variant), name)
        self.combo.activated.connect(self._chosen)
        caption = QLabel("&Read as:")
        caption.setBuddy(self.combo)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 2, 8, 2)
        layout.addWidget(self.label, 1)
        layout.addWidget(caption)
        layout.addWidget(self.combo)
        board.files.imported.connect(self.show_import)
        board.recordChanged.connect(self._follow_record)
        self.hide()

    def text(self) -> str:
        return self.label.text()

    def show_import(self, game: ImportedGame) -> None:
        """After an import: shown for a PDN game without a (known) GameType tag."""
        if not game.imported.untyped:
            self._game = self._guess = None
            self.hide()
            return
        if game.imported.variant_guess is not None:  # a new guess (not a re-read)
            self._guess = game.imported.variant_guess
        self._game = game
        variant = game.imported.record.variant
        if self._guess is None:
            self.label.setText(f"No GameType tag: read as {variant_title(variant)}")
        elif variant == self._guess.chosen:
            self.label.setText(self._guess.sentence())
        else:
            self.label.setText(choice_sentence(self._guess, variant,
                                               game.imported.record.start))
        self._select(variant)
        self.show()

    def _select(self, variant: Variant) -> None:
        row = self.combo.findData(variant.name)
        if row >= 0:
            self.combo.setCurrentIndex(row)

    def _chosen(self, row: int) -> None:
        game = self._game
        name = self.combo.itemData(row)
        if game is None or not isinstance(name, str) \
                or name == game.imported.record.variant.name:
            return
        # the record read again from its text, in the chosen variant (undoable)
        self._board.files.load_text(game.text, game.index, name, source=game.source)

    def _follow_record(self) -> None:
        """Hidden once the board holds another record (New, a case, a typed record)."""
        game = self._game
        if game is None:
            return
        record = self._board.record
        imported = game.imported.record
        if record.tags != imported.tags or (record.start.pieces(), record.start.turn) != \
                (imported.start.pieces(), imported.start.turn):  # another record now
            self._game = self._guess = None
            self.hide()
            return
        if record.variant != game.imported.record.variant and self._guess is not None:
            # the toolbar's variant changed it: say what the record is read as now
            self.label.setText(self._guess.sentence() if record.variant == self._guess.chosen
                               else choice_sentence(self._guess, record.variant, record.start))
        self._select(record.variant)
