"""The edition chain: every edition record shows where its text came from.

Each edition after the first carries ``previous: sha256:<hex>``, the SHA-256 of
the canonical JSON of the record before it as read from ``editions.yaml``, so a
hand edit of any earlier record breaks the chain at the next one. An edition that
adopts proposals names its ``ballot`` and that ballot's ``seal`` digest; the
ballot file must be in the data folder, its signed seal must verify (checked
with the ballot) and carry that digest, and the edition must adopt exactly what
the sealed results adopt — so a hand edit of the newest record's adoptions (which
no later ``previous`` covers) is caught as well. (A ``repealed`` entry has no
ballot to come from yet; only the chain covers it.)

Every record written by ``ballot adopt`` (every record after the first, and any
that names a ballot) also carries the adopter's signature over all its fields
(:mod:`.edition_sig`): a hand edit of the newest record's title, date or
description is caught too, and the signer must have held the chair's or the
secretary's role. Every record's ``date`` must be a real day.

A record written by ``ballot adopt`` also carries ``texts`` (the digest of every
rule in force once adopted) and each adoption's ``digest``: those are compared with
the texts of the folder by :mod:`.texts`, which reports without stopping the load.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import date as Date
from typing import NamedTuple

from ..errors import Problem
from ..yamlio import LoadedYaml
from .canonical import canonical_json
from .edition_sig import SIGNED_FIELDS, check_edition_signature, plain
from .model import Ballot, Seal
from .registry import Registry


class SealedBallot(NamedTuple):
    """A sealed ballot of the folder that verifies, with its seal and its file."""

    ballot: Ballot
    seal: Seal
    doc: LoadedYaml


#: the sealed ballots of a folder by id (None: sealed, but it does not verify)
SealedBallots = Mapping[str, "SealedBallot | None"]


def record_hash(record: Mapping[str, object]) -> str:
    """``sha256:<hex>`` of an edition record (plain data as read from YAML)."""
    return "sha256:" + hashlib.sha256(canonical_json(plain(record))).hexdigest()


def expected_adoptions(ballot: Ballot) -> list[dict[str, object]]:
    """The adopted entries a sealed ballot's stored results call for."""
    out: list[dict[str, object]] = []
    for r in ballot.results:
        if isinstance(r, dict) and r.get("stands") == "adopted" and r.get("winner"):
            out.append({"proposal": r["winner"], "rule": r.get("rule"),
                        "question": r.get("question")})
    return out


def _adoption(entry: Mapping[str, object]) -> tuple[object, object, object]:
    """What an adopted entry adopts: (proposal, rule, question)."""
    return entry.get("proposal"), entry.get("rule"), entry.get("question")


def check_chain(doc: LoadedYaml, ballots: SealedBallots,
                registry: Registry | None = None) -> list[Problem]:
    """Problems of the chain of ``editions.yaml`` (``doc``); ``ballots`` maps a ballot
    id to its :class:`SealedBallot` for the sealed ballots of the folder; ``registry`` (the
    members' keys and roles) checks the adopters' signatures."""
    problems: list[Problem] = []
    records = doc.data.get("editions", [])
    for i, record in enumerate(records):
        path = ("editions", i)
        eid = record.get("id")
        day = record.get("date")
        if isinstance(day, str):
            try:
                Date.fromisoformat(day)
            except ValueError:
                problems.append(doc.problem(path + ("date",), f"edition {eid!r} is dated "
                                f"{day!r}, which is not a day of the calendar (YYYY-MM-DD)"))
        if registry is not None and (i > 0 or record.get("ballot") or "previous" in record
                                     or any(f in record for f in SIGNED_FIELDS)):
            signed = check_edition_signature(record, registry)
            if not signed.ok:
                field = signed.field if signed.field in record else "id"
                problems.append(doc.problem(path + (field,), signed.message))
        if i > 0:
            want = record_hash(records[i - 1])
            line, _ = doc.where(("editions", i - 1))
            if "previous" not in record:
                problems.append(doc.problem(path + ("id",), f"edition {eid!r} carries no "
                                f"record of the edition before it (previous: sha256:...): it "
                                f"was not written by `ballot adopt`, or the record was cut"))
            elif record["previous"] != want:
                problems.append(doc.problem(path + ("previous",), f"the edition chain is "
                                f"broken: the record of edition {records[i - 1].get('id')!r} "
                                f"(line {line}) was changed by hand after edition {eid!r} "
                                f"was written on it"))
        adopted = record.get("adopted", [])
        named = {a.get("ballot") for a in adopted if a.get("ballot")}
        bid = record.get("ballot") or (named.pop() if len(named) == 1 else None)
        if not bid:
            if adopted:
                problems.append(doc.problem(path + ("adopted",), f"edition {eid!r} adopts "
                                f"proposals but names no ballot: where its text came from "
                                f"cannot be shown"))
            continue
        if bid not in ballots:
            problems.append(doc.problem(path + ("ballot",), f"edition {eid!r} was adopted by "
                            f"ballot {bid!r}, which is not a sealed ballot of this data "
                            f"folder: where its text came from cannot be checked"))
            continue
        found = ballots[bid]
        if found is None:
            problems.append(doc.problem(path + ("ballot",), f"edition {eid!r} was adopted by "
                            f"ballot {bid!r}, which does not verify (see its problems): the "
                            f"edition cannot be in force"))
            continue
        ballot, seal, bdoc = found
        if record.get("seal") != f"sha256:{seal.digest}":
            problems.append(doc.problem(path + ("seal",), f"edition {eid!r} records the "
                            f"digest {record.get('seal')} but the sealed ballot {bid!r} "
                            f"({bdoc.file}) has sha256:{seal.digest}"))
        expected = expected_adoptions(ballot)
        want_keys = {_adoption(a) for a in expected}
        for j, entry in enumerate(adopted):
            if _adoption(entry) not in want_keys:
                match = next((a for a in expected if a.get("question") == entry.get("question")),
                             None)
                said = (f"the sealed ballot adopted {match['proposal']}" if match else
                        "the sealed ballot adopted nothing there")
                problems.append(doc.problem(path + ("adopted", j, "proposal"),
                                f"edition {eid!r} adopts {entry.get('proposal')} "
                                f"(question {entry.get('question')!r}), but {said}: the "
                                f"record was edited by hand"))
        have = {_adoption(a) for a in adopted}
        for a in expected:
            if _adoption(a) not in have:
                problems.append(doc.problem(path + ("adopted",), f"edition {eid!r} leaves "
                                f"out {a['proposal']} (question {a['question']!r}), which the "
                                f"sealed ballot {bid!r} adopted"))
    return problems
