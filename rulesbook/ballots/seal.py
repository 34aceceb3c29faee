"""Sealing a closed ballot and verifying it.

The seal's ``digest`` is the SHA-256 of the canonical JSON (sorted keys, no
spaces, UTF-8) of ``parts``, the SHA-256 of each field of the file (and of each
question and each question's votes) — a hash tree over **every field of the
file** but the seal's own digest, parts and signature: id, title, description, rulebook, edition, status, method,
threshold, base, quorum, roll, members, questions and options (with the digests of
their texts, :mod:`.texts`), the settings' signature at open (:mod:`.settings`), the
votes with
their signatures (sorted by question and member, so only a real change alters
it), the history of replaced votes, the stored results, and the seal's closing
time, closer and closer's key. The parts also say *what* changed.

The closer (a chair or secretary in ``members.yaml``'s registry) signs
``{context: rulesbook-seal/1, digest, parts}`` with their Ed25519 key: anyone can
recompute a SHA-256, nobody without the closer's private key can sign it.
:func:`verify_ballot` checks the digest, the closer's signature, key and role at
the closing time, the settings signed at open, every vote's signature and signer,
and recounts the results;
it lists every failure, each with where it is in the ballot's file (a vote whose
signature fails at its own line: the one of its batch on a question whose sealed votes
changed, when the seal tells; the seal's at the seal), and :func:`failure_problems`
turns them into file:line problems.
"""
from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeAlias

from ..errors import Problem
from .canonical import canonical_json
from .keys import SigningKey, verify_signature
from .model import SEAL_ALGORITHM, Ballot, Seal
from .registry import CLOSERS, Registry

if TYPE_CHECKING:
    from ..yamlio import LoadedYaml
    from .signing import Batch

#: where a failure is: a path in the ballot's document (keys and list positions), or
#: the problem, placed already, it repeats (a consistency problem found on reading)
Place: TypeAlias = "tuple[str | int, ...] | Problem"

FORMAT = "rulesbook-ballot-seal/2"
SEAL_CONTEXT = "rulesbook-seal/1"

LABELS = {
    "id": "the ballot's id", "title": "the title", "description": "the description",
    "rulebook": "the rulebook", "edition": "the edition it amends", "status": "the status",
    "method": "the counting method", "threshold": "the threshold",
    "threshold_base": "the threshold's base", "quorum": "the quorum",
    "roll": "the roll of members", "members": "the members' names",
    "history": "the history of replaced votes", "results": "the stored results",
    "seal": "the seal's closing time, closer or key",
    "opened": "the signature of the ballot's settings (opened)",
}


def _sha(obj: object) -> str:
    return hashlib.sha256(canonical_json(obj)).hexdigest()


def canonical_form(ballot: Ballot, seal: Seal) -> dict[str, Any]:
    """Everything the seal covers, as plain data."""
    data = ballot.to_dict()
    data.pop("seal", None)
    data["votes"] = _vote_order(ballot, data["votes"])
    data.setdefault("history", [])
    data.setdefault("results", [])
    data.setdefault("members", {})
    data.setdefault("description", "")
    data["seal"] = {"format": FORMAT, "algorithm": seal.algorithm, "closed_at": seal.closed_at,
                    "closed_by": seal.closed_by, "key": seal.key}
    return data


def _vote_order(ballot: Ballot, votes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``votes`` sorted by question (in the ballot's order, then the unknown ones by id)
    and member: each question's votes sorted by member apart (60,000 votes of a
    committee in 60 short sorts; the same order as one sort by the three keys)."""
    order = {q.id: i for i, q in enumerate(ballot.questions)}
    by_question: dict[Any, list[dict[str, Any]]] = {}
    for vote in votes:
        by_question.setdefault(vote["question"], []).append(vote)
    out: list[dict[str, Any]] = []
    member = itemgetter("member")
    for question in sorted(by_question, key=lambda q: (order.get(q, len(order)), q)):
        out.extend(sorted(by_question[question], key=member))
    return out


def _parts(form: dict[str, Any]) -> dict[str, Any]:
    parts: dict[str, Any] = {k: _sha(v) for k, v in form.items() if k not in ("questions", "votes")}
    parts["questions"] = {q["id"]: _sha(q) for q in form["questions"]}
    by_question: dict[str, list[Any]] = {q["id"]: [] for q in form["questions"]}
    for vote in form["votes"]:
        by_question.setdefault(vote["question"], []).append(vote)
    parts["votes"] = {qid: _sha(v) for qid, v in by_question.items()}
    return parts


def digest_of(form: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The seal's digest and parts of a canonical form: a SHA-256 of every field (per
    question for the questions and the votes), and the SHA-256 of all those."""
    parts = _parts(form)
    return _sha(parts), parts


def seal_message(digest: str, parts: dict[str, Any]) -> bytes:
    return canonical_json({"context": SEAL_CONTEXT, "digest": digest, "parts": parts})


def compute_seal(ballot: Ballot, closed_at: str, signer: SigningKey | None = None) -> Seal:
    """The seal of ``ballot`` (its results already stored), signed by ``signer``."""
    head = Seal("", closed_at, {}, SEAL_ALGORITHM, signer.member if signer else "",
                signer.public if signer else "")
    digest, parts = digest_of(canonical_form(ballot, head))
    signature = signer.sign(seal_message(digest, parts)) if signer else ""
    return Seal(digest, closed_at, parts, SEAL_ALGORITHM, head.closed_by, head.key, signature)


@dataclass(frozen=True)
class Verification:
    ok: bool
    digest: str | None
    expected: str | None
    failures: tuple[str, ...]
    #: where each failure is (as many as ``failures``; empty: not known)
    places: tuple[Place, ...] = ()

    @property
    def changes(self) -> tuple[str, ...]:
        return self.failures

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "digest": self.digest, "expected": self.expected,
                "failures": list(self.failures)}


def _diff_parts(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key, label in LABELS.items():
        if key in old and old.get(key) != new.get(key):
            out.append(f"{label} changed after the seal")
    for kind in ("questions", "votes"):
        stored = old.get(kind)
        before: dict[str, Any] = stored if isinstance(stored, dict) else {}
        after = new[kind]
        for qid in before:
            if qid not in after:
                out.append(f"question {qid!r} was removed after the seal" if kind == "questions"
                           else f"the votes on question {qid!r} were removed after the seal")
            elif before[qid] != after[qid]:
                out.append(f"the question {qid!r} (its rule or options) changed after the seal"
                           if kind == "questions" else
                           f"the votes on question {qid!r} changed after the seal")
        for qid in after:
            if qid not in before:
                out.append(f"question {qid!r} was added after the seal" if kind == "questions"
                           else f"votes on question {qid!r} were added after the seal")
    return out


def check_votes(ballot: Ballot, registry: Registry) -> list[str]:
    """Every vote signed by its member (or a secretary's proxy) with a valid key, one
    signature per batch of votes cast together (:mod:`.signing`)."""
    return [message for _place, message in vote_findings(ballot, registry)]


def vote_findings(ballot: Ballot, registry: Registry, changed: Collection[str] = (),
                  history_changed: bool = False, signed: Sequence[Batch] | None = None
                  ) -> list[tuple[tuple[str | int, ...], str]]:
    """:func:`check_votes`, each failure with the vote it is at: an unsigned vote's own;
    for a signature that does not match, the vote of the batch on a question in
    ``changed`` (whose sealed votes changed; a replaced one if ``history_changed``),
    else the batch's first. ``signed``: the ballot's :func:`~.signing.batches`, if
    made already."""
    from .signing import ballot_texts, batch_message, batches

    texts = ballot_texts(ballot)
    failures: list[tuple[tuple[str | int, ...], str]] = []
    for i, vote in enumerate(ballot.votes):
        if not vote.signature:
            failures.append((("votes", i), f"the vote of {vote.member} on question "
                             f"{vote.question!r} is not signed"))
    for batch in batches(ballot) if signed is None else signed:
        first = batch.first
        if batch.problem:
            failures.append((batch.place(), f"{batch.what}: {batch.problem}"))
            continue
        signer = first.proxy_by or first.member
        why = registry.key_problem(signer, first.key, first.at)
        if why:
            failures.append((batch.place(), f"{batch.what}: {why}"))
            continue
        if first.proxy_by and registry.role_at(first.proxy_by, first.at) not in CLOSERS:
            failures.append((batch.place(), f"{batch.what} were entered by {first.proxy_by} "
                             f"as a proxy, but {first.proxy_by} was not the chair or the "
                             f"secretary at {first.at}"))
        if not verify_signature(first.key, batch_message(ballot.id, batch.votes, texts),
                                batch.signature):
            k = _suspect(batch, changed, history_changed)
            which = (f"; the seal shows the one on question {batch.votes[k].question!r} "
                     f"changed" if k is not None and len(batch.votes) > 1 else "")
            failures.append((batch.place(k or 0), f"{batch.what}: the signature does not "
                             f"match the vote(s) (changed after they were cast, or "
                             f"forged){which}"))
    return failures


def _suspect(batch: Batch, changed: Collection[str], history_changed: bool) -> int | None:
    """Which vote of a batch whose signature fails was changed, as far as the seal's
    parts tell (the first one on a question whose votes changed), or None."""
    for k, vote in enumerate(batch.votes):
        replaced = k < len(batch.positions) and batch.positions[k] < 0
        if history_changed if replaced else vote.question in changed:
            return k
    return None


def _changed_votes(old: dict[str, Any], new: dict[str, Any]) -> tuple[set[str], bool]:
    """The questions whose sealed votes changed, and whether the history did."""
    stored = old.get("votes")
    before: dict[str, Any] = stored if isinstance(stored, dict) else {}
    return ({qid for qid, part in new["votes"].items() if before.get(qid) != part},
            "history" in old and old["history"] != new["history"])


def failure_problems(doc: LoadedYaml | None, result: Verification, file: str = "",
                     prefix: str = "") -> list[Problem]:
    """The failures of ``result`` as problems at their lines in ``doc`` (the ballot's
    document it was verified from; ``file`` names it when there is none), each message
    after ``prefix``. A failure about a field the file does not hold (a setting left
    out) is placed at the signature of the settings (``opened``)."""
    places: Sequence[Place] = result.places
    if len(places) != len(result.failures):  # not known: the seal's
        places = [("seal",)] * len(result.failures)
    out: list[Problem] = []
    for failure, place in zip(result.failures, places, strict=True):
        if isinstance(place, Problem):
            out.append(Problem(place.file, place.line, place.col, prefix + place.message))
        elif doc is None:
            out.append(Problem(file, 0, 0, prefix + failure))
        else:
            if place and place[0] not in doc.data:
                place = ("opened",) if "opened" in doc.data else ()
            out.append(doc.problem(place, prefix + failure))
    return out


def verify_ballot(ballot: Ballot, registry: Registry,
                  problems: Sequence[Problem] = ()) -> Verification:
    """Recompute the seal of a closed ballot, check every signature and recount it.
    ``problems`` are consistency problems found while reading it (a vote for an option
    that no longer exists...): they are failures too, and the recount is skipped."""
    from .tally import tally

    seal = ballot.seal
    if seal is None:
        return Verification(False, None, None, ("the ballot is not sealed (it was never closed)",),
                            (("status",),))
    found: list[tuple[Place, str]] = [(p, str(p)) for p in problems]
    if seal.algorithm != SEAL_ALGORITHM:
        found.append((("seal",), f"the seal is a bare {seal.algorithm} digest, which anyone "
                      f"who can edit the file can recompute: it proves nothing (close the "
                      f"ballot again with a signed seal)"))
        return _verification(False, None, seal.digest, found)
    if ballot.status != "closed":
        found.append((("status",), f"the status is {ballot.status!r} but the ballot carries "
                      f"a seal"))
    head = Seal("", seal.closed_at, {}, seal.algorithm, seal.closed_by, seal.key)
    digest, parts = digest_of(canonical_form(ballot, head))
    changed: tuple[Collection[str], bool] = ((), False)
    if digest != seal.digest:
        found.extend((("seal",), change) for change in _diff_parts(seal.parts or {}, parts)
                     or ["the sealed content or the seal itself changed (digest mismatch)"])
        changed = _changed_votes(seal.parts or {}, parts)
    why = registry.key_problem(seal.closed_by, seal.key, seal.closed_at)
    if why:
        found.append((("seal",), f"the closer {seal.closed_by or '(nobody)'}: {why}"))
    elif registry.role_at(seal.closed_by, seal.closed_at) not in CLOSERS:
        found.append((("seal",), f"the closer {seal.closed_by} was not the chair or the "
                      f"secretary at {seal.closed_at}"))
    if not verify_signature(seal.key, seal_message(seal.digest, seal.parts or {}),
                            seal.signature):
        found.append((("seal",), f"the closer's signature does not match the seal (the "
                      f"seal was recomputed or changed by someone without "
                      f"{seal.closed_by}'s key)"))
    from .settings import settings_findings

    found.extend(((field,), message) for field, message in settings_findings(ballot, registry))
    from .signing import batches
    from .times import time_findings  # every signature within the opening and the close

    signed = batches(ballot)  # 1,000 batches of a committee's ballot, made once
    found.extend(vote_findings(ballot, registry, *changed, signed=signed))
    found.extend(time_findings(ballot, signed=signed))
    if not problems:
        recount = [r.to_dict() for r in tally(ballot)]
        if list(ballot.results) != recount:
            stored = {r.get("question"): r for r in ballot.results if isinstance(r, dict)}
            differing = [r["question"] for r in recount if stored.get(r["question"]) != r]
            extra = [q for q in stored if q not in {r["question"] for r in recount}]
            found.append((("results",), "the stored results differ from a recount"
                          + (f" (questions {', '.join(map(str, differing + extra))})"
                             if differing or extra else "")))
    return _verification(not found, digest, seal.digest, found)


def _verification(ok: bool, digest: str | None, expected: str | None,
                  found: Sequence[tuple[Place, str]]) -> Verification:
    return Verification(ok, digest, expected, tuple(message for _, message in found),
                        tuple(place for place, _ in found))
