"""Benchmark: verify a sealed ballot of 1,000 members x 60 questions (goal <= 1 s).

Every member casts one signed ballot (one Ed25519 signature over their 60 votes,
as `ballot export` makes it), the secretary closes and signs the seal. Verifying
recomputes the SHA-256 over every field, checks the closer's signature and role,
the 1,000 members' signatures and keys, and recounts (IRV, the ballot's default).
The peer, measured in the same run, is the bare cost of the cryptography alone:
``cryptography``'s Ed25519 verify of the same 1,001 signatures and one SHA-256 of
the same canonical bytes — what no implementation of this check can go below.

Run: .venv/bin/python bench/bench_ballot_verify.py
"""
from __future__ import annotations

import hashlib
import random
import time

from rulesbook.ballots import Ballot, Question, Vote, close_ballot, verify_ballot
from rulesbook.ballots.keys import SigningKey, encode_public
from rulesbook.ballots.registry import build_registry, sign_statement
from rulesbook.ballots.seal import canonical_form, canonical_json, seal_message
from rulesbook.ballots.signing import batch_message, batches, sign_votes

MEMBERS = 1000
QUESTIONS = 60
GOAL = 1.0
AT = "2026-01-01T00:00:00Z"


def _key(member: str) -> SigningKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    return SigningKey(member, encode_public(private.public_key()), private)


def make(seed: int = 2026):
    rng = random.Random(seed)
    roll = tuple(f"M{m}" for m in range(MEMBERS))
    keys = {m: _key(m) for m in roll}
    statements = [sign_statement({"op": "key", "member": m, "key": k.public, "at": AT}, k)
                  for m, k in keys.items()]
    statements.append(sign_statement({"op": "role", "member": "M0", "role": "chair",
                                      "key": keys["M0"].public, "at": AT}, keys["M0"]))
    registry = build_registry(statements)
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
    ballot, registry = make()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        result = verify_ballot(ballot, registry)
        best = min(best, time.perf_counter() - start)
    assert result.ok, result.failures
    floor = min(peer(ballot) for _ in range(3))
    print(f"verify: {MEMBERS} members x {QUESTIONS} questions ({len(ballot.votes):,} votes, "
          f"{MEMBERS + 1} signatures): {best:.3f} s (goal <= {GOAL} s, {best / GOAL:.2f}x of "
          f"the goal); the cryptography alone (peer): {floor:.3f} s, ratio {best / floor:.1f}x")
    return 0 if best <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
