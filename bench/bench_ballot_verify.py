"""Benchmark: verify a sealed ballot of 1,000 members x 60 questions, as a user
does: ``rulesbook --data DIR ballot verify FILE`` in a fresh process (read the
4.7 MB file and members.yaml, check the settings signed at open, the seal, every
signature, recount; goal <= 2 s CPU and <= 250 MB for the whole process, issue #29),
and the in-memory check alone.

The folder is the one of ``bench/bench_validate_committee.py`` (its ``make()``, run
in a child process): the seed data, 1,000 members with a registered key each, the
chair M0, a ballot of 60 questions opened with its settings signed by the chair, one
signed batch of 60 votes per member, closed and sealed by the chair.

Each figure is the best of three child processes, CPU = user + system, memory = the
child's peak RSS (``os.wait4``, so the child that built the folder does not count).
The same for a copy of the ballot with one vote changed by hand (``tamper()`` of
bench_validate_committee.py): the error path, which must cost about the same and name
the vote's line.
Compared with the figure of the code before issue #29 on this machine class (19 s
CPU, 548 MB), and in memory with a peer measured in the same run: the cryptography
alone (``cryptography``'s Ed25519 verify of the same 1,001 signatures over the same
messages and one SHA-256 of the same canonical bytes), which no implementation of
this check goes below.

Run: .venv/bin/python bench/bench_ballot_verify.py [--runs N]
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from rulesbook.ballots import Ballot, load_ballot, load_registry, verify_ballot  # noqa: E402
from rulesbook.ballots.seal import canonical_form, canonical_json, seal_message  # noqa: E402
from rulesbook.ballots.signing import ballot_texts, batch_message, batches  # noqa: E402

#: the whole process: CPU seconds and MB (issue #29)
PROCESS_GOAL, MEMORY_GOAL = 2.0, 250
#: ``ballot verify`` of this ballot before issue #29: CPU seconds, MB
BEFORE = (19.0, 548)


def _committee():  # bench_validate_committee.py, for its make() and sizes
    spec = importlib.util.spec_from_file_location("bench_validate_committee",
                                                  HERE / "bench_validate_committee.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(folder: Path) -> Path:
    """The committee's folder, made by ``make()`` in a child process; its ballot file."""
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, str(HERE / "bench_validate_committee.py"),
                           "--make", str(folder)], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"building the folder failed:\n{proc.stderr}")
    return folder / "apca" / "ballots" / "bench.yaml"


def whole_process(folder: Path, ballot_file: Path, expect: int = 0
                  ) -> tuple[float, float, float, str]:
    """``rulesbook --data FOLDER ballot verify FILE`` in a fresh process: CPU seconds
    (user + system), wall seconds, peak MB, its output (exit code ``expect``)."""
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONDONTWRITEBYTECODE="1")
    env.pop("RULESBOOK_DATA", None)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "rulesbook", "--data", str(folder),
                             "ballot", "verify", str(ballot_file)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = proc.stdout.read() if proc.stdout is not None else ""
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if proc.returncode != expect:
        raise SystemExit(f"ballot verify exited {proc.returncode}, not {expect}: {out}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, out


def peer(ballot: Ballot) -> float:
    """The cryptography alone: 1,001 Ed25519 verifies and one SHA-256."""
    import base64

    from rulesbook.ballots.keys import decode_public

    texts = ballot_texts(ballot)
    jobs = [(decode_public(b.first.key), base64.b64decode(b.signature),
             batch_message(ballot.id, b.votes, texts)) for b in batches(ballot)]
    seal = ballot.seal
    assert seal is not None
    jobs.append((decode_public(seal.key), base64.b64decode(seal.signature),
                 seal_message(seal.digest, seal.parts)))
    data = canonical_json(canonical_form(ballot, seal))
    start = time.process_time()
    for key, signature, message in jobs:
        key.verify(signature, message)
    hashlib.sha256(data).hexdigest()
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="child processes per figure, "
                        "the best one reported (default: 3)")
    args = parser.parse_args(argv)
    sizes = _committee()
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp:
        folder = Path(tmp) / "data"
        ballot_file = build(folder)
        size = ballot_file.stat().st_size
        runs = [whole_process(folder, ballot_file) for _ in range(args.runs)]
        cpu = min(r[0] for r in runs)
        wall = min(r[1] for r in runs)
        rss = max(r[2] for r in runs)
        said = runs[0][3].splitlines()[0]
        changed = Path(tmp) / "tampered"
        shutil.copytree(folder, changed)
        line = sizes.tamper(changed)
        bad = [whole_process(changed, changed / ballot_file.relative_to(folder), expect=1)
               for _ in range(args.runs)]
        cpu_t, rss_t = min(r[0] for r in bad), max(r[2] for r in bad)
        named = f"bench.yaml:{line}:" in bad[0][3]
        ballot = load_ballot(ballot_file)
        registry = load_registry(folder)
    print(f"ballot verify (whole process, {size / 1e6:.1f} MB file, {sizes.MEMBERS} members "
          f"x {sizes.QUESTIONS} questions): {cpu:.2f} s CPU (best of 3), {wall:.2f} s wall, "
          f"{rss:.0f} MB peak (goal <= {PROCESS_GOAL} s, <= {MEMORY_GOAL} MB); before #29 "
          f"{BEFORE[0]:.0f} s, {BEFORE[1]} MB: ratio {cpu / BEFORE[0]:.3f} "
          f"({BEFORE[0] / cpu:.1f}x less CPU, {BEFORE[1] / rss:.1f}x less memory); "
          f"it said: {said[:60]}")
    print(f"ballot verify of the ballot with one vote changed by hand (line {line}): "
          f"{cpu_t:.2f} s CPU, {rss_t:.0f} MB peak, the vote's line "
          f"{'named' if named else 'NOT named'}")
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        result = verify_ballot(ballot, registry)
        best = min(best, time.process_time() - start)
    assert result.ok, result.failures
    floor = min(peer(ballot) for _ in range(3))
    print(f"verify in memory ({len(ballot.votes):,} votes, {sizes.MEMBERS + 1} signatures): "
          f"{best:.3f} s CPU; the cryptography alone (peer): {floor:.3f} s, ratio "
          f"{best / floor:.1f}x")
    return 0 if max(cpu, cpu_t) <= PROCESS_GOAL and max(rss, rss_t) <= MEMORY_GOAL and \
        named else 1


if __name__ == "__main__":
    raise SystemExit(main())
