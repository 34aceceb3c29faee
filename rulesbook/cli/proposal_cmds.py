"""Writing the record: ``rulesbook member add``, ``rulesbook propose`` and
``rulesbook proposal edit|withdraw``, each proposal signed by its author (``--member
L``; the secretary acting for the author signs with their own key, recorded as
such). Each is one commit in the rules folder
(:mod:`rulesbook.cli.changes`). Exit codes: 0 written, 2 any error (one line on
stderr, nothing written)."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..ballots import SigningKey, load_registry
from ..datafolder import resolve_data_dir
from ..errors import LibraryError, RulesbookError
from ..loading import load_library
from ..model import PROPOSAL_KINDS
from ..proposing import add_member, edit_proposal, plan_proposal, propose, withdraw_proposal
from ..proposing.core import MAX_TEXT
from ..textio import read_text, visible_controls
from .common import Handler, Subparsers, fail, help_of, print_json


def _guard(handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except LibraryError as exc:
            return fail(f"the data folder is not valid, so nothing was written: {exc}")
        except (RulesbookError, OSError) as exc:
            return fail(str(exc))
    return run


def read_text_arg(args: argparse.Namespace) -> str:
    """The text of ``--text`` or of the file ``--text-file`` (strict UTF-8)."""
    if args.text is not None:
        return str(args.text)
    return read_text(Path(args.text_file), max_bytes=4 * MAX_TEXT, what="the text file",
                     fallback=False, name=args.text_file).text


def cmd_member_add(args: argparse.Namespace) -> int:
    member = add_member(resolve_data_dir(args.data), args.name, args.letter)
    if args.json:
        print_json({"id": member.id, "name": member.name})
    else:
        print(f"member {member.id}: {visible_controls(member.name)}")
    return 0


def _signer(root: Path, member: str, passphrase_file: str | None) -> SigningKey:
    """The key of ``member`` on this computer, to sign a proposal with."""
    from .keyfiles import open_key

    return open_key(load_registry(root), member, passphrase_file)


def cmd_propose(args: argparse.Namespace) -> int:
    root = resolve_data_dir(args.data)
    plan_proposal(load_library(root), member=args.member, rule=args.rule, kind=args.kind,
                  text=read_text_arg(args), title=args.title, concerns=args.concerns or (),
                  topics=args.topic or ())  # a wrong input is named before any key is asked
    draft = propose(root, member=args.member, rule=args.rule,
                    kind=args.kind, text=read_text_arg(args), title=args.title,
                    concerns=args.concerns or (), topics=args.topic or (),
                    signer=_signer(root, args.signer or args.member, args.passphrase_file))
    if args.json:
        print_json(draft.to_json())
    else:
        where = f"filed under {draft.rule}" if draft.rule else f"new text {draft.title!r}"
        print(f"{draft.ref}: {draft.kind} by member {draft.member}, {where}; "
              f"topics {', '.join(draft.topics)}")
    return 0


def cmd_edit(args: argparse.Namespace) -> int:
    root = resolve_data_dir(args.data)
    prop = edit_proposal(root, args.ref, read_text_arg(args),
                         signer=_signer(root, args.member, args.passphrase_file))
    print(f"{prop.ref}: text replaced ({len(prop.text.split())} words)")
    return 0


def cmd_withdraw(args: argparse.Namespace) -> int:
    root = resolve_data_dir(args.data)
    done = withdraw_proposal(root, args.ref, args.reason,
                             signer=_signer(root, args.member, args.passphrase_file))
    print(f"{done.ref}: withdrawn on {done.date}" + (f" ({done.reason})" if done.reason else ""))
    return 0


def _text_options(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--text-file", metavar="F", help="the text, from a UTF-8 file")
    group.add_argument("--text", metavar="T", help="the text itself")


def register_member_add(msub: Subparsers) -> None:
    """``member add`` (called by :mod:`rulesbook.cli.member_cmds`)."""
    p = msub.add_parser("add", help="a new committee member, with the next free letter")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--letter", metavar="L", default=None, help="the member's letter "
                   "(default: the next free one: F, G, ...)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_guard(cmd_member_add))


def register(sub: Subparsers) -> None:
    p = sub.add_parser("propose", help="a member's new proposal against a rule (or new text)")
    p.add_argument("--member", required=True, metavar="L")
    p.add_argument("--rule", metavar="REF", default=None,
                   help="the rule it is filed under (an addition may have none)")
    p.add_argument("--kind", required=True, choices=PROPOSAL_KINDS)
    _text_options(p)
    p.add_argument("--title", metavar="T", default=None,
                   help="a title (needed for an addition not filed under a rule)")
    p.add_argument("--concerns", nargs="+", metavar="REF", default=None,
                   help="the rules it really concerns, when not the one it is filed under")
    p.add_argument("--topic", action="append", metavar="T", default=None,
                   help="a topic (repeat for several; default: suggested from the text)")
    p.add_argument("--as", dest="signer", metavar="S", default=None,
                   help="the secretary S entering it for the member (signs with S's key; "
                   "default: the member signs)")
    p.add_argument("--passphrase-file", metavar="F", help="passphrase of the signer's key")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_guard(cmd_propose))

    proposal = sub.add_parser("proposal", help="edit or withdraw a proposal")
    psub = proposal.add_subparsers(dest="proposal_command", metavar="ACTION")
    proposal.set_defaults(func=help_of(proposal))
    p = psub.add_parser("edit", help="replace the text of a proposal (until a closed "
                        "ballot includes it)")
    p.add_argument("ref", metavar="REF")
    _text_options(p)
    _signer_options(p)
    p.set_defaults(func=_guard(cmd_edit))
    p = psub.add_parser("withdraw", help="withdraw a proposal (it stays in the record)")
    p.add_argument("ref", metavar="REF")
    p.add_argument("--reason", metavar="T", default=None)
    _signer_options(p)
    p.set_defaults(func=_guard(cmd_withdraw))


def _signer_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--member", required=True, metavar="L", help="who signs: the proposal's "
                   "author, or the secretary acting for the author")
    p.add_argument("--passphrase-file", metavar="F", help="passphrase of L's key")
