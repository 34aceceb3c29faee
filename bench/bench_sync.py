"""``rulesbook sync`` on a rules folder with 1,000 commits of history when nothing
changed (goal <= 2 s), over a local path and over smart HTTP on 127.0.0.1.

The peer measured in the same run is the ``git`` program itself (``git pull
--ff-only`` on the same clone), when it is installed.

Run: .venv/bin/python bench/bench_sync.py [COMMITS] [MEMBERS]
(issue #28's figures: ``bench/bench_sync.py 10000 100``: 100 members, 10,000 commits)
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dulwich.objects import Blob
from dulwich.repo import Repo

from rulesbook.ballots import (
    append_statement,
    dump_ballot,
    generate_key,
    load_ballot,
)
from rulesbook.ballots.registry import now_utc
from rulesbook.rulesfolder import clone, init_folder, sync
from rulesbook.rulesfolder.repo import Identity, build_tree, commit_files, make_commit
from rulesbook.rulesfolder.serve import serving
from rulesbook.rulesfolder.sync import commit_pending

GOAL = 2.0
BALLOT = "apca/ballots/2026-committee.yaml"


def member_ids(count: int) -> list[str]:
    """The seed's members A-E, then M006, M007... up to ``count``."""
    return list("ABCDE")[:count] + [f"M{i:03d}" for i in range(6, count + 1)]


def add_members(folder: Path, count: int) -> None:
    """Members past the seed's five, listed in members.yaml (as `member add` does)."""
    extra = member_ids(count)[5:]
    if not extra:
        return
    path = folder / "members.yaml"
    text = path.read_text(encoding="utf-8")
    lines = "".join(f"  - {{id: {m}, name: Member {m}, aliases: []}}\n" for m in extra)
    marker = "  - {id: unknown"
    path.write_text(text.replace(marker, lines + marker, 1), encoding="utf-8")


def member_keys(folder: Path, members: int = 5) -> dict:
    """A key for each member (in ``$RULESBOOK_CONFIG``), registered in members.yaml
    and committed, as `rulesbook member keygen` does; A names himself chair."""
    keys = {}
    add_members(folder, members)
    for member in member_ids(members):
        signer, _ = generate_key(member, rules_folder=folder)
        append_statement(folder, {"op": "key", "member": member,
                                                 "key": signer.public, "at": now_utc()},
                                                signer)
        keys[member] = signer
    append_statement(folder, {"op": "role", "member": "A", "role": "chair",
                              "key": keys["A"].public, "at": now_utc()}, keys["A"])
    with Repo(str(folder)) as repo:
        commit_pending(repo, lambda _message: None)
    return keys


def build_history(folder: Path, commits: int, members: int = 5) -> None:
    """``commits`` signed votes, each its own commit, as ``rulesbook ballot vote`` makes
    them (written directly: ten thousand CLI runs would take hours). A committee votes
    once per question of a ballot: ballot after ballot (copies of the seed's ballot,
    each opened by the chair, on every member's roll), each member votes on each of
    its first ten questions with a rule; a ballot of 100 members holds 1,000 votes."""
    from rulesbook.ballots import cast_vote, open_ballot
    from rulesbook.loading import load_library

    keys = member_keys(folder, members)
    ids = member_ids(members)
    library = load_library(folder)
    seed = dataclasses.replace(load_ballot(folder / BALLOT), roll=tuple(ids))
    questions = [q.id for q in seed.questions if q.rule][:10]
    per_ballot = len(ids) * len(questions)
    with Repo(str(folder)) as repo:
        head = repo.refs[b"HEAD"]
        files = commit_files(repo, head)
        ballot = seed
        path = BALLOT
        for i in range(commits):
            number, turn = divmod(i, per_ballot)
            if turn == 0:  # the chair opens the next ballot (the seed's, then copies)
                ballot = seed if number == 0 else dataclasses.replace(
                    seed, id=f"{seed.id}-{number + 1}", title=f"{seed.title} ({number + 1})")
                ballot = open_ballot(library, ballot, keys["A"])
                path = BALLOT if number == 0 else BALLOT.replace(
                    ".yaml", f"-{number + 1}.yaml")
            member = ids[turn % len(ids)]
            question = ballot.find_question(questions[turn // len(ids)])
            option = question.options[i % len(question.options)]
            ballot = cast_vote(ballot, member, question.id, [option], signer=keys[member])
            blob = Blob.from_string(dump_ballot(ballot).encode())
            repo.object_store.add_object(blob)
            files[path] = blob.id
            head = make_commit(repo, build_tree(repo, files), [head],
                               f"Vote: member {member} on question {question.id} of "
                               f"{ballot.id}", Identity(f"member {member}", "m@apca.invalid"))
            if (i + 1) % 1000 == 0:
                print(f"  {i + 1:,} of {commits:,} commits built", flush=True)
        repo.refs[b"refs/heads/main"] = head
        repo.get_worktree().reset_index()
        for name, sha in files.items():  # the last ballots' files as committed
            if name.startswith("apca/ballots/"):
                (folder / name).write_bytes(repo[sha].as_raw_string())


def made_with_history(folder: Path, commits: int, members: int) -> Path:
    """A new rules folder at ``folder`` with :func:`build_history`, its time printed."""
    init_folder(folder)
    start = time.perf_counter()
    build_history(folder, commits, members)
    print(f"built {commits:,} commits by {members} members in "
          f"{time.perf_counter() - start:.1f} s")
    return folder


def disk_mb(path: Path) -> float:
    """What ``du`` counts under ``path``, in MB (files' blocks)."""
    return sum(p.stat().st_blocks * 512 for p in path.rglob("*") if p.is_file()) / 1e6


def timed(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    commits = int(argv[0]) if argv else 1000
    members = int(argv[1]) if len(argv) > 1 else 5
    work = Path(tempfile.mkdtemp(prefix="rulesbook-bench-sync-"))
    os.environ.setdefault("RULESBOOK_AUTHOR", "Bench <bench@apca.invalid>")
    os.environ["RULESBOOK_CONFIG"] = str(work / "config")  # the members' private keys
    try:
        secretary = made_with_history(work / "secretary", commits, members)
        bare = work / "shared.git"
        Repo.init_bare(str(bare), mkdir=True, default_branch=b"main").close()
        sync(secretary, str(bare))
        member = clone(str(bare), work / "member")
        with Repo(str(member)) as repo:
            n = sum(1 for _ in repo.get_walker())
        in_process = timed(lambda: sync(member))
        env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
        cli = timed(lambda: subprocess.run([sys.executable, "-m", "rulesbook", "--data",
                                            str(member), "sync", "--quiet"], env=env,
                                           check=True, capture_output=True), 3)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "rulesbook", "clone", str(bare),
                        str(work / "cli-clone"), "--quiet"], env=env, check=True,
                       capture_output=True)
        cli_clone = time.perf_counter() - start
        from rulesbook.loading import load_library
        from rulesbook.rulesfolder.history import record_history

        library = load_library(member)
        start = time.perf_counter()
        entries = record_history(member, library, "apca:10")
        history_time = time.perf_counter() - start
        subprocess.run([sys.executable, "-m", "rulesbook", "--data", str(secretary), "ballot",
                        "vote", str(secretary / BALLOT), "--member", "A", "--question", "28",
                        "--ranking", "24B"], env=env, check=True, capture_output=True)
        sync(secretary)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "rulesbook", "--data", str(member), "sync",
                        "--quiet"], env=env, check=True, capture_output=True)
        one_change = time.perf_counter() - start
        with serving(bare, open_access=True) as url:
            http_member = clone(url, work / "http-member")
            over_http = timed(lambda: sync(http_member))
        print(f"history: {n} commits")
        print(f"disk: the shared repository {disk_mb(bare):.1f} MB, a member's clone's "
              f".git {disk_mb(member / '.git'):.1f} MB ("
              f"{sum(1 for _ in (member / '.git' / 'objects').glob('??/*'))} loose objects)")
        print(f"sync, nothing changed, local path:  {in_process * 1000:7.1f} ms in process, "
              f"{cli * 1000:7.1f} ms as `rulesbook sync` (goal <= {GOAL:.0f} s)")
        print(f"`rulesbook clone` of the whole history, local path (whole process): "
              f"{cli_clone * 1000:7.1f} ms")
        print(f"sync, nothing changed, smart HTTP:  {over_http * 1000:7.1f} ms in process")
        print(f"`rulesbook sync` receiving one vote (fast-forward, validated; whole process): "
              f"{one_change * 1000:7.1f} ms")
        print(f"history apca:10 over {n} commits: {history_time * 1000:7.1f} ms "
              f"({len(entries)} entries)")
        git = shutil.which("git")
        if git:
            subprocess.run([git, "-C", str(member), "config", "user.email", "b@x"], check=True)
            peer = timed(lambda: subprocess.run([git, "-C", str(member), "pull", "--ff-only",
                                                 "-q", str(bare), "main"], check=True,
                                                capture_output=True), 3)
            print(f"peer `git pull --ff-only` (the git program): {peer * 1000:7.1f} ms; "
                  f"ratio rulesbook/git = {cli / peer:.1f} (CLI), {in_process / peer:.1f} "
                  f"(in process)")
        else:
            print("peer: the git program is not installed; no ratio")
        ok = cli <= GOAL
        print("goal met" if ok else "GOAL MISSED")
        return 0 if ok else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    sys.exit(main())
