"""The data folder in use, made ready: the user's rules folder is created from the
seed data on first use, and a sync killed in the middle of its checkout, or a
command killed in the middle of its change, is finished. Above
:mod:`rulesbook.rulesfolder` (which it calls) and :mod:`rulesbook.library` (which
loads the folder it returns)."""
from __future__ import annotations

import os
from pathlib import Path

from .datapath import chosen_data_dir

__all__ = ["resolve_data_dir"]


def resolve_data_dir(path: str | os.PathLike[str] | None = None, *,
                     create: bool = True) -> Path:
    """The folder to use: ``path`` if given, else ``$RULESBOOK_DATA``, else the user's
    rules folder, which is created from the seed data when it does not exist yet
    (unless ``create`` is false)."""
    folder, default = chosen_data_dir(path)
    if default and create and not folder.exists():
        from .rulesfolder import init_folder  # dulwich only when a folder is made

        init_folder(folder)
    git = folder / ".git"
    if (git / "rulesbook-checkout").exists() or (git / "rulesbook-change").exists():
        # a sync killed mid-checkout, or a command killed mid-change: finished first
        # (open_repo leaves a live writer's change of this process alone)
        from .rulesfolder import open_repo

        open_repo(folder).close()
    return folder
