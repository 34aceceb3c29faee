"""``rulesbook about``: what Help ▸ About says, for the command line: the version,
whether this is the self-contained bundle, the Python, the gap search's compiled
kernel, and the licence of every component.

``--warm-up`` prepares the gap search's compiled kernel now (compiled, or
loaded from the user's cache folder) and says how long it took, so that a
first search does not run in Python while it compiles: an installer or a
referee before a tournament runs it once. Exit 0; 1 when ``--warm-up`` was
asked and the compiled search could not be prepared (the searches then run
in Python: the same answers, slower).
"""
from __future__ import annotations

import argparse
import logging
import platform
import sys
import time
from typing import TypedDict

from .common import Subparsers, guarded, print_json


class ComponentJson(TypedDict):
    name: str
    version: str
    licence: str
    home: str


class GapSearchJson(TypedDict):
    compiled: bool      # numba, or the kernel compiled ahead of time, is importable
    kind: str           # "jit" (numba, compiled at run time), "aot" (ahead of time), ""
    reason: str         # why it cannot ("" when it can)
    warmed_up: bool     # --warm-up: the kernel ran in this process
    seconds: float | None
    cache: str | None   # where the compiled kernel is kept (numba's cache, or the module)


class AboutJson(TypedDict):
    """``rulesbook about --json``."""

    version: str
    bundle: bool
    python: str
    platform: str
    program: str      # the folder of the rulesbook package that runs
    seed_data: str    # the bundled seed data (rules_data) it copies a rules folder from
    gap_search: GapSearchJson
    components: list[ComponentJson]


class _Failures(logging.Handler):
    """Keeps what the kernel's preparation logged (a traceback is no message for
    the command line: its last line is)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.reasons: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        self.reasons.append(f"{type(exc).__name__}: {exc}" if exc else record.getMessage())


def _gap_search(warm: bool) -> GapSearchJson:
    from ..reconstruct.gap import compiled as gap_compiled

    seconds: float | None = None
    warmed = False
    reason = gap_compiled.why_unavailable()
    if warm and gap_compiled.AVAILABLE:
        log = logging.getLogger(gap_compiled.__name__)
        failures = _Failures()
        log.addHandler(failures)
        log.propagate = False
        began = time.perf_counter()
        try:
            warmed = gap_compiled.warm_up() > 0.0
        finally:
            log.removeHandler(failures)
            log.propagate = True
        seconds = round(time.perf_counter() - began, 3)
        if failures.reasons:
            reason = failures.reasons[-1]
    cache = getattr(gap_compiled, "CACHE_FOLDER", None)
    if gap_compiled.KIND == "aot":
        cache = getattr(gap_compiled.fast, "__file__", None)
    return {"compiled": gap_compiled.AVAILABLE, "kind": gap_compiled.KIND, "reason": reason,
            "warmed_up": warmed, "seconds": seconds,
            "cache": None if cache is None else str(cache)}


def _short(reason: str) -> str:
    """A reason of many lines (numpy's advice on a failed import) as its first and
    last lines: the error and its cause."""
    lines = [line.strip() for line in reason.splitlines() if line.strip()]
    return " ".join(dict.fromkeys([lines[0], lines[-1]])) if lines else reason


def cmd_about(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..datapath import bundled_data_dir
    from ..licences import components, python_component
    from ..version import frozen, version

    gap = _gap_search(args.warm_up)
    about: AboutJson = {
        "version": version(), "bundle": frozen(), "python": platform.python_version(),
        "platform": sys.platform, "program": str(Path(__file__).resolve().parents[1]),
        "seed_data": str(bundled_data_dir()), "gap_search": gap,
        "components": [{"name": c.name, "version": c.version, "licence": c.licence,
                        "home": c.home} for c in (python_component(), *components())]}
    if args.json:
        print_json(about)
    else:
        kind = " (self-contained bundle)" if about["bundle"] else ""
        print(f"Rulesbook {about['version']}{kind}, Python {about['python']} on "
              f"{about['platform']}")
        if gap["compiled"]:
            state = f"compiled ahead of time ({gap['cache']})" if gap["kind"] == "aot" \
                else f"compiled (kernel cache: {gap['cache']})"
            if gap["seconds"] is not None:
                state += (f"; prepared in {gap['seconds']:.1f} s" if gap["warmed_up"]
                          else f"; could not be prepared ({_short(gap['reason'])}): searches run "
                               "in Python")
        else:
            state = f"the Python search (the compiled one is not available: " \
                    f"{_short(gap['reason'])})"
        print(f"Gap search: {state}")
        print("Components and their licences:")
        for c in about["components"]:
            print(f"  {c['name']} {c['version']}: {c['licence']}")
    return 1 if args.warm_up and not gap["warmed_up"] else 0


def register(sub: Subparsers) -> None:
    p = sub.add_parser("about", help="the version, the gap search's kernel and the "
                                     "licences of the components")
    p.add_argument("--warm-up", action="store_true",
                   help="prepare the gap search's compiled kernel now (compile or load it)")
    p.add_argument("--json", action="store_true",
                   help="machine-readable: {version, bundle, python, platform, program, "
                        "seed_data, gap_search: "
                        "{compiled, reason, warmed_up, seconds, cache}, components: "
                        "[{name, version, licence, home}]}")
    p.set_defaults(func=guarded(cmd_about))
