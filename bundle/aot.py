"""Compile the gap search's kernel ahead of time (``bundle/build.py`` runs this
before PyInstaller): ``python bundle/aot.py FOLDER`` writes the extension
module :data:`rulesbook.reconstruct.gap.compiled.AOT_MODULE` into FOLDER, and
the bundle ships it instead of numba and llvmlite (153 MB of LLVM).

The module is compiled by numba's ``numba.pycc`` from the very functions the
venv compiles at run time (``rulesbook/reconstruct/gap/kernel*.py``, one source
compiled two ways), each entry point that :mod:`~rulesbook.reconstruct.gap.compiled`
calls with the one signature it calls it with (:data:`EXPORTS`; the helpers are
inlined or compiled into it as numba does at run time). It needs numpy at run
time, and a C compiler here (pycc builds numba's runtime helpers from C).

Two things pycc does not do by itself are done here: it releases no GIL (its
wrappers take no ``nogil``; the kernel's count runs in a thread while the caller
reports progress and passes on a cancel), so its compiler's flags are given
``release_gil``; and the module is stamped with the kernel sources' digest
(``stamp()``), so that gap.compiled never runs a module compiled from others.

numba.pycc is deprecated (numba has said it will be replaced); this is checked
by tests/bundle (the bundle's answers against the venv's) on every build.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# one-dimensional and two- and three-dimensional C-ordered arrays of int64
_V, _M, _C = "int64[::1]", "int64[:,::1]", "int64[:,:,::1]"
#: the entry points gap.compiled calls (module, function) and their signatures
EXPORTS = {
    "count": ("kernel", f"int64(int64, int64, int64, int64, boolean, int64, float64, int64, "
                        f"{_V}, {_M}, {_M}, {_M}, {_M}, {_M}, {_M}, {_C}, {_V}, float64[::1])"),
    "put_many": ("kernel_table", f"void({_M}, {_V}, {_M}, {_V})"),
    "grown": ("kernel_table", f"Tuple(({_M}, {_V}))({_M}, {_V})"),
    "get": ("kernel_table", f"int64({_M}, int64, int64, int64, int64)"),
    # (not the backward layers' checks of gap/kernel_retro.py: numba.pycc
    # fails to type kernel._enter once they are exported beside count; the
    # bundle builds its layers in Python, gap.compiled sees they are missing)
}


_STAMP = 0


def _stamp() -> int:
    """The digest of the sources compiled (gap.compiled compares it with its own)."""
    return _STAMP


def _releasing_the_gil() -> None:
    """pycc's compiler builds its flags itself: make them release the GIL, as
    the kernel's ``@njit(nogil=True)`` asks of numba at run time."""
    from numba.core.compiler import Flags
    from numba.pycc import compiler

    class GilFreeFlags(Flags):  # type: ignore[misc]
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            setattr(self, "release_gil", True)  # noqa: B010 - an Option descriptor to mypy

    setattr(compiler, "Flags", GilFreeFlags)  # noqa: B010 - replaced for this build only


def compile_kernel(folder: Path) -> Path:
    """The module, compiled into ``folder``; its path."""
    sys.path.insert(0, str(ROOT))
    # a fresh numba cache: pycc links the kernel's helpers from their compiled IR,
    # which a cache loaded from disk has not kept
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulesbook-aot-cache-")
    import importlib

    from numba.pycc import CC

    from rulesbook.reconstruct.gap.compiled import AOT_MODULE, digest_stamp, kernel_digest

    _releasing_the_gil()
    cc = CC(AOT_MODULE)
    cc.output_dir = str(folder)
    for name, (module, signature) in EXPORTS.items():
        func = getattr(importlib.import_module(f"rulesbook.reconstruct.gap.{module}"), name)
        cc.export(name, signature)(func.py_func)
    global _STAMP
    _STAMP = digest_stamp(kernel_digest())  # numba takes a global's value as it compiles
    cc.export("stamp", "int64()")(_stamp)
    for old in folder.glob(f"{AOT_MODULE}.*"):
        old.unlink()
    cc.compile()
    built = sorted(folder.glob(f"{AOT_MODULE}.*"))
    if not built:
        raise SystemExit(f"numba.pycc wrote no {AOT_MODULE} into {folder}")
    return built[0]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python bundle/aot.py FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    built = compile_kernel(folder)
    print(f"gap kernel compiled ahead of time: {built} ({built.stat().st_size / 1e6:.1f} MB, "
          f"{time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
