"""Rulesbook core: the rulebook model, editions, search, and the draughts engine.

Pure Python; never imports Qt. Names are imported lazily, so that a tool
that needs only one part (the engine, the atomic save) starts fast.
"""
from __future__ import annotations

import importlib

_EXPORTS = {
    "DataFileError": "errors", "LibraryError": "errors", "Problem": "errors",
    "RulesbookError": "errors", "UnknownReferenceError": "errors",
    "Library": "library", "load_library": "library", "validate_folder": "library",
    "Edition": "model", "Member": "model", "Note": "model", "Proposal": "model",
    "Rule": "model", "Rulebook": "model", "Topic": "model",
}

__all__ = sorted(_EXPORTS)
__version__ = "0.1.0"


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'rulesbook' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"rulesbook.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
