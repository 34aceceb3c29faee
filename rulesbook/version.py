"""The program's one version number, and what it says about itself.

The number is written once, in ``pyproject.toml``; it is read at run time from
the installed package's metadata (``importlib.metadata``): a venv (``make
install``), a wheel, and the self-contained bundle, whose build copies that
metadata in (``bundle/rulesbook.spec``). A checkout that is run without
being installed (``PYTHONPATH=.``) reads ``pyproject.toml`` itself.

The version is written into every dispute report (:mod:`rulesbook.report`) and
into the trailer of every commit of the rules folder
(:mod:`rulesbook.rulesfolder.trailer`), so that a committee knows which program
wrote a record.
"""
from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path

__all__ = ["DISTRIBUTION", "UNKNOWN", "frozen", "version", "version_line"]

#: the name of the distribution (``pip install``, the wheel's file name)
DISTRIBUTION = "rulesbook"
#: what :func:`version` answers when no metadata and no pyproject.toml is found
UNKNOWN = "0+unknown"

_PYPROJECT_VERSION = re.compile(r'^version\s*=\s*"([^"]+)"', re.MULTILINE)


def frozen() -> bool:
    """Whether this is the self-contained bundle (PyInstaller sets ``sys.frozen``)."""
    return bool(getattr(sys, "frozen", False))


@cache
def version() -> str:
    """The version of Rulesbook that is running, e.g. ``"0.2.0"``."""
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        pass
    return _checkout_version() or UNKNOWN


def _checkout_version() -> str | None:
    """The version in ``pyproject.toml`` beside the package, when this runs from a
    checkout (an installed package has no pyproject.toml beside it)."""
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:
        return None
    project = text.split("\n[project]\n", 1)[-1].split("\n[", 1)[0]
    if not re.search(rf'^name\s*=\s*"{DISTRIBUTION}"\s*$', project, re.MULTILINE):
        return None  # another project's file
    found = _PYPROJECT_VERSION.search(project)
    return found.group(1) if found else None


def version_line(program: str = "rulesbook") -> str:
    """What ``--version`` prints: ``rulesbook 0.2.0``."""
    return f"{program} {version()}"
