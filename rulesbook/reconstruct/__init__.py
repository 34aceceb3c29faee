"""Game reconstruction for referees (APCA Rule 10B, the ACF guide).

Pure Python on top of :mod:`rulesbook.draughts`; never imports Qt.

* :func:`replay` a record and find the first illegal move, with its reason
  (:class:`Reason`), the rulings incident and facts, the legal moves that
  were available and a sentence to read aloud;
* :func:`fill_gap` finds every legal sequence between a known position and
  the board (with known moves as constraints);
* :func:`check_board` checks a position set up on a board;
* :func:`prorate_clocks` suggests the clock times at a restored position;
* :class:`DisputeCase` is the referee's case file (YAML, kind ``dispute``).
"""
from rulesbook.reconstruct.board import BoardError, ClockAdvice, check_board, prorate_clocks
from rulesbook.reconstruct.case import (
    CaseFileError,
    DisputeCase,
    case_to_yaml,
    load_case,
    save_case,
)
from rulesbook.reconstruct.gap import (
    CancelToken,
    GapResult,
    Known,
    SearchCancelled,
    diverge_points,
    fill_gap,
    parse_known,
)
from rulesbook.reconstruct.record import (
    Record,
    RecordError,
    WrittenMove,
    iter_records,
    parse_moves_text,
    read_records,
)
from rulesbook.reconstruct.replay import (
    INCIDENTS,
    Analysis,
    IllegalMove,
    Reason,
    Replay,
    analyse_move,
    replay,
)

__all__ = [
    "BoardError", "ClockAdvice", "check_board", "prorate_clocks",
    "CaseFileError", "DisputeCase", "case_to_yaml", "load_case", "save_case",
    "CancelToken", "GapResult", "Known", "SearchCancelled", "diverge_points", "fill_gap",
    "parse_known",
    "Record", "RecordError", "WrittenMove", "parse_moves_text", "read_records",
    "iter_records",
    "INCIDENTS", "Analysis", "IllegalMove", "Reason", "Replay", "analyse_move", "replay",
]
