"""Reading and writing ballot files (kind ``ballot``) and members' copies
(kind ``member-ballot``).

Reading goes through the safe line-aware YAML loader and the JSON Schema,
then the ballot's own consistency checks; every problem is reported with
file:line:col. Writing is always atomic (:mod:`rulesbook.storage`).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypedDict

from ..documents import DocumentError, DocumentStage, load_document
from ..errors import Problem
from ..storage import atomic_write_text
from ..yamlio import LoadedYaml, dump_text
from .keys import SigningKey
from .model import STATUS_QUO, Ballot, BallotError, Opened, Question, Replaced, Seal, Vote

#: a mapping of a schema-valid document (its values as the schema allows them)
Raw = Mapping[str, Any]
#: where a value is in a document: keys and list positions
Where = tuple[str | int, ...]

HEADER = ("# A committee ballot of the American Pool Checkers Association.\n"
          "# Written by `rulesbook ballot`; once closed it is sealed: edit nothing by hand.\n")


def ballot_from_doc(doc: LoadedYaml) -> tuple[Ballot, list[Problem]]:
    """A :class:`Ballot` from a schema-valid document, and its consistency problems
    (roll, questions, options, votes, history; each at its line). Read once per
    document (:meth:`LoadedYaml.derived`): the loader's check, the seal chain and the
    texts' check of one ``validate`` share it; the list of problems is the caller's."""
    ballot, problems = doc.derived(_read_ballot)
    return ballot, list(problems)


def _read_ballot(doc: LoadedYaml) -> tuple[Ballot, tuple[Problem, ...]]:
    data = doc.data
    problems: list[Problem] = []
    questions: list[Question] = []
    seen_q: dict[str, int] = {}
    for i, raw in enumerate(data["questions"]):
        if raw["id"] in seen_q:
            problems.append(doc.problem(("questions", i, "id"),
                                        f"question id {raw['id']!r} is used twice"))
        seen_q[raw["id"]] = i
        options = tuple(raw["options"])
        if raw["rule"] is None:
            if options[0] != STATUS_QUO or len(options) != 2:
                problems.append(doc.problem(
                    ("questions", i, "options"),
                    f"question {raw['id']!r} adds new text (rule: null): its options must be "
                    f"[{STATUS_QUO}, PROPOSAL]"))
        elif options[0] != raw["rule"]:
            problems.append(doc.problem(
                ("questions", i, "options", 0),
                f"the first option of question {raw['id']!r} must be the original text "
                f"{raw['rule']!r}, not {options[0]!r}"))
        elif STATUS_QUO in options:
            problems.append(doc.problem(("questions", i, "options"),
                                        f"{STATUS_QUO!r} is only an option of new-text questions"))
        questions.append(Question(raw["id"], raw["rule"], options, raw.get("title", ""),
                                  tuple(raw.get("endorsements", ())),
                                  tuple((str(k), str(v))
                                        for k, v in raw.get("digests", {}).items())))
    by_id = {q.id: q for q in questions}
    roll = tuple(data["roll"])
    on_roll = set(roll)  # 60,000 votes against a 1,000-member roll: no search of the tuple

    def check_vote(path: Where, raw: Raw, what: str) -> None:
        if raw["member"] not in on_roll:
            problems.append(doc.problem(path + ("member",), f"{what} by {raw['member']!r}, "
                                        f"who is not on the roll ({', '.join(roll)})"))
        question = by_id.get(raw["question"])
        if question is None:
            problems.append(doc.problem(path + ("question",),
                                        f"{what} on unknown question {raw['question']!r}"))
            return
        for k, option in enumerate(raw["ranking"]):
            if option not in question.options:
                problems.append(doc.problem(
                    path + ("ranking", k), f"{option!r} is not an option of question "
                    f"{question.id!r} (options: {', '.join(question.options)})"))

    table = data.get("signatures", [])

    def signed_fields(path: Where, raw: Raw) -> Raw:
        if "signed" not in raw:
            return {}
        n = raw["signed"]
        if not 0 <= n < len(table):
            problems.append(doc.problem(path + ("signed",), f"signature {n} is not in the "
                                        f"signatures table (0 to {len(table) - 1})"))
            return {}
        row: Raw = table[n]
        if row["member"] != raw["member"]:
            problems.append(doc.problem(path + ("signed",), f"signature {n} is "
                                        f"{row['member']}'s, not {raw['member']}'s"))
        return row

    votes: list[Vote] = []
    seen_v: dict[tuple[str, str], int] = {}
    options_of = {q.id: q.options for q in questions}
    for i, raw in enumerate(data["votes"]):
        key = (raw["member"], raw["question"])
        allowed = options_of.get(key[1])
        # what check_vote finds, asked only when a vote is not plainly sound (60,000)
        if key[0] not in on_roll or allowed is None or \
                not all(option in allowed for option in raw["ranking"]):
            check_vote(("votes", i), raw, "a vote")
        if key in seen_v:
            line, _ = doc.where(("votes", seen_v[key]))
            problems.append(doc.problem(("votes", i), f"member {key[0]!r} already voted on "
                                        f"question {key[1]!r} at line {line} (one vote per "
                                        f"member per question)"))
        seen_v[key] = i
        votes.append(_vote(raw, signed_fields(("votes", i), raw)))
    history: list[Replaced] = []
    for i, raw in enumerate(data.get("history", ())):
        check_vote(("history", i), raw, "a replaced vote")
        row = signed_fields(("history", i), raw)
        history.append(Replaced(raw["member"], raw["question"], tuple(raw["ranking"]),
                                raw["replaced_at"], raw.get("source", ""),
                                _vote(raw, row) if row else None))
    opened = None
    if "opened" in data:
        o = data["opened"]
        opened = Opened(o["by"], o["at"], o["key"], dict(o["parts"]), o["signature"])
    seal = None
    if "seal" in data:
        s = data["seal"]
        seal = Seal(s["digest"], s["closed_at"], dict(s.get("parts", {})), s["algorithm"],
                    s.get("closed_by", ""), s.get("key", ""), s.get("signature", ""))
    ballot = Ballot(
        id=data["id"], title=data["title"], rulebook=data.get("rulebook", "apca"), roll=roll,
        questions=tuple(questions), votes=tuple(votes), status=data["status"],
        method=data["method"], threshold=data["threshold"],
        threshold_base=data.get("threshold_base", "cast"), quorum=data["quorum"],
        edition=data.get("edition"), members=tuple(data.get("members", {}).items()),
        description=data.get("description", ""), history=tuple(history), seal=seal,
        opened=opened, results=tuple(data.get("results", ())))
    return ballot, tuple(problems)


def _vote(raw: Raw, row: Raw) -> Vote:
    return Vote(raw["member"], raw["question"], tuple(raw["ranking"]), row.get("at", ""),
                row.get("key", ""), row.get("signature", ""), row.get("proxy_by"))


def parse_ballot(text: str, file: str = "<ballot>") -> Ballot:
    """Parse ballot YAML text; raise :class:`BallotError` listing every problem."""
    return _ballot_or_raise(_read_checked(file, "ballot", text=text))


def load_ballot(path: str | os.PathLike[str]) -> Ballot:
    """Read and check a ballot file; raise :class:`BallotError` listing every problem."""
    return _ballot_or_raise(_read_checked(Path(path), "ballot"))


def ballot_error(exc: DocumentError, kind: str, file: str | os.PathLike[str]) -> BallotError:
    """The BallotError for a ballot (or member ballot) file that :func:`load_document`
    refused: its headline says what went wrong, its problems where."""
    what = kind.replace("-", " ")
    if exc.stage is DocumentStage.UNREADABLE:
        return BallotError(f"cannot read the {what} {file}", list(exc.problems))
    if exc.stage in (DocumentStage.NOT_A_MAPPING, DocumentStage.WRONG_KIND):
        return BallotError(f"{file} is not a {what}", list(exc.problems))
    return BallotError(f"{file} is not a valid {what}", list(exc.problems))


def _read_checked(path: str | os.PathLike[str], kind: str, text: str | None = None) -> LoadedYaml:
    """Read a file of ``kind`` safely and check it against its schema."""
    try:
        return load_document(path, kind, display=str(path), text=text)
    except DocumentError as exc:
        raise ballot_error(exc, kind, path) from None


def _ballot_or_raise(doc: LoadedYaml) -> Ballot:
    ballot, problems = ballot_from_doc(doc)
    if problems:
        raise BallotError(f"{doc.file} is not a valid ballot", problems)
    return ballot


def dump_ballot(ballot: Ballot) -> str:
    """The ballot as YAML text (deterministic; a round trip gives the same ballot)."""
    body = dump_text(ballot.to_dict())
    return HEADER + body


def save_ballot(path: str | os.PathLike[str], ballot: Ballot) -> Path:
    """Write ``ballot`` atomically (the old file or the new one, never half)."""
    return atomic_write_text(path, dump_ballot(ballot))


# -- a member's own copy -----------------------------------------------------

def load_member_ballot(path: str | os.PathLike[str]) -> LoadedYaml:
    """Read a member-ballot file and check it against its schema (file:line:col problems)."""
    return _read_checked(Path(path), "member-ballot")


def member_copy(ballot: Ballot, member: str) -> dict[str, object]:
    """A blank, unsigned member-ballot for ``member`` (their current votes filled in);
    :func:`export_member_ballot` signs one."""
    if member not in ballot.roll:
        raise BallotError(f"member {member!r} is not on the roll of {ballot.id!r}")
    current = {v.question: v for v in ballot.votes if v.member == member}
    return {"schema_version": 1, "kind": "member-ballot", "ballot": ballot.id, "member": member,
            "votes": [{"question": q.id,
                       "ranking": list(current[q.id].ranking) if q.id in current else []}
                      for q in ballot.questions]}


class MemberVoteDoc(TypedDict):
    question: str
    ranking: list[str]


class MemberBallotDoc(TypedDict):
    """A member's own signed votes (kind ``member-ballot``), as ``ballot export`` writes it."""

    schema_version: int
    kind: str
    ballot: str
    member: str
    key: str
    at: str
    signature: str
    receipt: str
    votes: list[MemberVoteDoc]


def export_member_ballot(ballot: Ballot, member: str, signer: SigningKey,
                         at: str) -> tuple[MemberBallotDoc, str]:
    """``member``'s own votes in ``ballot``, each signed by ``signer`` (the member's key)
    at ``at``, as a member-ballot document; and the receipt code of those votes."""
    from .settings import settings_failures
    from .signing import ballot_texts, receipt_code, sign_votes

    if member not in ballot.roll:
        raise BallotError(f"member {member!r} is not on the roll of {ballot.id!r}")
    if signer.member != member:
        raise BallotError(f"a member's ballot of {member} is signed with {member}'s own key, "
                          f"not {signer.member}'s")
    order = {q.id: i for i, q in enumerate(ballot.questions)}
    mine = sorted((v for v in ballot.votes if v.member == member),
                  key=lambda v: order.get(v.question, len(order)))
    if not mine:
        raise BallotError(f"member {member} has no vote in ballot {ballot.id!r} to export "
                          f"(vote first with `rulesbook ballot vote`)")
    unsound = settings_failures(ballot)
    if unsound:
        raise BallotError(f"ballot {ballot.id!r} takes no vote: " + "; ".join(unsound))
    signed = sign_votes(ballot.id, [Vote(member, v.question, v.ranking, at) for v in mine],
                        signer, ballot_texts(ballot))
    receipt = receipt_code(signed[0].signature)
    doc: MemberBallotDoc = {
        "schema_version": 1, "kind": "member-ballot", "ballot": ballot.id, "member": member,
           "key": signer.public, "at": at, "signature": signed[0].signature,
           "receipt": receipt,
           "votes": [{"question": v.question, "ranking": list(v.ranking)} for v in signed]}
    return doc, receipt


def dump_member_ballot(doc: Mapping[str, object]) -> str:
    return ("# A member's own votes, signed with the member's key "
            "(`rulesbook ballot export`). Edit nothing: a changed vote no longer verifies.\n"
            + dump_text(doc, width=1000, flow=False))
