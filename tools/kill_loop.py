"""Kill loop of the writing commands (issue 34, Must 1).

Each writing command of a committee's round (member add, propose, proposal edit,
ballot new, three votes, close, adopt, sync) is started as the real ``rulesbook``
program in a rules folder with a shared remote, and killed with SIGKILL after a
random delay (up to the time the same command took when it last ran whole).
Then:

- when the kill stopped the command (no commit of it in the folder), the same
  command is run again and must succeed;
- when the kill came after its commit (the branch moved, or its journal says
  the commit was being made), its change is done: the next command completes it.

After each step the folder's new commits must be exactly one per command, each
named for its own command; no git lock or temporary file may be left; at the end
``rulesbook validate``, ``git fsck --strict`` and ``git status`` must be clean.
Prints the counts.

    python tools/kill_loop.py [KILLS] [SEED]
"""
from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Step:
    """One writing command and the commit message it must make (None: no commit)."""

    kind: str
    argv: tuple[str, ...]
    message: str | None  # a regular expression the new commit's message must match


@dataclass
class Result:
    kills: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    per_command: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.per_command.items()))
        out = ", ".join(f"{k}: {n}" for k, n in sorted(self.outcomes.items()))
        return (f"kill loop: {self.kills} kills (SIGKILL at random points) of {kinds}; "
                f"{out}; {len(self.failures)} failure(s)")


class Folder:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.root = tmp / "club"
        self.remote = tmp / "shared.git"
        self.env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONDONTWRITEBYTECODE="1",
                        RULESBOOK_CONFIG=str(tmp / "config"), XDG_DATA_HOME=str(tmp / "xdg"),
                        RULESBOOK_AUTHOR="Kill Loop <kill@apca.invalid>")
        self.env.pop("RULESBOOK_DATA", None)

    def argv(self, *words: str) -> list[str]:
        return [sys.executable, "-m", "rulesbook", "--data", str(self.root), *words]

    def run(self, *words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.argv(*words), env=self.env, cwd=self.tmp,
                              capture_output=True, text=True, timeout=300)

    def git(self, *words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "-C", str(self.root), *words], capture_output=True,
                              text=True, timeout=120)

    def messages(self) -> list[str]:
        """Every commit's subject, newest first."""
        return self.git("log", "--format=%s").stdout.splitlines()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").stdout.strip()

    def journal_commit(self) -> str | None:
        try:
            data = json.loads((self.root / ".git" / "rulesbook-change").read_text())
        except (OSError, ValueError):
            return None
        commit = data.get("commit")
        if commit and self.git("cat-file", "-e", commit).returncode == 0:
            return str(commit)
        return None

    def leftovers(self) -> list[str]:
        out = []
        for path in self.root.rglob("*"):
            name = path.name
            if (name.endswith(".lock") and not name.startswith(".")) or \
                    name.startswith("tmp_pack_") or (name.startswith(".") and name.endswith(".tmp")):
                out.append(str(path.relative_to(self.root)))
        return out


def round_steps(r: int, proposal: str) -> list[Step]:
    ballot = f"apca/ballots/k{r}.yaml"
    path = f"{{root}}/{ballot}"
    vote = "Vote: member {} on question 28 in ballot k" + str(r) + ": 28A"
    return [
        Step("member add", ("member", "add", f"Kill Member {r}"),
             rf"^Member [A-Z]+: Kill Member {r} joins"),
        Step("propose", ("propose", "--member", "A", "--rule", "28", "--kind", "replacement",
                         "--text", f"The lone king must be caught, take {r}."),
             r"^Proposal 28A\d+ by member A: replacement for 28$"),
        Step("proposal edit", ("proposal", "edit", proposal, "--member", "A", "--text",
                               f"The lone king is caught, edit {r}."),
             rf"^Proposal {re.escape(proposal)}: text edited"),
        Step("ballot new", ("ballot", "new", path, "--quorum", "3", "--as", "A"),
             rf"^Ballot k{r}: new"),
        Step("ballot vote", ("ballot", "vote", path, "--member", "A", "--question", "28",
                             "--ranking", "28A"), vote.format("A") + "$"),
        Step("ballot vote", ("ballot", "vote", path, "--member", "B", "--question", "28",
                             "--ranking", "28A", "--proxy-by", "A"), vote.format("B")),
        Step("ballot vote", ("ballot", "vote", path, "--member", "C", "--question", "28",
                             "--ranking", "28A", "--proxy-by", "A"), vote.format("C")),
        Step("ballot close", ("ballot", "close", path, "--as", "A"), rf"^Close ballot k{r}:"),
        Step("ballot adopt", ("ballot", "adopt", path, "--edition", f"k{r}"),
             rf"^Adopt ballot k{r} as edition k{r}$"),
        Step("sync", ("sync",), None),
    ]


def run(kills: int = 500, seed: int = 1, tmp: Path | None = None,
        log: bool = True) -> Result:
    rng = random.Random(seed)
    result = Result()
    with tempfile.TemporaryDirectory(prefix="kill-loop-") as scratch:
        folder = Folder(tmp or Path(scratch))
        setup = [["init", str(folder.root)], ["member", "keygen", "--member", "A"],
                 ["member", "role", "A", "chair"]]
        for words in setup:
            done = subprocess.run([sys.executable, "-m", "rulesbook", *words], env=folder.env,
                                  cwd=folder.tmp, capture_output=True, text=True) \
                if words[0] == "init" else folder.run(*words)
            assert done.returncode == 0, (words, done.stderr)
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(folder.remote)],
                       check=True)
        assert folder.run("sync", "--remote", str(folder.remote)).returncode == 0
        took: dict[str, float] = {}
        r = 0
        proposal = "apca:28A"
        printed = 0
        while result.kills < kills and not result.failures:
            r += 1
            steps = round_steps(r, proposal)
            for index, step in enumerate(steps):
                if step.kind == "proposal edit":  # the proposal this round filed
                    step = round_steps(r, proposal)[index]
                argv = [a.format(root=folder.root) for a in step.argv]
                problem = _kill_and_retry(folder, step, argv, rng, took, result, kills)
                if problem:
                    result.failures.append(f"round {r}, {step.kind}: {problem}")
                    break
                if step.kind == "propose":
                    subject = folder.messages()[0]
                    found = re.match(r"Proposal (\S+) by member A", subject)
                    proposal = f"apca:{found.group(1)}" if found else proposal
                if log and result.kills // 50 > printed:
                    printed = result.kills // 50
                    print(result.summary(), flush=True)
                if result.kills >= kills:
                    break
        if not result.failures:
            result.failures.extend(_check_end(folder))
    return result


def _state(folder: Folder, before: list[str], pid: int) -> str:
    """Where the kill landed, read from the folder (not from the program's notices).
    A journal left by an earlier process (killed after its commit, before removing
    its journal) is not this one's: this one was killed before the lock."""
    if folder.messages() != before:
        return "after its commit"
    try:
        journal = json.loads((folder.root / ".git" / "rulesbook-change").read_text())
    except (OSError, ValueError):
        return "before the lock"
    if journal.get("pid") != pid:
        return "before the lock"
    if journal.get("commit") and folder.journal_commit():
        return "while committing"
    if journal.get("before") is None:
        return "holding the lock"
    changed = folder.git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return "in its change, files written" if changed else "in its change, nothing written"


def _kill_and_retry(folder: Folder, step: Step, argv: list[str], rng: random.Random,
                    took: dict[str, float], result: Result, kills: int) -> str | None:
    """Kill the command 1 to 4 times (each run finishes what the last kill left),
    then run it whole; None when every check passed."""
    before = folder.messages()
    where = "not killed"
    for _attempt in range(rng.randint(1, 4)):
        if result.kills >= kills:
            break
        start = time.monotonic()
        child = subprocess.Popen(folder.argv(*argv), env=folder.env, cwd=folder.tmp,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            code = child.wait(timeout=rng.uniform(0.3, 1.1) * took.get(step.kind, 2.0))
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
            code = child.wait()
        if code == 0:
            took[step.kind] = time.monotonic() - start
            result.outcomes["finished before the kill"] += 1
            return _check_step(folder, before, step)
        if code != -signal.SIGKILL:
            return f"failed with exit {code}"
        result.kills += 1
        result.per_command[step.kind] += 1
        where = _state(folder, before, child.pid)
        result.outcomes[f"killed {where}"] += 1
        if where in ("after its commit", "while committing"):
            if where == "while committing":  # the next command (here validate) completes it
                seen = folder.run("validate")
                if "completed" not in seen.stderr:
                    return f"no notice of the completed change: {seen.stderr.strip()}"
                problem = _check_step(folder, before, step)
                return problem and (f"{problem} (validate said: {seen.stderr.strip()}; "
                                    f"log: {folder.messages()[:3]})")
            return _check_step(folder, before, step)
    start = time.monotonic()
    retry = folder.run(*argv)
    if retry.returncode != 0:
        return f"the retry failed: {retry.stderr.strip()}"
    took[step.kind] = time.monotonic() - start
    if where == "in its change, files written" and "rolled back" not in retry.stderr:
        return f"the retry gave no notice of the rollback: {retry.stderr.strip()}"
    if folder.leftovers():
        return f"left behind after the retry: {folder.leftovers()[:5]}"
    return _check_step(folder, before, step)


def _check_step(folder: Folder, before: list[str], step: Step) -> str | None:
    now = folder.messages()
    new = now[:len(now) - len(before)]
    if now[len(new):] != before:
        return "the history was rewritten"
    if step.message is None:
        return None if not new else f"unexpected commits {new}"
    if len(new) != 1 or not re.search(step.message, new[0]):
        return f"expected one commit matching {step.message!r}, found {new}"
    return None


def _check_end(folder: Folder) -> list[str]:
    problems = []
    valid = folder.run("validate")
    if valid.returncode != 0:
        problems.append(f"validate: {valid.stdout[-500:]} {valid.stderr[-500:]}")
    fsck = folder.git("fsck", "--strict")
    if fsck.returncode != 0:
        problems.append(f"git fsck: {fsck.stdout[-500:]} {fsck.stderr[-500:]}")
    status = folder.git("status", "--porcelain")
    if status.stdout.strip():
        problems.append(f"git status: {status.stdout[-500:]}")
    left = folder.leftovers()
    if left:
        problems.append(f"left behind: {left[:10]}")
    remote = subprocess.run(["git", "-C", str(folder.remote), "rev-parse", "main"],
                            capture_output=True, text=True).stdout.strip()
    if folder.messages() and remote and folder.run("sync").returncode != 0:
        problems.append("the last sync does not succeed")
    return problems


def main() -> None:
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    start = time.perf_counter()
    result = run(kills, seed)
    for failure in result.failures:
        print(failure)
    print(f"{result.summary()}; {time.perf_counter() - start:.0f} s")
    sys.exit(1 if result.failures else 0)


if __name__ == "__main__":
    main()
