"""Whether a folder is a rules folder, and which one holds a file: plain path
checks, without dulwich (a command that only reads a ballot or a case asks
this and never opens the repository)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TypeAlias

__all__ = ["MARKER", "StrPath", "find_rules_folder", "is_rules_folder"]

MARKER = "editions.yaml"  # a git repository with this file at its root is a rules folder
StrPath: TypeAlias = str | os.PathLike[str]  # a folder given by the user or the caller


def is_rules_folder(path: StrPath) -> bool:
    root = Path(path)
    return (root / ".git").is_dir() and (root / MARKER).is_file()


def find_rules_folder(path: StrPath) -> Path | None:
    """The rules folder that holds ``path`` (a file or folder), or None. The search
    stops at the first git repository: a file of the program's own checkout is not
    in a rules folder."""
    here = Path(path).resolve()
    for folder in [here, *here.parents]:
        if (folder / ".git").exists():
            return folder if is_rules_folder(folder) else None
    return None
