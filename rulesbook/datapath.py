"""Where the rules data lives.

The ``rules_data`` package shipped with Rulesbook is read-only seed data. The
folder in use is, in order: the ``--data DIR`` a command or the app was given,
``$RULESBOOK_DATA``, or the user's own rules folder in the platform's data
location (``platformdirs``: ``~/.local/share/Rulesbook/rules`` on Linux),
created from the seed on first use as a git repository
(:mod:`rulesbook.rulesfolder`).
"""
from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

ENV_VAR = "RULESBOOK_DATA"
APP_NAME = "Rulesbook"
APP_AUTHOR = "APCA"
FOLDER_NAME = "rules"


def bundled_data_dir() -> Path:
    """The ``rules_data`` folder shipped with the package (checkout or wheel): seed
    data, never written."""
    return Path(str(resources.files("rules_data")))


def user_rules_dir() -> Path:
    """The user's own rules folder (it may not exist yet)."""
    import platformdirs

    return platformdirs.user_data_path(APP_NAME, APP_AUTHOR) / FOLDER_NAME


def is_bundled(path: str | os.PathLike) -> bool:
    """Whether ``path`` is the bundled seed folder or inside it."""
    seed = bundled_data_dir().resolve()
    target = Path(path).resolve()
    return target == seed or seed in target.parents


def resolve_data_dir(path: str | os.PathLike | None = None, *, create: bool = True) -> Path:
    """The folder to use: ``path`` if given, else ``$RULESBOOK_DATA``, else the user's
    rules folder, which is created from the seed data when it does not exist yet
    (unless ``create`` is false)."""
    if path is None:
        path = os.environ.get(ENV_VAR) or None
    if path is not None:
        folder = Path(path).expanduser().resolve()
    else:
        folder = user_rules_dir()
        if create and not folder.exists():
            from .rulesfolder import init_folder

            init_folder(folder)
    if (folder / ".git" / "rulesbook-checkout").exists():
        from .rulesfolder import open_repo  # a sync was killed mid-checkout: finish it

        open_repo(folder).close()
    return folder


def schema_dir() -> Path:
    """JSON Schemas always come from the bundled data: a user folder cannot weaken them."""
    return bundled_data_dir() / "schema"
