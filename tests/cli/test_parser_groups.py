"""A command builds the parser of its own group only (issue #29): the table that says
which group registers each command is what the groups register, and a command's
parser built alone reads and helps exactly as the whole one does."""
from __future__ import annotations

import argparse

import pytest

from rulesbook.cli import COMMANDS, GROUPS, _group, build_parser, command_of
from rulesbook.cli.common import OneLineParser


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_table_is_what_each_group_registers() -> None:
    registered: dict[str, str] = {}
    for group in GROUPS:
        parser = OneLineParser(prog="rulesbook")
        sub = parser.add_subparsers(dest="command", metavar="COMMAND")
        _group(group).register(sub)
        for name in _commands(parser):
            registered[name] = group
    assert registered == COMMANDS
    assert list(_commands(build_parser())) == list(registered)  # the help's order


def _helps(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, str]:
    """The help of ``parser`` and of every sub-command below it, by its path."""
    out = {prefix: parser.format_help()}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                out.update(_helps(child, f"{prefix} {name}"))
    return out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_alone_reads_and_helps_as_in_the_whole_parser(command: str) -> None:
    whole = _helps(_commands(build_parser())[command], command)
    alone_parser = build_parser(command)
    assert list(_commands(alone_parser)) == [c for c, g in COMMANDS.items()
                                             if g == COMMANDS[command]]
    assert _helps(_commands(alone_parser)[command], command) == whole


def test_only_a_known_command_after_data_narrows_the_parser() -> None:
    assert command_of(["--data", "DIR", "validate"]) == "validate"
    assert command_of(["--data=DIR", "ballot", "verify", "F"]) == "ballot"
    assert command_of(["--data", "validate", "show", "28"]) == "show"  # DIR named validate
    assert command_of(["validate", "--data", "DIR"]) == "validate"
    for argv in (["--help", "validate"], ["--version"], ["-h"], ["--dat", "DIR", "validate"],
                 ["valdate"], [], ["--data"], ["--data", "DIR"], ["--", "validate"]):
        assert command_of(argv) is None, argv


def test_a_narrowed_parse_gives_the_same_namespace() -> None:
    argv = ["--data", "D", "ballot", "verify", "F.yaml", "--json"]
    whole = vars(build_parser().parse_args(argv))
    alone = vars(build_parser(command_of(argv)).parse_args(argv))
    assert whole.keys() == alone.keys()
    assert {k: v for k, v in whole.items() if k != "func"} == \
        {k: v for k, v in alone.items() if k != "func"}
