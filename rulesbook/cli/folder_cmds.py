"""Rules-folder commands: where, init, history, clone, sync.

Exit codes: 0 done; 2 any error, including a sync stopped by a conflict or by a
merge that would not validate (one readable message on stderr).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from ..datafolder import resolve_data_dir
from ..datapath import ENV_VAR, user_rules_dir
from ..loading import load_library
from ..rulesfolder.errors import ConflictJson, Resolution, RulesFolderError, Side, SyncConflict

if TYPE_CHECKING:  # dulwich is imported by the commands that use the folder's history
    from ..rulesfolder.credentials import Login, LoginRequest
    from ..rulesfolder.sync import Progress
from .common import Subparsers, fail, guarded, print_json


class WhereJson(TypedDict):
    """``rulesbook where --json``."""

    folder: str
    chosen_by: str  # "--data" | "RULESBOOK_DATA" | "user"
    versioned: bool
    user_folder: str
    origin: str | None  # the remote a plain sync uses, never with a password


class SyncConflictJson(TypedDict):
    """``rulesbook sync --json`` when the sync stopped on conflicting records."""

    conflict: list[ConflictJson]
    remote_ref: str


def _progress(args: argparse.Namespace) -> Progress | None:
    if getattr(args, "json", False) or getattr(args, "quiet", False):
        return None
    return lambda message: print(f"  {message}", file=sys.stderr)


def cmd_where(args: argparse.Namespace) -> int:
    folder = resolve_data_dir(args.data)
    versioned = (folder / ".git").is_dir()
    origin = None
    if versioned:  # dulwich only for a versioned folder
        from ..rulesfolder.sync import origin_url

        origin = origin_url(folder)
    if args.json:
        source = "--data" if args.data else ENV_VAR if os.environ.get(ENV_VAR) else "user"
        where: WhereJson = {"folder": str(folder), "chosen_by": source,
                            "versioned": versioned, "user_folder": str(user_rules_dir()),
                            "origin": origin}
        print_json(where)
    else:
        print(folder)  # alone on stdout: `cd "$(rulesbook where)"` keeps working
        if versioned:
            print(f"origin: {origin or 'none (share it with `rulesbook sync --remote URL`)'}",
                  file=sys.stderr)
    return 0


def cmd_init(args: argparse.Namespace) -> int:
    from ..rulesfolder import init_folder

    commit = init_folder(args.dir, args.source)
    print(f"{Path(args.dir).expanduser().resolve()}: rules folder created from "
          f"{args.source or 'the bundled seed data'} (commit {commit.decode()[:10]})")
    return 0


class _TerminalAsk:
    """The CLI's way of asking for a login (:func:`credentials.terminal_ask`), noting
    whether a login was typed (then :func:`_say_how_login_is_kept`)."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, request: LoginRequest) -> Login | None:
        from ..rulesfolder.credentials import terminal_ask

        login = terminal_ask(request)
        self.asked = self.asked or login is not None
        return login


def _say_how_login_is_kept(args: argparse.Namespace, given: str | None, used: str,
                           ask: _TerminalAsk) -> None:
    """After a clone or sync given a login (in the address ``given``, or typed): how
    it is remembered for the next sync, on stderr; a warning, even with --quiet or
    --json, when it is not."""
    from ..rulesfolder.credentials import how_login_is_kept, is_http, split_login

    if not is_http(used) or not (ask.asked or (given and split_login(given)[2] is not None)):
        return
    keeping = how_login_is_kept(used)
    if not keeping.kept or _progress(args) is not None:
        print(keeping.text, file=sys.stderr)


def cmd_clone(args: argparse.Namespace) -> int:
    from ..rulesfolder import clone
    from ..rulesfolder.transport import shown

    ask = _TerminalAsk()
    target = clone(args.url, args.dir, _progress(args), ask)
    print(f"{target}: cloned from {shown(args.url)}")
    _say_how_login_is_kept(args, args.url, shown(args.url), ask)
    return 0


def _resolution(take: list[str] | None) -> Resolution | None:
    if not take:
        return None
    side, *records = take
    try:
        return Resolution(Side(side.lower()), tuple(records))
    except ValueError:
        raise RulesFolderError(f"--take keeps 'theirs' (the remote's version) or 'mine' "
                               f"(this folder's), then the records to keep it for (none: "
                               f"every conflicting record), not {side!r}") from None


def cmd_sync(args: argparse.Namespace) -> int:
    from ..rulesfolder import sync

    folder = resolve_data_dir(args.data)
    take = _resolution(args.take)
    ask = _TerminalAsk()
    try:
        result = sync(folder, args.remote, _progress(args), take, ask, args.restore_remote)
    except SyncConflict as exc:
        if args.json:
            stopped: SyncConflictJson = {"conflict": [r.to_dict() for r in exc.records],
                                         "remote_ref": exc.remote_ref}
            print_json(stopped)
        return fail(str(exc))
    if result.not_shared and not args.json:
        print(f"not shared (only the rules data files are synced; these stay on this "
              f"computer): {', '.join(result.not_shared)}", file=sys.stderr)
    if result.origin_set and not args.json:
        if result.previous_origin == result.remote:  # shown without their user names
            print(f"origin is still {result.remote}, with another user name",
                  file=sys.stderr)
        else:
            print(f"origin is now {result.remote}" + (f" (it was {result.previous_origin})"
                                                       if result.previous_origin else ""),
                  file=sys.stderr)
    if args.json:
        print_json(result.to_dict())
    elif args.restore_remote:
        print(f"{folder}: {result.remote} restored to this folder's history ("
              f"{result.replaced} commit(s) of the remote's replaced, {result.pushed} sent)")
    elif result.up_to_date:
        print(f"{folder}: up to date with {result.remote}")
    else:
        parts = []
        if result.committed_edits:
            parts.append(f"committed hand edits to {', '.join(result.committed_edits)}")
        if result.fetched:
            parts.append(f"received {result.fetched} change(s)"
                         + (" (merged)" if result.merged else ""))
        if result.pushed:
            parts.append(f"sent {result.pushed} change(s)")
        print(f"{folder}: synced with {result.remote}: " + "; ".join(parts))
    if not args.json:
        for dropped in result.dropped:
            print(f"  {dropped}")
        for note in result.relettered:
            print(f"  {note}")
    _say_how_login_is_kept(args, args.remote, result.remote, ask)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from ..rulesfolder.serve import (
        ServeOptions,
        init_bare,
        make_http_server,
        open_served,
        server_url,
    )
    from ..rulesfolder.serve_auth import AccessList

    if args.create:
        init_bare(args.dir)
    if args.add_member or args.revoke_member:
        open_served(args.dir).close()
        access = AccessList(Path(args.dir))
        if args.revoke_member:
            access.revoke(args.revoke_member)
            print(f"{args.revoke_member}: token revoked (a running server refuses it from "
                  f"its next request)")
        if args.add_member:
            new = access.add(args.add_member)
            if args.json:
                print_json(new.to_dict())
            else:
                print(f"{new.member}: access token {new.token}\n(shown once: give it to "
                      f"{new.member}, who uses it as the password; a new --add-member "
                      f"replaces it)")
            if new.replaced:
                print(f"the token {new.member} had before no longer works", file=sys.stderr)
        return 0
    options = ServeOptions(args.host, args.port, args.public_read, args.cert, args.key)
    server, repo = make_http_server(args.dir, options=options)
    members = AccessList(Path(args.dir)).members()
    if not members:
        print(f"no member has an access token yet, so every request is refused"
              f"{' but reading' if args.public_read else ''}: give one with `rulesbook "
              f"serve {args.dir} --add-member LOGIN`", file=sys.stderr)
    print(f"serving {args.dir} at {server_url(server)} (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        repo.close()
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from ..rulesfolder.history import edition_history, record_history

    if args.edition and args.ref:
        return fail(f"history takes a rule or proposal ({args.ref}) or --edition "
                    f"{args.edition}, not both: `history {args.ref}` lists what changed it, "
                    f"`history --edition {args.edition}` what that edition changed")
    library = load_library(resolve_data_dir(args.data))
    if args.edition:
        history = edition_history(library.root, library, args.edition)
        if args.json:
            print_json(history.to_dict())
            return 0
        print(f"edition {history.edition}: {history.title} (base {history.base or '—'}"
              + (f", ballot {history.ballot}" if history.ballot else "") + ")")
        if history.commit:
            c = history.commit
            print(f"  published {c.date[:10]} by {c.author} in {c.commit[:10]}: {c.message}")
        for change in history.changes:
            how = f" by {change.proposal}" if change.proposal else ""
            print(f"  {change.ref} {change.status}{how}"
                  + (f" (ballot {change.ballot}, question {change.question})"
                     if change.question else ""))
        return 0
    if not args.ref:
        return fail("history takes a rule or proposal (e.g. apca:28) or --edition ID")
    if not (library.root / ".git").is_dir():
        raise RulesFolderError(f"{library.root} is not versioned; make a rules folder of it "
                               f"with `rulesbook init DIR --from {library.root}`")
    entries = record_history(library.root, library, args.ref)
    if args.json:
        print_json([e.to_dict() for e in entries])
        return 0
    ref = library.resolve(args.ref).ref
    if not entries:
        print(f"{ref}: no commit changed it")
    for e in entries:
        extra = "".join(f", {k} {v}" for k, v in (("edition", e.edition), ("ballot", e.ballot))
                        if v)
        print(f"{e.date[:10]}  {e.commit[:10]}  {e.change:8} {e.author}: {e.message}"
              + (f" [{extra[2:]}]" if extra else ""))
    return 0


def register(sub: Subparsers) -> None:
    p = sub.add_parser("where", help="print the rules folder in use")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=guarded(cmd_where))

    p = sub.add_parser("init", help="create a rules folder (a git repository) with a "
                                    "first commit")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--from", dest="source", metavar="DIR",
                   help="data folder to start from (default: the bundled seed data)")
    p.set_defaults(func=guarded(cmd_init))

    p = sub.add_parser("history", help="the commits and editions that changed a rule or "
                                       "proposal, or what an edition changed")
    p.add_argument("ref", nargs="?", metavar="REF")
    p.add_argument("--edition", metavar="ID")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=guarded(cmd_history))

    p = sub.add_parser("clone", help="clone the committee's shared rules folder")
    p.add_argument("url", metavar="URL")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=guarded(cmd_clone))

    p = sub.add_parser("serve", help="serve a shared (bare) repository over HTTP(S) to the "
                                     "members who have an access token")
    p.add_argument("dir", metavar="DIR", help="the shared (bare) repository")
    p.add_argument("--create", action="store_true", help="create it first (empty)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: "
                                                        "127.0.0.1; 0.0.0.0 for all)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--add-member", metavar="LOGIN",
                   help="make an access token for LOGIN, print it once, and stop")
    p.add_argument("--revoke-member", metavar="LOGIN", help="revoke LOGIN's token and stop")
    p.add_argument("--json", action="store_true",
                   help='with --add-member: print {"member": LOGIN, "token": TOKEN}')
    p.add_argument("--public-read", action="store_true",
                   help="anyone may clone and fetch; pushing still needs a token")
    p.add_argument("--cert", metavar="FILE", help="serve HTTPS with this certificate (PEM)")
    p.add_argument("--key", metavar="FILE", help="the certificate's private key (PEM)")
    p.set_defaults(func=guarded(cmd_serve))

    p = sub.add_parser("sync", help="fetch, merge, validate and push the rules folder")
    p.add_argument("--remote", metavar="NAME|URL",
                   help="remote name or URL (default: origin; a URL given the first time "
                        "is remembered as origin)")
    p.add_argument("--take", nargs="+", metavar=("theirs|mine", "RECORD"),
                   help="settle a conflict: keep the remote's version (theirs) or this "
                        "folder's (mine) of the named records (as the conflict names them, "
                        "e.g. 'votes[member=D, question=10]'; none: every conflicting record)")
    p.add_argument("--restore-remote", action="store_true",
                   help="replace the remote's main with this folder's valid history (when "
                        "the remote holds a commit that does not validate, or its history "
                        "was rewritten); the remote must let you push it")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=guarded(cmd_sync))
