"""The association's rules folder: a per-user data folder that is a git repository
(dulwich, pure Python), where every change is one commit, and which committee
members on different machines share through one remote repository.

- :func:`init_folder`, :func:`clone`: create a folder (from seed data or a remote).
- :func:`recorded_change`: the transaction every write goes through (one commit).
- :func:`sync`, :func:`folder_status`: fetch, merge record by record, validate, push.
- :mod:`.history`: what changed a rule or proposal, and what an edition changed.
"""
from .change import Change, active_change, recorded_change, refuse_seed
from .errors import (
    ConflictedRecord,
    NotARulesFolder,
    RulesFolderError,
    SeedReadOnlyError,
    SyncConflict,
    SyncInvalid,
)
from .repo import Identity, find_rules_folder, init_folder, is_rules_folder, open_repo
from .sync import FolderStatus, SyncResult, clone, fetch_status, folder_status, sync

__all__ = [
    "Change", "active_change", "recorded_change", "refuse_seed", "ConflictedRecord",
    "NotARulesFolder", "RulesFolderError", "SeedReadOnlyError", "SyncConflict", "SyncInvalid",
    "Identity", "find_rules_folder", "init_folder", "is_rules_folder", "open_repo",
    "FolderStatus", "SyncResult", "clone", "fetch_status", "folder_status", "sync",
]
