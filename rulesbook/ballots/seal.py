"""Sealing a closed ballot and verifying the seal.

The seal is a SHA-256 over the canonical JSON (sorted keys, no spaces,
UTF-8) of everything that decides the result: the ballot's id, rulebook,
edition, counting rules (method, threshold, base, quorum), the roll and the
members' names, the questions and their options, the votes (sorted by
question and member, so that only a real change alters it), the history of
replaced votes and the closing time. Per-part digests (settings, roll,
members, each question's definition, each question's votes, history) are
stored beside it so that ``verify`` can say *what* changed. The stored
results are checked against a recount.

A seal is tamper-evident, not a signature: anyone able to edit the file can
also recompute it, so keep a copy of the digest elsewhere (the edition that
adopts the ballot records it).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from .model import Ballot, Seal


def canonical_json(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def _sha(obj) -> str:
    return hashlib.sha256(canonical_json(obj)).hexdigest()


def _sections(ballot: Ballot) -> dict:
    order = {q.id: i for i, q in enumerate(ballot.questions)}
    votes = sorted((v.to_dict() for v in ballot.votes),
                   key=lambda v: (order.get(v["question"], len(order)), v["question"],
                                  v["member"]))
    by_question: dict[str, list] = {q.id: [] for q in ballot.questions}
    for vote in votes:
        by_question.setdefault(vote["question"], []).append(vote)
    return {
        "settings": {"id": ballot.id, "rulebook": ballot.rulebook, "edition": ballot.edition,
                     "method": ballot.method, "threshold": ballot.threshold,
                     "threshold_base": ballot.threshold_base, "quorum": ballot.quorum},
        "roll": list(ballot.roll),
        "members": dict(ballot.members),
        "questions": [q.to_dict() for q in ballot.questions],
        "votes": votes,
        "votes_by_question": by_question,
        "history": [h.to_dict() for h in ballot.history],
    }


def canonical_form(ballot: Ballot, closed_at: str) -> dict:
    """What the seal covers, as plain data."""
    s = _sections(ballot)
    return {"format": "rulesbook-ballot-seal/1", "closed_at": closed_at,
            "settings": s["settings"], "roll": s["roll"], "members": s["members"],
            "questions": s["questions"], "votes": s["votes"], "history": s["history"]}


def compute_seal(ballot: Ballot, closed_at: str) -> Seal:
    s = _sections(ballot)
    parts = {
        "settings": _sha(s["settings"]), "roll": _sha(s["roll"]),
        "members": _sha(s["members"]), "history": _sha(s["history"]),
        "questions": {q["id"]: _sha(q) for q in s["questions"]},
        "votes": {qid: _sha(v) for qid, v in s["votes_by_question"].items()},
    }
    return Seal(_sha(canonical_form(ballot, closed_at)), closed_at, parts)


@dataclass(frozen=True)
class Verification:
    ok: bool
    digest: str | None
    expected: str | None
    changes: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"ok": self.ok, "digest": self.digest, "expected": self.expected,
                "changes": list(self.changes)}


def verify_ballot(ballot: Ballot, problems=()) -> Verification:
    """Recompute the seal of a closed ballot and recount it; list every difference.
    ``problems`` are consistency problems found while reading it (a vote for an option
    that no longer exists...): they are changes too, and the recount is skipped."""
    from .tally import tally

    if ballot.seal is None:
        return Verification(False, None, None, ("the ballot is not sealed (it was never closed)",))
    changes: list[str] = [str(p) for p in problems]
    if ballot.status != "closed":
        changes.append(f"the status is {ballot.status!r} but the ballot carries a seal")
    fresh = compute_seal(ballot, ballot.seal.closed_at)
    old = ballot.seal.parts or {}
    for key, what in (("settings", "the counting rules (id, method, threshold, quorum...)"),
                      ("roll", "the roll of members"), ("members", "the members' names"),
                      ("history", "the history of replaced votes")):
        if key in old and old[key] != fresh.parts[key]:
            changes.append(f"{what} changed after the seal")
    for kind, label in (("questions", "the question {q} (its rule or options)"),
                        ("votes", "the votes on question {q}")):
        before = old.get(kind, {}) if isinstance(old.get(kind), dict) else {}
        after = fresh.parts[kind]
        for qid in before:
            if qid not in after:
                changes.append(f"question {qid!r} was removed after the seal"
                               if kind == "questions" else
                               f"the votes on question {qid!r} were removed after the seal")
            elif before[qid] != after[qid]:
                changes.append(label.format(q=repr(qid)) + " changed after the seal")
        for qid in after:
            if qid not in before:
                changes.append(f"question {qid!r} was added after the seal"
                               if kind == "questions" else
                               f"votes on question {qid!r} were added after the seal")
    if fresh.digest != ballot.seal.digest and not changes:
        changes.append("the sealed content or the seal itself changed (digest mismatch)")
    recount = [] if problems else [r.to_dict() for r in tally(ballot)]
    if not problems and list(ballot.results) != recount:
        stored = {r.get("question"): r for r in ballot.results if isinstance(r, dict)}
        differing = [r["question"] for r in recount if stored.get(r["question"]) != r]
        extra = [q for q in stored if q not in {r["question"] for r in recount}]
        changes.append("the stored results differ from a recount"
                       + (f" (questions {', '.join(map(str, differing + extra))})"
                          if differing or extra else ""))
    ok = fresh.digest == ballot.seal.digest and not changes
    return Verification(ok, fresh.digest, ballot.seal.digest, tuple(changes))
