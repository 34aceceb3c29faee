"""Operations on a ballot: voting, importing a member's copy, closing, adopting.

Each function takes a ballot and returns a new one (or raises
:class:`BallotError` and changes nothing); the ``*_file`` helpers read the
file, apply the change and write it back atomically.
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from ..documents import DocumentError, DocumentStage, load_document
from ..errors import Problem
from ..storage import file_lock
from ..yamlio import LoadedYaml
from .io import ballot_error, ballot_from_doc, load_ballot, load_member_ballot, save_ballot
from .keys import SigningKey
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
from .registry import CLOSERS, Registry
from .seal import Verification, check_votes, compute_seal, verify_ballot
from .settings import settings_failures
from .signing import ballot_texts, batch_message, sign_vote
from .tally import tally
from .times import time_problems

if TYPE_CHECKING:
    from ..library import Library

#: a ranking as a person gives it: options best first, or one text "10A,10B" (commas)
Ranking: TypeAlias = "str | Iterable[str]"
#: a sealed ballot file as read: the ballot and the problems found reading it, or (no
#: ballot) the failed verification of a file that no longer reads as one but is sealed
SealedFile: TypeAlias = "tuple[Ballot, list[Problem]] | tuple[None, Verification]"


class UnsealedError(BallotError):
    """A readable ballot that is not closed and sealed: nothing to verify yet."""


class SignatureError(BallotError):
    """A signature, a signer or a key does not match (``ballot import`` exits 1)."""


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


def require_signed_settings(ballot: Ballot, registry: Registry | None,
                            doing: str = "takes no vote") -> None:
    """Refuse (:class:`SignatureError`) a ballot whose settings are not signed by the
    chair or secretary, or were changed since (naming the field)."""
    failures = settings_failures(ballot, registry)
    if failures:
        raise SignatureError(f"ballot {ballot.id!r} {doing}: " + "; ".join(failures))


def _parse_ranking(ballot: Ballot, question_id: str, ranking: Ranking) -> tuple[str, ...]:
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


def check_signer(signer: SigningKey, member: str, proxy_by: str | None,
                 registry: Registry | None, at: str) -> None:
    """``signer`` may sign ``member``'s vote: it is the member's own key, or the key of
    the chair or secretary ``proxy_by`` (a postal or telephone vote)."""
    expected = proxy_by or member
    if signer.member != expected:
        raise SignatureError(f"the vote of {member} must be signed by "
                             f"{'the proxy ' + proxy_by if proxy_by else member}, "
                             f"not with {signer.member}'s key")
    if registry is None:
        return
    why = registry.key_problem(expected, signer.public, at)
    if why:
        raise SignatureError(why)
    if proxy_by and registry.role_at(proxy_by, at) not in CLOSERS:
        raise SignatureError(f"{proxy_by} is not the chair or the secretary: only they "
                             f"enter a vote on a member's behalf")


def cast_vote(ballot: Ballot, member: str, question: str, ranking: Ranking, *,
              at: str | None = None, source: str = "", signer: SigningKey | None = None,
              proxy_by: str | None = None, registry: Registry | None = None) -> Ballot:
    """``member``'s vote on ``question`` (a ranking, best first; [] abstains), signed
    by ``signer`` (the member, or the secretary ``proxy_by``). A second vote replaces
    the first; the replaced one goes to ``history``. An unsigned vote (no ``signer``)
    is a draft: the ballot cannot be closed with it."""
    _require_open(ballot)
    if member not in ballot.roll:
        raise BallotError(f"member {member!r} is not on the roll of ballot {ballot.id!r} "
                          f"({', '.join(ballot.roll)})")
    if proxy_by == member:
        proxy_by = None
    q = ballot.find_question(question)
    options = _parse_ranking(ballot, q.id, ranking)
    when = at or now_utc()
    vote = Vote(member, q.id, options, when if signer else "", proxy_by=proxy_by)
    if signer is not None and ballot.opened_at and when < ballot.opened_at:
        raise SignatureError(f"a vote dated {when} is before ballot {ballot.id!r} was "
                             f"opened ({ballot.opened_at}): it cannot be signed so")
    if signer is not None:
        require_signed_settings(ballot, registry)
        check_signer(signer, member, proxy_by, registry, when)
        vote = sign_vote(ballot.id, vote, signer, ballot_texts(ballot))
    return _apply(ballot, [vote], when, source)


def _apply(ballot: Ballot, new_votes: list[Vote], at: str, source: str) -> Ballot:
    votes = list(ballot.votes)
    history = list(ballot.history)
    for vote in new_votes:
        for i, old in enumerate(votes):
            if old.member == vote.member and old.question == vote.question:
                if old.signature and old == vote:
                    break  # the very vote, signed, already recorded (a copy imported twice)
                history.append(Replaced(old.member, old.question, old.ranking, at, source,
                                        old if old.signature else None))
                votes[i] = vote
                break
        else:
            votes.append(vote)
    return dataclasses.replace(ballot, votes=tuple(votes), history=tuple(history))


def import_member_votes(ballot: Ballot, doc: LoadedYaml, registry: Registry, *,
                        at: str | None = None) -> Ballot:
    """Merge a member-ballot document (a schema-valid LoadedYaml): the votes of the
    member named in it, signed together with that member's key in ``registry``. Every
    line is checked first; if any is wrong nothing is merged and :class:`BallotError`
    lists them all (:class:`SignatureError` when a signature, key or member does not
    match)."""
    data = doc.data
    problems: list[Problem] = []
    signature_problems: list[Problem] = []
    member = data["member"]
    key, signed_at = data.get("key", ""), str(data.get("at", ""))
    signature = data.get("signature", "")
    if not (key and signature and signed_at):
        signature_problems.append(doc.problem(("member",), f"this copy is not signed: a "
                                  f"member's ballot is made with `rulesbook ballot export "
                                  f"--member {member}` and signed with their key"))
    else:
        why = registry.key_problem(member, key, signed_at)
        if why:
            signature_problems.append(doc.problem(("key",), f"this copy says member "
                                                  f"{member!r}, but {why}"))
        elif ballot.opened_at and signed_at < ballot.opened_at:
            signature_problems.append(doc.problem(("at",), f"this copy is dated {signed_at}, "
                                                  f"before ballot {ballot.id!r} was opened "
                                                  f"({ballot.opened_at})"))
    if not ballot.is_open:
        problems.append(doc.problem(("ballot",), f"ballot {ballot.id!r} is closed: no vote "
                                    f"can change"))
    if data["ballot"] != ballot.id:
        problems.append(doc.problem(("ballot",), f"this copy is for ballot {data['ballot']!r}, "
                                    f"not {ballot.id!r}"))
    if member not in ballot.roll:  # a member that does not match: refused like a signature
        signature_problems.append(doc.problem(("member",), f"member {member!r} is not on the "
                                              f"roll ({', '.join(ballot.roll)})"))
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
            new_votes.append(Vote(member, q.id, tuple(ranking), signed_at, key, signature))
    if new_votes and not signature_problems and len(new_votes) == len(data["votes"]):
        from .keys import verify_signature

        if not verify_signature(key, batch_message(data["ballot"], new_votes,
                                                   ballot_texts(ballot)), signature):
            signature_problems.append(doc.problem(
                ("signature",), f"the votes in this copy do not carry {member}'s signature "
                f"(changed after they were signed, or signed by someone else)"))
        for vote in new_votes:
            old = next((v for v in ballot.votes if v.member == member
                        and v.question == vote.question), None)
            if old is not None and old.at and old.at > signed_at:
                problems.append(doc.problem(
                    ("at",), f"this copy was signed at {signed_at}, before {member}'s vote "
                    f"on question {vote.question!r} already recorded ({old.at}): an older "
                    f"copy never replaces a newer vote"))
                break
    for failure in settings_failures(ballot, registry):
        problems.append(doc.problem(("ballot",), f"ballot {ballot.id!r} takes no vote: "
                                    f"{failure}"))
    if signature_problems:
        raise SignatureError(f"{doc.file} refused, nothing imported",
                             signature_problems + problems)
    if problems:
        raise BallotError(f"{doc.file} refused, nothing imported", problems)
    return _apply(ballot, new_votes, at or now_utc(), f"import {Path(doc.file).name}")


def add_signed_votes(ballot: Ballot, votes: Iterable[Vote], registry: Registry, *,
                     at: str | None = None,
                     source: str = "") -> Ballot:
    """Record votes that are already signed (re-applied after a reload): each must
    verify, or nothing changes (:class:`SignatureError`)."""
    _require_open(ballot)
    require_signed_settings(ballot, registry)
    given = list(votes)
    only = dataclasses.replace(ballot, votes=tuple(given), history=())
    bad = check_votes(only, registry) + time_problems(only)
    if bad:
        raise SignatureError("; ".join(bad))
    return _apply(ballot, given, at or now_utc(), source)


def close_ballot(ballot: Ballot, signer: SigningKey, registry: Registry, *,
                 at: str | None = None, library: Library | None = None) -> Ballot:
    """Close and seal: count with the ballot's rules, store the results and the seal,
    signed by ``signer`` (the chair or the secretary). Refused while a vote is unsigned
    or does not verify; with ``library`` (the rules folder of the ballot), also while a
    text voted on changed or the count adopts a withdrawn proposal
    (:mod:`.close_checks`)."""
    _require_open(ballot)
    validate_settings(ballot)
    when = at or now_utc()
    why = registry.key_problem(signer.member, signer.public, when)
    if why:
        raise SignatureError(f"{signer.member} cannot close the ballot: {why}")
    if registry.role_at(signer.member, when) not in CLOSERS:
        raise SignatureError(f"{signer.member} cannot close the ballot: only the chair or "
                             f"the secretary closes and seals (members.yaml gives "
                             f"{signer.member} the role {registry.role_at(signer.member, when)!r})")
    require_signed_settings(ballot, registry, "cannot be closed")
    bad = check_votes(ballot, registry) + time_problems(ballot, when)
    if ballot.opened_at and when < ballot.opened_at:
        bad.append(f"the close would be dated {when}, before the ballot was opened "
                   f"({ballot.opened_at})")
    if bad:
        raise SignatureError(f"ballot {ballot.id!r} cannot be closed: " + _listed(bad))
    closed = dataclasses.replace(ballot, status="closed")
    counted = tally(closed)
    if library is not None:
        from .close_checks import text_changes, withdrawn_adoptions

        changed = text_changes(library, ballot)
        if changed:
            raise BallotError(f"ballot {ballot.id!r} cannot be closed: the votes were cast "
                              f"on other texts; nothing was sealed: " + _listed(changed))
        withdrawn = withdrawn_adoptions(library, counted)
        if withdrawn:
            raise BallotError(f"ballot {ballot.id!r} cannot be closed; nothing was sealed: "
                              + _listed(withdrawn))
    results = tuple(r.to_dict() for r in counted)
    closed = dataclasses.replace(closed, results=results)
    return dataclasses.replace(closed, seal=compute_seal(closed, when, signer))


def _listed(problems: list[str]) -> str:
    """The first five problems, and how many more."""
    return "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more"
                                      if len(problems) > 5 else "")


# -- the file versions ---------------------------------------------------------

def vote_file(path: str | os.PathLike[str], member: str, question: str,
              ranking: Ranking, *,
              signer: SigningKey | None = None, proxy_by: str | None = None,
              registry: Registry | None = None) -> Ballot:
    with file_lock(path):  # read, change and write as one step
        ballot = cast_vote(load_ballot(path), member, question, ranking, signer=signer,
                           proxy_by=proxy_by, registry=registry)
        save_ballot(path, ballot)
    return ballot


def import_file(path: str | os.PathLike[str], member_file: str | os.PathLike[str],
                registry: Registry) -> Ballot:
    doc = load_member_ballot(member_file)
    with file_lock(path):
        ballot = import_member_votes(load_ballot(path), doc, registry)
        save_ballot(path, ballot)
    return ballot


def close_file(path: str | os.PathLike[str], signer: SigningKey, registry: Registry,
               library: Library | None = None) -> Ballot:
    with file_lock(path):
        ballot = close_ballot(load_ballot(path), signer, registry, library=library)
        save_ballot(path, ballot)
    return ballot


def read_sealed(path: str | os.PathLike[str]) -> SealedFile:
    """(ballot, problems) of a sealed ballot file, or a failed Verification when the file
    no longer reads as a ballot but carries a seal."""
    return read_sealed_doc(path)[0]


def read_sealed_doc(path: str | os.PathLike[str]) -> tuple[SealedFile, LoadedYaml | None]:
    """:func:`read_sealed`, and the document read (None when it is not a ballot's): the
    lines of the failures (:func:`.seal.failure_problems`)."""
    path = Path(path)
    try:
        doc = load_document(path, "ballot")
    except DocumentError as exc:
        seal = exc.doc.data.get("seal") if exc.doc is not None and \
            exc.stage is DocumentStage.SCHEMA else None
        if isinstance(seal, dict):  # a sealed ballot changed by hand: a failed verification
            expected = seal.get("digest")
            return (None, Verification(False, None, expected if isinstance(expected, str)
                                       else None, tuple(str(p) for p in exc.problems),
                                       tuple(exc.problems))), None
        raise ballot_error(exc, "ballot", path) from None
    ballot, problems = ballot_from_doc(doc)
    if ballot.seal is None:
        raise UnsealedError(f"ballot {ballot.id!r} is {ballot.status} and not sealed: "
                          f"nothing to verify (close it first)", problems)
    return (ballot, problems), doc.detached()  # the votes' dicts freed, the marks kept


def verify_file(path: str | os.PathLike[str], registry: Registry) -> Verification:
    """Verify a sealed ballot file against the members' registry. A file that no longer
    reads as a consistent ballot but carries a seal is reported as changed."""
    read = read_sealed(path)
    if read[0] is None:
        return read[1]
    return verify_ballot(read[0], registry, read[1])
