"""Member commands: keys and roles (``rulesbook member keygen|import-key|role|revoke|list``).

Private keys go to the user's configuration folder (``$RULESBOOK_CONFIG``), never
into the rules folder; the public key and every change of role are signed
statements in ``members.yaml`` (:mod:`rulesbook.ballots.registry`). Exit codes: 0
done, 2 any error (one line on stderr). Nothing printed ever shows a private key.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TypedDict

from ..ballots import (
    ROLES,
    BallotError,
    SigningKey,
    append_statement,
    generate_key,
    load_registry,
)
from ..ballots.keys import fingerprint
from ..ballots.registry import import_member_key, now_utc, register_key
from ..datafolder import resolve_data_dir
from ..errors import RulesbookError
from ..textio import read_bytes, visible_controls
from .common import Handler, Subparsers, fail, help_of, member_ids, member_names, print_json
from .keyfiles import KEY_FILE_BYTES, read_passphrase
from .keyfiles import open_key as open_key  # re-exported: ballot_cmds imports it from here


def _root(args: argparse.Namespace) -> Path:
    return resolve_data_dir(args.data)


def _known_member(root: Path, member: str) -> None:
    ids = member_ids(root)
    if member not in ids or member == "unknown":
        raise BallotError(f"no member {member!r} in {root / 'members.yaml'} "
                          f"(members: {', '.join(i for i in ids if i != 'unknown')})")


def _guard(handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except (RulesbookError, OSError) as exc:
            return fail(str(exc).replace("\n", " "))
    return run


def cmd_keygen(args: argparse.Namespace) -> int:
    root = _root(args)
    _known_member(root, args.member)
    signer, path = generate_key(args.member, read_passphrase(args.passphrase_file),
                                rules_folder=root)
    return _register(root, signer, path, "created")


def cmd_import_key(args: argparse.Namespace) -> int:
    root = _root(args)
    _known_member(root, args.member)
    pem = read_bytes(args.key_file, max_bytes=KEY_FILE_BYTES, what="a key file")
    passphrase = read_passphrase(args.passphrase_file)
    signer, path = import_member_key(root, args.member, pem, passphrase)
    if load_registry(root).key_problem(args.member, signer.public) is None:
        print(f"member {args.member}: key {signer.fingerprint} stored in {path}")
        return 0
    return _register(root, signer, path, "imported")


def _register(root: Path, signer: SigningKey, path: Path, what: str) -> int:
    registry = register_key(root, signer)
    note = "" if registry.key_problem(signer.member, signer.public) is None else (
        f"; it counts once the chair confirms it (`rulesbook member role {signer.member} "
        f"{registry.role_at(signer.member)}` signed by {registry.chair})")
    print(f"member {signer.member}: key {signer.fingerprint} {what}; private key in {path} "
          f"(mode 0600), public key in {root / 'members.yaml'}{note}")
    return 0


def cmd_role(args: argparse.Namespace) -> int:
    root = _root(args)
    _known_member(root, args.member)
    registry = load_registry(root)
    key = registry.registered_key(args.member)
    if not key:
        raise BallotError(f"member {args.member} has no key yet: run `rulesbook member keygen "
                          f"--member {args.member}` first")
    by = registry.chair or args.member
    signer = open_key(registry, by, args.passphrase_file)
    append_statement(root, {"op": "role", "member": args.member, "role": args.role,
                            "key": key, "at": now_utc()}, signer)
    print(f"member {args.member} is now {args.role} (signed by {by})")
    return 0


def cmd_revoke(args: argparse.Namespace) -> int:
    root = _root(args)
    registry = load_registry(root)
    key = args.key or registry.registered_key(args.member)
    if not key:
        raise BallotError(f"member {args.member} has no key to revoke")
    if not registry.chair:
        raise BallotError("there is no chair to sign the revocation")
    by = args.signer or registry.chair
    signer = open_key(registry, by, args.passphrase_file)
    append_statement(root, {"op": "revoke", "member": args.member, "key": key,
                                           "at": now_utc()}, signer)
    print(f"member {args.member}: key {fingerprint(key)} revoked (signed by {by})")
    return 0


class KeyJson(TypedDict):
    member: str
    key: str
    fingerprint: str
    role: str
    confirmed: bool
    revoked_at: str | None


class KeysJson(TypedDict):
    """``rulesbook member list --json``: the registry's keys, as members.yaml states them."""

    chair: str | None
    keys: list[KeyJson]
    problems: list[str]


def cmd_list(args: argparse.Namespace) -> int:
    registry = load_registry(_root(args))
    rows: list[KeyJson] = [{"member": k.member, "key": k.key, "fingerprint": fingerprint(k.key),
             "role": registry.role_at(k.member), "confirmed": bool(k.endorsed_at),
             "revoked_at": k.revoked_at} for k in registry.keys]
    if args.json:
        listed: KeysJson = {"chair": registry.chair, "keys": rows,
                            "problems": [str(p) for p in registry.problems]}
        print_json(listed)
    else:
        try:
            names = member_names(_root(args))
        except RulesbookError:
            names = {}  # the registry's problems say what is wrong with the file
        for r in rows:
            state = "revoked" if r["revoked_at"] else ("confirmed" if r["confirmed"]
                                                        else "awaiting the chair")
            # the name last and its bidi controls as codes (<U+202E>): a name cannot
            # reorder the columns of the line in a terminal
            name = names.get(r["member"], "")
            print(visible_controls(f"{r['member']}  {r['role']:<9}  {r['fingerprint']}  "
                                   f"{state}" + (f"  {name}" if name else "")))
        for p in registry.problems:
            print(visible_controls(str(p)), file=sys.stderr)
    return 1 if registry.problems else 0


def register(sub: Subparsers) -> None:
    member = sub.add_parser("member", help="members' signing keys and roles")
    msub = member.add_subparsers(dest="member_command", metavar="ACTION")
    member.set_defaults(func=help_of(member))

    from .proposal_cmds import register_member_add

    register_member_add(msub)

    p = msub.add_parser("keygen", help="create a member's signing key")
    p.add_argument("--member", required=True, metavar="L")
    p.add_argument("--passphrase-file", metavar="F", help="protect the key with the "
                   "passphrase on the first line of F")
    p.set_defaults(func=_guard(cmd_keygen))

    p = msub.add_parser("import-key", help="store an existing private key (PEM) of a member")
    p.add_argument("key_file", metavar="KEY.pem")
    p.add_argument("--member", required=True, metavar="L")
    p.add_argument("--passphrase-file", metavar="F")
    p.set_defaults(func=_guard(cmd_import_key))

    p = msub.add_parser("role", help="give a member a role (signed by the chair)")
    p.add_argument("member", metavar="L")
    p.add_argument("role", choices=ROLES)
    p.add_argument("--passphrase-file", metavar="F", help="passphrase of the signer's key")
    p.set_defaults(func=_guard(cmd_role))

    p = msub.add_parser("revoke", help="revoke a lost or stolen key (signed by the chair)")
    p.add_argument("member", metavar="L")
    p.add_argument("--key", help="the public key to revoke (default: the member's newest)")
    p.add_argument("--as", dest="signer", metavar="S", help="sign as S: the chair (default), "
                   "or a secretary revoking the chair's lost key")
    p.add_argument("--passphrase-file", metavar="F", help="passphrase of the signer's key")
    p.set_defaults(func=_guard(cmd_revoke))

    p = msub.add_parser("list", help="keys and roles in members.yaml")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_guard(cmd_list))
