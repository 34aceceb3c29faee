"""Pausing Python's cycle collector while a large acyclic structure is built.

Reading a committee's ballot builds about a million dicts, lists and strings in a
second; every 700 new containers the collector looks at the young ones, and each
time the survivors have grown by a quarter it walks every object of the process:
a third of ``rulesbook validate``'s CPU time on a 1,000-member ballot went there,
finding nothing (YAML data has no cycles: aliases are refused). Reference counting
still frees everything at once; the cycle collector runs again when the build ends.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["cycles_paused"]


@contextmanager
def cycles_paused() -> Iterator[None]:
    """No cycle collection inside the block (nested blocks and threads: the collector
    is enabled again by the block that found it enabled)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
