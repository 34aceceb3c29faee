"""The `rulesbook` command line.

Each group of commands lives in its own module exposing
``register(subparsers)``; this module wires them together.
"""
from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType
from typing import TextIO


class VersionAction(argparse.Action):
    """``--version``: ``rulesbook 0.2.0`` on stdout, exit 0 (the number is looked up
    only when asked: reading the package metadata costs every other command time)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from ..version import version_line

        if sys.stdout is not None:  # None in a windowed program (the Windows app)
            print(version_line(parser.prog.split()[0]), flush=True)
        parser.exit(0)


#: the modules of the groups of sub-commands, in help order
GROUPS = ("library_cmds", "draughts_cmds", "pdn_cmds", "rulings_cmds", "ballot_cmds",
          "member_cmds", "proposal_cmds", "reconstruct_cmds", "folder_cmds", "about_cmds")
#: the group that registers each command (tests/cli/test_parser_groups.py checks it
#: against what every group registers): a command builds and imports its group alone
COMMANDS = {
    **dict.fromkeys(("validate", "export", "show", "compare", "search", "edition"),
                    "library_cmds"),
    **dict.fromkeys(("perft", "moves"), "draughts_cmds"),
    "pdn": "pdn_cmds",
    **dict.fromkeys(("incidents", "rulings", "silences", "cases", "report"), "rulings_cmds"),
    "ballot": "ballot_cmds",
    "member": "member_cmds",
    **dict.fromkeys(("propose", "proposal"), "proposal_cmds"),
    **dict.fromkeys(("replay", "reconstruct"), "reconstruct_cmds"),
    **dict.fromkeys(("where", "init", "history", "clone", "serve", "sync"), "folder_cmds"),
    "about": "about_cmds",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; with ``command`` (a name of :data:`COMMANDS`),
    of that command's group alone: its options, help and errors are the same, and
    the other groups are neither imported nor built (a fifth of a second)."""
    from .common import OneLineParser

    parser = OneLineParser(
        prog="rulesbook",
        description="Rules knowledge and dispute resolution for American pool checkers.",
    )
    parser.add_argument(
        "--data", metavar="DIR", default=None,
        help="data folder to use instead of your rules folder (`rulesbook where`)",
    )
    parser.add_argument("--version", action=VersionAction,
                        help="print the version of Rulesbook and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    groups = (COMMANDS[command],) if command in COMMANDS else GROUPS
    for group in groups:
        _group(group).register(sub)
    return parser


def _group(name: str) -> ModuleType:
    """The module of a group of sub-commands, imported by its fixed name (the import
    graph stays what the code says: tests/test_layering.py, the bundle)."""
    if name == "library_cmds":
        from . import library_cmds

        return library_cmds
    if name == "draughts_cmds":
        from . import draughts_cmds

        return draughts_cmds
    if name == "pdn_cmds":
        from . import pdn_cmds

        return pdn_cmds
    if name == "rulings_cmds":
        from . import rulings_cmds

        return rulings_cmds
    if name == "ballot_cmds":
        from . import ballot_cmds

        return ballot_cmds
    if name == "member_cmds":
        from . import member_cmds

        return member_cmds
    if name == "proposal_cmds":
        from . import proposal_cmds

        return proposal_cmds
    if name == "reconstruct_cmds":
        from . import reconstruct_cmds

        return reconstruct_cmds
    if name == "folder_cmds":
        from . import folder_cmds

        return folder_cmds
    if name == "about_cmds":
        from . import about_cmds

        return about_cmds
    raise KeyError(name)


def command_of(argv: list[str]) -> str | None:
    """The command ``argv`` runs when nothing before it but ``--data DIR`` could change
    how it is read (None: ``--help``, ``--version``, another option, no command, an
    unknown one; the whole parser is built, and its list of commands shown)."""
    args = iter(argv)
    for arg in args:
        if arg == "--data":
            next(args, None)
        elif arg.startswith("--data="):
            continue
        else:
            return arg if arg in COMMANDS else None
    return None


def main(argv: list[str] | None = None) -> int:
    """Run one command. Every failure is one line on stderr and exit 2: the
    documented errors are reported by the commands themselves; running out of
    memory or recursion, and any error that is a bug, are caught here."""
    import warnings

    from ..rulesfolder.journal import FolderRecovered
    from ..rulesfolder.journal import set_command as journal_command
    from ..storage import DurabilityWarning

    def show_warning(message: Warning | str, category: type[Warning], filename: str,
                     lineno: int, file: TextIO | None = None, line: str | None = None) -> None:
        if issubclass(category, (DurabilityWarning, FolderRecovered)):
            from .common import warn

            warn(str(message))
        else:  # pragma: no cover - library warnings stay as Python shows them
            sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))

    parser = build_parser(command_of(sys.argv[1:] if argv is None else list(argv)))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # a bad argument (one line already on stderr), or --help
        return exc.code if isinstance(exc.code, int) else 2
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from .common import set_command

    set_command(args)
    import shlex

    journal_command(shlex.join(["rulesbook", *(sys.argv[1:] if argv is None else argv)])[:300])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", DurabilityWarning)
            warnings.simplefilter("always", FolderRecovered)
            warnings.showwarning = show_warning
            return _run(args)
    except BrokenPipeError:
        # the reader of the output went away (``| head``): stop quietly, as Python's
        # documentation advises (no second error when the output is flushed at exit)
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except KeyboardInterrupt:
        return 130
    except MemoryError:
        return _last_resort("ran out of memory; the input is too large for this computer")
    except RecursionError:
        return _last_resort("the input is nested too deeply to be read")
    except Exception as exc:  # noqa: BLE001 - the contract: never a traceback
        if os.environ.get("RULESBOOK_DEBUG"):
            raise
        about = _path_error(exc)
        if about is not None:
            return _last_resort(about)
        return _last_resort(f"internal error ({type(exc).__name__}: {str(exc)[:200]}); "
                            "please report it (RULESBOOK_DEBUG=1 shows the traceback)")


def _path_error(exc: BaseException) -> str | None:
    """One message naming the path for a path the system cannot follow (a loop of
    symbolic links, a name too long), wherever in a command it was met."""
    import errno
    import re

    from ..textio import shorten

    if isinstance(exc, RuntimeError):  # Python before 3.13: Path.resolve's loop
        found = re.match(r"Symlink loop from '(.*)'$", str(exc), re.S)
        if found:
            return (f"{shorten(found.group(1), 120)}: its symbolic links go round in a loop, "
                    f"so it leads to no file; give the file itself")
        return None
    if not isinstance(exc, OSError) or exc.filename is None:
        return None
    name = shorten(os.fsdecode(exc.filename), 120)
    if exc.errno == errno.ELOOP:
        return f"{name}: its symbolic links go round in a loop, so it leads to no file"
    if exc.errno == errno.ENAMETOOLONG:
        return (f"{name}: the name is too long for the system (a file or folder name has "
                f"at most 255 bytes); choose a shorter one")
    return f"{name}: {exc.strerror or exc}"


def _last_resort(message: str) -> int:
    from .common import fail

    return fail(message)


def _done_by_the_killed_run(code: int, where: os.PathLike[str]) -> int:
    """0 when this command line failed (exit ``code``) because its own killed run
    had made the change, said in a note; else ``code``. Either this process
    completed the killed run's change from its journal, or the folder's last
    change made whole is this same command line's and nothing came since (the
    kill came after its commit, before it could say so)."""
    from ..rulesfolder.change import made_by_the_same_command
    from ..rulesfolder.journal import completed_here, current_command

    command = current_command()
    killed = completed_here(command)
    try:
        last = None if killed is not None else made_by_the_same_command(where, command)
    except (OSError, ValueError):
        last = None
    done = killed or last
    if done is None:
        return code
    made = (done.message or "").splitlines()[0] if done.message else "its commit"
    when = "before it was stopped" if killed is not None else \
        "when it was last run here (nothing was changed since)"
    print(f"note: this same command had already made its change ({made}) {when}, "
          "so there was nothing left to do", file=sys.stderr)
    return 0


def _run(args: argparse.Namespace) -> int:
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
    import contextlib
    import io

    from ..rulesfolder import recorded_change

    # what the command says is said once its change is committed (a kill before the
    # commit, or a commit that fails, never leaves "member F: …" said of a change
    # that is rolled back)
    said = io.StringIO()
    try:
        where, message, member = described
        with recorded_change(where, message, member=member) as change:
            with contextlib.redirect_stdout(said):
                code = int(args.func(args) or 0)
            if code != 0:
                change.abort()
        sys.stdout.write(said.getvalue())  # not said of a change that failed
    except (RulesbookError, OSError) as exc:
        code = fail(_path_error(exc) or str(exc))
        return _done_by_the_killed_run(code, where)
    if code != 0:
        return _done_by_the_killed_run(code, where)
    if code == 0 and change.root is None:
        folder = where if where.is_dir() else where.parent
        print(f"note: {folder} is not versioned (not a rules folder), so no commit was "
              f"made; make it one with `rulesbook init DIR --from {folder}`", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
