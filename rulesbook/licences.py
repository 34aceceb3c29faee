"""What Rulesbook runs on: the distributions it needs and the licence of each.

Read from the installed packages' metadata (``importlib.metadata``): the
requirements of ``rulesbook`` and theirs, as far as they are installed (a
requirement whose marker excludes this computer is not installed, so it is not
listed). The self-contained bundle copies the metadata of each of them in
(``bundle/rulesbook.spec`` asks :func:`components` at build time), so Help ▸
About lists in the bundle exactly what the bundle ships.
"""
from __future__ import annotations

import platform
import re
from dataclasses import dataclass
from importlib import metadata

from .version import DISTRIBUTION

__all__ = ["Component", "components", "licence_of", "python_component"]

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA = re.compile(r"""\bextra\s*==""")
#: a License field longer than this is the licence's whole text, not its name
_SHORT = 80


@dataclass(frozen=True)
class Component:
    """One distribution Rulesbook runs on."""

    name: str      # as its metadata spells it: "PySide6_Essentials", "numba"
    version: str
    licence: str   # an SPDX expression or the licence's name: "MIT", "BSD License"
    home: str      # where it is published ("" when its metadata does not say)


def _key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _field(meta: metadata.PackageMetadata, name: str) -> str:
    """The first value of a metadata field ("" when it has none)."""
    values = meta.get_all(name) or []
    return str(values[0]) if values else ""


def licence_of(dist: metadata.Distribution) -> str:
    """The licence a distribution's metadata names: its License-Expression, else a
    short License field, else its licence classifiers; "not stated" otherwise."""
    meta = dist.metadata
    expression = _field(meta, "License-Expression").strip()
    if expression:
        return expression
    field = _field(meta, "License").strip()
    if field and "\n" not in field and len(field) <= _SHORT and field.upper() != "UNKNOWN":
        return field
    classifiers = [c.split("::")[-1].strip() for c in meta.get_all("Classifier") or []
                   if c.startswith("License ::")]
    return ", ".join(classifiers) or "not stated"


def _home(dist: metadata.Distribution) -> str:
    meta = dist.metadata
    page = _field(meta, "Home-page")
    if page:
        return page
    for url in meta.get_all("Project-URL") or []:
        label, _, link = str(url).partition(",")
        if label.strip().lower() in ("homepage", "home", "source", "repository", "source code"):
            return link.strip()
    return ""


def components(root: str = DISTRIBUTION) -> tuple[Component, ...]:
    """``root`` and every installed distribution it requires, directly or not (not
    its extras), sorted by name."""
    found: dict[str, metadata.Distribution] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        if _key(name) in found:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # not for this computer (its marker), or not installed
        found[_key(name)] = dist
        for requirement in dist.requires or ():
            _, _, marker = requirement.partition(";")
            if _EXTRA.search(marker):
                continue  # an extra's (tests, the bundle's tools)
            match = _NAME.match(requirement)
            if match:
                todo.append(match.group(1))
    return tuple(sorted((Component(str(d.metadata["Name"]), d.version, licence_of(d), _home(d))
                         for d in found.values()), key=lambda c: _key(c.name)))


def python_component() -> Component:
    """The Python that runs Rulesbook (the bundle ships it)."""
    return Component("Python", platform.python_version(), "PSF-2.0",
                     "https://www.python.org/downloads/source/")
