"""The data folder in use, made ready: the user's rules folder is created from the
seed data on first use, and a sync killed in the middle of its checkout is
finished. Above :mod:`rulesbook.rulesfolder` (which it calls) and
:mod:`rulesbook.library` (which loads the folder it returns)."""
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
    if (folder / ".git" / "rulesbook-checkout").exists():
        from .rulesfolder import open_repo  # a sync was killed mid-checkout: finish it

        open_repo(folder).close()
    return folder
