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
"""
from rulesbook.reconstruct.board import (
    BoardError,
    ClockAdvice,
    ClockMoves,
    check_board,
    moves_taken_back,
    prorate_clocks,
)
from rulesbook.reconstruct.case import (
    CaseFileError,
    DisputeCase,
    RecordTags,
    case_findings,
    case_from_session,
    case_to_yaml,
    load_case,
    record_tag_fields,
    save_case,
    session_from_case,
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
from rulesbook.reconstruct.importing import (
    GameChunk,
    ImportedRecord,
    import_record,
    node_line_text,
    split_games,
    typed_moves,
)
from rulesbook.reconstruct.record import (
    Record,
    RecordError,
    WrittenMove,
    iter_records,
    no_move_problem,
    parse_moves_text,
    read_records,
    written_squares,
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
from rulesbook.reconstruct.session import (
    BoardSession,
    GameRecord,
    RecordMove,
    SessionError,
    move_number,
    record_case_text,
    record_pdn,
)

__all__ = [
    "BoardError", "ClockAdvice", "ClockMoves", "check_board", "moves_taken_back",
    "prorate_clocks",
    "CaseFileError", "DisputeCase", "case_to_yaml", "load_case", "save_case",
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
