"""Helpers for the rules-folder tests: run the CLI in-process, read a folder's log."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from dulwich.repo import Repo

from rulesbook.cli import main
from rulesbook.rulesfolder.trailer import split_trailer

from .computers import on_computer_of


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


@pytest.fixture(autouse=True)
def user_config(tmp_path, monkeypatch) -> Path:
    """The user's configuration folder, where ``rulesbook member keygen`` keeps the
    private keys (never in a rules folder)."""
    folder = tmp_path / "config"
    monkeypatch.setenv("RULESBOOK_CONFIG", str(folder))
    # git's own configuration is the test's, never the user's: its credential helper
    # keeps logins in the test's folder (as a member's keychain would)
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text(f"[credential]\n\thelper = store --file "
                         f"{(tmp_path / 'git-credentials').as_posix()}\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    return folder


@pytest.fixture
def rb(capsys):
    """``rb("ballot", "vote", ...)``: run the command line, return code/out/err;
    ``owner=FOLDER`` runs it on the computer of the member who works in FOLDER (with
    their configuration folder, so their private key)."""
    def run(*argv, owner: Path | None = None) -> Run:
        with on_computer_of(owner):
            code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return Run(code, out, err)
    return run


@dataclass(frozen=True)
class LogEntry:
    id: str
    message: str   # without the trailer naming the program (rulesfolder/trailer.py)
    author: str
    committer: str
    parents: int
    program_version: str | None = None  # the trailer's (None: another program's commit)


def log(folder: Path) -> list[LogEntry]:
    """Newest first."""
    with Repo(str(folder)) as repo:
        entries = []
        for w in repo.get_walker():
            message, program = split_trailer(w.commit.message.decode())
            entries.append(LogEntry(w.commit.id.decode(), message, w.commit.author.decode(),
                                    w.commit.committer.decode(), len(w.commit.parents),
                                    program))
        return entries


def file_bytes(folder: Path) -> dict[str, bytes]:
    """Every file outside .git but the lock files of rulesbook.storage.file_lock."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(folder).parts
            and not (p.name.startswith(".") and p.name.endswith(".lock"))}


def bare_repo(path: Path) -> Path:
    Repo.init_bare(str(path), mkdir=True, default_branch=b"main").close()
    return path


@pytest.fixture
def http_remote(tmp_path):
    """A bare repository served over smart HTTP on 127.0.0.1 by dulwich's own server
    (rulesbook.rulesfolder.serve, as `rulesbook serve` runs it), in this process;
    yields (url, bare path)."""
    from rulesbook.rulesfolder.serve import serving

    bare = bare_repo(tmp_path / "served.git")
    with serving(bare, open_access=True) as url:
        yield url, bare
