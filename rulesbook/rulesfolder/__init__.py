"""The association's rules folder: a per-user data folder that is a git repository
(dulwich, pure Python), where every change is one commit, and which committee
members on different machines share through one remote repository.

- :func:`init_folder`, :func:`clone`: create a folder (from seed data or a remote).
- :func:`recorded_change`: the transaction every write goes through (one commit).
- :func:`sync`, :func:`folder_status`: fetch, merge record by record, validate, push.
- :mod:`.history`: what changed a rule or proposal, and what an edition changed.

Names are imported on first use (PEP 562), so that a command that never opens
the folder's history does not import dulwich.
"""
from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as the checker sees them; at run time __getattr__ loads them
    from .change import Change as Change
    from .change import active_change as active_change
    from .change import recorded_change as recorded_change
    from .change import refuse_seed as refuse_seed
    from .errors import ConflictedRecord as ConflictedRecord
    from .errors import NotARulesFolder as NotARulesFolder
    from .errors import RulesFolderError as RulesFolderError
    from .errors import SeedReadOnlyError as SeedReadOnlyError
    from .errors import SyncConflict as SyncConflict
    from .errors import SyncInvalid as SyncInvalid
    from .repo import Identity as Identity
    from .repo import init_folder as init_folder
    from .repo import open_repo as open_repo
    from .sync import clone as clone
    from .sync import fetch_status as fetch_status
    from .sync import folder_status as folder_status
    from .sync import sync as sync
    from .sync_result import FolderStatus as FolderStatus
    from .sync_result import SyncResult as SyncResult
    from .where import find_rules_folder as find_rules_folder
    from .where import is_rules_folder as is_rules_folder

#: where each public name is defined (imported on first use: dulwich only when a
#: command reads or writes the folder's history)
_WHERE: dict[str, str] = {
    "Change": "change",
    "active_change": "change",
    "recorded_change": "change",
    "refuse_seed": "change",
    "ConflictedRecord": "errors",
    "NotARulesFolder": "errors",
    "RulesFolderError": "errors",
    "SeedReadOnlyError": "errors",
    "SyncConflict": "errors",
    "SyncInvalid": "errors",
    "Identity": "repo",
    "find_rules_folder": "where",
    "init_folder": "repo",
    "is_rules_folder": "where",
    "open_repo": "repo",
    "FolderStatus": "sync",
    "SyncResult": "sync",
    "clone": "sync",
    "fetch_status": "sync",
    "folder_status": "sync",
    "sync": "sync",
}

__all__ = [
    "Change", "active_change", "recorded_change", "refuse_seed", "ConflictedRecord",
    "NotARulesFolder", "RulesFolderError", "SeedReadOnlyError", "SyncConflict", "SyncInvalid",
    "Identity", "find_rules_folder", "init_folder", "is_rules_folder", "open_repo",
    "FolderStatus", "SyncResult", "clone", "fetch_status", "folder_status", "sync",
]


def __getattr__(name: str) -> Any:  # Any: the checker sees the names imported above
    where = _WHERE.get(name)
    # ``import pkg.mod`` binds no name of this package (``from . import mod`` would ask
    # this function for ``sync``, the function, while its module is being found)
    if where == "change":
        import rulesbook.rulesfolder.change
    elif where == "errors":
        import rulesbook.rulesfolder.errors
    elif where == "repo":
        import rulesbook.rulesfolder.repo
    elif where == "where":
        import rulesbook.rulesfolder.where
    elif where == "sync":
        import rulesbook.rulesfolder.sync  # noqa: F401 - bound in sys.modules
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(sys.modules[f"{__name__}.{where}"], name)
    globals()[name] = value
    return value


class _Package(ModuleType):
    """This package, whose name ``sync`` stays the function :func:`.sync.sync`
    when its module of the same name is imported (as when it was imported here
    eagerly, before the names were loaded on first use)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "sync" and isinstance(value, ModuleType):
            return  # the import system binding the submodule: the function keeps the name
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
