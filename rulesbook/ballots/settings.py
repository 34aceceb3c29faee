"""The ballot's settings, signed when it is opened.

``ballot new OUT --as L`` (or ``ballot sign FILE --as L`` for a ballot written
unsigned) records under ``opened`` who opened it (the chair or the secretary), when,
with which key, ``parts`` (the SHA-256 of each setting: id, title, description,
rulebook, edition, method, threshold, threshold base, quorum, roll, members' names,
and each question with its options and the digests of their texts) and an Ed25519
signature of ``{context: rulesbook-ballot-settings/1, by, at, key, parts}``.

A ballot whose settings are not signed takes no vote (it says how to sign it);
once signed, a hand change of any setting no longer matches its part, and
``validate``, ``vote``, ``close`` and ``verify`` name the field. Changing a part as
well breaks the signature, which only the opener's private key can make again.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .canonical import canonical_json, sha256_of
from .keys import SigningKey, verify_signature
from .model import Ballot, BallotError, Opened
from .registry import Registry

SETTINGS_CONTEXT = "rulesbook-ballot-settings/1"

#: the signed settings, and how a message names each
FIELDS = {
    "id": "the ballot's id", "title": "the title", "description": "the description",
    "rulebook": "the rulebook", "edition": "the edition it amends",
    "method": "the counting method", "threshold": "the threshold",
    "threshold_base": "the threshold's base", "quorum": "the quorum",
    "roll": "the roll of members", "members": "the members' names",
}


def settings_form(ballot: Ballot) -> dict[str, Any]:
    """Every signed setting, as plain data (questions by id, with options and digests)."""
    data = ballot.head_dict()
    form = {k: data.get(k) for k in FIELDS}
    form["description"] = form["description"] or ""
    form["members"] = form["members"] or {}
    form["questions"] = {str(q["id"]): q for q in data["questions"]}
    return form


def settings_parts(ballot: Ballot) -> dict[str, object]:
    form = settings_form(ballot)
    parts: dict[str, object] = {k: sha256_of(form[k]) for k in FIELDS}
    parts["questions"] = {qid: sha256_of(q) for qid, q in form["questions"].items()}
    parts["question_order"] = sha256_of(list(form["questions"]))
    return parts


def settings_message(by: str, at: str, key: str, parts: Mapping[str, object]) -> bytes:
    return canonical_json({"context": SETTINGS_CONTEXT, "by": by, "at": at, "key": key,
                           "parts": dict(parts)})


def settings_digest(ballot: Ballot) -> str | None:
    """The digest of the signed settings that a vote signs (None: not signed)."""
    if ballot.opened is None:
        return None
    return sha256_of({"parts": dict(ballot.opened.parts), "signature": ballot.opened.signature})


def sign_settings(ballot: Ballot, signer: SigningKey, registry: Registry, at: str) -> Ballot:
    """``ballot`` with its settings signed by ``signer`` (the chair or the secretary at
    ``at``). Refused once a vote is recorded: the settings a member voted under stay."""
    if ballot.votes or ballot.history:
        raise BallotError(f"ballot {ballot.id!r} already has votes: its settings were "
                          f"signed when it was opened and cannot be signed again")
    if not ballot.is_open:
        raise BallotError(f"ballot {ballot.id!r} is closed")
    why = opener_problem(registry, signer.member, signer.public, at)
    if why:
        raise BallotError(f"{signer.member} cannot open the ballot: {why}")
    parts = settings_parts(ballot)
    signature = signer.sign(settings_message(signer.member, at, signer.public, parts))
    return dataclasses.replace(ballot, opened=Opened(signer.member, at, signer.public, parts,
                                                     signature))


def opener_problem(registry: Registry, member: str, key: str, at: str) -> str | None:
    """Why ``member`` (with ``key``) cannot open a ballot at ``at`` (None: they can)."""
    from .edition_sig import signer_problem

    return signer_problem(registry, member, key, at, "opens a ballot")


def how_to_sign(ballot: Ballot) -> str:
    return ("its settings (method, threshold, quorum, roll, questions and options) are "
            "not signed: the chair or the secretary signs them before it takes a vote, "
            "with `rulesbook ballot sign FILE --as L` (or writes the ballot with "
            "`rulesbook ballot new OUT.yaml --as L`)")


def settings_failures(ballot: Ballot, registry: Registry | None = None) -> list[str]:
    """Why the ballot's signed settings do not hold (empty: they do). Unsigned settings
    are a failure too (:func:`how_to_sign`). Without ``registry`` the opener's key and
    role are not checked."""
    return [message for _field, message in settings_findings(ballot, registry)]


def settings_findings(ballot: Ballot,
                      registry: Registry | None = None) -> list[tuple[str, str]]:
    """:func:`settings_failures` with the field each is about (``opened`` for the
    signature itself)."""
    opened = ballot.opened
    if opened is None:
        return [("opened", how_to_sign(ballot))]
    out: list[tuple[str, str]] = []
    stored = dict(opened.parts)
    now = settings_parts(ballot)
    who = f"after {opened.by} signed them at {opened.at}"
    for key, label in FIELDS.items():
        if stored.get(key) != now[key]:
            out.append((key, f"the ballot's settings were changed {who}: {label} ({key})"))
    before = stored.get("questions")
    before_q: dict[str, object] = before if isinstance(before, dict) else {}
    after_q = now["questions"]
    assert isinstance(after_q, dict)
    for qid in before_q:
        if qid not in after_q:
            out.append(("questions", f"the ballot's settings were changed {who}: question "
                        f"{qid!r} was removed (questions)"))
        elif before_q[qid] != after_q[qid]:
            out.append(("questions", f"the ballot's settings were changed {who}: question "
                        f"{qid!r}, its rule, options or the digests of their texts "
                        f"(questions)"))
    for qid in after_q:
        if qid not in before_q:
            out.append(("questions", f"the ballot's settings were changed {who}: question "
                        f"{qid!r} was added (questions)"))
    if not out and stored.get("question_order") != now["question_order"]:
        out.append(("questions", f"the ballot's settings were changed {who}: the order of "
                    f"the questions (questions)"))
    if not verify_signature(opened.key, settings_message(opened.by, opened.at, opened.key,
                                                         stored), opened.signature):
        out.append(("opened", f"the signature of the ballot's settings does not match them "
                    f"(the settings record under `opened` was changed by someone without "
                    f"{opened.by}'s key)"))
    if registry is not None:
        why = opener_problem(registry, opened.by, opened.key, opened.at)
        if why:
            out.append(("opened", f"the ballot's settings are signed by {opened.by}, who "
                        f"cannot open a ballot: {why}"))
    return out
