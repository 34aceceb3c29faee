"""What a signature covers, and receipts.

Every signed message is the canonical JSON (:func:`~.canonical.canonical_json`) of a
mapping whose ``context`` names what it is, so that a signature made for one
purpose never verifies as another:

* the votes a member cast at one time (one ``ballot vote``, one exported copy):
  ``{context: rulesbook-votes/1, ballot, member, at, proxy_by, votes: [[question,
  ranking]...], texts: {question: {option: digest}}}`` — ``texts``: the digests of
  the texts of the questions voted on (:mod:`.texts`), so a vote is for the texts as
  they stood, not for an id whose text can change — signed once by the member, or by
  the secretary ``proxy_by``;
  the signature is stored with each of those votes (and kept in the history when
  one is replaced), so 1,000 members' ballots are 1,000 signatures to check;
* a seal: ``{context: rulesbook-seal/1, digest, parts}`` (:mod:`.seal`);
* a members statement: ``{context: rulesbook-members/1, ...}`` (:mod:`.registry`).

A **receipt** is 16 letters of base32 of the SHA-256 of that signature, shown as
``ABCD-EFGH-IJKL-MNOP``. After the close, ``ballot verify --receipt`` finds the
votes signed with it and checks the signature still matches them (an
Ed25519 signature is deterministic: the same votes give the same receipt).
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TypedDict

from .canonical import canonical_json
from .keys import SigningKey
from .model import Ballot, Replaced, Vote

VOTE_CONTEXT = "rulesbook-votes/1"


#: the digests of a ballot's texts by question: what a vote on them signs
Texts = Mapping[str, Mapping[str, str]]


def ballot_texts(ballot: Ballot) -> dict[str, dict[str, str]]:
    """The digests of the texts of every question of ``ballot`` that recorded them."""
    return {q.id: dict(q.digests) for q in ballot.questions if q.digests}


def batch_message(ballot_id: str, votes: Iterable[Vote], texts: Texts | None = None) -> bytes:
    """What one signature covers: the votes one member cast at one time (one
    ``ballot vote``, one exported copy), by question, with the digests of the texts of
    those questions (``texts``: :func:`ballot_texts`; none for a ballot opened before
    text digests)."""
    votes = list(votes)
    first = votes[0]
    message: dict[str, object] = {
        "context": VOTE_CONTEXT, "ballot": ballot_id, "member": first.member,
        "at": first.at, "proxy_by": first.proxy_by,
        "votes": sorted([v.question, list(v.ranking)] for v in votes)}
    bound = {v.question: dict(texts[v.question]) for v in votes
             if texts and v.question in texts}
    if bound:
        message["texts"] = bound
    return canonical_json(message)


def sign_votes(ballot_id: str, votes: Iterable[Vote], signer: SigningKey,
               texts: Texts | None = None) -> list[Vote]:
    """``votes`` (one member, one time) signed together by ``signer`` (the member, or
    the proxy named in them): one signature, stored with each vote; ``texts``: the
    ballot's (:func:`ballot_texts`)."""
    votes = [dataclasses.replace(v, key=signer.public, signature="") for v in votes]
    if len({(v.member, v.at, v.proxy_by) for v in votes}) != 1:
        raise ValueError("votes signed together have one member, one time and one proxy")
    if len({v.question for v in votes}) != len(votes):
        raise ValueError("votes signed together are on different questions")
    signature = signer.sign(batch_message(ballot_id, votes, texts))
    return [dataclasses.replace(v, signature=signature) for v in votes]


def sign_vote(ballot_id: str, vote: Vote, signer: SigningKey,
              texts: Texts | None = None) -> Vote:
    return sign_votes(ballot_id, [vote], signer, texts)[0]


@dataclass(frozen=True)
class Batch:
    """The votes that share one signature (current votes and replaced ones)."""

    signature: str
    votes: tuple[Vote, ...]
    problem: str = ""  # the votes do not form one batch (mixed members, times, keys)
    #: where each vote is in the ballot: its index in ``votes``, ``~j`` for ``history[j]``
    positions: tuple[int, ...] = ()

    @property
    def first(self) -> Vote:
        return self.votes[0]

    def place(self, k: int = 0) -> tuple[str | int, ...]:
        """Where the ``k``-th vote of the batch is in the ballot's file: ("votes", i)
        or ("history", j) (("votes",) when the positions are not known)."""
        if k >= len(self.positions):
            return ("votes",)
        n = self.positions[k]
        return ("votes", n) if n >= 0 else ("history", ~n)

    @property
    def what(self) -> str:
        """The votes in words, for a failure (made only when one is reported)."""
        qs = [v.question for v in self.votes]
        return (f"the vote of {self.first.member} on question {qs[0]!r}" if len(qs) == 1
                else f"the votes of {self.first.member} on questions "
                     f"{', '.join(map(repr, qs))}")


def batches(ballot: Ballot) -> list[Batch]:
    """Every signed batch of the ballot, rebuilt from its votes and its history (a vote
    replaced later still belongs to the batch it was signed with)."""
    groups: dict[str, list[tuple[Vote, int]]] = {}  # with positions, as Batch.positions
    for i, vote in enumerate(ballot.votes):
        if vote.signature:
            groups.setdefault(vote.signature, []).append((vote, i))
    for j, h in enumerate(ballot.history):
        if isinstance(h, Replaced) and h.vote is not None and h.vote.signature:
            groups.setdefault(h.vote.signature, []).append((h.vote, ~j))
    out = []
    for signature, placed in groups.items():
        votes = [v for v, _ in placed]
        unique: dict[str, tuple[Vote, int]] = {}
        problem = ""
        for v, n in placed:
            seen = unique.setdefault(v.question, (v, n))[0]
            if seen.ranking != v.ranking:
                problem = f"two different votes on question {v.question!r} carry one signature"
        if len({(v.member, v.at, v.proxy_by, v.key) for v in votes}) != 1:
            problem = "votes of different members, times or keys carry one signature"
        out.append(Batch(signature, tuple(v for v, _ in unique.values()), problem,
                         tuple(n for _, n in unique.values())))
    return out


def receipt_code(signature: str) -> str:
    """The receipt of the votes signed with ``signature``."""
    digest = hashlib.sha256(signature.encode("ascii")).digest()
    letters = base64.b32encode(digest).decode("ascii")[:16]
    return "-".join(letters[i:i + 4] for i in range(0, 16, 4))


def normalise_receipt(code: str) -> str:
    letters = "".join(ch for ch in code.upper() if ch.isalnum())
    return "-".join(letters[i:i + 4] for i in range(0, len(letters), 4))


class ReceiptStatus(str, Enum):
    """What became of the votes of a receipt."""

    UNCHANGED = "unchanged"  # in the ballot as cast, and counted
    REPLACED = "replaced"  # in the ballot as cast, then replaced by a later vote of the member
    CHANGED = "changed"  # the votes no longer match their signature: tampering
    MISSING = "missing"  # no vote has this receipt: removed, or the code is mistyped

    @property
    def is_failure(self) -> bool:
        """A sign that the ballot was tampered with (or a mistyped code): a replaced
        vote is a legitimate, recorded event of the ballot and is not one."""
        return self in (ReceiptStatus.CHANGED, ReceiptStatus.MISSING)


class ReceiptJson(TypedDict):
    """``rulesbook ballot verify-receipt --json``."""

    ok: bool
    status: str
    code: str
    message: str
    member: str | None
    questions: list[str]


@dataclass(frozen=True)
class ReceiptCheck:
    ok: bool  # the receipt's votes are in the ballot as cast and are the ones counted
    code: str
    message: str
    member: str | None = None
    questions: tuple[str, ...] = ()
    status: ReceiptStatus = ReceiptStatus.MISSING
    #: where its votes are in the ballot's file (the first; the votes for a missing one)
    place: tuple[str | int, ...] = ("votes",)

    def to_dict(self) -> ReceiptJson:
        return {"ok": self.ok, "status": self.status.value, "code": self.code,
                "message": self.message, "member": self.member,
                "questions": list(self.questions)}


def check_receipt(ballot: Ballot, code: str) -> ReceiptCheck:
    """Are the votes of receipt ``code`` in ``ballot``, as they were cast and signed?"""
    from .keys import verify_signature

    wanted = normalise_receipt(code)
    for batch in batches(ballot):
        if receipt_code(batch.signature) != wanted:
            continue
        first = batch.first
        questions = tuple(v.question for v in batch.votes)
        who = f"the vote(s) of member {first.member} on question(s) {', '.join(questions)}"
        if batch.problem or not verify_signature(
                first.key, batch_message(ballot.id, batch.votes, ballot_texts(ballot)),
                batch.signature):
            return ReceiptCheck(False, wanted, f"receipt {wanted}: {who} were CHANGED after "
                                f"they were cast (the signature no longer matches them)",
                                first.member, questions, ReceiptStatus.CHANGED,
                                batch.place())
        current = {(v.member, v.question): v for v in ballot.votes}
        replaced = [v.question for v in batch.votes
                    if (v.member, v.question) not in current
                    or current[(v.member, v.question)].signature != v.signature]
        if replaced:
            later = []
            for q in replaced:
                now = current.get((first.member, q))
                if now is None:
                    later.append(f"{q} (no vote now)")
                else:
                    by = f", entered by proxy by {now.proxy_by}" if now.proxy_by else ""
                    later.append(f"{q} (at {now.at}{by})")
            kept = [q for q in questions if q not in replaced]
            also = (f"; the vote(s) on {', '.join(kept)} are unchanged and counted"
                    if kept else "")
            return ReceiptCheck(False, wanted, f"receipt {wanted}: {who} are in the sealed "
                                f"ballot as cast, but this receipt's vote(s) on "
                                f"{', '.join(replaced)} were replaced by a later vote of the "
                                f"same member {first.member} on {', '.join(later)}: the later "
                                f"vote is the one counted (see the history){also}",
                                first.member, questions, ReceiptStatus.REPLACED,
                                batch.place(questions.index(replaced[0])))
        return ReceiptCheck(True, wanted, f"receipt {wanted}: {who} are in the ballot "
                            f"unchanged", first.member, questions, ReceiptStatus.UNCHANGED,
                            batch.place())
    return ReceiptCheck(False, wanted, f"receipt {wanted}: no vote in the ballot has this "
                        f"receipt: the vote was removed (or the code is mistyped)",
                        status=ReceiptStatus.MISSING)
