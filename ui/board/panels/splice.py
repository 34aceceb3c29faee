"""The question before moves entered (typed, played, a gap sequence adopted) at
an earlier ply of a record that was opened (a file, a paste, a case) would
replace its later moves: Replace / Insert as a variation / Cancel (issue 33:
nothing lost without asking)."""
from __future__ import annotations

from PySide6.QtWidgets import QWidget

from rulesbook.draughts.notation import count_text

from ...dialogs import Choice, Icon, Role, ask
from ..controller import BoardController

__all__ = ["SPLICE_CHOICES", "ask_splice"]

#: the answers :attr:`ui.board.editing.RecordEditing.confirm_splice` gives
SPLICE_CHOICES = (Choice("replace", "&Replace", Role.DestructiveRole),
                  Choice("variation", "Insert as a &variation", Role.AcceptRole),
                  Choice("cancel", "&Cancel", Role.RejectRole))


def ask_splice(parent: QWidget | None, bc: BoardController, at: int, later: int) -> str:
    """Ask what moves entered at ply ``at`` do to the ``later`` moves after it;
    "replace", "variation" or "cancel" (Esc)."""
    record = bc.record
    nxt = record.moves[at]
    where = f"ply {at + 1} ({record.ply_prefix(at + 1, dots='...')} {nxt.text})"
    return ask(parent, "Replace later moves?",
               f"The record has {count_text(later, 'move')} from {where} on; "
               f"the moves entered at ply {at} (typed, played or a gap sequence adopted) "
               f"would replace {'it' if later == 1 else 'them'}.",
               SPLICE_CHOICES, icon=Icon.Question, default="variation",
               informative="Replace: the later moves go (Ctrl+Z brings them back). "
                           f"Insert as a variation: the record keeps them and the new "
                           f"moves are kept as a variation of ply {at + 1}. "
                           "Cancel: nothing changes.")
