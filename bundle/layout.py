"""The bundle's layout on each operating system: the one place that names its
files (the PyInstaller spec, the build script, the tests and the CI workflow
all ask here).

Linux: ``dist/Rulesbook/`` holds ``Rulesbook`` (the app) and ``rulesbook`` (the
command line) beside ``_internal/`` (Python, Qt, the seed data), packed as
``Rulesbook-<version>-linux-<machine>.tar.gz``.

Windows and macOS file systems ignore case: ``Rulesbook.exe`` and
``rulesbook.exe`` would be one file, so there the command line is
``rulesbook-cli`` (``rulesbook-cli.exe``). Windows packs a ``.zip``; macOS a
``.tar.gz`` of the folder (the app is also made a ``Rulesbook.app``).

Only the standard library is used here: the spec imports this file before
anything of Rulesbook is importable.
"""
from __future__ import annotations

import os
import platform as _platform
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

NAME = "Rulesbook"  # the folder, the app, the archive
CLI = "rulesbook"


class Layout(NamedTuple):
    """Where a bundle's files are, for one operating system."""

    system: str          # "linux", "windows" or "macos"
    app: str             # the app's executable, relative to the bundle folder
    cli: str             # the command line's executable
    archive_format: str  # shutil.make_archive's: "gztar" or "zip"
    archive_suffix: str  # ".tar.gz" or ".zip"

    def archive_name(self, version: str, machine: str | None = None) -> str:
        """``Rulesbook-0.2.0-linux-x86_64.tar.gz``."""
        arch = (machine or _platform.machine() or "unknown").lower()
        return f"{NAME}-{version}-{self.system}-{arch}{self.archive_suffix}"


def system_of(platform: str | None = None) -> str:
    """``linux``, ``windows`` or ``macos`` for a ``sys.platform`` value."""
    platform = sys.platform if platform is None else platform
    if platform.startswith("win") or platform == "cygwin":
        return "windows"
    if platform == "darwin":
        return "macos"
    return "linux"


def layout(platform: str | None = None) -> Layout:
    """The layout for ``platform`` (``sys.platform``; this computer's by default)."""
    system = system_of(platform)
    if system == "windows":
        return Layout(system, f"{NAME}.exe", f"{CLI}-cli.exe", "zip", ".zip")
    if system == "macos":
        return Layout(system, NAME, f"{CLI}-cli", "gztar", ".tar.gz")
    return Layout(system, NAME, CLI, "gztar", ".tar.gz")


ROOT = Path(__file__).resolve().parent.parent  # the checkout
DIST = ROOT / "dist"                             # what `make bundle` makes
BUILD = ROOT / "build" / "pyinstaller"           # PyInstaller's work folder
AOT_BUILD = ROOT / "build" / "gap-kernel"        # the kernel compiled ahead of time (aot.py)

#: RULESBOOK_BUNDLE_KERNEL's values: how the bundle's gap search runs compiled
KERNEL_MODES = {
    "aot": "aot",    # the default: compiled ahead of time (bundle/aot.py), no numba nor LLVM
    "jit": "jit",    # numba and llvmlite shipped, the kernel compiled at run time
    "1": "jit",      # (the former default's name)
    "0": "none",     # no compiled kernel: the Python search answers
    "none": "none",
}


def kernel_mode(environ: Mapping[str, str] | None = None) -> str:
    """``aot``, ``jit`` or ``none``, as RULESBOOK_BUNDLE_KERNEL asks (``aot`` when unset)."""
    asked = (os.environ if environ is None else environ).get("RULESBOOK_BUNDLE_KERNEL", "aot")
    try:
        return KERNEL_MODES[asked.strip().lower()]
    except KeyError:
        raise SystemExit(f"RULESBOOK_BUNDLE_KERNEL={asked!r}: one of "
                         f"{', '.join(KERNEL_MODES)} is meant") from None


def bundle_dir() -> Path:
    """The bundle folder `make bundle` makes on this computer."""
    return DIST / NAME
