"""``rulesbook clone`` and ``rulesbook sync`` against each kind of git server a
committee may share its folder on, all started here on 127.0.0.1: ``git daemon``
(git://), ``git http-backend`` behind HTTP basic auth (smart HTTP asking for a user
name and a password, as GitHub, GitLab and Gitea do), ``rulesbook serve`` with a
token per member, and SSH (an asyncssh server running git's own upload-pack and
receive-pack, the clients using the system's ssh and a key, as a git host's SSH). Each figure is a whole ``rulesbook`` process (wall seconds, CPU
seconds, peak memory), the median of three runs: the clone of the whole history,
a sync when nothing changed, and a sync receiving one vote (the secretary votes and
syncs first). The peer measured against the same server in the same run is the
``git`` program: ``git clone`` and ``git pull --ff-only``.

Run: .venv/bin/python bench/bench_servers.py [COMMITS] [MEMBERS]   (default 1000 5)
"""
from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_sync import BALLOT, made_with_history  # noqa: E402 - this script's folder

from tests.rulesfolder.servers import (  # noqa: E402
    git_daemon,
    git_http_backend,
    rulesbook_serve,
    ssh_server,
)

PASSWORD = "bench-password"


class Run(NamedTuple):
    wall: float
    cpu: float
    peak_mb: float


def whole_process(argv: list[str], env: dict[str, str]) -> Run:
    """Run ``argv`` to its end under ``/usr/bin/time``: its wall time, CPU time and
    peak memory (a child's own ``ru_maxrss`` would count this process's memory,
    which the child held from the fork to its exec)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as measured:
        proc = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", measured.name,
                               *argv], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        if proc.returncode:
            raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): "
                             f"{proc.stderr[-600:]}")
        wall, user, system, peak_kb = measured.read().split()[-4:]
    return Run(float(wall), float(user) + float(system), int(peak_kb) / 1024)


def median(runs: list[Run]) -> Run:
    return Run(*(statistics.median(r[i] for r in runs) for i in range(3)))


def shown(run: Run) -> str:
    return f"{run.wall:6.2f} s wall, {run.cpu:6.2f} s CPU, {run.peak_mb:5.0f} MB"


@contextlib.contextmanager
def server(kind: str, base: Path, env: dict[str, str]) -> Iterator[tuple[str, str]]:
    """(the URL the secretary pushes to, the URL a member clones) of ``kind``; ``env``
    gets what the clients need (SSH: the command with the server's key)."""
    if kind == "SSH":
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(base / "shared.git")],
                       check=True)
        (base / "ssh").mkdir()
        with ssh_server(base, base / "ssh") as ssh:
            env["GIT_SSH_COMMAND"] = ssh.ssh_command
            try:
                yield ssh.url + "shared.git", f"{ssh.alias}:shared.git"
            finally:
                env.pop("GIT_SSH_COMMAND", None)
    elif kind == "git daemon":
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(base / "shared.git")],
                       check=True)
        with git_daemon(base) as url:
            yield url + "shared.git", url + "shared.git"
    elif kind == "git http-backend, basic auth":
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(base / "shared.git")],
                       check=True)
        with git_http_backend(base, "member", PASSWORD) as url:
            address = url.replace("://", f"://member:{PASSWORD}@", 1) + "shared.git"
            yield address, address
    else:
        with rulesbook_serve(base / "shared.git", ("secretary", "member")) as served:
            yield served.with_token("secretary"), served.with_token("member")


def measure(kind: str, secretary_made: Path, work: Path, env: dict[str, str]) -> None:
    rulesbook = [sys.executable, "-m", "rulesbook"]
    base = work / "".join(ch if ch.isalnum() else "-" for ch in kind)
    base.mkdir()
    secretary = base / "secretary"
    shutil.copytree(secretary_made, secretary, symlinks=True)
    with server(kind, base, env) as (push_url, member_url):
        whole_process([*rulesbook, "--data", str(secretary), "sync", "--quiet", "--remote",
                       push_url], env)
        clones = []
        for i in range(3):
            clones.append(whole_process([*rulesbook, "clone", member_url,
                                         str(base / f"member{i}"), "--quiet"], env))
        member = base / "member0"

        def sync() -> Run:
            return whole_process([*rulesbook, "--data", str(member), "sync", "--quiet"], env)
        unchanged = median([sync() for _ in range(3)])
        received = []
        for ranking in ("24B", "28A", "24B"):
            whole_process([*rulesbook, "--data", str(secretary), "ballot", "vote",
                           str(secretary / BALLOT), "--member", "A", "--question", "28",
                           "--ranking", ranking], env)
            whole_process([*rulesbook, "--data", str(secretary), "sync", "--quiet"], env)
            received.append(sync())
        peer_clone = median([whole_process(["git", "clone", "-q", member_url,
                                            str(base / f"git{i}")], env) for i in range(3)])
        peer_pull = median([whole_process(["git", "-C", str(base / "git0"), "pull", "-q",
                                           "--ff-only"], env) for _ in range(3)])
    first = median(clones)
    print(f"{kind}:")
    print(f"  clone, whole history:      {shown(first)}   git clone: {shown(peer_clone)}"
          f"   ratio {first.wall / peer_clone.wall:.1f}")
    print(f"  sync, nothing changed:     {shown(unchanged)}   git pull:  {shown(peer_pull)}"
          f"   ratio {unchanged.wall / peer_pull.wall:.1f}")
    print(f"  sync, one vote received:   {shown(median(received))}")


def main(argv: list[str]) -> int:
    commits = int(argv[0]) if argv else 1000
    members = int(argv[1]) if len(argv) > 1 else 5
    if shutil.which("git") is None or not Path("/usr/bin/time").exists():
        print("this benchmark needs the git program (git daemon, git http-backend) and "
              "/usr/bin/time")
        return 1
    work = Path(tempfile.mkdtemp(prefix="rulesbook-bench-servers-"))
    env = dict(os.environ, PYTHONPATH=str(ROOT), GIT_TERMINAL_PROMPT="0",
               RULESBOOK_CONFIG=str(work / "config"),
               RULESBOOK_AUTHOR="Bench <bench@apca.invalid>",
               GIT_CONFIG_GLOBAL=str(work / "gitconfig"), GIT_CONFIG_NOSYSTEM="1")
    # the password kept by git's credential helper (as a member's keychain keeps it)
    (work / "gitconfig").write_text("[user]\n\tname = Bench\n\temail = b@apca.invalid\n"
                                    f"[credential]\n\thelper = store --file={work}/credentials\n")
    os.environ.update({k: env[k] for k in ("RULESBOOK_CONFIG", "RULESBOOK_AUTHOR")})
    try:
        secretary = made_with_history(work / "made", commits, members)
        for kind in ("git daemon", "git http-backend, basic auth", "rulesbook serve", "SSH"):
            measure(kind, secretary, work, env)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py

    exit_on_help(__doc__)
    sys.exit(main(sys.argv[1:]))
