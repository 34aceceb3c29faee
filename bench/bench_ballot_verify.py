"""Benchmark: verify a sealed ballot of 1,000 members x 60 questions, as a user
does: ``rulesbook ballot verify FILE`` in a fresh process (read the 5 MB file and
members.yaml, validate, check every signature; goal <= 2 s CPU and <= 250 MB for the
whole process), and the in-memory check alone (goal <= 1 s).

Every member casts one signed ballot (one Ed25519 signature over their 60 votes,
as `ballot export` makes it), the secretary closes and signs the seal. Verifying
recomputes the SHA-256 over every field, checks the closer's signature and role,
the 1,000 members' signatures and keys, and recounts (IRV, the ballot's default).
The peer, measured in the same run, is the bare cost of the cryptography alone:
``cryptography``'s Ed25519 verify of the same 1,001 signatures and one SHA-256 of
the same canonical bytes — what no implementation of this check can go below.

The whole process is compared with the figure of the code before issue #29
(19 s CPU, 548 MB on this machine class).

Run: .venv/bin/python bench/bench_ballot_verify.py
"""
from __future__ import annotations

import hashlib
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulesbook.ballots import Ballot, Question, Vote, close_ballot, verify_ballot
from rulesbook.ballots.keys import SigningKey, encode_public
from rulesbook.ballots.registry import build_registry, sign_statement
from rulesbook.ballots.seal import canonical_form, canonical_json, seal_message
from rulesbook.ballots.signing import batch_message, batches, sign_votes

MEMBERS = 1000
QUESTIONS = 60
GOAL = 1.0
#: the whole process: CPU seconds and MB (issue #29)
PROCESS_GOAL, MEMORY_GOAL = 2.0, 250
#: ``ballot verify`` of this ballot before issue #29: CPU seconds, MB
BEFORE = (19.0, 548)
AT = "2026-01-01T00:00:00Z"


def _key(member: str) -> SigningKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    return SigningKey(member, encode_public(private.public_key()), private)


def make(seed: int = 2026, keys_out: dict | None = None):
    rng = random.Random(seed)
    roll = tuple(f"M{m}" for m in range(MEMBERS))
    keys = {m: _key(m) for m in roll}
    if keys_out is not None:
        keys_out.update(keys)
    statements = [sign_statement({"op": "key", "member": m, "key": k.public, "at": AT}, k)
                  for m, k in keys.items()]
    statements.append(sign_statement({"op": "role", "member": "M0", "role": "chair",
                                      "key": keys["M0"].public, "at": AT}, keys["M0"]))
    registry = build_registry(statements)
    _STATEMENTS[:] = statements
    questions = []
    for i in range(QUESTIONS):
        n = rng.randint(2, 5)  # the original and 1-4 proposals, like the APCA ballot
        options = (f"apca:{i}",) + tuple(f"apca:{i}{chr(65 + k)}" for k in range(n - 1))
        questions.append(Question(str(i), f"apca:{i}", options))
    weights = [{o: rng.random() for o in q.options} for q in questions]
    votes = []
    for member in roll:
        mine = []
        for q, weight in zip(questions, weights, strict=True):
            noisy = {o: weight[o] + rng.random() for o in q.options}
            order = sorted(q.options, key=lambda o, w=noisy: -w[o])
            mine.append(Vote(member, q.id, tuple(order[:rng.randint(0, len(order))]), AT))
        votes.extend(sign_votes("bench", mine, keys[member]))
    ballot = Ballot("bench", "bench", "apca", roll=roll, questions=tuple(questions),
                    votes=tuple(votes), method="irv", quorum=MEMBERS // 2)
    return close_ballot(ballot, keys["M0"], registry, at="2026-01-02T00:00:00Z"), registry


_STATEMENTS: list[dict] = []


def write_folder(folder: Path, seed: int = 2026) -> Path:
    """A data folder (the bundled rules data) whose members.yaml holds the 1,000
    members and their signed statements, and the sealed ballot file in it."""
    import shutil

    import yaml

    from rulesbook.ballots import save_ballot

    ballot, _registry = make(seed)
    shutil.copytree(Path(__file__).resolve().parent.parent / "rules_data", folder)
    members = [{"id": m, "name": f"Member {m}", "aliases": []} for m in ballot.roll]
    text = yaml.safe_dump({"schema_version": 1, "kind": "members", "members": members,
                           "registry": _STATEMENTS}, sort_keys=False, width=1000,
                          default_flow_style=None)
    (folder / "members.yaml").write_text(text, encoding="utf-8")
    path = folder / "ballot-bench.yaml"
    save_ballot(path, ballot)
    return path


def whole_process(folder: Path, ballot_file: Path) -> tuple[float, float, float, str]:
    """``rulesbook --data FOLDER ballot verify FILE`` in a fresh process: CPU seconds,
    wall seconds, peak MB, its first line of output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "rulesbook", "--data", str(folder),
                           "ballot", "verify", str(ballot_file)],
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        raise SystemExit(f"ballot verify failed ({proc.returncode}): {proc.stdout}{proc.stderr}")
    return cpu, wall, after.ru_maxrss / 1024, (proc.stdout or proc.stderr).splitlines()[0]


def peer(ballot: Ballot) -> float:
    """The cryptography alone: 1,001 Ed25519 verifies and one SHA-256."""
    import base64

    from rulesbook.ballots.keys import decode_public

    jobs = [(decode_public(b.first.key), base64.b64decode(b.signature),
             batch_message(ballot.id, b.votes)) for b in batches(ballot)]
    seal = ballot.seal
    jobs.append((decode_public(seal.key), base64.b64decode(seal.signature),
                 seal_message(seal.digest, seal.parts)))
    data = canonical_json(canonical_form(ballot, seal))
    start = time.perf_counter()
    for key, signature, message in jobs:
        key.verify(signature, message)
    hashlib.sha256(data).hexdigest()
    return time.perf_counter() - start


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        ballot_file = write_folder(folder)
        size = ballot_file.stat().st_size
        cpu, wall, rss, said = whole_process(folder, ballot_file)
    print(f"ballot verify (whole process, {size / 1e6:.1f} MB file, {MEMBERS} members x "
          f"{QUESTIONS} questions): {cpu:.2f} s CPU, {wall:.2f} s wall, {rss:.0f} MB peak "
          f"(goal <= {PROCESS_GOAL} s, <= {MEMORY_GOAL} MB); before #29 {BEFORE[0]:.0f} s, "
          f"{BEFORE[1]} MB: {BEFORE[0] / cpu:.1f}x less CPU, {BEFORE[1] / rss:.1f}x less "
          f"memory; it said: {said[:90]}")
    ballot, registry = make()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        result = verify_ballot(ballot, registry)
        best = min(best, time.perf_counter() - start)
    assert result.ok, result.failures
    floor = min(peer(ballot) for _ in range(3))
    print(f"verify in memory: {MEMBERS} members x {QUESTIONS} questions ({len(ballot.votes):,} "
          f"votes, {MEMBERS + 1} signatures): {best:.3f} s (goal <= {GOAL} s, {best / GOAL:.2f}x "
          f"of the goal); the cryptography alone (peer): {floor:.3f} s, ratio "
          f"{best / floor:.1f}x")
    return 0 if best <= GOAL and cpu <= PROCESS_GOAL and rss <= MEMORY_GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
