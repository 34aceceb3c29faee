"""Installed from the built package, Rulesbook never writes into its own files: every
writing command and the app's saves go to the user's rules folder."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.datapaths import REPO

APP_SAVES = """
from ui.controller import AppController
from ui.ballots.controller import BallotController
from PySide6.QtWidgets import QApplication
app = QApplication([])
ctrl = AppController()
assert ctrl.load().ok
ballots = BallotController(ctrl)
ballots.keys.use("A")  # the chair signs in: the others' votes are his proxy votes
path = ctrl.data_dir / "apca" / "ballots" / "app.yaml"
ballots.new_from_library("app", path)
ballots.save()
for member in "ABCDE":
    ballots.cast(member, "10", ["10B"])
ballots.save()
ballots.close_and_seal()
ballots.adopt("app-edition")
print(ctrl.data_dir)
"""


def tree_digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The package built and installed into a target folder (no dependencies: those of
    the test environment are used)."""
    work = tmp_path_factory.mktemp("install")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    for name in ("rulesbook", "ui", "rules_data"):
        shutil.copytree(REPO / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__", ".*"))
    target = work / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps",
                           "--no-build-isolation", "--no-compile", "--quiet",
                           "--target", str(target), str(source)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return target


def test_every_writing_command_leaves_the_installed_package_unchanged(installed, tmp_path):
    before = tree_digest(installed)
    assert "rules_data/apca/ballots/2026-committee.yaml" in before
    env = dict(os.environ, PYTHONPATH=str(installed), PYTHONDONTWRITEBYTECODE="1",
               XDG_DATA_HOME=str(tmp_path / "home-data"), QT_QPA_PLATFORM="offscreen",
               RULESBOOK_AUTOSAVE_DIR=str(tmp_path / "autosave"),
               RULESBOOK_AUTHOR="Installed User <user@apca.invalid>")
    env.pop("RULESBOOK_DATA", None)

    ran = set()

    def rb(*argv, code=0, config="chair"):
        """The command on the computer of ``config`` (its configuration folder holds
        that member's private key)."""
        words = argv[2:] if argv[0] == "--data" else argv
        sub = words[1] if len(words) > 1 and not str(words[1]).startswith("-") else None
        ran.add((words[0], sub))
        proc = subprocess.run([sys.executable, "-m", "rulesbook", *map(str, argv)],
                              env=dict(env, RULESBOOK_CONFIG=str(tmp_path / config)),
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert proc.returncode == code, (argv, proc.stdout, proc.stderr)
        return proc.stdout

    where = Path(rb("where").strip())
    assert where == tmp_path / "home-data" / "Rulesbook" / "rules"
    located = subprocess.run([sys.executable, "-c", "import rulesbook; print(rulesbook.__file__)"],
                             env=env, cwd=tmp_path, capture_output=True, text=True)
    assert Path(located.stdout.strip()).is_relative_to(installed)  # the installed copy runs
    rb("member", "keygen", "--member", "A")  # the chair's key, and he names himself
    rb("member", "role", "A", "chair")
    ballots = where / "apca" / "ballots"
    rb("ballot", "new", ballots / "cli.yaml", "--quorum", "3", "--as", "A")
    rb("ballot", "vote", ballots / "2026-committee.yaml", "--member", "A", "--question",
       "28", "--ranking", "28A", code=2)  # the seed's ballot is not signed yet...
    rb("ballot", "sign", ballots / "2026-committee.yaml", "--as", "A")  # ...the chair signs
    rb("ballot", "vote", ballots / "cli.yaml", "--member", "A", "--question", "28",
       "--ranking", "28A")
    bare = tmp_path / "shared.git"
    from dulwich.repo import Repo

    Repo.init_bare(str(bare), mkdir=True, default_branch=b"main").close()
    rb("sync", "--remote", bare)
    clone = tmp_path / "clone"  # member B, on his computer
    rb("clone", bare, clone, config="b")
    rb("--data", clone, "member", "keygen", "--member", "B", config="b")
    rb("--data", clone, "sync", config="b")
    rb("sync")  # the chair receives B's key and makes him secretary
    rb("member", "role", "B", "secretary")
    rb("sync")
    rb("--data", clone, "sync", config="b")
    rb("--data", clone, "ballot", "vote", clone / "apca" / "ballots" / "cli.yaml",
       "--member", "B", "--question", "28", "--ranking", "28A", config="b")
    copy = tmp_path / "b.yaml"  # B's signed copy, sent to the chair
    rb("--data", clone, "ballot", "export", clone / "apca" / "ballots" / "cli.yaml",
       "--member", "B", "-o", copy, config="b")
    pem = next((tmp_path / "b" / "keys").glob("B-*.pem"))  # B's key on his second computer
    rb("--data", clone, "member", "import-key", pem, "--member", "B", config="b-laptop")
    rb("ballot", "import", ballots / "cli.yaml", copy)
    rb("ballot", "vote", ballots / "cli.yaml", "--member", "C", "--question", "28",
       "--ranking", "28A", "--proxy-by", "A")  # C's telephone vote, entered by the chair
    rb("ballot", "close", ballots / "cli.yaml", "--as", "A")
    rb("ballot", "adopt", ballots / "cli.yaml", "--edition", "cli-edition")
    rb("history", "apca:28")
    rb("member", "revoke", "B")  # B lost his laptop
    rb("sync")
    rb("init", tmp_path / "fresh")
    # a new member and his proposals (issue 18)
    rb("member", "add", "Frank")
    rb("member", "keygen", "--member", "F")  # proposals are signed by their author (#27)
    rb("member", "role", "F", "member")  # the chair confirms his key
    rb("propose", "--member", "F", "--rule", "28", "--kind", "replacement",
       "--text", "The lone king must be caught before the count of fifteen.")
    rb("proposal", "edit", "apca:28F", "--member", "F", "--text",
       "The lone king must be caught before the count of fourteen.")
    rb("proposal", "withdraw", "apca:28F", "--member", "F", "--reason", "said better by 28A")
    from rulesbook.cli.changes import WRITING_COMMANDS

    assert set(WRITING_COMMANDS) <= ran, set(WRITING_COMMANDS) - ran  # every one was run
    seed = installed / "rules_data" / "apca" / "ballots" / "2026-committee.yaml"
    rb("ballot", "vote", seed, "--member", "A", "--question", "10", "--ranking", "10B", code=2)
    app = subprocess.run([sys.executable, "-c", APP_SAVES], cwd=tmp_path,
                         env=dict(env, RULESBOOK_CONFIG=str(tmp_path / "chair")),
                         capture_output=True, text=True, timeout=120)
    assert app.returncode == 0, app.stderr
    assert Path(app.stdout.strip()) == where
    editions = yaml.safe_load((where / "editions.yaml").read_text())
    assert [e["id"] for e in editions["editions"]][-2:] == ["cli-edition", "app-edition"]
    assert tree_digest(installed) == before
