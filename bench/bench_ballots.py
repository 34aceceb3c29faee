"""Benchmark: tally 1,000 members x 60 ranked questions with Schulze (goal <= 0.5 s).

Run: .venv/bin/python bench/bench_ballots.py
"""
from __future__ import annotations

import random
import time

from rulesbook.ballots import Ballot, Question, Vote, close_ballot, tally

MEMBERS = 1000
QUESTIONS = 60
GOAL = 0.5


def make_ballot(seed: int = 2026) -> Ballot:
    rng = random.Random(seed)
    questions = []
    for i in range(QUESTIONS):
        n = rng.randint(2, 5)  # the original and 1-4 proposals, like the APCA ballot
        options = (f"apca:{i}",) + tuple(f"apca:{i}{chr(65 + k)}" for k in range(n - 1))
        questions.append(Question(str(i), f"apca:{i}", options))
    roll = tuple(f"M{m}" for m in range(MEMBERS))
    votes = []
    for q in questions:
        weight = {o: rng.random() for o in q.options}
        for member in roll:
            noisy = {o: weight[o] + rng.random() for o in q.options}
            order = sorted(q.options, key=lambda o, w=noisy: -w[o])
            votes.append(Vote(member, q.id, tuple(order[:rng.randint(0, len(order))])))
    return Ballot("bench", "bench", "apca", roll=roll, questions=tuple(questions),
                  votes=tuple(votes), method="schulze", threshold="simple-majority",
                  quorum=MEMBERS // 2)


def main() -> float:
    ballot = make_ballot()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        results = tally(ballot, method="schulze")
        best = min(best, time.perf_counter() - start)
    adopted = sum(r.stands == "adopted" for r in results)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from rulesbook.ballots.keys import SigningKey, encode_public
    from rulesbook.ballots.registry import build_registry, sign_statement

    private = Ed25519PrivateKey.generate()
    chair = SigningKey("M0", encode_public(private.public_key()), private)
    registry = build_registry([
        sign_statement({"op": "key", "member": "M0", "key": chair.public,
                        "at": "2026-01-01T00:00:00Z"}, chair),
        sign_statement({"op": "role", "member": "M0", "role": "chair", "key": chair.public,
                        "at": "2026-01-01T00:00:00Z"}, chair)])
    signed = Ballot(**{**ballot.__dict__, "votes": ()})  # the seal's cost, not the votes'
    start = time.perf_counter()
    close_ballot(signed, chair, registry, at="2026-01-02T00:00:00Z")
    sealing = time.perf_counter() - start
    print(f"schulze tally: {MEMBERS} members x {QUESTIONS} questions "
          f"({len(ballot.votes):,} votes): {best:.3f} s (goal <= {GOAL} s, "
          f"{best / GOAL:.2f}x of the goal); {adopted} adopted")
    print(f"close + seal of an empty ballot (tally, canonical JSON, SHA-256, Ed25519): "
          f"{sealing:.3f} s (bench_ballot_verify times a full one)")
    return best


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    main()
