"""Ballot commands: new, sign, vote, export, import, tally, close, verify, adopt.

Votes and seals are signed with the members' keys (``rulesbook member keygen``);
the keys and roles are checked against the registry of ``members.yaml`` of the
data folder (``--data``). Exit codes: 0 done; 1 ``verify`` found a failure (or the
ballot is not sealed yet), or ``import`` refused a file whose signature or member does
not match; 2 any other error (a clear message on stderr, never a traceback; ``verify
--json`` prints ``{"ok": false, "failures": [...]}`` on stdout as well).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import TypedDict

from ..ballots import (
    METHODS,
    THRESHOLDS,
    BallotError,
    SignatureError,
    SigningKey,
    UnsealedError,
    adopt_ballot,
    build_ballot,
    check_receipt,
    close_ballot,
    close_file,
    dump_member_ballot,
    export_member_ballot,
    import_file,
    load_ballot,
    load_registry,
    receipt_code,
    save_ballot,
    tally,
    verify_ballot,
    vote_file,
)
from ..ballots.builder import open_ballot
from ..ballots.model import Ballot
from ..ballots.ops import read_sealed_doc, validate_settings
from ..ballots.registry import Registry, now_utc
from ..ballots.roll import default_quorum, quorum_note
from ..ballots.seal import failure_problems
from ..ballots.signing import ReceiptCheck, ReceiptJson
from ..ballots.tally import QuestionResultJson
from ..errors import DataFileError, LibraryError, Problem, RulesbookError
from ..gcpause import cycles_paused
from ..library import Library
from ..loading import load_library
from ..storage import atomic_write_text, file_lock
from .common import Handler, Subparsers, fail, folder_of, guarded, help_of, int_range, one_line
from .member_cmds import open_key


class ProxyJson(TypedDict):
    member: str
    by: str


class TallyJson(QuestionResultJson):
    """One question of ``ballot tally --json``: its result and the proxy votes in it."""

    proxies: list[ProxyJson]


class _VerifyFields(TypedDict):
    ok: bool
    failures: list[str]
    #: the failures where they are: {file, line, col, message}, as ``validate --json``
    problems: list[dict[str, str | int]]
    digest: str | None
    expected: str | None


class VerifyJson(_VerifyFields, total=False):
    """``ballot verify --json`` (``receipt`` only with ``--receipt``)."""

    receipt: ReceiptJson


def _fail(message: str, code: int = 2) -> int:
    return fail(message, code)


def _exit_code(args: argparse.Namespace, exc: Exception) -> int:
    """A vote whose signature does not verify is exit 1 on ``ballot import`` (the
    file was read, the votes refused), 2 everywhere else."""
    if isinstance(exc, SignatureError) and getattr(args, "ballot_command", "") == "import":
        return 1
    return 2


def _guard(handler: Handler) -> Handler:
    return guarded(handler, _exit_code)


def _registry(args: argparse.Namespace) -> Registry:
    return load_registry(folder_of(args.file, args.data))


def cmd_new(args: argparse.Namespace) -> int:
    library = load_library(folder_of(args.out, args.data))
    out = Path(args.out)
    if out.exists() and not args.force:
        return _fail(f"{out} exists; use --force to replace it")
    signer = (open_key(load_registry(library.root), args.opener, args.passphrase_file)
              if args.opener else None)
    ballot = build_ballot(library, args.id or out.stem.removesuffix(".yaml"),
                          title=args.title, method=args.method, threshold=args.threshold,
                          threshold_base=args.threshold_base, quorum=args.quorum,
                          signer=signer)
    save_ballot(out, ballot)
    print(f"{out}: ballot {ballot.id!r} with {len(ballot.questions)} questions, "
          f"roll {', '.join(ballot.roll)}, {ballot.method}/{ballot.threshold}, "
          f"quorum {ballot.quorum}")
    _say_signed(out, ballot)
    return 0


def _say_signed(out: Path, ballot: Ballot) -> None:
    if ballot.opened is None:
        print(f"not signed: it takes no vote until the chair or the secretary signs its "
              f"settings: rulesbook ballot sign {out} --as L")
    else:
        print(f"settings signed by {ballot.opened.by} at {ballot.opened.at}")


def cmd_sign(args: argparse.Namespace) -> int:
    """Sign the settings of a ballot that has no vote yet (a draft, or the seed's)."""
    library = load_library(folder_of(args.file, args.data))
    registry = load_registry(library.root)
    signer = open_key(registry, args.opener, args.passphrase_file)
    with file_lock(args.file):
        draft = load_ballot(args.file)
        if args.quorum is not None:  # the quorum confirmed at signing time
            draft = dataclasses.replace(draft, quorum=args.quorum)
            validate_settings(draft)
        ballot = open_ballot(library, draft, signer)
        save_ballot(args.file, ballot)
    _say_signed(Path(args.file), ballot)
    note = quorum_note(ballot.roll, ballot.quorum, registry)
    if note and args.quorum is None:
        print(f"{note}; to open it with that quorum: rulesbook ballot sign {args.file} "
              f"--as {args.opener} --quorum {default_quorum(ballot.roll, registry)} "
              f"(before the first vote)")
    return 0


def cmd_vote(args: argparse.Namespace) -> int:
    before = load_ballot(args.file)
    question = before.find_question(args.question)  # a clear message before the key
    registry = _registry(args)
    signer = open_key(registry, args.proxy_by or args.member, args.passphrase_file)
    recorded = _recorded_already(before, args, question.id, signer, registry)
    if recorded is not None:
        print(recorded)
        return 0
    ballot = vote_file(args.file, args.member, args.question, args.ranking, signer=signer,
                       proxy_by=args.proxy_by, registry=registry)
    vote = next(v for v in reversed(ballot.votes) if v.member == args.member
                and v.question == ballot.find_question(args.question).id)
    what = ", ".join(vote.ranking) if vote.ranking else "abstains"
    proxy = f" (proxy vote entered by {vote.proxy_by})" if vote.proxy_by else ""
    receipt = receipt_code(vote.signature)
    print(f"{args.member} on {vote.question}: {what}{proxy}; receipt {receipt}")
    return 0


def _recorded_already(ballot: Ballot, args: argparse.Namespace, question: str,
                      signer: SigningKey,
                      registry: Registry) -> str | None:
    """What to say when this very vote is the member's vote already: the same ranking
    signed by the same key (a retry of a vote that was made, e.g. after a kill), so
    that casting it again would only change its time: the ballot is left as it is.
    None: the vote is new, or changes something (a ranking, a key, a proxy)."""
    from ..ballots import cast_vote

    old = next((v for v in ballot.votes if v.member == args.member and v.question == question
                and v.signature and v.at), None)
    if old is None:
        return None
    try:  # the same vote at the old vote's time: Ed25519 signs deterministically
        again = cast_vote(ballot, args.member, args.question, args.ranking, at=old.at,
                          signer=signer, proxy_by=args.proxy_by,
                          registry=registry)
    except RulesbookError:
        return None
    if again.votes != ballot.votes or again.history != ballot.history:
        return None
    what = ", ".join(old.ranking) if old.ranking else "abstains"
    return (f"{args.member} on {question}: {what}; this vote is recorded already "
            f"(receipt {receipt_code(old.signature)}), nothing changed")


def cmd_export(args: argparse.Namespace) -> int:
    registry = _registry(args)
    ballot = load_ballot(args.file)
    signer = open_key(registry, args.member, args.passphrase_file)
    doc, receipt = export_member_ballot(ballot, args.member, signer, now_utc())
    atomic_write_text(args.out, dump_member_ballot(doc))
    print(f"{args.out}: {len(doc['votes'])} vote(s) of member {args.member}, signed; "
          f"receipt {receipt}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    before = load_ballot(args.file)
    ballot = import_file(args.file, args.member_file, _registry(args))
    added = len(ballot.votes) - len(before.votes)
    replaced = len(ballot.history) - len(before.history)
    if not added and not replaced:
        print(f"imported {args.member_file}: its votes are already in the ballot, "
              f"nothing changed")
        return 0
    print(f"imported {args.member_file}: {added} new vote(s), {replaced} replaced")
    return 0


def _checked_folder(args: argparse.Namespace) -> Library | None:
    """A ballot counted (or closed) in its rules folder (``--data``, or the folder
    holding the file) is counted only when the folder passes every check, as every
    other command reads it: an option that is no proposal, a vote by no member, a
    broken seal are refused with the folder's problems (LibraryError); the folder's
    library is returned.  A ballot file alone, outside any rules folder, is counted as
    it stands (anyone may count a copy): None."""
    if args.data is not None:
        return load_library(folder_of(args.file, args.data))
    from ..rulesfolder import find_rules_folder

    root = find_rules_folder(Path(args.file).resolve().parent)
    return load_library(root) if root is not None else None


def cmd_tally(args: argparse.Namespace) -> int:
    _checked_folder(args)
    ballot = load_ballot(args.file)
    results = tally(ballot, method=args.method, threshold=args.threshold,
                    threshold_base=args.threshold_base, quorum=args.quorum)
    if args.json:
        proxy: dict[str, list[ProxyJson]] = {}
        for v in ballot.votes:
            if v.proxy_by:
                proxy.setdefault(v.question, []).append({"member": v.member, "by": v.proxy_by})
        out: list[TallyJson] = [{**r.to_dict(), "proxies": proxy.get(r.question, [])}
                                for r in results]
        json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    first = results[0] if results else None
    if first:
        print(f"{ballot.id}: {first.method}, threshold {first.threshold} of "
              f"{first.threshold_base}, quorum {first.quorum}")
    proxies: dict[str, list[str]] = {}
    for v in ballot.votes:
        if v.proxy_by:
            proxies.setdefault(v.question, []).append(f"{v.member} (by {v.proxy_by})")
    for r in results:
        print(f"\n{r.question} ({r.rule or 'new text'}): {r.stands}"
              + (f" — {r.winner}" if r.winner else ""))
        print(f"  {r.reason}")
        if r.question in proxies:
            print(f"  proxy votes: {', '.join(proxies[r.question])}")
        print("  counts: " + ", ".join(f"{o} {n}" for o, n in r.counts.items()))
        for rnd in r.rounds:
            print(f"  round {rnd.number}: " + ", ".join(f"{o} {n}" for o, n in rnd.counts.items())
                  + (f"; exhausted {rnd.exhausted}" if rnd.exhausted else "")
                  + (f"; out: {', '.join(rnd.eliminated)}" if rnd.eliminated else ""))
        if r.pairwise:
            options = list(r.pairwise["d"])
            width = max(len(o) for o in options)
            print("  pairwise d[row over column] / strongest paths p:")
            for a in options:
                cells = [f"{r.pairwise['d'][a][b]:>3}/{r.pairwise['p'][a][b]:<3}"
                         if a != b else "   -   " for b in options]
                print(f"    {a:>{width}} " + " ".join(cells))
    return 0


def cmd_close(args: argparse.Namespace) -> int:
    registry = _registry(args)
    signer = open_key(registry, args.closer, args.passphrase_file)
    try:
        library = _checked_folder(args)  # the texts voted on, the proposals withdrawn
    except LibraryError:
        # the ballot's own refusal first (a setting changed by hand, a forged vote),
        # then the folder's problems: nothing is sealed in a folder that does not load
        close_ballot(load_ballot(args.file), signer, registry)
        raise
    ballot = close_file(args.file, signer, registry, library)
    adopted = sum(1 for r in ballot.results if r["stands"] == "adopted")
    digest = ballot.seal.digest if ballot.seal is not None else "?"  # close_file seals
    print(f"{args.file}: closed and sealed sha256:{digest}, signed by "
          f"{args.closer}; {adopted} of {len(ballot.results)} question(s) adopt a proposal")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Exit 0: the ballot is intact (a receipt whose votes were later replaced by the
    same member is stated, and is no failure); 1: readable but not sealed, or not intact
    (every failure listed, a receipt that was changed or is missing among them); 2: the
    file (or members.yaml) cannot be read. Each failure is printed at its place,
    ``FILE:LINE:COL: message`` as ``validate`` prints a problem (a changed vote at its
    own line, a seal that no longer matches at ``seal:``). With ``--json`` stdout is
    always one object ``{"ok", "failures", "problems", "digest", "expected"[,
    "receipt"]}``: ``ok`` is true exactly when the exit code is 0; ``problems``: the
    failures with their ``file``, ``line`` and ``col`` (0: the file as a whole);
    ``receipt`` carries the receipt's own outcome (``status``: unchanged, replaced,
    changed or missing; its ``ok``: counted as cast)."""
    try:
        with cycles_paused():  # 60,000 votes read and checked (:mod:`rulesbook.gcpause`)
            sealed, doc = read_sealed_doc(args.file)
            ballot = sealed[0]
            if sealed[0] is None:
                result = sealed[1]
            else:
                result = verify_ballot(sealed[0], _registry(args), sealed[1])
    except UnsealedError as exc:
        return _verify_refused(args, str(exc), 1)
    except (RulesbookError, OSError) as exc:  # not YAML, too big...: where it was found
        return _verify_refused(args, str(exc), 2, _places(exc))
    problems = failure_problems(doc, result, str(args.file))  # each at its file:line
    receipt: ReceiptCheck | None = None
    if args.receipt:
        if ballot is None:
            problems.append(Problem(str(args.file), 0, 0, f"receipt {args.receipt}: the file "
                                    f"cannot be read as a ballot"))
        else:
            receipt = check_receipt(ballot, args.receipt)
            if receipt.status.is_failure:
                problems.append(doc.problem(receipt.place, receipt.message) if doc is not None
                                else Problem(str(args.file), 0, 0, receipt.message))
    failures = list(result.failures) + [p.message for p in problems[len(result.failures):]]
    ok = not failures
    if args.json:
        data: VerifyJson = {"ok": ok, "failures": failures,
                            "problems": [p.to_dict() for p in problems],
                            "digest": result.digest, "expected": result.expected}
        if receipt is not None:
            data["receipt"] = receipt.to_dict()
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif ok:
        print(f"{args.file}: intact (sha256:{result.digest}), every signature verifies")
        if receipt is not None:
            print(receipt.message)
    else:
        print(f"{args.file}: DOES NOT VERIFY ({len(failures)} failure(s))", file=sys.stderr)
        for problem in problems:  # file:line:col: message, as ``validate`` prints them
            print(problem, file=sys.stderr)
    return 0 if ok else 1


def _places(exc: Exception) -> list[Problem]:
    """The file:line:col problems an error carries (a ballot that is not YAML, one over
    a limit); none for an error that has no place."""
    if isinstance(exc, DataFileError):
        return [exc.problem]
    return list(getattr(exc, "problems", None) or [])


def _verify_refused(args: argparse.Namespace, message: str, code: int,
                    places: list[Problem] | None = None) -> int:
    """A ballot that cannot be verified at all: one line on stderr, and with ``--json``
    the same as a failure on stdout (``places``: where the reader stopped)."""
    if args.json:
        where = places or [Problem(str(args.file), 0, 0, one_line(message))]
        data: VerifyJson = {"ok": False, "failures": [one_line(message)],
                            "problems": [p.to_dict() for p in where],
                            "digest": None, "expected": None}
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return _fail(message, code)


def cmd_adopt(args: argparse.Namespace) -> int:
    library = load_library(folder_of(args.file, args.data))
    ballot = load_ballot(args.file)
    if ballot.seal is None:
        return _fail(f"ballot {ballot.id!r} is not closed: close it before adopting")
    adopter = args.adopter or ballot.seal.closed_by
    signer = open_key(load_registry(library.root), adopter, args.passphrase_file)
    plan = adopt_ballot(library, ballot, args.edition, signer=signer, title=args.title,
                        date=args.date)
    adopted = [a for a in _listed(plan.edition.get("adopted")) if isinstance(a, dict)]
    print(f"edition {args.edition!r} (base {plan.base}) written to "
          f"{library.root / 'editions.yaml'} and put in force; "
          f"{len(adopted)} proposal(s) adopted")
    for entry in adopted:
        print(f"  {entry.get('rule') or 'new text'}: {entry['proposal']}")
    return 0


def _listed(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _ranking(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def register(sub: Subparsers) -> None:
    ballot = sub.add_parser("ballot", help="committee ballots: new, sign, vote, import, "
                                           "tally, close, verify, adopt")
    bsub = ballot.add_subparsers(dest="ballot_command", metavar="ACTION")
    ballot.set_defaults(func=help_of(ballot))

    p = bsub.add_parser("new", help="build the committee's ballot from the library")
    p.add_argument("out", metavar="OUT.yaml")
    p.add_argument("--method", choices=METHODS, default="irv")
    p.add_argument("--threshold", choices=THRESHOLDS, default="simple-majority")
    p.add_argument("--threshold-base", choices=("cast", "roll"), default="cast")
    p.add_argument("--quorum", type=int_range(0, 10_000), default=None,
                   help="members who must vote on a question (default: a majority of the roll)")
    p.add_argument("--id", help="ballot id (default: the file name)")
    p.add_argument("--title")
    p.add_argument("--force", action="store_true", help="replace OUT if it exists")
    p.add_argument("--as", dest="opener", metavar="L", help="the chair or secretary "
                   "opening the ballot, who signs its settings (without it the ballot is "
                   "an unsigned draft that takes no vote)")
    p.add_argument("--passphrase-file", metavar="F", help="passphrase of L's key")
    p.set_defaults(func=_guard(cmd_new))

    p = bsub.add_parser("sign", help="sign the settings of a ballot with no vote yet "
                                     "(the chair or secretary opening it)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--as", dest="opener", required=True, metavar="L",
                   help="the chair or secretary (signs with L's key)")
    p.add_argument("--quorum", type=int, metavar="N",
                   help="the quorum to sign (default: the draft's; sign says when it is "
                        "not a majority of the roll's members who hold a confirmed key)")
    p.add_argument("--passphrase-file", metavar="F", help="passphrase of L's key")
    p.set_defaults(func=_guard(cmd_sign))

    p = bsub.add_parser("vote", help="record (or replace) a member's vote on a question")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--member", required=True)
    p.add_argument("--question", required=True)
    p.add_argument("--ranking", required=True, type=_ranking,
                   help="options best first, comma-separated; '' abstains")
    p.add_argument("--proxy-by", metavar="S", help="the secretary (or chair) entering a "
                   "postal or telephone vote for the member, signed with S's key")
    p.add_argument("--passphrase-file", metavar="F", help="passphrase of the signer's key")
    p.set_defaults(func=_guard(cmd_vote))

    p = bsub.add_parser("export", help="a member's own votes, signed, to send to the "
                                       "secretary")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--member", required=True, metavar="L")
    p.add_argument("-o", dest="out", required=True, metavar="OUT")
    p.add_argument("--passphrase-file", metavar="F", help="passphrase of the member's key")
    p.set_defaults(func=_guard(cmd_export))

    p = bsub.add_parser("import", help="merge a member's own signed copy (all or nothing)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("member_file", metavar="MEMBER_FILE")
    p.set_defaults(func=_guard(cmd_import))

    p = bsub.add_parser("tally", help="count the votes and show the working")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--method", choices=METHODS)
    p.add_argument("--threshold", choices=THRESHOLDS)
    p.add_argument("--threshold-base", choices=("cast", "roll"))
    p.add_argument("--quorum", type=int_range(0, 10_000))
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_guard(cmd_tally))

    p = bsub.add_parser("close", help="close the ballot, store the results and sign the seal")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--as", dest="closer", required=True, metavar="L",
                   help="the chair or secretary closing (signs with L's key)")
    p.add_argument("--passphrase-file", metavar="F", help="passphrase of L's key")
    p.set_defaults(func=_guard(cmd_close))

    p = bsub.add_parser("verify", help="check the seal and every signature; exit 1 on a "
                                       "failure")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--receipt", metavar="CODE", help="also check that the votes of this "
                   "receipt are in the sealed ballot unchanged")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_guard(cmd_verify))

    p = bsub.add_parser("adopt", help="make a closed, verified ballot the next edition "
                                      "(the record signed by the chair or secretary)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--edition", required=True, metavar="ID")
    p.add_argument("--title")
    p.add_argument("--date", help="YYYY-MM-DD (default: the day the ballot closed)")
    p.add_argument("--as", dest="adopter", metavar="L", help="the chair or secretary "
                   "adopting, who signs the edition record (default: the ballot's closer)")
    p.add_argument("--passphrase-file", metavar="F", help="passphrase of L's key")
    p.set_defaults(func=_guard(cmd_adopt))


__all__ = ["register", "BallotError"]
