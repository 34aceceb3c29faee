"""The `rulesbook` command line.

Each group of commands lives in its own module exposing
``register(subparsers)``; this module wires them together.
"""
from __future__ import annotations

import argparse
import importlib
import sys

# Modules that contribute sub-commands, in help order.
COMMAND_MODULES = (
    "rulesbook.cli.library_cmds",
    "rulesbook.cli.draughts_cmds",
    "rulesbook.cli.pdn_cmds",
    "rulesbook.cli.rulings_cmds",
    "rulesbook.cli.ballot_cmds",
    "rulesbook.cli.member_cmds",
    "rulesbook.cli.reconstruct_cmds",
    "rulesbook.cli.folder_cmds",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulesbook",
        description="Rules knowledge and dispute resolution for American pool checkers.",
    )
    parser.add_argument(
        "--data", metavar="DIR", default=None,
        help="data folder to use instead of your rules folder (`rulesbook where`)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a command group not built yet
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return _run(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


def _run(args) -> int:
    """Run the command; a writing command (listed in :mod:`rulesbook.cli.changes`) runs
    inside one recorded change of the rules folder: one commit when it succeeds, no
    commit and no change when it fails."""
    from ..errors import RulesbookError
    from .changes import describe
    from .common import fail

    try:
        described = describe(args)
    except (RulesbookError, OSError) as exc:
        return fail(str(exc))
    if described is None:
        return int(args.func(args) or 0)
    from ..rulesfolder import recorded_change

    try:
        where, message, member = described
        with recorded_change(where, message, member=member) as change:
            code = int(args.func(args) or 0)
            if code != 0:
                change.abort()
    except (RulesbookError, OSError) as exc:
        return fail(str(exc))
    return code


if __name__ == "__main__":
    sys.exit(main())
