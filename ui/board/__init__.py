"""The reconstruction board: a board widget that draws and forwards input, the
controller that owns the record and the game state, the move list, and the
gap-search worker. The core (:mod:`rulesbook.draughts`,
:mod:`rulesbook.reconstruct`) never imports Qt; this package adapts it."""
from .controller import BoardController, autosave_dir
from .movelist import MoveList
from .widget import Arrow, BoardWidget

__all__ = ["Arrow", "BoardController", "BoardWidget", "MoveList", "autosave_dir"]
