"""Game reconstruction for referees (APCA Rule 10B, the ACF guide).

Pure Python on top of :mod:`rulesbook.draughts`; never imports Qt.

* :func:`replay` a record and find the first illegal move, with its reason
  (:class:`Reason`), the rulings incident and facts, the legal moves that
  were available and a sentence to read aloud;
* :func:`fill_gap` finds every legal sequence between a known position and
  the board (with known moves as constraints);
* :func:`check_board` checks a position set up on a board;
* :func:`prorate_clocks` suggests the clock times at a restored position;
* :class:`GameRecord` (moves as written, with comments and variations) and
  :class:`BoardSession` (record, set-up, the board now, notes) are the referee's
  work at the board, frozen; :func:`import_record` reads one from PDN or a move list;
* :class:`DisputeCase` is the referee's case file (YAML, kind ``dispute``);
  :func:`case_from_session` / :func:`session_from_case` convert.

Names are imported lazily (PEP 562): importing one module of the package, e.g.
:mod:`rulesbook.reconstruct.record`, does not import the gap search (numba,
its tables) nor the case files (YAML).
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as the checker sees them; at run time __getattr__ loads them
    from .board import BoardError as BoardError
    from .board import ClockAdvice as ClockAdvice
    from .board import ClockMoves as ClockMoves
    from .board import check_board as check_board
    from .board import moves_taken_back as moves_taken_back
    from .board import prorate_clocks as prorate_clocks
    from .case import CaseFileError as CaseFileError
    from .case import DisputeCase as DisputeCase
    from .case import RecordTags as RecordTags
    from .case import case_findings as case_findings
    from .case import case_from_session as case_from_session
    from .case import case_to_yaml as case_to_yaml
    from .case import checked_case_text as checked_case_text
    from .case import load_case as load_case
    from .case import record_tag_fields as record_tag_fields
    from .case import save_case as save_case
    from .case import session_from_case as session_from_case
    from .gap import CancelToken as CancelToken
    from .gap import GapResult as GapResult
    from .gap import Known as Known
    from .gap import SearchCancelled as SearchCancelled
    from .gap import diverge_points as diverge_points
    from .gap import fill_gap as fill_gap
    from .gap import parse_known as parse_known
    from .importing import GameChunk as GameChunk
    from .importing import ImportedRecord as ImportedRecord
    from .importing import import_record as import_record
    from .importing import node_line_text as node_line_text
    from .importing import split_games as split_games
    from .importing import typed_moves as typed_moves
    from .record import Record as Record
    from .record import RecordError as RecordError
    from .record import WrittenMove as WrittenMove
    from .record import iter_records as iter_records
    from .record import no_move_problem as no_move_problem
    from .record import parse_moves_text as parse_moves_text
    from .record import read_records as read_records
    from .record import written_squares as written_squares
    from .replay import INCIDENTS as INCIDENTS
    from .replay import Analysis as Analysis
    from .replay import IllegalMove as IllegalMove
    from .replay import Reason as Reason
    from .replay import Replay as Replay
    from .replay import analyse_move as analyse_move
    from .replay import replay as replay
    from .session import BoardSession as BoardSession
    from .session import GameRecord as GameRecord
    from .session import RecordMove as RecordMove
    from .session import SessionError as SessionError
    from .session import move_number as move_number
    from .session import record_case_text as record_case_text
    from .session import record_pdn as record_pdn

#: where each public name is defined
_WHERE: dict[str, str] = {
    "BoardError": "board",
    "ClockAdvice": "board",
    "ClockMoves": "board",
    "check_board": "board",
    "moves_taken_back": "board",
    "prorate_clocks": "board",
    "CaseFileError": "case",
    "DisputeCase": "case",
    "RecordTags": "case",
    "case_findings": "case",
    "case_from_session": "case",
    "case_to_yaml": "case",
    "checked_case_text": "case",
    "load_case": "case",
    "record_tag_fields": "case",
    "save_case": "case",
    "session_from_case": "case",
    "CancelToken": "gap",
    "GapResult": "gap",
    "Known": "gap",
    "SearchCancelled": "gap",
    "diverge_points": "gap",
    "fill_gap": "gap",
    "parse_known": "gap",
    "GameChunk": "importing",
    "ImportedRecord": "importing",
    "import_record": "importing",
    "node_line_text": "importing",
    "split_games": "importing",
    "typed_moves": "importing",
    "Record": "record",
    "RecordError": "record",
    "WrittenMove": "record",
    "iter_records": "record",
    "no_move_problem": "record",
    "parse_moves_text": "record",
    "read_records": "record",
    "written_squares": "record",
    "INCIDENTS": "replay",
    "Analysis": "replay",
    "IllegalMove": "replay",
    "Reason": "replay",
    "Replay": "replay",
    "analyse_move": "replay",
    "replay": "replay",
    "BoardSession": "session",
    "GameRecord": "session",
    "RecordMove": "session",
    "SessionError": "session",
    "move_number": "session",
    "record_case_text": "session",
    "record_pdn": "session",
}

__all__ = [
    "BoardError", "ClockAdvice", "ClockMoves", "check_board", "moves_taken_back",
    "prorate_clocks",
    "CaseFileError", "DisputeCase", "case_to_yaml", "checked_case_text", "load_case", "save_case",
    "case_findings", "case_from_session", "session_from_case", "record_tag_fields", "RecordTags",
    "GameChunk", "ImportedRecord", "import_record", "node_line_text", "split_games", "typed_moves",
    "BoardSession", "GameRecord", "RecordMove", "SessionError", "move_number",
    "record_case_text", "record_pdn",
    "CancelToken", "GapResult", "Known", "SearchCancelled", "diverge_points", "fill_gap",
    "parse_known",
    "Record", "RecordError", "WrittenMove", "parse_moves_text", "read_records",
    "written_squares", "iter_records", "no_move_problem",
    "INCIDENTS", "Analysis", "IllegalMove", "Reason", "Replay", "analyse_move", "replay",
]


# ``replay`` names both a module and its function: the function is bound here, as
# before, so that importing the module later cannot shadow it (cheap: the engine only)
from .replay import replay as replay  # noqa: E402


def __getattr__(name: str) -> Any:  # Any: the checker sees the names imported above
    where = _WHERE.get(name)
    # ``import pkg.mod``, then the module from sys.modules: ``from . import replay`` would
    # give the function this package binds to that name
    if where == "board":
        import rulesbook.reconstruct.board
    elif where == "case":
        import rulesbook.reconstruct.case
    elif where == "gap":
        import rulesbook.reconstruct.gap
    elif where == "importing":
        import rulesbook.reconstruct.importing
    elif where == "record":
        import rulesbook.reconstruct.record
    elif where == "replay":
        import rulesbook.reconstruct.replay
    elif where == "session":
        import rulesbook.reconstruct.session  # noqa: F401 - bound in sys.modules
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(sys.modules[f"{__name__}.{where}"], name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
