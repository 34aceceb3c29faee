"""The adopter's signature on an edition record.

``ballot adopt`` writes each new edition record with ``signed_by`` (the chair or
secretary adopting), ``signed_at``, ``key`` and ``signature``: an Ed25519 signature
of the canonical JSON of ``{context: rulesbook-edition/1, record}``, where
``record`` is every field of the edition record except ``signature`` (title,
date, description, base, previous, ballot, seal, adopted...). The chain's
``previous`` protects every record but the newest; this signature protects the
newest one too (and every other), so a hand edit of any field is seen without a
later record.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias

from .canonical import canonical_json
from .keys import SigningKey, verify_signature
from .registry import CLOSERS, Registry

EDITION_CONTEXT = "rulesbook-edition/1"
SIGNED_FIELDS = ("signed_by", "signed_at", "key", "signature")


#: plain JSON data: what :func:`plain` returns and the canonical form signs
Json: TypeAlias = "dict[str, Json] | list[Json] | str | int | float | bool | None"


def plain(obj: object) -> Json:
    """Plain JSON data of a YAML value (a date read as a date becomes its text)."""
    if isinstance(obj, dict):
        return {str(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    return str(obj)


def edition_message(record: Mapping[str, object]) -> bytes:
    body = {str(k): v for k, v in record.items() if k != "signature"}
    return canonical_json({"context": EDITION_CONTEXT, "record": plain(body)})


def signer_problem(registry: Registry, member: str, key: str, at: str,
                   doing: str = "adopts an edition") -> str | None:
    """Why ``member`` (with ``key``) cannot sign at ``at`` what only the chair or the
    secretary signs (``doing``: an edition by default; None: they can)."""
    why = registry.key_problem(member, key, at)
    if why:
        return why
    role = registry.role_at(member, at)
    if role not in CLOSERS:
        return (f"only the chair or the secretary {doing} (members.yaml gives "
                f"{member} the role {role!r} at {at})")
    return None


def sign_edition(record: Mapping[str, object], signer: SigningKey,
                 at: str) -> dict[str, object]:
    """``record`` with the adopter's signature fields added (last)."""
    body = {k: v for k, v in record.items() if k not in SIGNED_FIELDS}
    body.update({"signed_by": signer.member, "signed_at": at, "key": signer.public})
    return {**body, "signature": signer.sign(edition_message(body))}


@dataclass(frozen=True)
class EditionSignatureCheck:
    ok: bool
    field: str  # the field of the record a problem is reported at
    message: str = ""


def check_edition_signature(record: Mapping[str, object],
                            registry: Registry) -> EditionSignatureCheck:
    eid = record.get("id")
    missing = [f for f in SIGNED_FIELDS if not isinstance(record.get(f), str)
               or not record.get(f)]
    if missing:
        return EditionSignatureCheck(False, "id", f"edition {eid!r} carries no signature of "
                                     f"the chair or secretary who adopted it (missing "
                                     f"{', '.join(missing)}): it was not written by `ballot "
                                     f"adopt`, or its signature was cut")
    member, key, at, signature = (str(record[f]) for f in
                                  ("signed_by", "key", "signed_at", "signature"))
    if not verify_signature(key, edition_message(record), signature):
        return EditionSignatureCheck(False, "signature", f"the record of edition {eid!r} was "
                                     f"changed by hand after {member} signed it (its title, "
                                     f"date, description or another field no longer matches "
                                     f"the signature)")
    why = signer_problem(registry, member, key, at)
    if why:
        return EditionSignatureCheck(False, "signed_by", f"edition {eid!r} is signed by "
                                     f"{member}, who cannot sign it: {why}")
    return EditionSignatureCheck(True, "signature")
