"""Ballot commands: new, vote, import, tally, close, verify, adopt.

Exit codes: 0 done; 1 ``verify`` found the ballot changed after its seal;
2 any error (a clear message on stderr, never a traceback).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..ballots import (
    METHODS,
    THRESHOLDS,
    BallotError,
    adopt_ballot,
    build_ballot,
    close_file,
    import_file,
    load_ballot,
    save_ballot,
    tally,
    verify_file,
    vote_file,
)
from ..errors import LibraryError, RulesbookError
from ..library import load_library
from .common import int_range, one_line


def _fail(message: str, code: int = 2) -> int:
    print(f"rulesbook ballot: {one_line(message)}", file=sys.stderr)
    return code


def _guard(handler):
    def run(args) -> int:
        try:
            return handler(args)
        except LibraryError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        except (RulesbookError, OSError) as exc:
            return _fail(str(exc))
    return run


def cmd_new(args) -> int:
    library = load_library(args.data)
    out = Path(args.out)
    ballot = build_ballot(library, args.id or out.stem.removesuffix(".yaml"),
                          title=args.title, method=args.method, threshold=args.threshold,
                          threshold_base=args.threshold_base, quorum=args.quorum)
    if out.exists() and not args.force:
        return _fail(f"{out} exists; use --force to replace it")
    save_ballot(out, ballot)
    print(f"{out}: ballot {ballot.id!r} with {len(ballot.questions)} questions, "
          f"roll {', '.join(ballot.roll)}, {ballot.method}/{ballot.threshold}, "
          f"quorum {ballot.quorum}")
    return 0


def cmd_vote(args) -> int:
    ballot = vote_file(args.file, args.member, args.question, args.ranking)
    vote = next(v for v in reversed(ballot.votes) if v.member == args.member
                and v.question == ballot.find_question(args.question).id)
    what = ", ".join(vote.ranking) if vote.ranking else "abstains"
    print(f"{args.member} on {vote.question}: {what}")
    return 0


def cmd_import(args) -> int:
    before = load_ballot(args.file)
    ballot = import_file(args.file, args.member_file)
    added = len(ballot.votes) - len(before.votes)
    replaced = len(ballot.history) - len(before.history)
    print(f"imported {args.member_file}: {added} new vote(s), {replaced} replaced")
    return 0


def cmd_tally(args) -> int:
    ballot = load_ballot(args.file)
    results = tally(ballot, method=args.method, threshold=args.threshold,
                    threshold_base=args.threshold_base, quorum=args.quorum)
    if args.json:
        json.dump([r.to_dict() for r in results], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    first = results[0] if results else None
    if first:
        print(f"{ballot.id}: {first.method}, threshold {first.threshold} of "
              f"{first.threshold_base}, quorum {first.quorum}")
    for r in results:
        print(f"\n{r.question} ({r.rule or 'new text'}): {r.stands}"
              + (f" — {r.winner}" if r.winner else ""))
        print(f"  {r.reason}")
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


def cmd_close(args) -> int:
    ballot = close_file(args.file)
    adopted = sum(1 for r in ballot.results if r["stands"] == "adopted")
    print(f"{args.file}: closed and sealed sha256:{ballot.seal.digest}; "
          f"{adopted} of {len(ballot.results)} question(s) adopt a proposal")
    return 0


def cmd_verify(args) -> int:
    result = verify_file(args.file)
    if args.json:
        json.dump(result.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif result.ok:
        print(f"{args.file}: intact (sha256:{result.digest})")
    else:
        print(f"{args.file}: CHANGED after the seal", file=sys.stderr)
        for change in result.changes:
            print(f"  {change}", file=sys.stderr)
    return 0 if result.ok else 1


def cmd_adopt(args) -> int:
    library = load_library(args.data)
    ballot = load_ballot(args.file)
    plan = adopt_ballot(library, ballot, args.edition, title=args.title, date=args.date)
    print(f"edition {args.edition!r} (base {plan.base}) written to "
          f"{library.root / 'editions.yaml'} and put in force; "
          f"{len(plan.edition['adopted'])} proposal(s) adopted")
    for entry in plan.edition["adopted"]:
        print(f"  {entry.get('rule') or 'new text'}: {entry['proposal']}")
    return 0


def _ranking(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def register(sub: argparse._SubParsersAction) -> None:
    ballot = sub.add_parser("ballot", help="committee ballots: new, vote, import, tally, "
                                           "close, verify, adopt")
    bsub = ballot.add_subparsers(dest="ballot_command", metavar="ACTION")
    ballot.set_defaults(func=lambda args: (ballot.print_help(), 2)[1])

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
    p.set_defaults(func=_guard(cmd_new))

    p = bsub.add_parser("vote", help="record (or replace) a member's vote on a question")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--member", required=True)
    p.add_argument("--question", required=True)
    p.add_argument("--ranking", required=True, type=_ranking,
                   help="options best first, comma-separated; '' abstains")
    p.set_defaults(func=_guard(cmd_vote))

    p = bsub.add_parser("import", help="merge a member's own copy (all or nothing)")
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

    p = bsub.add_parser("close", help="close the ballot, store the results and seal it")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=_guard(cmd_close))

    p = bsub.add_parser("verify", help="check the seal; exit 1 if anything changed")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_guard(cmd_verify))

    p = bsub.add_parser("adopt", help="make a closed, verified ballot the next edition")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--edition", required=True, metavar="ID")
    p.add_argument("--title")
    p.add_argument("--date", help="YYYY-MM-DD (default: the day the ballot closed)")
    p.set_defaults(func=_guard(cmd_adopt))


__all__ = ["register", "BallotError"]
