"""The decorator of the kernel modules (:mod:`.kernel`, :mod:`.kernel_moves`,
:mod:`.kernel_table`): numba's ``njit`` where numba is installed (the venv:
:mod:`.compiled` runs them compiled at run time), else one that leaves each
function as written.

The self-contained bundle ships no numba: it ships the same functions compiled
ahead of time (``bundle/aot.py``, a module of its own), and imports the kernel
modules only for their constants and array layouts; :mod:`.compiled` then calls
the compiled module's functions, never these Python ones.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["njit"]


def _as_written(*args: Any, **options: Any) -> Any:
    """``@njit(...)`` or ``@njit`` where numba is not installed: the function unchanged."""
    if args and callable(args[0]):
        return args[0]
    return lambda func: func


if TYPE_CHECKING:  # numba's, as mypy knows it (an unfollowed import)
    from numba import njit
else:
    try:
        from numba import njit
    except ImportError:  # the bundle (or an install without numba): see the module
        njit = _as_written
