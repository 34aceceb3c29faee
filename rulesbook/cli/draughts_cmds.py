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
import sys

from rulesbook.draughts import VARIANTS, DraughtsError, Position, perft

from .common import int_range

#: Deepest perft accepted (the published tables stop at 12; 20 is already years of work).
MAX_PERFT_DEPTH = 20


def register(subparsers: argparse._SubParsersAction) -> None:
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
    print(f"rulesbook: error: {message}", file=sys.stderr)
    return 2


def _position(fen: str | None, variant: str) -> Position:
    if fen is None:
        return Position.start(variant)
    return Position.from_fen(fen, variant=variant)


def cmd_perft(args: argparse.Namespace) -> int:
    try:
        if args.depth < 0:
            return _error(f"--depth must be 0 or more, not {args.depth}")
        position = _position(args.fen, args.variant)
        if args.divide:
            counts = perft(position, args.depth, divide=True)
            for text, n in counts.items():
                print(f"{text}: {n}")
            print(sum(counts.values()) if args.depth > 0 else 1)
        else:
            print(perft(position, args.depth))
    except DraughtsError as exc:
        return _error(str(exc))
    return 0


def _moves_json(position: Position) -> str:
    return json.dumps([
        {"move": m.full_text(), "path": list(m.path), "captures": list(m.captures),
         "crowns": m.crowns}
        for m in position.legal_moves()
    ])


def cmd_moves(args: argparse.Namespace) -> int:
    try:
        if args.fen_file is not None:
            try:
                with open(args.fen_file, encoding="utf-8") as fh:
                    lines = [line.strip() for line in fh]
            except OSError as exc:
                return _error(f"cannot read {args.fen_file}: {exc.strerror or exc}")
            fens = [(n, line) for n, line in enumerate(lines, 1) if line]
        else:
            fens = [(0, args.fen)]
        for lineno, fen in fens:
            try:
                position = Position.from_fen(fen, variant=args.variant)
            except DraughtsError as exc:
                where = f"{args.fen_file}:{lineno}: " if lineno else ""
                return _error(f"{where}{exc}")
            if args.json:
                print(_moves_json(position))
            else:
                moves = position.legal_moves()
                if len(fens) > 1:
                    print(f"{fen}:")
                if not moves:
                    print(f"{position.turn.title} has no legal move")
                for m in moves:
                    print(m.full_text())
    except DraughtsError as exc:
        return _error(str(exc))
    return 0
