"""Where the rules data lives.

Only locations: nothing here creates a folder or imports the rest of Rulesbook
(:mod:`rulesbook.datafolder` makes the chosen folder ready).

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
from typing import NamedTuple

ENV_VAR = "RULESBOOK_DATA"
APP_NAME = "Rulesbook"
APP_AUTHOR = "APCA"
FOLDER_NAME = "rules"


def bundled_data_dir() -> Path:
    """The ``rules_data`` folder shipped with the package (checkout, wheel or the
    self-contained bundle): seed data, never written.

    ``importlib.resources`` answers a folder for a checkout or a wheel; the
    bundle's importer (PyInstaller's) answers a ``MultiplexedPath``, whose text is
    no path: there, the folder of the package's ``__file__``, which the bundle lays
    out as a wheel does."""
    files = resources.files("rules_data")
    if isinstance(files, Path):
        return files
    import rules_data

    return Path(rules_data.__file__).parent


def user_rules_dir() -> Path:
    """The user's own rules folder (it may not exist yet)."""
    import platformdirs

    return platformdirs.user_data_path(APP_NAME, APP_AUTHOR) / FOLDER_NAME


def user_cache_dir() -> Path:
    """Where the app keeps what it can make again (the compiled gap search);
    ``$RULESBOOK_CACHE`` chooses another folder."""
    chosen = os.environ.get("RULESBOOK_CACHE")
    if chosen:
        return Path(chosen)
    import platformdirs

    return platformdirs.user_cache_path(APP_NAME, APP_AUTHOR)


def is_bundled(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is the bundled seed folder or inside it."""
    seed = bundled_data_dir().resolve()
    target = Path(path).resolve()
    return target == seed or seed in target.parents


class DataChoice(NamedTuple):
    """The data folder chosen, and whether it is the user's own rules folder by default
    (no ``--data``, no ``$RULESBOOK_DATA``)."""

    folder: Path
    default: bool


def chosen_data_dir(path: str | os.PathLike[str] | None = None) -> DataChoice:
    """The folder to use: ``path`` if given, else ``$RULESBOOK_DATA``, else the user's
    rules folder. Only the choice: nothing is created or repaired here (that is
    :func:`rulesbook.datafolder.resolve_data_dir`)."""
    if path is None:
        path = os.environ.get(ENV_VAR) or None
    if path is not None:
        return DataChoice(Path(path).expanduser().resolve(), False)
    return DataChoice(user_rules_dir(), True)


def schema_dir() -> Path:
    """JSON Schemas always come from the bundled data: a user folder cannot weaken them."""
    return bundled_data_dir() / "schema"
