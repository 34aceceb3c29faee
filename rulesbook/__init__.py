"""Rulesbook core: the rulebook model, editions, search, and the draughts engine.

Pure Python; never imports Qt. Names are imported lazily, so that a tool
that needs only one part (the engine, the atomic save) starts fast.
"""
from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as the checker sees them; at run time __getattr__ loads them
    from .errors import DataFileError as DataFileError
    from .errors import LibraryError as LibraryError
    from .errors import Problem as Problem
    from .errors import RulesbookError as RulesbookError
    from .errors import UnknownReferenceError as UnknownReferenceError
    from .library import Library as Library
    from .loading import load_library as load_library
    from .loading import validate_folder as validate_folder
    from .model import Edition as Edition
    from .model import Member as Member
    from .model import Note as Note
    from .model import Proposal as Proposal
    from .model import Rule as Rule
    from .model import Rulebook as Rulebook
    from .model import Topic as Topic

    __version__: str  # the installed version (rulesbook.version)

_ERRORS = frozenset({"DataFileError", "LibraryError", "Problem", "RulesbookError",
                     "UnknownReferenceError"})
_MODEL = frozenset({"Edition", "Member", "Note", "Proposal", "Rule", "Rulebook", "Topic"})
_LOADING = frozenset({"load_library", "validate_folder"})  # the library with every check

__all__ = sorted(_ERRORS | _MODEL | _LOADING | {"Library", "__version__"})


def __getattr__(name: str) -> Any:  # Any: the checker sees the names imported above
    module: ModuleType
    if name in _ERRORS:
        from . import errors as module
    elif name in _MODEL:
        from . import model as module
    elif name in _LOADING:
        from . import loading as module
    elif name == "Library":
        from . import library as module
    elif name == "__version__":
        from .version import version

        return version()
    else:
        raise AttributeError(f"module 'rulesbook' has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
