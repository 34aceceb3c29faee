"""What the bundle leaves out of what PyInstaller collected, and the Linux
libraries it strips (bundle/rulesbook.spec asks here; tests/bundle/test_trim.py
checks the choices without a build).

PyInstaller's Qt hooks take every plugin of a Qt module and every translation.
The app is in English and installs no translator, draws PNG and SVG, opens no
network connection through Qt and runs on a desktop (X11, Wayland, Windows,
macOS) or offscreen: the rest is left out (:func:`unused`). A host library that
only a plugin left out needed (the GTK theme's cairo, pango, ...) goes with it
(:func:`orphans`). On Linux the libraries are stripped of their symbol tables
(:func:`strippable`: 53 MB on x86-64, most of it LLVM's and Python's), except
those auditwheel patched (``<package>.libs/``), which do not load once stripped.

Only the standard library is used here, so that tests import it without
PyInstaller; entries are PyInstaller's TOC tuples ``(dest, source, typecode)``.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import PurePosixPath

Entry = tuple[str, str, str]

#: Qt plugin folders of which nothing is used
UNUSED_PLUGIN_FOLDERS = frozenset({
    "egldeviceintegrations",  # EGLFS (a screen without a desktop)
    "generic",                # evdev and TUIO input, for EGLFS
    "networkinformation",     # QtNetwork's, not shipped
    "tls",                    # QtNetwork's, not shipped (dulwich speaks HTTPS itself)
})
#: single plugins not used: the platforms without a desktop (the offscreen one stays: the
#: tests and --smoke-test use it), the GTK theme (it would load the host's GTK beside the
#: bundled cairo and pango), image formats the app never reads
UNUSED_PLUGINS = frozenset({
    "qeglfs", "qlinuxfb", "qminimal", "qminimalegl", "qvkkhrdisplay", "qvnc", "qdirect2d",
    "qgtk3",
    "qtiff", "qwebp", "qtga", "qwbmp",
})
#: Python packages not used at run time (numba's GPU target and test suites, numpy's
#: Fortran wrapper generator and tests); PyInstaller's excludes
UNUSED_MODULES = ("numba.cuda", "numba.tests", "llvmlite.tests", "numpy.f2py", "numpy.tests",
                  "PySide6.QtNetwork")
#: modules to take all the same: numba imports its ``_devicearray`` at every start, but
#: only numba.cuda's imports name it where PyInstaller looks
NEEDED_MODULES = ("numba._devicearray",)


def _parts(dest: str) -> tuple[str, ...]:
    return PurePosixPath(dest.replace("\\", "/")).parts


def plugin_name(filename: str) -> str:
    """``qxcb`` for ``libqxcb.so``, ``qwindows.dll`` and ``libqcocoa.dylib`` alike."""
    stem = filename.split(".", 1)[0]
    return stem[3:] if stem.startswith("lib") else stem


def unused(dest: str) -> bool:
    """Whether the file PyInstaller would put at ``dest`` (relative to the bundle's
    _internal/) is one the app never uses: Qt's translations and unused plugins."""
    parts = _parts(dest)
    if not parts or parts[0] != "PySide6":  # Qt is PySide6/Qt/ (PySide6/ on Windows)
        return False
    if "translations" in parts:
        return True
    if "plugins" in parts:
        folder = parts[parts.index("plugins") + 1] if len(parts) > parts.index("plugins") + 1 \
            else ""
        return folder in UNUSED_PLUGIN_FOLDERS or plugin_name(parts[-1]) in UNUSED_PLUGINS
    return False


def _key(name: str) -> str:
    return PurePosixPath(name.replace("\\", "/")).name.lower()


def orphans(kept: Iterable[Entry], dropped: Iterable[Entry],
            needs: Callable[[str], Iterable[str]]) -> set[str]:
    """The destinations of the host libraries laid beside the programs (no folder of
    their own) that only the ``dropped`` binaries linked to: no binary ``kept``
    needs them, directly or through another kept library.

    ``needs(source)`` names the libraries a binary links to (``ldd`` answers the
    whole closure on Linux, the PE and Mach-O headers only the direct ones)."""
    kept = list(kept)
    known: dict[str, set[str]] = {}

    def links(source: str) -> set[str]:
        if source not in known:
            known[source] = {_key(name) for name in needs(source)}
        return known[source]

    top = {_key(dest): dest for dest, _, _ in kept if len(_parts(dest)) == 1}
    orphaned = {top[name] for _, source, _ in dropped for name in links(source) if name in top}
    while True:  # a library a kept one needs is kept, and so on until nothing changes
        needed = set().union(*(links(source) for dest, source, _ in kept
                               if dest not in orphaned))
        still = {dest for dest in orphaned if _key(dest) not in needed}
        if still == orphaned:
            return still
        orphaned = still


_ELF_LIBRARY = re.compile(r"\.so(\.\d+)*$")


def strippable(dest: str, source: str = "") -> bool:
    """Whether a Linux binary may be stripped: a shared library not from an auditwheel
    ``.libs`` folder (numpy's OpenBLAS there fails to load once stripped: "ELF load
    command address/offset not page-aligned"); ``source`` is where it was found."""
    parts = _parts(dest) + _parts(source)
    return bool(_ELF_LIBRARY.search(_parts(dest)[-1])) and \
        not any(p.endswith(".libs") for p in parts)
