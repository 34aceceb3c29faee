"""What every command group shares: JSON output, error messages, loading the library."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from ..errors import LibraryError, RulesbookError
from ..library import load_library


def print_json(data) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def fail(message: str, code: int = 2) -> int:
    """Print one readable line on stderr and return the exit code."""
    print(f"rulesbook: {message}", file=sys.stderr)
    return code


def with_library(handler):
    """Run ``handler(args, library)`` on the data folder of ``--data``; a folder that
    fails validation prints its problems, and any documented error becomes a message:
    the user never sees a traceback."""
    def run(args) -> int:
        try:
            library = load_library(args.data)
        except LibraryError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        try:
            return handler(args, library)
        except (RulesbookError, ValueError, OSError) as exc:
            return fail(str(exc))
    return run


def folder_of(file: str | os.PathLike, data: str | os.PathLike | None) -> Path:
    """The data folder a ballot file belongs to (its members' keys, its library, its
    editions): ``--data`` when given, else the rules folder holding the file (a
    member's clone), else ``$RULESBOOK_DATA`` or the user's rules folder."""
    from ..datapath import resolve_data_dir

    if data is None:
        from ..rulesfolder import find_rules_folder

        root = find_rules_folder(Path(file).parent)
        if root is not None and (root / "members.yaml").is_file():
            return root
    return resolve_data_dir(data)
