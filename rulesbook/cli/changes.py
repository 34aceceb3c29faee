"""Which commands change the rules folder, and how each change is described.

Every writing command is listed here, once: ``describe(args)`` gives the path it
writes in, the commit message and the committee member it is by (or None: the
configured user). The command then runs inside one recorded change
(:func:`rulesbook.rulesfolder.recorded_change`).
"""
from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ..datafolder import resolve_data_dir
from ..errors import DataFileError, RulesbookError
from ..loading import load_library
from ..textio import visible_controls
from ..yamlio import load_file
from .common import folder_of, member_ids


class Described(NamedTuple):
    """The change a writing command makes: where, the commit message, who by."""

    where: Path  # the file (or folder) it writes in
    message: str
    member: str | None  # the committee member it is by (None: the configured user)


def _ballot_name(path: str) -> str:
    return Path(path).name.removesuffix(".yaml")


def _member_of(member_file: str) -> str | None:
    """The member a member's copy is by (None when it does not read: the import then
    reports the file's problems itself)."""
    try:
        data = load_file(Path(member_file)).data
    except DataFileError:
        return None
    member = data.get("member") if isinstance(data, dict) else None
    return member if isinstance(member, str) else None


def _new(args: argparse.Namespace) -> Described:
    opener = getattr(args, "opener", None)
    signed = f", settings signed by {opener}" if opener else ", unsigned draft"
    return Described(Path(args.out), f"Ballot {args.id or _ballot_name(args.out)}: new "
                     f"ballot ({args.method}, {args.threshold}{signed})", opener)


def _sign(args: argparse.Namespace) -> Described:
    return Described(Path(args.file), f"Ballot {_ballot_name(args.file)}: settings signed "
                     f"by {args.opener}", args.opener)


def _vote(args: argparse.Namespace) -> Described:
    ranking = ", ".join(args.ranking) if args.ranking else "abstains"
    proxy = getattr(args, "proxy_by", None)
    by = f" (proxy vote entered by {proxy})" if proxy else ""
    return Described(Path(args.file), f"Vote: member {args.member} on question "
                     f"{args.question} in ballot {_ballot_name(args.file)}: {ranking}{by}",
                     proxy or args.member)


def _import(args: argparse.Namespace) -> Described:
    member = _member_of(args.member_file)
    return Described(Path(args.file), f"Import: {Path(args.member_file).name} "
                     f"(member {member or '?'}) into ballot {_ballot_name(args.file)}", member)


def _close(args: argparse.Namespace) -> Described:
    closer = getattr(args, "closer", None)
    return Described(Path(args.file), f"Close ballot {_ballot_name(args.file)}: results "
                     f"stored and sealed" + (f" by {closer}" if closer else ""), closer)


def _members_file(args: argparse.Namespace) -> Path:
    return resolve_data_dir(args.data) / "members.yaml"


def _keygen(args: argparse.Namespace) -> Described:
    return Described(_members_file(args), f"Member {args.member}: new signing key", args.member)


def _import_key(args: argparse.Namespace) -> Described:
    return Described(_members_file(args), f"Member {args.member}: signing key imported",
                     args.member)


def _role(args: argparse.Namespace) -> Described:
    return Described(_members_file(args), f"Member {args.member}: role {args.role}", None)


def _revoke(args: argparse.Namespace) -> Described:
    signer = getattr(args, "signer", None)
    return Described(_members_file(args), f"Member {args.member}: key revoked", signer)


def _adopt(args: argparse.Namespace) -> Described:
    return Described(folder_of(args.file, args.data) / "editions.yaml",
                     f"Adopt ballot {_ballot_name(args.file)} as edition {args.edition}", None)


def _member_add(args: argparse.Namespace) -> Described:
    letter = args.letter
    if not letter:
        try:  # the letter the command will give (its own checks report any problem)
            from ..proposing import plan_member

            letter = plan_member(load_library(resolve_data_dir(args.data)), args.name).id
        except (RulesbookError, OSError):
            letter = None
    return Described(_members_file(args), f"Member {letter or '?'}: "
                     f"{args.name.strip()[:80]} joins the committee", None)


def _propose(args: argparse.Namespace) -> Described:
    root = resolve_data_dir(args.data)
    what = f"{args.kind} for {args.rule}" if args.rule else f"{args.kind} {args.title or ''}"
    ref = ""
    try:  # the id the command will give (its own checks report any problem)
        from ..proposing import home_book, next_proposal_id

        library = load_library(root)
        rule = library.resolve(args.rule) if args.rule else None
        book = home_book(library)
        ref = next_proposal_id(library, book, rule.id if rule else None, args.member) + " "
    except (RulesbookError, OSError):
        pass
    acting = getattr(args, "signer", None)
    entered = (f" (entered by secretary {acting} for member {args.member})"
               if acting and acting != args.member else "")
    return Described(root, f"Proposal {ref}by member {args.member}: {what.strip()[:120]}"
                     f"{entered}", _member_or_none(root, args.member))


def _member_or_none(root: Path, member: str) -> str | None:
    """The member a change is by, when ``members.yaml`` knows them (else the command
    reports the unknown member itself)."""
    try:
        ids = member_ids(root)
    except DataFileError:
        return None
    return member if member in ids and member != "unknown" else None


def _signed_by(root: Path, ref: str, member: str) -> str:
    """Who signs a proposal's change, as its commit says: the author, or the secretary
    acting for the author."""
    try:
        author = getattr(load_library(root).resolve(ref), "member", None)
    except (RulesbookError, OSError):
        author = None
    if author and author != member:
        return f" (by secretary {member} for member {author})"
    return f" (by member {member})"


def _proposal_edit(args: argparse.Namespace) -> Described:
    root = resolve_data_dir(args.data)
    return Described(root, f"Proposal {args.ref}: text edited"
                     f"{_signed_by(root, args.ref, args.member)}",
                     _member_or_none(root, args.member))


def _proposal_withdraw(args: argparse.Namespace) -> Described:
    why = f" ({args.reason})" if args.reason else ""
    root = resolve_data_dir(args.data)
    return Described(root, f"Proposal {args.ref}: withdrawn{why}"
                     f"{_signed_by(root, args.ref, args.member)}",
                     _member_or_none(root, args.member))


#: (command, sub-command) -> describe(args)
WRITING_COMMANDS: dict[tuple[str, str | None], Callable[[argparse.Namespace], Described]] = {
    ("ballot", "new"): _new,
    ("ballot", "sign"): _sign,
    ("ballot", "vote"): _vote,
    ("ballot", "import"): _import,
    ("ballot", "close"): _close,
    ("ballot", "adopt"): _adopt,
    ("member", "keygen"): _keygen,
    ("member", "import-key"): _import_key,
    ("member", "role"): _role,
    ("member", "revoke"): _revoke,
    ("member", "add"): _member_add,
    ("propose", None): _propose,
    ("proposal", "edit"): _proposal_edit,
    ("proposal", "withdraw"): _proposal_withdraw,
}


def describe(args: argparse.Namespace) -> Described | None:
    """The change ``args`` will make, or None for a command that writes nothing."""
    command = getattr(args, "command", None)
    if not isinstance(command, str):
        return None
    sub = getattr(args, f"{command}_command", None)
    handler = WRITING_COMMANDS.get((command, sub if isinstance(sub, str) else None))
    if handler is None:
        return None
    described = handler(args)
    # a name or a title in a commit message shows its controls as codes (<U+202E>),
    # as everywhere a name is shown: `git log` never reorders or hides it
    return described._replace(message=visible_controls(described.message))
