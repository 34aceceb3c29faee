"""Who holds which key and which role: the signed ``registry`` of ``members.yaml``.

``members.yaml`` ends with a list of statements, each signed, applied in order:

* ``{op: key, member: B, key: ed25519:..., at, by: B, signature}``: B registers a
  public key, signed with that very key (B holds the private key). Before any
  chair exists the key counts at once; afterwards it counts from the chair's
  next ``role`` statement for B, which names it (so nobody can slip in a key
  for a member who has one, or for one who never made one).
* ``{op: role, member: B, role: secretary, key: B's key, at, by: A, signature}``:
  signed by the chair (A). The first chair names themself (there is no chair
  to sign yet). Naming another chair hands the chair over.
* ``{op: revoke, member: B, key: ..., at, by: A, signature}``: signed by the chair;
  the key signs nothing valid dated after ``at`` (a lost or stolen key). The
  chair's own key may also be revoked by a secretary (a chair who lost it); the
  chair is then vacant until the next ``role: chair`` statement, which its new
  holder signs.

Every statement that does not verify is a problem at its ``file:line`` and is not
applied. Times are ISO-8601 UTC (``2026-03-02T12:00:00Z``) and never go back.

**The hash chain.** Each statement names the one before it: ``prev:
sha256:<SHA-256 of the canonical JSON of the previous statement, signature
included>``, under its own signature, so a statement cannot be slipped in above
others (its successor would no longer name its predecessor). Two clones that
append at once both name the last statement they shared; the merge keeps both
(in time order, whichever side merges), so a ``prev`` may name any statement above
it, and :mod:`rulesbook.rulesfolder.record_checks` refuses at ``sync`` (and
``rulesbook serve`` at a push) a new statement that names one older than the last
statement already shared, unless the history shows the fork: the commit that first
holds it has a parent whose registry ends with the statement it names (two clones
at once). A new statement signed with a key whose revocation was shared is refused
whatever its history. Migration: a registry written before the chain began (no ``prev`` on any
statement) is read as it is. A statement without ``prev`` was appended to an empty
registry: the first one, or the first made on a clone before any statement was
shared (members who each made their key at once), kept in time order when merged,
below chained ones too; a sync and ``serve`` refuse one whose history does not show
it so (the commit that first holds it has a parent whose registry is empty).

**Before the first chair.** A key made while there is no chair counts at once, and
a member may name their own role; the statement that names the first chair lists
the statements the chair had (``seen:``, the digest of each, under its signature):
from it on, a key or role made before it counts only if it is among them (a key
made meanwhile on another clone, or dated back on a clone rewound to an empty
registry, waits for the chair's confirmation; such a role is not held). A registry
whose first chair statement has no ``seen:`` (written before) is read as it was.

**Times.** A key signs nothing valid dated before its registration (its ``key``
statement) or at or after its revocation (:meth:`Registry.key_problem`).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..errors import DataFileError, Problem
from ..storage import atomic_write_text, file_lock
from ..yamlio import LoadedYaml, dump_text, load_file, loads
from .canonical import canonical_json
from .keys import SigningKey, import_key, public_of_pem, verify_signature
from .model import BallotError

ROLES = ("chair", "secretary", "member")
CLOSERS = ("chair", "secretary")
CONTEXT = "rulesbook-members/1"


def now_utc() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def statement_message(statement: dict[str, Any]) -> bytes:
    body = {k: v for k, v in statement.items() if k != "signature"}
    return canonical_json({"context": CONTEXT, **body})


def statement_digest(statement: object) -> str:
    """What the next statement's ``prev`` names: ``sha256:`` and the SHA-256 of the
    canonical JSON of the whole statement (its signature included)."""
    try:
        raw = canonical_json(statement)
    except (TypeError, ValueError):  # not plain data (a hand edit): names nothing
        raw = repr(statement).encode("utf-8", "replace")
    return "sha256:" + hashlib.sha256(raw).hexdigest()


@dataclass(frozen=True)
class KeyRecord:
    member: str
    key: str
    registered_at: str
    endorsed_at: str | None = None  # when it began to count
    revoked_at: str | None = None


@dataclass(frozen=True)
class RoleRecord:
    member: str
    role: str
    at: str


@dataclass(frozen=True)
class Registry:
    """The result of applying the statements: keys, roles over time, problems."""

    keys: tuple[KeyRecord, ...] = ()
    roles: tuple[RoleRecord, ...] = ()
    problems: tuple[Problem, ...] = ()
    chair: str | None = None
    statements: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    #: the records of each key, in order (built from ``keys``)
    _by_key: dict[str, list[KeyRecord]] = field(init=False, repr=False, compare=False,
                                                hash=False)

    def __post_init__(self) -> None:
        by_key: dict[str, list[KeyRecord]] = {}
        for record in self.keys:
            by_key.setdefault(record.key, []).append(record)
        object.__setattr__(self, "_by_key", by_key)  # frozen: how a derived field is set

    def key_of(self, member: str) -> str | None:
        """The member's key that counts now (the newest endorsed, not revoked)."""
        good = [k for k in self.keys if k.member == member and k.endorsed_at
                and not k.revoked_at]
        return good[-1].key if good else None

    def signing_key(self, member: str) -> str | None:
        """The key ``member`` signs with: the confirmed one, else the newest pending."""
        return self.key_of(member) or self.registered_key(member)

    def registered_key(self, member: str) -> str | None:
        """The member's newest key that is not revoked, endorsed or not."""
        good = [k for k in self.keys if k.member == member and not k.revoked_at]
        return good[-1].key if good else None

    def key_problem(self, member: str, key: str, at: str | None = None) -> str | None:
        """Why ``key`` cannot sign for ``member`` at ``at`` (None: it can)."""
        records = self._by_key.get(key, [])
        if not records:
            return f"the key {key[:20]}… is not registered in members.yaml"
        mine = [k for k in records if k.member == member]
        if not mine:
            return (f"the signature is by {records[0].member}'s key, not by a key of "
                    f"member {member}")
        record = mine[-1]
        if at is not None and at < record.registered_at:
            return (f"the signature is dated {at}, before the key of member {member} was "
                    f"registered ({record.registered_at}): a key signs nothing dated "
                    f"before it existed")
        if not record.endorsed_at:
            return (f"the key of member {member} was never confirmed by the chair "
                    f"(a `rulesbook member role {member} ...` statement)")
        if record.revoked_at and (at is None or at >= record.revoked_at):
            return f"the key of member {member} was revoked at {record.revoked_at}"
        return None

    def owner_of(self, key: str, other_than: str | None = None) -> str | None:
        """The member (other than ``other_than``) who registered ``key``, if any."""
        records = self._by_key.get(key, [])
        return next((r.member for r in records if r.member != other_than), None)

    def refuse_shared_key(self, member: str, key: str) -> None:
        """BallotError when ``key`` is registered to a member other than ``member``."""
        owner = self.owner_of(key, other_than=member)
        if owner is not None:
            raise BallotError(shared_key_message(member, owner, key))

    def role_at(self, member: str, at: str | None = None) -> str:
        role = "member"
        for r in self.roles:
            if r.member == member and (at is None or r.at <= at):
                role = r.role
        return role


def shared_key_message(member: str, owner: str, key: str) -> str:
    return (f"the key {key[:20]}… is already registered to member {owner}: it cannot also be "
            f"member {member}'s (one key signs for one member; {member} needs a key of "
            f"their own, `rulesbook member keygen --member {member}`)")


def build_registry(statements: list[Any],
                   doc: LoadedYaml | None = None) -> Registry:
    """Apply the statements in order (see the module docstring)."""
    problems: list[Problem] = []
    keys: list[KeyRecord] = []
    roles: list[RoleRecord] = []
    chair: tuple[str, str] | None = None
    owners: dict[str, str] = {}  # public key -> the member who registered it
    last_at = ""
    seen: set[str] = set()  # the digests of the statements above (the hash chain)
    chained = False  # a statement above carries ``prev``: every one below must

    def bad(i: int, key: str, message: str) -> None:
        if doc is not None:
            problems.append(doc.problem(("registry", i, key), message))
        else:
            problems.append(Problem("members.yaml", 0, 0, f"statement {i + 1}: {message}"))

    first: dict[tuple[object, object], int] = {}  # (member, key) -> its record in keys
    # the keys and roles that counted before there was a chair: index -> statement digest
    early_keys: dict[int, str] = {}
    early_roles: dict[int, str] = {}

    def find(member: str, key: str) -> int | None:
        try:  # one look-up, not a search of every key: 1,000 members stay linear
            return first.get((member, key))
        except TypeError:  # a hand-edited key that is not text: it was never recorded
            return None

    for i, st in enumerate(statements):
        op, member, key, at = st.get("op"), st.get("member"), st.get("key"), st.get("at", "")
        by, signature = st.get("by"), st.get("signature", "")
        digest, prev = statement_digest(st), st.get("prev")
        link = _chain_problem(i, prev, seen, chained)
        seen.add(digest)
        chained = chained or prev is not None
        if link:
            bad(i, "prev" if prev is not None else "op", link)
            continue
        if at < last_at:
            bad(i, "at", f"this statement is dated {at}, before the one above it ({last_at}): "
                         f"statements are never back-dated or moved")
            continue
        if chair is None or op == "key":
            signer_key, expected_by = key, member
        else:
            signer_key, expected_by = chair[1], chair[0]
        if op == "revoke" and chair is not None and chair == (member, key) and by != chair[0]:
            # a lost chair key: a secretary may revoke it (the chair is then vacant)
            role = next((r.role for r in reversed(roles) if r.member == by), "member")
            mine = [k for k in keys if k.member == by and k.endorsed_at and not k.revoked_at]
            if role == "secretary" and mine:
                signer_key, expected_by = mine[-1].key, by
        if by != expected_by:
            who = ("the member themself" if op == "key" or chair is None
                   else f"the chair ({chair[0]})")
            bad(i, "by", f"this {op} statement must be signed by {who}, not by {by!r}")
            continue
        if not verify_signature(signer_key, statement_message(st), signature):
            bad(i, "signature", f"the signature of this {op} statement for member {member} "
                                f"does not verify (the statement was changed after it was "
                                f"signed, or forged)")
            continue
        n = find(member, key)
        if op == "key":
            if n is not None:
                bad(i, "key", f"member {member} already registered this key")
                continue
            owner = owners.get(key)
            if owner is not None and owner != member:
                bad(i, "key", shared_key_message(member, owner, key))
                continue
            owners[key] = member
            first.setdefault((member, key), len(keys))
            keys.append(KeyRecord(member, key, at, endorsed_at=at if chair is None else None))
            if chair is None:
                early_keys[len(keys) - 1] = digest
        elif op == "role":
            if n is None:
                bad(i, "key", f"member {member} has not registered this key (an `op: key` "
                              f"statement must come first)")
                continue
            if chair is not None and chair[0] == member and st.get("role") != "chair":
                bad(i, "role", "the chair hands over by naming another chair, not by "
                               "stepping down")
                continue
            if chair is None and st.get("role") == "chair" and isinstance(st.get("seen"), list):
                roles = _seen_by_the_first_chair(keys, roles, early_keys, early_roles,
                                                 {*map(str, st["seen"]), digest})
            old = keys[n]
            if not old.endorsed_at:
                keys[n] = KeyRecord(old.member, old.key, old.registered_at, at, old.revoked_at)
            if chair is None:
                early_roles[len(roles)] = digest
            if st.get("role") == "chair":
                if chair is not None and chair[0] != member:
                    roles.append(RoleRecord(chair[0], "member", at))
                chair = (member, key)
            roles.append(RoleRecord(member, st.get("role", "member"), at))
        elif op == "revoke":
            if n is None:
                bad(i, "key", f"member {member} has no such key to revoke")
                continue
            old = keys[n]
            keys[n] = KeyRecord(old.member, old.key, old.registered_at, old.endorsed_at, at)
            if chair is not None and chair == (member, key):
                chair = None  # the committee names a new chair (threat model)
        last_at = at
    return Registry(tuple(keys), tuple(roles), tuple(problems),
                    chair[0] if chair else None, tuple(statements))


def _seen_by_the_first_chair(keys: list[KeyRecord], roles: list[RoleRecord],
                             early_keys: dict[int, str], early_roles: dict[int, str],
                             seen: set[str]) -> list[RoleRecord]:
    """The first chair's statement lists the statements the chair had (``seen``): a
    key or role that counted before there was a chair counts only if it is among
    them. A key made on another clone (or dated back on a clone rewound to an empty
    registry) then waits for the chair's confirmation; such a role is not held.
    Changes ``keys``; returns the roles kept."""
    for index, made_by in early_keys.items():
        old = keys[index]
        if made_by not in seen and old.endorsed_at == old.registered_at:
            keys[index] = KeyRecord(old.member, old.key, old.registered_at, None,
                                    old.revoked_at)
    kept = [r for j, r in enumerate(roles) if j not in early_roles or early_roles[j] in seen]
    early_keys.clear()
    early_roles.clear()
    return kept


def _chain_problem(i: int, prev: object, seen: set[str], chained: bool) -> str | None:
    """Why statement ``i`` breaks the hash chain (None: it does not)."""
    if prev is None:
        # the first statement, one written before the chain began, or one appended to
        # an empty registry on a clone made before any statement was shared, merged in
        # time order below chained ones: a file cannot tell it from one written in by
        # hand, its history can (a sync and serve refuse one that it does not show
        # appended so: rulesfolder.record_checks)
        return None
    if i == 0:
        return ("the first statement names a statement before it (`prev:`) that is not "
                "in the file: statements above it were removed")
    if prev not in seen:
        return (f"this statement names a previous statement ({str(prev)[:19]}…) that is "
                f"not above it: a statement above was changed, removed or moved")
    return None


def last_digest(statements: list[Any]) -> str | None:
    """The ``prev`` of the next statement appended (None: the registry is empty)."""
    return statement_digest(statements[-1]) if statements else None


def registry_from_doc(doc: LoadedYaml) -> Registry:
    """The registry of a members document, built once per document
    (:meth:`LoadedYaml.derived`: the ballots' and the proposals' checks of one
    ``validate`` share it; a :class:`Registry` is never changed)."""
    return doc.derived(_build_from_doc)


def _build_from_doc(doc: LoadedYaml) -> Registry:
    return build_registry(list(doc.data.get("registry", ())), doc)


def load_registry(root: str | Path) -> Registry:
    """The registry of the ``members.yaml`` of the data folder ``root``."""
    path = Path(root) / "members.yaml"
    try:
        doc = load_file(path, "members.yaml")
    except DataFileError as exc:
        raise BallotError(f"cannot read {path}", [exc.problem]) from None
    if not isinstance(doc.data, dict):
        raise BallotError(f"{path} is not a members file")
    return registry_from_doc(doc)


# -- writing statements ----------------------------------------------------------

def sign_statement(statement: dict[str, Any], signer: SigningKey,
                   prev: str | None = None) -> dict[str, Any]:
    """``statement`` signed by ``signer``; ``prev``: the digest of the statement it
    follows (:func:`append_statement` with a signer fills it in)."""
    body = {**statement, "by": signer.member}
    if prev is not None:
        body["prev"] = prev
    return {**body, "signature": signer.sign(statement_message(body))}


def register_key(root: str | Path, signer: SigningKey) -> Registry:
    """Register ``signer``'s public key in ``members.yaml``: a ``key`` statement signed
    by that key, appended (it counts once the chair confirms it). The registry after."""
    return append_statement(
        root, {"op": "key", "member": signer.member, "key": signer.public, "at": now_utc()},
        signer)


def import_member_key(root: str | Path, member: str, pem: bytes,
                      passphrase: bytes | None) -> tuple[SigningKey, Path]:
    """Store ``member``'s private key (PEM) to sign with, and where it went; refused
    (BallotError) when another member registered that very key."""
    load_registry(root).refuse_shared_key(member, public_of_pem(pem, passphrase))
    return import_key(member, pem, passphrase, rules_folder=Path(root))


def append_statement(root: str | Path, statement: dict[str, Any],
                     signer: SigningKey | None = None) -> Registry:
    """Append a statement to ``members.yaml`` (atomic; comments kept): with ``signer``,
    ``statement`` is the unsigned body, chained to the last statement (``prev``) and
    signed under the file's lock; without, it is already signed as it stands. Refused
    (BallotError, nothing written) when the file would not verify with it."""
    path = Path(root) / "members.yaml"
    with file_lock(path):
        text = path.read_text(encoding="utf-8")
        doc = loads(text, "members.yaml")
        before = registry_from_doc(doc)
        if signer is not None:
            if statement.get("op") == "role" and statement.get("role") == "chair" \
                    and before.chair is None:  # the first chair: what counts without one
                statement = {**statement, "seen": [statement_digest(s)
                                                   for s in before.statements]}
            statement = sign_statement(statement, signer, last_digest(list(before.statements)))
        if not text.endswith("\n"):
            text += "\n"
        if not re.search(r"^registry:\s*$", text, flags=re.MULTILINE):
            text += "registry:\n"
        elif re.search(r"^registry:\s*\n(?:[ #-].*\n|\n)*^[A-Za-z_]", text, flags=re.MULTILINE):
            raise BallotError(f"{path}: `registry:` must be the last key of the file")
        # the statements above are indented as this file has them (a file written by a
        # sync's merge has them at the left margin)
        found = re.search(r"^registry:\s*\n(?:\s*#.*\n|\s*\n)*( *)- ", text, flags=re.MULTILINE)
        indent = found.group(1) if found else "  "
        block = dump_text([statement], width=1000)
        block = "".join(indent + ln if ln.strip() else ln for ln in block.splitlines(True))
        new_text = text + block
        after = registry_from_doc(loads(new_text, "members.yaml"))
        if len(after.problems) > len(before.problems):
            raise BallotError("the statement was refused", list(after.problems)[-1:])
        atomic_write_text(path, new_text)
    return after
