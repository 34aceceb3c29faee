"""Run a real ``rulesbook`` command in a child process and kill it with SIGKILL, at a
chosen point (the moment it opens a git object's lock file, writes its first object,
or renames a saved file into place) or after a random delay."""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.datapaths import REPO

# The child: the command line as installed, with one hook that kills the process
# with SIGKILL at the chosen point (nothing of the product is changed).
CHILD = r"""
import os, signal, sys
point, argv = sys.argv[1], sys.argv[2:]

def die():
    os.kill(os.getpid(), signal.SIGKILL)

if point == "object-lock":  # the lock file of a new git object exists: die holding it
    import dulwich.object_store as store
    real = store.GitFile
    def opened(path, *a, **k):
        handle = real(path, *a, **k)
        die()
        return handle
    store.GitFile = opened
elif point == "first-object":  # the files are written, no object of the commit yet
    from dulwich.object_store import DiskObjectStore
    real_add = DiskObjectStore.add_object
    def add(self, obj):
        if obj.type_name == b"blob" and not os.path.exists(self._get_shafile_path(obj.id)):
            die()
        return real_add(self, obj)
    DiskObjectStore.add_object = add
elif point == "save-rename":  # a save's temporary file is written, not renamed yet
    real_replace = os.replace
    def replace(src, dst, *a, **k):
        if os.path.basename(str(src)).startswith(".members.yaml."):
            die()
        return real_replace(src, dst, *a, **k)
    os.replace = replace
elif point == "set-head":  # the commit is stored and announced, the branch not moved
    import rulesbook.rulesfolder.change as change
    change.set_head = lambda *a, **k: die()
elif point == "ref-lock":  # the branch's lock file is written, not renamed yet
    import dulwich.refs as refs
    real_file = refs.GitFile
    def locked(path, mode="rb", *a, **k):
        handle = real_file(path, mode, *a, **k)
        if "heads" in str(path) and "w" in mode:
            handle.write(b"0" * 10)
            die()
        return handle
    refs.GitFile = locked
from rulesbook.cli import main
sys.exit(main(argv))
"""


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str


def environment(tmp: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONDONTWRITEBYTECODE="1",
               RULESBOOK_CONFIG=str(tmp / "config"), XDG_DATA_HOME=str(tmp / "xdg"),
               RULESBOOK_AUTHOR="Kill Tester <kill@apca.invalid>")
    env.pop("RULESBOOK_DATA", None)
    return env


def rulesbook(tmp: Path, *argv: object, point: str = "none", timeout: float = 120) -> Ran:
    """Run ``rulesbook ARGV`` (killed at ``point`` unless it is "none")."""
    proc = subprocess.run([sys.executable, "-c", CHILD, point, *map(str, argv)],
                          env=environment(tmp), cwd=tmp, capture_output=True, text=True,
                          timeout=timeout)
    return Ran(proc.returncode, proc.stdout, proc.stderr)


def start(tmp: Path, *argv: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", CHILD, "none", *map(str, argv)],
                            env=environment(tmp), cwd=tmp, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
