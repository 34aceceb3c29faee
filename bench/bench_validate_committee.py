"""Benchmark: ``rulesbook validate`` of a rules folder whose committee has 1,000
members and a sealed ballot of 60 questions, the whole process, CPU seconds —
this code against the code of ``main`` (issue 27 part A's peer: validate before the
ballot's settings and texts were signed), measured in the same run.

Each code builds its own folder (the seed data, 1,000 members with a registered
key each, the chair M0; a ballot of 60 questions on the seed's rules and proposals,
opened — signed by the chair where the code knows how —, one signed batch of 60
votes per member, closed and sealed by the chair), then ``python -m rulesbook
--data DIR validate`` runs three times in a child process; the best of the
children's user+system CPU time is reported with the peak RSS (``os.wait4``), and the
ratio new / old. The same again on a copy of the folder where one vote was changed
by hand (:func:`tamper`: the ranking of a vote near line 10,000 reversed, so its
signature and the seal fail): the error path, whose problems must name that vote's
line (issue #29: <= 2 s CPU, <= 250 MB whole process, either way).

Run: .venv/bin/python bench/bench_validate_committee.py [--old DIR | --ref COMMIT]
(without --old, ``git archive COMMIT`` — default main — is unpacked into a temporary
folder; the code before issue 27 is 91cff0c)
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MEMBERS = 1000
QUESTIONS = 60
AT = "2026-01-01T00:00:00Z"


def make(target: Path, seed: int = 2026) -> None:
    """Build the folder with the code on ``sys.path`` (run in a child process)."""
    import dataclasses

    import yaml
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from rulesbook.ballots import build_ballot, close_ballot, save_ballot
    from rulesbook.ballots.keys import SigningKey, encode_public
    from rulesbook.ballots.model import Vote
    from rulesbook.ballots.registry import build_registry, sign_statement
    from rulesbook.ballots.signing import sign_votes
    from rulesbook.datapath import bundled_data_dir
    from rulesbook.loading import load_library

    rng = random.Random(seed)
    shutil.copytree(bundled_data_dir(), target,
                    ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    roll = tuple(f"M{m}" for m in range(MEMBERS))
    keys = {}
    for m in roll:
        private = Ed25519PrivateKey.generate()
        keys[m] = SigningKey(m, encode_public(private.public_key()), private)
    statements = [sign_statement({"op": "key", "member": m, "key": k.public, "at": AT}, k)
                  for m, k in keys.items()]
    statements.append(sign_statement({"op": "role", "member": "M0", "role": "chair",
                                      "key": keys["M0"].public, "at": AT}, keys["M0"]))
    members = yaml.safe_load((target / "members.yaml").read_text())
    members["members"] += [{"id": m, "name": f"Member {m}"} for m in roll]
    members["registry"] = statements
    (target / "members.yaml").write_text(yaml.safe_dump(members, sort_keys=False))
    registry = build_registry(statements)
    library = load_library(target)
    ballot = build_ballot(library, "bench", roll=roll, quorum=MEMBERS // 2)
    seed_questions = list(ballot.questions)  # (this code: with their texts' digests)
    questions = [dataclasses.replace(seed_questions[i % len(seed_questions)], id=f"q{i}")
                 for i in range(QUESTIONS)]
    ballot = dataclasses.replace(ballot, questions=tuple(questions))
    try:  # this code: the settings signed by the chair; main's has no such thing
        from rulesbook.ballots.settings import sign_settings
    except ImportError:
        pass
    else:
        ballot = sign_settings(ballot, keys["M0"], registry, AT)
    texts = None
    try:
        from rulesbook.ballots.signing import ballot_texts

        texts = ballot_texts(ballot)
    except ImportError:
        pass
    votes = []
    for member in roll:
        mine = []
        for q in questions:
            order = list(q.options)
            rng.shuffle(order)
            mine.append(Vote(member, q.id, tuple(order[:rng.randint(0, len(order))]), AT))
        votes.extend(sign_votes("bench", mine, keys[member], texts) if texts is not None
                     else sign_votes("bench", mine, keys[member]))
    ballot = dataclasses.replace(ballot, votes=tuple(votes))
    ballot = close_ballot(ballot, keys["M0"], registry, at="2026-01-02T00:00:00Z")
    save_ballot(target / "apca" / "ballots" / "bench.yaml", ballot)


def tamper(folder: Path, after: int = 10_000) -> int:
    """Change one vote of the folder's ballot by hand, as a person with a text editor
    would: the first ranking of two options at or after line ``after`` reversed. The
    line where that vote begins (its ``- member:``)."""
    path = folder / "apca" / "ballots" / "bench.yaml"
    lines = path.read_text().splitlines(keepends=True)
    for n in range(after - 1, len(lines)):
        m = re.fullmatch(r"  ranking: \[('[^']+'), ('[^']+')\]\n", lines[n])
        if m:
            lines[n] = f"  ranking: [{m.group(2)}, {m.group(1)}]\n"
            path.write_text("".join(lines))
            return next(k + 1 for k in range(n, 0, -1) if lines[k].startswith("- "))
    raise SystemExit(f"no vote of two options after line {after} in {path}")


def run_validate(code: Path, folder: Path, runs: int = 3) -> tuple[float, float, int, str]:
    """``validate`` of ``folder`` with ``code``, ``runs`` times in a child process: the
    best CPU seconds (user + system), the largest peak RSS in MB, the exit code and the
    output of the last run."""
    env = dict(os.environ, PYTHONPATH=str(code), PYTHONDONTWRITEBYTECODE="1")
    env.pop("RULESBOOK_DATA", None)
    best, peak, status, out = float("inf"), 0.0, 0, ""
    for _ in range(runs):
        proc = subprocess.Popen([sys.executable, "-m", "rulesbook", "--data", str(folder),
                                 "validate"], env=env, cwd=folder.parent, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = proc.stdout.read() if proc.stdout is not None else ""
        _pid, wait_status, usage = os.wait4(proc.pid, 0)
        status = os.waitstatus_to_exitcode(wait_status)
        best = min(best, usage.ru_utime + usage.ru_stime)
        peak = max(peak, usage.ru_maxrss / 1024)
    return best, peak, status, out


def cpu_of_validate(code: Path, folder: Path, runs: int = 3) -> float:
    cpu, _rss, status, out = run_validate(code, folder, runs)
    if status != 0:
        raise SystemExit(f"validate with {code} failed:\n{out}")
    return cpu


def _build(code: Path, folder: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(code), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--make",
                           str(folder)], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"building the folder with {code} failed:\n{proc.stderr}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--make", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--old", type=Path, help="a checkout of the code to compare with")
    parser.add_argument("--ref", default="main", help="the commit to compare with when "
                        "--old is not given (default: main)")
    args = parser.parse_args(argv)
    if args.make:
        sys.path.insert(0, os.environ.get("PYTHONPATH", str(REPO)))
        make(args.make)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-validate-") as tmp:
        work = Path(tmp)
        old = args.old
        if old is None:
            old = work / "main"
            old.mkdir()
            archive = subprocess.run(["git", "-C", str(REPO), "archive", args.ref, "rulesbook",
                                      "rules_data"], capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        results = {}
        peer = str(args.old) if args.old else args.ref
        status = 0
        for name, code in ((peer, old), ("this", REPO)):
            folder = work / f"folder-{name}"
            _build(code, folder)
            cpu, rss, code_, out = run_validate(code, folder)
            if code_ != 0:
                raise SystemExit(f"validate with {code} failed:\n{out}")
            results[name] = cpu
            print(f"validate, {MEMBERS} members x {QUESTIONS} questions, code {name}: "
                  f"{cpu:.2f} s CPU (best of 3, whole process), {rss:.0f} MB peak")
            tampered = work / f"tampered-{name}"
            shutil.copytree(folder, tampered)
            line = tamper(tampered)
            cpu_t, rss_t, code_t, out_t = run_validate(code, tampered)
            named = f"bench.yaml:{line}:" in out_t
            print(f"  one vote changed by hand (line {line}): {cpu_t:.2f} s CPU, "
                  f"{rss_t:.0f} MB peak, exit {code_t}, the vote's line "
                  f"{'named' if named else 'NOT named'}")
            if name == "this" and (code_t != 1 or not named or cpu_t > 2.0 or rss_t > 250
                                   or cpu > 2.0 or rss > 250):
                status = 1
        print(f"ratio this / {peer}: {results['this'] / results[peer]:.2f}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
