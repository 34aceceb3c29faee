"""``rulesbook pdn ...``: commands on PDN game files.

``rulesbook pdn check FILE [--variant V] [--json]`` reads every game, replays
its main line and reports each game's problems with line and column.  A game
without a GameType tag is read as ``--variant``; without it, in the variant in
which the whole record is legal (pool first); the JSON's ``variant`` names the
variant read, ``variant_note`` says why when it was guessed (else null).
Exit status: 0 no game has errors, 1 some game has, 2 the file can't be read.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import TypedDict

from .common import Subparsers, help_of


class RecordErrorJson(TypedDict):
    line: int
    col: int
    message: str


class GameCheckJson(TypedDict):
    """One game of ``rulesbook pdn check --json`` (a list, written game by game)."""

    game: int
    tags: dict[str, str]
    plies: int
    result: str
    errors: list[RecordErrorJson]
    variant: str
    variant_note: str | None


__all__ = ["register", "cmd_check"]


def register(subparsers: Subparsers) -> None:
    pdn = subparsers.add_parser("pdn", help="read and check PDN game files",
                                description="Commands on PDN (Portable Draughts Notation) files.")
    pdn_sub = pdn.add_subparsers(dest="pdn_command", metavar="SUBCOMMAND")
    pdn.set_defaults(func=help_of(pdn))

    check = pdn_sub.add_parser(
        "check", help="replay every game of a PDN file and report errors",
        description="Read every game, replay its main line and report each problem "
                    "with its line and column. Exit 0 when no game has errors, 1 when "
                    "some game has, 2 when the file can't be read.")
    check.add_argument("file", metavar="FILE", help="the PDN file")
    check.add_argument("--variant", metavar="V", default=None,
                       help="variant for games without a GameType tag: pool, english, "
                            "russian, brazilian (default: the variant in which the whole "
                            "record is legal, pool first)")
    check.add_argument("--json", action="store_true", help="machine-readable output")
    check.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    from rulesbook.draughts import DraughtsError, Variant
    from rulesbook.draughts.pdn import PdnReader
    from rulesbook.errors import RulesbookError
    from rulesbook.textio import visible_controls

    from .common import fail, game_file

    def error(message: str) -> int:
        return fail(message)

    variant = None
    if args.variant is not None:
        try:
            variant = Variant.named(args.variant)
        except DraughtsError as exc:
            return error(str(exc))
    bad = total = 0
    try:
        with game_file(args.file) as handle:
            for number, game in enumerate(PdnReader(handle, variant), 1):
                if game.errors:
                    bad += 1
                if args.json:  # written game by game: memory does not grow with the file
                    sys.stdout.write(",\n" if number > 1 else "[\n")
                    checked: GameCheckJson = {
                        "game": number,
                        "tags": dict(game.tags),
                        "plies": len(game.mainline_moves()),
                        "result": game.result,
                        "variant": game.variant.name,
                        "variant_note": (game.variant_guess.sentence()
                                         if game.variant_guess is not None else None),
                        "errors": [{"line": e.line, "col": e.col, "message": e.message}
                                   for e in game.errors],
                    }
                    sys.stdout.write(json.dumps(checked, indent=2, ensure_ascii=False))
                elif game.errors:
                    problems = "; ".join(f"line {e.line} col {e.col}: {e.message}"
                                         for e in game.errors)
                    print(f"game {number} ({visible_controls(game.title())}): "
                          f"{visible_controls(problems)}")
                total = number
    except (RulesbookError, ValueError) as exc:  # limits, decoding, unreadable file
        if args.json and total:
            sys.stdout.write("\n]\n")
        return error(f"{args.file}: {exc}" if args.file not in str(exc) else str(exc))
    if args.json:
        sys.stdout.write("\n]\n" if total else "[]\n")
    else:
        print(f"{total} games, {bad} with errors")
    return 1 if bad else 0
