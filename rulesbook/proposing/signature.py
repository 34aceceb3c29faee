"""Proposals signed by their author.

A proposal record written by ``rulesbook propose``, ``proposal edit`` or
``proposal withdraw`` (or the app) carries ``signed: {by, at, key, signature}``:
``by`` is the author (the record's ``member``) or the secretary acting for the
author, who signs with their own key at ``at``. The signature covers what the
author wrote (:data:`AUTHORED`: id, member, kind, title, text, concerns,
withdrawn), the rulebook it is in and the rule it is filed under, under the
context ``rulesbook-proposal/1``, so any change to those words, or moving it to
another rule, no longer verifies. The association's annotations of a proposal
(``topics``, ``notes``, ``rulings``) are not the author's and are not covered: the
rulings audit adds and corrects them without the author's key.

**Seed proposals** (A–E's, transcribed from the source document) were never
signed: nobody held a key then. They are "from the source document": the SHA-256
of each one's canonical record is listed in :mod:`.seed_proposals` (in the
program, not in the data folder), and a seed proposal without a signature is
valid only while it is exactly that record. Changed, it needs its author's
signature like any other (``proposal edit --member L`` re-signs it).
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from ..ballots.canonical import canonical_json
from ..ballots.keys import SigningKey, verify_signature
from ..ballots.registry import Registry
from .seed_proposals import SEED_PROPOSALS

CONTEXT = "rulesbook-proposal/1"
SIGNED = "signed"
ACTING = ("secretary",)  # who may act for an author


#: the fields of a proposal its author writes and signs
AUTHORED = ("id", "member", "kind", "title", "text", "concerns", "withdrawn")


def _body(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: record[k] for k in AUTHORED if k in record}


def proposal_message(book: str, rule: str | None, record: Mapping[str, Any], by: str,
                     at: str, key: str) -> bytes:
    """What a proposal's signature covers."""
    return canonical_json({"context": CONTEXT, "rulebook": book, "rule": rule,
                           "record": _body(record), "by": by, "at": at, "key": key})


def seed_digest(book: str, rule: str | None, record: Mapping[str, Any]) -> str:
    """The SHA-256 of a proposal's canonical record, as :mod:`.seed_proposals` lists it."""
    return hashlib.sha256(canonical_json({"rulebook": book, "rule": rule,
                                          "record": _body(record)})).hexdigest()


def sign_record(book: str, rule: str | None, record: Mapping[str, Any], signer: SigningKey,
                at: str) -> dict[str, str]:
    """The ``signed`` mapping of ``record`` signed by ``signer`` at ``at``."""
    return {"by": signer.member, "at": at, "key": signer.public,
            "signature": signer.sign(proposal_message(book, rule, record, signer.member, at,
                                                      signer.public))}


def proposal_problem(book: str, rule: str | None, record: Mapping[str, Any],
                     registry: Registry) -> str | None:
    """Why a proposal record is not its author's (None: it is)."""
    ref = f"{book}:{record.get('id')}"
    author = record.get("member")
    signed = record.get(SIGNED)
    if signed is None:
        if seed_digest(book, rule, record) in SEED_PROPOSALS:
            return None
        return (f"proposal {ref} (member {author}) carries no author signature and is not "
                f"the source document's text: a proposal is written with `rulesbook propose "
                f"--member {author}` or `proposal edit {ref} --member {author}`, signed with "
                f"the author's key")
    if not isinstance(signed, dict):
        return f"proposal {ref}: `signed:` is not a signature"
    by, at, key = str(signed.get("by", "")), str(signed.get("at", "")), str(signed.get("key", ""))
    why = registry.key_problem(by, key, at)
    if why:
        return f"proposal {ref} (member {author}), signed by {by}: {why}"
    if by != author and registry.role_at(by, at) not in ACTING:
        return (f"proposal {ref} is member {author}'s but signed by {by}, who was not the "
                f"secretary at {at}: only its author (or the secretary acting for them) "
                f"signs a proposal")
    if not verify_signature(key, proposal_message(book, rule, record, by, at, key),
                            str(signed.get("signature", ""))):
        return (f"proposal {ref} (member {author}): the signature of {by} does not match the "
                f"record (changed after it was signed, or forged)")
    return None
