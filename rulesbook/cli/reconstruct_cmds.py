"""``rulesbook replay`` and ``rulesbook reconstruct``: game reconstruction for referees.

Contracts (stable, scripts rely on them):

* ``replay FILE [--variant V] [--game N] [--let-stand] [--json]``: FILE is a
  PDN file or a text file of moves.  With ``--json`` a list with one object
  per game: ``{"game", "tags", "plies", "first_illegal", "illegal",
  "final_fen", "result"}``; ``first_illegal`` is null or ``{"ply",
  "move_number", "side", "move", "reason", "incident", "message",
  "legal_moves", "fen_before"}`` (``ply`` counts from 1 for the first move
  of the game); ``illegal`` lists every illegal move found (one at most
  without ``--let-stand``); ``final_fen`` is the position after the last legal
  move replayed (with ``--let-stand``, illegal moves before it standing as
  played).  Record errors (syntax, a bad FEN) go to stderr
  as ``FILE:line:col: message``.  Exit 0 when every move was legal, 1 when
  an illegal move or a record error was found, 2 when the input could not
  be used.
* ``reconstruct --from FEN|start --to FEN [--variant V] (--plies N |
  --max-plies N) [--known PLY:MOVE ...] [--json]``: ``{"status":
  "impossible"|"unique"|"several"|"cancelled", "sequences": [[move, ...], ...],
  "diverge_at": [...], "explanation", "more_exist": true|false}``.  ``--limit
  N`` keeps N sequences and stops the search at the (N+1)-th: the status
  counts what exists ("several" when more than N exist, the explanation says
  so, and ``more_exist`` is true).  Exit 0 when
  reconstructed or several, 1 when impossible, 2 on bad input (a known move
  past the gap, two for one ply, one no piece can make), 130 when Ctrl+C
  stopped the search: the answer then has status "cancelled", says how far
  the search got and lists the sequences found so far (``"count": null``,
  ``"count_at_least"``: the sequences counted so far, a proven lower bound),
  stderr says it was interrupted, and the process ends at once (within half a
  second of the Ctrl+C: the compiled kernel's teardown at exit, a quarter of a
  second, is skipped once the answer is written).  A search that runs long
  prints a progress line on stderr every few seconds (at once when stderr is
  a terminal, else after 2 s): positions searched, the sequences counted so
  far, how much is done, and that Ctrl+C stops it and lists what was found;
  stdout gets only the answer.

Errors: a message on stderr, exit 2, no traceback.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

from rulesbook.limits import MAX_GAMES

from ..draughts.notation import plies_text
from .common import fail, game_file, int_range
from .progress import GapProgress

if TYPE_CHECKING:
    from rulesbook.reconstruct import Record, Replay
    from rulesbook.reconstruct.gap import CancelToken

#: The exit code after Ctrl+C (128 + SIGINT), as shells use.
EXIT_INTERRUPTED = 130

#: Most missing plies a gap search takes (each ply multiplies the work).
MAX_GAP_PLIES = 200

__all__ = ["register", "cmd_replay", "cmd_reconstruct"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    r = subparsers.add_parser(
        "replay", help="replay a game record and find the first illegal move",
        description="Replay a PDN file or a text file of moves and report the first illegal "
                    "move with its reason. Exit 0 when every move was legal, 1 when an "
                    "illegal move or a record error was found, 2 when the input could not "
                    "be used.")
    r.add_argument("file", metavar="FILE", help="a PDN file or a text file of moves")
    r.add_argument("--variant", metavar="V", default=None,
                   help="pool, english, russian, brazilian (PDN GameType wins; default: "
                        "a PDN game without one is read in the variant in which the whole "
                        "record is legal, pool first; a list of moves as pool)")
    r.add_argument("--game", metavar="N", type=int_range(1, MAX_GAMES), default=None,
                   help="only the N-th game of the file (from 1)")
    r.add_argument("--let-stand", action="store_true",
                   help="let illegal moves stand as played and list every later one")
    r.add_argument("--json", action="store_true", help="machine-readable output")
    r.set_defaults(func=cmd_replay)

    g = subparsers.add_parser(
        "reconstruct", help="find the missing moves between two positions",
        description="Find every legal sequence of moves from a known position to the "
                    "position on the board.")
    g.add_argument("--from", dest="from_", metavar="FEN|start", required=True,
                   help="the known earlier position (a FEN, or 'start')")
    g.add_argument("--to", metavar="FEN", required=True, help="the position on the board now")
    g.add_argument("--variant", metavar="V", default="pool", help="pool (default), english, ...")
    n = g.add_mutually_exclusive_group(required=True)
    n.add_argument("--plies", metavar="N", type=int_range(0, MAX_GAP_PLIES), help="exactly N plies are missing")
    n.add_argument("--max-plies", metavar="N", type=int_range(0, MAX_GAP_PLIES), help="at most N plies are missing")
    g.add_argument("--known", metavar="PLY:MOVE", nargs="+", action="extend", default=[],
                   help="a move the players agree on: 14:22x15, 3:11-? (started on 11), "
                        "3:?-15 (ended on 15), 12B:11-? (Black's 12th move); plies count "
                        "from 1 = the first missing ply")
    g.add_argument("--limit", metavar="N", type=int_range(1, 100_000), default=200,
                   help="keep at most N sequences (default 200); the search stops once more "
                        "are found and says that more exist")
    g.add_argument("--json", action="store_true",
                   help='machine-readable output: {"status", "sequences", "diverge_at", '
                        '"explanation", "more_exist", "complete"} (more_exist: more '
                        'sequences exist than --limit kept; complete: false when the '
                        'search was stopped, and then more may exist)')
    g.set_defaults(func=cmd_reconstruct)


def _error(command: str, message: str) -> int:
    return fail(message)


def _game_report(number: int, record: Record, let_stand: bool
                 ) -> tuple[dict[str, Any], bool, Replay | None]:
    """The game's JSON object, whether every move was legal, and its replay (None
    when nothing could be replayed)."""
    from rulesbook.reconstruct import no_move_problem, replay

    result: dict[str, Any] = {"game": number, "tags": dict(record.tags), "plies": len(record.moves),
              "first_illegal": None, "illegal": [], "final_fen": None,
              "result": record.result}
    if record.start is None or no_move_problem(record) is not None:
        return result, False, None
    outcome = replay(record, let_stand=let_stand)
    result["first_illegal"] = (outcome.first_illegal.to_dict()
                               if outcome.first_illegal is not None else None)
    result["illegal"] = [m.to_dict() for m in outcome.illegal]
    result["final_fen"] = outcome.positions[last_legal_ply(outcome)].fen()
    return result, outcome.ok, outcome


def last_legal_ply(outcome: Replay) -> int:
    """The ply of the last legal move replayed (0: none was legal)."""
    return next((ply for ply in range(len(outcome.played), 0, -1)
                 if outcome.played[ply - 1] is not None), 0)


def cmd_replay(args: argparse.Namespace) -> int:
    from rulesbook.draughts import DraughtsError, Variant
    from rulesbook.errors import RulesbookError
    from rulesbook.reconstruct import iter_records, no_move_problem

    variant = None
    if args.variant is not None:
        try:
            variant = Variant.named(args.variant)
        except DraughtsError as exc:
            return _error("replay", str(exc))
    bad = False
    count = 0
    opened = False  # the JSON list is written game by game (memory does not grow)
    try:
        with game_file(args.file) as handle:
            for number, record in enumerate(iter_records(handle, variant), 1):
                count = number
                if args.game is not None and number != args.game:
                    continue
                unusable = no_move_problem(record)  # the app's import check
                for problem in record.problems + ((unusable,) if unusable else ()):
                    print(f"{args.file}: game {number}: {problem}", file=sys.stderr)
                report, ok, outcome = _game_report(number, record, args.let_stand)
                bad = bad or not ok or bool(record.problems)
                if args.json:
                    sys.stdout.write(",\n" if opened else "[\n")
                    sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
                    opened = True
                else:
                    _print_report(report, record, outcome)
                if args.game is not None:
                    break
    except (RulesbookError, ValueError) as exc:  # limits, decoding, no game, unreadable
        if opened:
            sys.stdout.write("\n]\n")
        message = str(exc) if args.file in str(exc) else f"{args.file}: {exc}"
        return _error("replay", message)
    if args.game is not None and count < args.game:
        return _error("replay", f"--game {args.game}: {args.file} has {count} game(s)")
    if args.json:
        sys.stdout.write("\n]\n" if opened else "[]\n")
    return 1 if bad else 0


def _print_report(report: dict[str, Any], record: Record, outcome: Replay | None) -> None:
    tags = report["tags"]
    from rulesbook.textio import visible_controls

    who = " - ".join(visible_controls(tags.get(k, "?")) for k in ("Black", "White")) \
        if tags else "moves"
    print(f"game {report['game']} ({who}), {plies_text(report['plies'])}:")
    if record.variant_guess is not None:
        print(f"  {record.variant_guess.sentence()}")
    if record.start is None:
        print("  the start position could not be read")
        return
    from rulesbook.reconstruct import no_move_problem

    if no_move_problem(record) is not None:
        print("  no move can be read in it (see the record error): nothing was replayed")
        return
    if not report["illegal"]:
        print("  every move is legal")
    for item in report["illegal"]:
        print(f"  ply {item['ply']}: {item['message']}")
        print(f"    reason: {item['reason']} (incident {item['incident']})")
        print(f"    legal moves were: {', '.join(item['legal_moves']) or 'none'}")
        print(f"    position before: {item['fen_before']}")
    assert outcome is not None  # replayed: no_move_problem is None
    print(f"  final position ({_final_words(outcome, record)}): {report['final_fen']}")
    if len(outcome.positions) - 1 > last_legal_ply(outcome):
        print(f"  after every move replayed, the illegal ones standing as played "
              f"(ply {len(outcome.positions) - 1}): {outcome.final.fen()}")


def _final_words(outcome: Replay, record: Record) -> str:
    """Which ply the final position follows: ``after ply 6, 3... 19-15, the last legal
    move; the replay stopped at ply 7``."""
    from rulesbook.reconstruct import move_number

    ply = last_legal_ply(outcome)
    if ply == 0:
        words = "the start: no legal move was replayed"
    else:
        from rulesbook.textio import shorten

        number = move_number(outcome.start, ply)
        mover = outcome.positions[ply - 1].turn
        dots = "." if mover is outcome.start.variant.first_player else "..."
        words = f"after ply {ply}, {number}{dots} {shorten(outcome.moves[ply - 1])}, " + \
            ("the last move" if ply == len(outcome.moves) else "the last legal move")
    if len(outcome.positions) - 1 < len(outcome.moves):
        words += f"; the replay stopped at ply {len(outcome.positions)}"
    return words


def cmd_reconstruct(args: argparse.Namespace) -> int:
    from rulesbook.draughts import DraughtsError, Position, Variant
    from rulesbook.reconstruct.board import check_board
    from rulesbook.reconstruct.gap import Status, fill_gap, parse_known

    try:
        from .draughts_cmds import check_fen_length

        variant = Variant.named(args.variant)
        check_fen_length(args.from_, "--from: ")
        check_fen_length(args.to, "--to: ")
        if args.from_.strip().lower() == "start":
            start = Position.start(variant)
        else:
            start = check_board(Position.from_fen(args.from_, variant, check=False), "--from")
        target = check_board(Position.from_fen(args.to, variant, check=False), "--to",
                             game_over_ok=True)
        known = [parse_known(k, start) for k in args.known]
        if args.limit < 1:
            return _error("reconstruct", "--limit must be 1 or more")
        gap = (f"the {args.plies}-ply gap" if args.plies is not None
               else f"gaps of up to {plies_text(args.max_plies)}")
        progress = GapProgress(gap)
        with _ctrl_c_cancels() as (token, interrupted):
            result = fill_gap(start, target, plies=args.plies, max_plies=args.max_plies,
                              known=known, limit=args.limit, cancel=token,
                              progress=progress, counted=progress.counted)
    except (DraughtsError, ValueError) as exc:
        return _error("reconstruct", str(exc))
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(result.explanation)
        for number, seq in enumerate(result.texts, 1):
            print(f"{number}. {' '.join(seq) or '(no move)'}")
        if result.diverge_at:
            print(f"sequences diverge at ply {', '.join(map(str, result.diverge_at))}")
        for certain in result.certain:
            print(f"certain: {certain.sentence()} (ply {certain.ply})")
        if result.question is not None and len(result.sequences) > 1:
            q = result.question
            print(f"ask the players: {q.sentence()} (then --known "
                  f"{q.ply}:{q.options[0].move}, or another answer)")
    if result.status is Status.CANCELLED:
        code = fail("interrupted (Ctrl+C) before the search finished: the answer above is "
                    "incomplete", code=EXIT_INTERRUPTED)
        if interrupted.is_set():
            _leave_now(code)
        return code
    return 1 if result.status is Status.IMPOSSIBLE else 0


def _leave_now(code: int) -> None:
    """End the process with ``code`` now that its answer is written: after a
    Ctrl+C the user waits for the prompt, and the interpreter's teardown of
    the compiled kernel (numba's code, LLVM) takes a quarter of a second, more
    on a loaded machine.  Nothing is left to do at exit (the search holds no
    file; no ``atexit`` hook is registered)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


@contextlib.contextmanager
def _ctrl_c_cancels() -> Iterator[tuple[CancelToken, threading.Event]]:
    """While the search runs, Ctrl+C (SIGINT) cancels it, so that what it has
    found so far is still printed; a second Ctrl+C stops at once.  The event
    is set once a Ctrl+C came (not by a search stopped otherwise)."""
    from rulesbook.reconstruct.gap import CancelToken

    token = CancelToken()
    interrupted = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield token, interrupted  # signals reach only the main thread
        return

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        if token.is_set():
            raise KeyboardInterrupt
        interrupted.set()
        token.cancel()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield token, interrupted
    finally:
        signal.signal(signal.SIGINT, previous)
