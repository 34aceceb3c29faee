"""What every command group shares: JSON output, error messages, loading the library."""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO, TypeAlias

from ..datafolder import resolve_data_dir
from ..errors import LibraryError, RulesbookError

if TYPE_CHECKING:
    from ..library import Library

#: what ``register(sub)`` of a command module receives: ``add_subparsers()``'s action
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
#: a command: the parsed arguments (read here, at the edge, and nowhere deeper) to an
#: exit code
Handler: TypeAlias = Callable[[argparse.Namespace], int]
#: a command that works on the library of ``--data``
LibraryHandler: TypeAlias = "Callable[[argparse.Namespace, Library], int]"


def print_json(data: object, end: str = "\n") -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write(end)


_LONG_WORD = re.compile(r"\S{201,}")


def one_line(message: str) -> str:
    """A message as one readable line: several lines (an error that lists its
    problems) joined, and any word longer than 200 characters (a quoted input
    of 5,000 digits) cut short."""
    lines = [line.strip() for line in str(message).splitlines() if line.strip()]
    if len(lines) <= 1:
        text = lines[0] if lines else ""
    else:
        text = f"{lines[0].rstrip(':')}: " + "; ".join(lines[1:])
    return _LONG_WORD.sub(lambda m: m.group()[:60] + f"…({len(m.group()):,} characters)",
                          text)


#: The command being run (``rulesbook replay``): the one prefix of every message.
_command = "rulesbook"


def set_command(args: argparse.Namespace) -> None:
    """Name the command being run from its parsed ``args`` (``rulesbook pdn
    check``), for :func:`prefix`."""
    global _command
    words = ["rulesbook"]
    for key in ("command", "ballot_command", "member_command", "pdn_command",
                "proposal_command"):
        value = getattr(args, key, None)
        if value:
            words.append(str(value))
    _command = " ".join(words)


def prefix(kind: str = "error") -> str:
    """The one prefix style of every command's messages: ``rulesbook replay: error:``
    (or ``warning:``), as argparse writes a bad argument."""
    return f"{_command}: {kind}:"


def fail(message: str, code: int = 2) -> int:
    """Print one readable line on stderr and return the exit code."""
    print(f"{prefix()} {one_line(message)}", file=sys.stderr)
    return code


def warn(message: str) -> None:
    """A warning (a file read as Windows-1252) as one line on stderr."""
    print(f"{prefix('warning')} {one_line(message)}", file=sys.stderr)


@contextlib.contextmanager
def game_file(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """A game file (PDN or a record) opened as every command reads one: bounded in
    size, strict UTF-8 or a legacy encoding read with a warning on stderr."""
    from ..limits import GAME_FILE, MAX_GAME_FILE_BYTES
    from ..textio import open_text

    warnings: list[str] = []
    with open_text(path, max_bytes=MAX_GAME_FILE_BYTES, what=GAME_FILE,
                   warnings=warnings) as handle:
        for warning in warnings:
            warn(warning)
        yield handle


def guarded(handler: Handler,
            exit_code: Callable[[argparse.Namespace, Exception], int] | None = None
            ) -> Handler:
    """``handler(args)`` with its errors as messages, never a traceback: a folder that
    fails validation prints its problems (exit 2); any other documented error is one
    line on stderr, exit 2 or ``exit_code(args, exc)`` when given."""
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except LibraryError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        except BrokenPipeError:
            raise  # the reader went away (``| head``): not an error (see cli.main)
        except (RulesbookError, ValueError, OSError) as exc:
            return fail(str(exc), exit_code(args, exc) if exit_code is not None else 2)
    return run


def with_library(handler: LibraryHandler) -> Handler:
    """Run ``handler(args, library)`` on the data folder of ``--data``, guarded like
    :func:`guarded`."""
    def run(args: argparse.Namespace) -> int:
        from ..loading import load_library  # YAML and the schemas: only when a command reads

        return handler(args, load_library(resolve_data_dir(args.data)))

    return guarded(run)


def int_range(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number from ``low`` to ``high``: anything
    else (a word, a number of 5,000 digits, one out of range) is one readable
    error, never an OverflowError or a RecursionError further on."""
    def parse(text: str) -> int:
        raw = text.strip()
        body = raw[1:] if raw[:1] in "+-" else raw
        if not body.isascii() or not body.isdigit():
            raise argparse.ArgumentTypeError(
                f"{_cut(text)!r} is not a whole number (give {low} to {high:,})")
        if len(body) > len(str(max(abs(low), abs(high)))) + 1:
            raise argparse.ArgumentTypeError(
                f"{_cut(text)} is out of range: give {low} to {high:,}")
        value = int(raw)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range: give {low} to {high:,}")
        return value
    parse.__name__ = "whole number"
    return parse


def _cut(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[:width] + "…"


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {_cut(message, 300)}\n")


def folder_of(file: str | os.PathLike[str], data: str | os.PathLike[str] | None) -> Path:
    """The data folder a ballot file belongs to (its members' keys, its library, its
    editions): ``--data`` when given, else the rules folder holding the file (a
    member's clone), else ``$RULESBOOK_DATA`` or the user's rules folder."""
    if data is None:
        from ..rulesfolder import find_rules_folder

        root = find_rules_folder(Path(file).parent)
        if root is not None and (root / "members.yaml").is_file():
            return root
    return resolve_data_dir(data)


def help_of(parser: argparse.ArgumentParser) -> Handler:
    """The command of a group run without an action (``rulesbook ballot``): the
    group's help, exit 2."""
    def run(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 2
    return run


def member_ids(root: Path) -> list[str]:
    """The member ids of ``root``'s ``members.yaml`` as the file stands (read before
    the folder is validated): entries that are not a member with an id, as a hand
    edit may leave them, are left for the validation to report. Raises
    :class:`~rulesbook.errors.DataFileError` when the file does not read."""
    return list(member_names(root))


def member_names(root: Path) -> dict[str, str]:
    """Each member id of ``root``'s ``members.yaml`` with the member's name as the file
    stands ("" when it has none), read as :func:`member_ids` reads them."""
    from ..yamlio import load_file

    data = load_file(root / "members.yaml", "members.yaml").data
    members = data.get("members") if isinstance(data, dict) else None
    if not isinstance(members, list):
        return {}
    return {str(m["id"]): str(m.get("name") or "") for m in members
            if isinstance(m, dict) and m.get("id") is not None}
