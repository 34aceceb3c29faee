"""The reconstruction board: a board widget that draws and forwards input, the
controller that owns the session (record, set-up, board now, notes), undo, the
current ply and the mode, and the small controllers it owns (editing the record,
input, set-up, check mode, gap search and preview, counts, clocks, navigation,
export, files). The core (:mod:`rulesbook.draughts`, :mod:`rulesbook.reconstruct`)
never imports Qt; this package adapts it."""
from .controller import BoardController, autosave_dir
from .movelist import MoveList
from .widget import Arrow, BoardWidget

__all__ = ["Arrow", "BoardController", "BoardWidget", "MoveList", "autosave_dir"]
