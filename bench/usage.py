"""``--help`` (or ``-h``) for every benchmark script: its own docstring, printed
before anything is built or measured, and exit 0 (a benchmark's first argument is
often a size, so ``--help`` used to start a run of minutes)."""
from __future__ import annotations

import sys


def exit_on_help(doc: str | None, argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if "-h" in args or "--help" in args:
        print((doc or "").strip())
        raise SystemExit(0)
