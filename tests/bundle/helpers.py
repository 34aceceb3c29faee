"""What the bundle and wheel tests share: a clean environment, as a user's computer
has it (an empty home, a PATH without the project's venv, no PYTHONPATH), and a
command run in it."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: what Windows itself needs in a process's environment (no Python among them)
_WINDOWS_KEEP = ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "TEMP", "TMP",
                 "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE")


def system_path() -> str:
    """The PATH of a computer without the project: the system's folders only."""
    if sys.platform.startswith("win"):
        root = os.environ.get("SYSTEMROOT", r"C:\Windows")
        return os.pathsep.join([rf"{root}\System32", root])
    return os.pathsep.join(["/usr/bin", "/bin"])


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a user who never installed Python: ``home`` empty, no venv
    on PATH, no PYTHONPATH, no XDG folders, no RULESBOOK_* setting; offscreen Qt."""
    home.mkdir(parents=True, exist_ok=True)
    env = {"HOME": str(home), "PATH": system_path(), "LANG": "C.UTF-8",
           "QT_QPA_PLATFORM": "offscreen"}
    if sys.platform.startswith("win"):
        env.update({k: os.environ[k] for k in _WINDOWS_KEEP if k in os.environ})
        env.update({"USERPROFILE": str(home), "APPDATA": str(home / "AppData" / "Roaming"),
                    "LOCALAPPDATA": str(home / "AppData" / "Local")})
    env.update(extra)
    return env


@dataclass(frozen=True)
class Ran:
    code: int
    stdout: str
    stderr: str
    seconds: float


def run(argv: Sequence[str | os.PathLike[str]], env: dict[str, str], cwd: Path,
        timeout: float = 300) -> Ran:
    began = time.perf_counter()
    proc = subprocess.run([str(a) for a in argv], env=env, cwd=cwd, capture_output=True,
                          text=True, encoding="utf-8", errors="replace", timeout=timeout)
    return Ran(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - began)
