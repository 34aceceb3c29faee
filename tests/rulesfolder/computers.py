"""Each committee member works on their own computer: their own rules folder (a
clone) and their own configuration folder, where their private key is kept."""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path


def config_of(folder: Path) -> Path:
    """The configuration folder (private keys) of the member who works in ``folder``."""
    return folder.parent / f"{folder.name}.config"


@contextlib.contextmanager
def on_computer_of(folder: Path | None) -> Iterator[None]:
    """Run what follows with the keys of the member who works in ``folder`` (None:
    the test's own configuration folder)."""
    if folder is None:
        yield
        return
    saved = os.environ.get("RULESBOOK_CONFIG")
    os.environ["RULESBOOK_CONFIG"] = str(config_of(folder))
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("RULESBOOK_CONFIG", None)
        else:
            os.environ["RULESBOOK_CONFIG"] = saved
