"""Rulesbook core: the rulebook model, editions, search, and the draughts engine.

Pure Python; never imports Qt. Names are imported lazily, so that a tool
that needs only one part (the engine, the atomic save) starts fast.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as the checker sees them; at run time __getattr__ loads them
    from .errors import DataFileError as DataFileError
    from .errors import LibraryError as LibraryError
    from .errors import Problem as Problem
    from .errors import RulesbookError as RulesbookError
    from .errors import UnknownReferenceError as UnknownReferenceError
    from .library import Library as Library
    from .library import load_library as load_library
    from .library import validate_folder as validate_folder
    from .model import Edition as Edition
    from .model import Member as Member
    from .model import Note as Note
    from .model import Proposal as Proposal
    from .model import Rule as Rule
    from .model import Rulebook as Rulebook
    from .model import Topic as Topic

_EXPORTS = {
    "DataFileError": "errors", "LibraryError": "errors", "Problem": "errors",
    "RulesbookError": "errors", "UnknownReferenceError": "errors",
    "Library": "library", "load_library": "library", "validate_folder": "library",
    "Edition": "model", "Member": "model", "Note": "model", "Proposal": "model",
    "Rule": "model", "Rulebook": "model", "Topic": "model",
}

__all__ = sorted(_EXPORTS)
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:  # Any: the checker sees the names imported above
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'rulesbook' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"rulesbook.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
