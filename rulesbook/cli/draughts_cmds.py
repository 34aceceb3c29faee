"""``rulesbook perft`` and ``rulesbook moves``.

Contracts (stable, scripts rely on them):

* ``perft --variant V --depth N [--fen FEN] [--divide]``: the leaf count is
  printed alone on the last line; ``--divide`` first prints ``move: count``.
* ``moves --variant V (--fen FEN | --fen-file FILE) [--json]``: the legal
  moves; with ``--json`` a list of ``{"move", "path", "captures", "crowns"}``
  (``move`` is the full path text), one list per line for ``--fen-file``.
  Squares are always numbers.  Errors: a message on stderr, exit code 2.
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from typing import TypedDict

from rulesbook.draughts import VARIANTS, DraughtsError, Position, perft
from rulesbook.errors import RulesbookError
from rulesbook.limits import MAX_FEN_CHARS, MAX_FEN_FILE_BYTES
from rulesbook.textio import open_text

from .common import Subparsers, fail, int_range, warn

#: Deepest perft accepted (the published tables stop at 12; 20 is already years of work).
MAX_PERFT_DEPTH = 20


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("perft", help="count the leaf nodes of the move tree")
    p.add_argument("--variant", default="pool", help=f"one of {', '.join(VARIANTS)}")
    p.add_argument("--depth", type=int_range(0, MAX_PERFT_DEPTH), required=True,
                   help=f"plies to search (0 to {MAX_PERFT_DEPTH})")
    p.add_argument("--fen", default=None, help="start from this FEN (default: the initial position)")
    p.add_argument("--divide", action="store_true", help="print the count below each legal move")
    p.set_defaults(func=cmd_perft)

    m = subparsers.add_parser("moves", help="list the legal moves of a position")
    m.add_argument("--variant", default="pool", help=f"one of {', '.join(VARIANTS)}")
    src = m.add_mutually_exclusive_group(required=True)
    src.add_argument("--fen", default=None, help="the position as a PDN FEN")
    src.add_argument("--fen-file", default=None, help="a file with one FEN per line")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=cmd_moves)


def _error(message: str) -> int:
    return fail(message)


def check_fen_length(fen: str, where: str = "") -> str:
    """``fen``, or DraughtsError when it is longer than :data:`MAX_FEN_CHARS`."""
    if len(fen) > MAX_FEN_CHARS:
        raise DraughtsError(f"{where}the FEN is {len(fen):,} characters long; a FEN may be at "
                            f"most {MAX_FEN_CHARS:,}")
    return fen


def _position(fen: str | None, variant: str) -> Position:
    if fen is None:
        return Position.start(variant)
    return Position.from_fen(check_fen_length(fen), variant=variant)


def cmd_perft(args: argparse.Namespace) -> int:
    try:
        if args.depth < 0:
            return _error(f"--depth must be 0 or more, not {args.depth}")
        position = _position(args.fen, args.variant)
        counts = perft(position, args.depth, divide=bool(args.divide))
        if isinstance(counts, dict):  # --divide: the count after each move, then the total
            for text, n in counts.items():
                print(f"{text}: {n}")
            print(sum(counts.values()) if args.depth > 0 else 1)
        else:
            print(counts)
    except DraughtsError as exc:
        return _error(str(exc))
    return 0


class MoveJson(TypedDict):
    """One legal move of ``rulesbook moves --json``."""

    move: str
    path: list[int]
    captures: list[int]
    crowns: bool


def _moves_json(position: Position) -> str:
    moves: list[MoveJson] = [
        {"move": m.full_text(), "path": list(m.path), "captures": list(m.captures),
         "crowns": m.crowns}
        for m in position.legal_moves()
    ]
    return json.dumps(moves)


def cmd_moves(args: argparse.Namespace) -> int:
    try:
        if args.fen_file is None:
            return _print_moves(args, [(0, args.fen)], single=True)
        warnings: list[str] = []
        with open_text(args.fen_file, max_bytes=MAX_FEN_FILE_BYTES, what="a FEN file",
                       warnings=warnings) as handle:
            for warning in warnings:
                warn(warning)
            lines = ((n, line.strip()) for n, line in
                     enumerate(iter(lambda: handle.readline(MAX_FEN_CHARS + 2), ""), 1))
            return _print_moves(args, ((n, line) for n, line in lines if line), single=False)
    except (DraughtsError, RulesbookError) as exc:
        return _error(str(exc))


def _print_moves(args: argparse.Namespace, fens: Iterable[tuple[int, str]],
                 single: bool) -> int:
    for lineno, fen in fens:
        where = f"{args.fen_file}:{lineno}: " if lineno else ""
        try:
            position = Position.from_fen(check_fen_length(fen, where), variant=args.variant)
        except DraughtsError as exc:
            message = str(exc)
            return _error(message if message.startswith(where) else f"{where}{message}")
        if args.json:
            print(_moves_json(position))
        else:
            moves = position.legal_moves()
            if not single:
                print(f"{fen}:")
            if not moves:
                print(f"{position.turn.title} has no legal move")
            for m in moves:
                print(m.full_text())
    return 0
