"""What a signature covers, and receipts.

Every signed message is the canonical JSON (:func:`~.seal.canonical_json`) of a
mapping whose ``context`` names what it is, so that a signature made for one
purpose never verifies as another:

* a vote: ``{context: rulesbook-vote/1, ballot, member, question, ranking, at,
  proxy_by}`` — signed by the member, or by the secretary ``proxy_by``;
* a seal: ``{context: rulesbook-seal/1, digest, parts}`` (:mod:`.seal`);
* a members statement: ``{context: rulesbook-members/1, ...}`` (:mod:`.registry`).

A **receipt** is 16 letters of base32 of the SHA-256 of the signed messages and
signatures of the votes a member cast at one time (one ``ballot vote``, or one exported copy), in
question order, shown as ``ABCD-EFGH-IJKL-MNOP``. After the close, ``ballot verify
--receipt`` finds those votes in the sealed ballot, or says they are not there.
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from .keys import SigningKey
from .model import Ballot, Replaced, Vote

VOTE_CONTEXT = "rulesbook-vote/1"


def vote_message(ballot_id: str, vote: Vote) -> bytes:
    from .seal import canonical_json

    return canonical_json({"context": VOTE_CONTEXT, "ballot": ballot_id, "member": vote.member,
                           "question": vote.question, "ranking": list(vote.ranking),
                           "at": vote.at, "proxy_by": vote.proxy_by})


def sign_vote(ballot_id: str, vote: Vote, signer: SigningKey) -> Vote:
    """``vote`` signed by ``signer`` (the member, or the proxy named in the vote)."""
    unsigned = dataclasses.replace(vote, key=signer.public, signature="")
    return dataclasses.replace(unsigned, signature=signer.sign(vote_message(ballot_id,
                                                                            unsigned)))


def receipt_code(ballot_id: str, votes: Iterable[Vote]) -> str:
    """The receipt of ``votes`` (cast together): what each says and its signature."""
    h = hashlib.sha256()
    for vote in votes:
        h.update(vote_message(ballot_id, vote) + b"\n" + vote.signature.encode("ascii") + b"\n")
    digest = h.digest()
    letters = base64.b32encode(digest).decode("ascii")[:16]
    return "-".join(letters[i:i + 4] for i in range(0, 16, 4))


def normalise_receipt(code: str) -> str:
    letters = "".join(ch for ch in code.upper() if ch.isalnum())
    return "-".join(letters[i:i + 4] for i in range(0, len(letters), 4))


@dataclass(frozen=True)
class ReceiptCheck:
    ok: bool
    code: str
    message: str
    member: str | None = None
    questions: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"ok": self.ok, "code": self.code, "message": self.message,
                "member": self.member, "questions": list(self.questions)}


def _groups(ballot: Ballot, votes: Iterable[Vote]) -> dict[str, list[Vote]]:
    order = {q.id: i for i, q in enumerate(ballot.questions)}
    batches: dict[tuple, list[Vote]] = {}
    for vote in votes:
        batches.setdefault((vote.member, vote.at, vote.proxy_by), []).append(vote)
    out: dict[str, list[Vote]] = {}
    for batch in batches.values():
        batch.sort(key=lambda v: order.get(v.question, len(order)))
        out[receipt_code(ballot.id, batch)] = batch
        for vote in batch:  # a receipt of one vote of a batch (a vote re-cast alone)
            out.setdefault(receipt_code(ballot.id, [vote]), [vote])
    return out


def check_receipt(ballot: Ballot, code: str) -> ReceiptCheck:
    """Are the votes of receipt ``code`` in ``ballot`` (as they were cast)?"""
    wanted = normalise_receipt(code)
    current = _groups(ballot, ballot.votes)
    if wanted in current:
        votes = current[wanted]
        questions = tuple(v.question for v in votes)
        return ReceiptCheck(True, wanted, f"receipt {wanted}: the vote(s) of member "
                            f"{votes[0].member} on question(s) {', '.join(questions)} are in "
                            f"the ballot unchanged", votes[0].member, questions)
    replaced = [h for h in ballot.history if isinstance(h, Replaced) and h.vote is not None]
    old = _groups(ballot, [h.vote for h in replaced])
    if wanted in old:
        votes = old[wanted]
        return ReceiptCheck(False, wanted, f"receipt {wanted}: the vote(s) of member "
                            f"{votes[0].member} on question(s) "
                            f"{', '.join(v.question for v in votes)} were replaced by a later "
                            f"vote (see the history)", votes[0].member,
                            tuple(v.question for v in votes))
    return ReceiptCheck(False, wanted, f"receipt {wanted}: no vote in the ballot has this "
                        f"receipt: the vote was changed or removed (or the code is mistyped)")
