"""Where the rules data lives: the bundled ``rules_data`` package by default."""
from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

ENV_VAR = "RULESBOOK_DATA"


def bundled_data_dir() -> Path:
    """The ``rules_data`` folder shipped with the package (checkout or wheel)."""
    return Path(str(resources.files("rules_data")))


def resolve_data_dir(path: str | os.PathLike | None = None) -> Path:
    """The folder to load: ``path`` if given, else ``$RULESBOOK_DATA``, else the bundled data."""
    if path is None:
        path = os.environ.get(ENV_VAR) or None
    return Path(path).expanduser().resolve() if path is not None else bundled_data_dir()


def schema_dir() -> Path:
    """JSON Schemas always come from the bundled data: a user folder cannot weaken them."""
    return bundled_data_dir() / "schema"
