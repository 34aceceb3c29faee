"""Operations on a ballot: voting, importing a member's copy, closing, adopting.

Each function takes a ballot and returns a new one (or raises
:class:`BallotError` and changes nothing); the ``*_file`` helpers read the
file, apply the change and write it back atomically.
"""
from __future__ import annotations

import dataclasses
import os
from datetime import datetime, timezone
from pathlib import Path

from .. import schema
from ..errors import DataFileError, Problem
from ..storage import file_lock
from ..yamlio import load_file
from .io import ballot_from_doc, load_ballot, load_member_ballot, save_ballot
from .model import (
    ABSTAIN_WORDS,
    METHODS,
    THRESHOLD_BASES,
    THRESHOLDS,
    Ballot,
    BallotError,
    Replaced,
    Vote,
    match_option,
)
from .seal import Verification, compute_seal, verify_ballot
from .tally import tally


def now_utc() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def validate_settings(ballot: Ballot) -> None:
    if ballot.method not in METHODS:
        raise BallotError(f"unknown method {ballot.method!r} (one of {', '.join(METHODS)})")
    if ballot.threshold not in THRESHOLDS:
        raise BallotError(f"unknown threshold {ballot.threshold!r} "
                          f"(one of {', '.join(THRESHOLDS)})")
    if ballot.threshold_base not in THRESHOLD_BASES:
        raise BallotError(f"unknown threshold base {ballot.threshold_base!r} "
                          f"(one of {', '.join(THRESHOLD_BASES)})")
    if ballot.quorum < 0 or ballot.quorum > len(ballot.roll):
        raise BallotError(f"quorum {ballot.quorum} must be between 0 and the "
                          f"{len(ballot.roll)} members of the roll")


def _require_open(ballot: Ballot) -> None:
    if not ballot.is_open:
        raise BallotError(f"ballot {ballot.id!r} is closed: no vote can change")


def _parse_ranking(ballot: Ballot, question_id: str, ranking) -> tuple[str, ...]:
    question = ballot.question(question_id)
    if isinstance(ranking, str):
        ranking = [r for r in ranking.split(",") if r.strip()]
    ranking = list(ranking)
    abstains = [t for t in ranking if str(t).strip().lower() in ABSTAIN_WORDS]
    if abstains:
        if len(ranking) > 1:
            raise BallotError(f"{abstains[0]!r} is an abstention on question {question.id!r}: "
                              "it cannot be ranked with options")
        return ()  # an explicit abstention
    out: list[str] = []
    for text in ranking:
        option = match_option(question, text)
        if option in out:
            raise BallotError(f"{option} is ranked twice on question {question.id!r}")
        out.append(option)
    return tuple(out)


def cast_vote(ballot: Ballot, member: str, question: str, ranking, *,
              at: str | None = None, source: str = "") -> Ballot:
    """``member``'s vote on ``question`` (a ranking, best first; [] abstains).
    A second vote replaces the first; the replaced one goes to ``history``."""
    _require_open(ballot)
    if member not in ballot.roll:
        raise BallotError(f"member {member!r} is not on the roll of ballot {ballot.id!r} "
                          f"({', '.join(ballot.roll)})")
    q = ballot.find_question(question)
    options = _parse_ranking(ballot, q.id, ranking)
    return _apply(ballot, [Vote(member, q.id, options)], at or now_utc(), source)


def _apply(ballot: Ballot, new_votes: list[Vote], at: str, source: str) -> Ballot:
    votes = list(ballot.votes)
    history = list(ballot.history)
    for vote in new_votes:
        for i, old in enumerate(votes):
            if old.member == vote.member and old.question == vote.question:
                history.append(Replaced(old.member, old.question, old.ranking, at, source))
                votes[i] = vote
                break
        else:
            votes.append(vote)
    return dataclasses.replace(ballot, votes=tuple(votes), history=tuple(history))


def import_member_votes(ballot: Ballot, doc, *, at: str | None = None) -> Ballot:
    """Merge a member-ballot document (a schema-valid LoadedYaml). Every line is checked
    first; if any is wrong nothing is merged and :class:`BallotError` lists them all."""
    data = doc.data
    problems: list[Problem] = []
    if not ballot.is_open:
        problems.append(doc.problem(("ballot",), f"ballot {ballot.id!r} is closed: no vote "
                                    f"can change"))
    if data["ballot"] != ballot.id:
        problems.append(doc.problem(("ballot",), f"this copy is for ballot {data['ballot']!r}, "
                                    f"not {ballot.id!r}"))
    member = data["member"]
    if member not in ballot.roll:
        problems.append(doc.problem(("member",), f"member {member!r} is not on the roll "
                                    f"({', '.join(ballot.roll)})"))
    new_votes: list[Vote] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(data["votes"]):
        try:
            q = ballot.find_question(raw["question"])
        except BallotError as exc:
            problems.append(doc.problem(("votes", i, "question"), str(exc)))
            continue
        if q.id in seen:
            line, _ = doc.where(("votes", seen[q.id]))
            problems.append(doc.problem(("votes", i, "question"), f"question {q.id!r} is "
                                        f"voted twice (first at line {line})"))
            continue
        seen[q.id] = i
        ranking: list[str] = []
        bad = False
        for k, text in enumerate(raw["ranking"]):
            if isinstance(text, bool):  # YAML reads an unquoted yes / no as true / false
                text = "yes" if text else "no"
            try:
                option = match_option(q, str(text))
            except BallotError as exc:
                problems.append(doc.problem(("votes", i, "ranking", k), str(exc)))
                bad = True
                continue
            if option in ranking:
                problems.append(doc.problem(("votes", i, "ranking", k),
                                            f"{option} is ranked twice"))
                bad = True
            ranking.append(option)
        if not bad:
            new_votes.append(Vote(member, q.id, tuple(ranking)))
    if problems:
        raise BallotError(f"{doc.file} refused, nothing imported", problems)
    return _apply(ballot, new_votes, at or now_utc(), f"import {Path(doc.file).name}")


def close_ballot(ballot: Ballot, *, at: str | None = None) -> Ballot:
    """Close and seal: count with the ballot's rules, store the results and the seal."""
    _require_open(ballot)
    validate_settings(ballot)
    closed = dataclasses.replace(ballot, status="closed")
    results = tuple(r.to_dict() for r in tally(closed))
    return dataclasses.replace(closed, seal=compute_seal(closed, at or now_utc()),
                               results=results)


# -- the file versions ---------------------------------------------------------

def vote_file(path: str | os.PathLike, member: str, question: str, ranking) -> Ballot:
    with file_lock(path):  # read, change and write as one step
        ballot = cast_vote(load_ballot(path), member, question, ranking)
        save_ballot(path, ballot)
    return ballot


def import_file(path: str | os.PathLike, member_file: str | os.PathLike) -> Ballot:
    doc = load_member_ballot(member_file)
    with file_lock(path):
        ballot = import_member_votes(load_ballot(path), doc)
        save_ballot(path, ballot)
    return ballot


def close_file(path: str | os.PathLike) -> Ballot:
    with file_lock(path):
        ballot = close_ballot(load_ballot(path))
        save_ballot(path, ballot)
    return ballot


def verify_file(path: str | os.PathLike):
    """Verify a sealed ballot file. A file that no longer reads as a consistent ballot
    but carries a seal is reported as changed (not as an error)."""
    path = Path(path)
    try:
        doc = load_file(path, str(path))
    except DataFileError as exc:
        raise BallotError(f"cannot read the ballot {path}", [exc.problem]) from None
    data = doc.data
    if not isinstance(data, dict) or data.get("kind") != "ballot":
        raise BallotError(f"{path} is not a ballot")
    problems = schema.validate(doc, "ballot")
    if problems:
        if isinstance(data.get("seal"), dict):
            expected = data["seal"].get("digest")
            return Verification(False, None, expected if isinstance(expected, str) else None,
                                tuple(str(p) for p in problems))
        raise BallotError(f"{path} is not a valid ballot", problems)
    ballot, problems = ballot_from_doc(doc)
    if ballot.seal is None:
        raise BallotError(f"ballot {ballot.id!r} is {ballot.status} and not sealed: "
                          f"nothing to verify (close it first)", problems)
    return verify_ballot(ballot, problems)
