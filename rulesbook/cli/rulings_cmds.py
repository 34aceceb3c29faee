"""Rulings commands: incidents, rulings, silences, cases, report."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..errors import RulesbookError
from ..library import Library
from ..limits import MAX_GAMES, MAX_PLIES
from ..rulings.errors import GameRecordError
from ..rulings.vocabulary import Basis, condition_words, fact_words, facts_words, outcome_words
from ..textio import counted
from .common import Subparsers, fail, int_range, print_json, warn, with_library

if TYPE_CHECKING:
    from ..rulings.engine import Comparison, Suggestions
    from ..rulings.fromgame import GameFinding


def register(sub: Subparsers) -> None:
    p = sub.add_parser("incidents", help="the catalogue of dispute types and their facts")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=with_library(cmd_incidents))

    p = sub.add_parser("rulings", help="the rulings for a dispute (or --compare every variant)")
    p.add_argument("incident", nargs="?", help="incident id (see `rulesbook incidents`)")
    p.add_argument("--fact", action="append", default=[], metavar="KEY=VALUE",
                   help="a fact the referee established (repeatable)")
    p.add_argument("--edition", default=None, help="edition id (default: the one in force)")
    p.add_argument("--variant", default=None, metavar="NAME",
                   help="the game's variant (pool, english, russian, brazilian): the rulings "
                        "of the rulebooks that govern it (default: pool; with --from-game "
                        "the record's own)")
    p.add_argument("--compare", action="store_true",
                   help="how every variant decides it, disagreements marked")
    p.add_argument("--from-game", metavar="FILE", default=None,
                   help="a PDN record: its first illegal move, or a draw claim at --ply")
    p.add_argument("--game", type=int_range(1, MAX_GAMES), default=None, metavar="N",
                   help="with --from-game: only the N-th game of the file (from 1); "
                        "without it every game with an illegal move is reported")
    p.add_argument("--ply", type=int_range(0, MAX_PLIES), default=None, help="with --from-game: the ply of a draw claim")
    p.add_argument("--notice", type=int_range(0, MAX_PLIES), default=None, metavar="PLY",
                   help="with --ply: the ply after which notice was given (the stronger "
                        "side's moves count from there)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=with_library(cmd_rulings))

    p = sub.add_parser("silences", help="where the rules in force are silent, or two of them "
                                        "disagree: what the next amendments should settle")
    p.add_argument("--edition", default=None, help="edition id (default: the one in force)")
    p.add_argument("--proposal", metavar="REF", default=None,
                   help="only the silences this proposal would fill, and how")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=with_library(cmd_silences))

    p = sub.add_parser("cases", help="the case library (--proposal: cases it decides differently)")
    p.add_argument("--proposal", metavar="REF", default=None)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=with_library(cmd_cases))

    p = sub.add_parser("report", help="a dispute report (standalone HTML) for a case file")
    p.add_argument("case", metavar="CASE.yaml", help="a case file (or a case id)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.html")
    p.add_argument("--edition", default=None, help="edition id (default: the one in force)")
    p.set_defaults(func=with_library(cmd_report))


# -- incidents -------------------------------------------------------------------

def cmd_incidents(args: argparse.Namespace, library: Library) -> int:
    from ..rulings import incidents

    items = incidents(library)
    if args.json:
        print_json([{"id": i.id, "title": i.title, "description": i.description,
                      "topics": list(i.topics),
                      "facts": [{"id": f.id, "type": f.type, "question": f.question,
                                 "choices": list(f.choices)} for f in i.facts]}
                     for i in items])
        return 0
    for inc in items:
        print(f"{inc.id}: {inc.title}")
        for f in inc.facts:
            print(f"    {f.id} ({f.accepted}): {f.question}")
    return 0


# -- rulings ---------------------------------------------------------------------

def _parse_facts(pairs: list[str]) -> dict[str, object]:
    """``--fact KEY=VALUE`` as the facts of an incident (each value the text given)."""
    facts: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise RulesbookError(f"--fact {pair!r} must be written KEY=VALUE (e.g. repeated=no)")
        key, value = key.strip(), value.strip()
        if key in facts and str(facts[key]).lower() != value.lower():
            raise RulesbookError(f"--fact {key} is given twice, as {facts[key]!r} and {value!r}: "
                                 f"give each fact once")
        facts[key] = value
    return facts


def cmd_rulings(args: argparse.Namespace, library: Library) -> int:
    from ..rulings import compare, get_incident, suggest

    if args.from_game:
        if args.incident:
            return fail("give either an INCIDENT or --from-game FILE, not both")
        return _from_game(args, library)
    if args.ply is not None:
        return fail("--ply goes with --from-game FILE")
    if args.game is not None:
        return fail("--game goes with --from-game FILE")
    if not args.incident:
        return fail("name an incident (see `rulesbook incidents`) or give --from-game FILE")
    facts = _parse_facts(args.fact)
    if args.compare:
        get_incident(library, args.incident)
        if args.edition:
            library.edition(args.edition)
        comp = compare(library, args.incident, facts, args.variant)
        if args.json:
            print_json(comp.as_json())
            return 0
        _print_comparison(comp)
        return 0
    result = suggest(library, args.incident, facts, args.edition, args.variant)
    if args.json:
        print_json(result.as_json())
        return 0
    _print_suggestions(result, library)
    return 0


def _print_suggestions(result: Suggestions, library: Library | None = None) -> None:
    from ..rulings.governing import guidance_words

    inc = result.incident
    # who governs the game, first (an English game: the Standard Laws and the ACF guide)
    if result.governance is not None:
        print(result.governance.sentence)
    # the incident's title, not its id (issue 31, Must 6: --json keeps the codes)
    from ..rulings.request import edition_title

    edition = edition_title(library, result.edition) if library is not None \
        else f"edition {result.edition}"
    governs = result.governance is None or result.governance.edition_governs
    print(f"{inc.title} - {edition}" + ("" if governs else " (the edition in force, for "
                                          "pool checkers)"))
    if not result.binding:
        gov = result.governance
        whose = ("of the rulebooks that govern this game" if gov is not None
                 and not gov.edition_governs else "in force")
        print(f"No rule {whose} addresses this; guidance from other rulebooks:")
    if not result.rulings:
        print("No ruling applies to these facts.")
    for r in result.rulings:
        mark = "" if r.applies else "  [if " + "; ".join(
            condition_words(r, inc, f) for f in r.unknown_facts) + "]"
        opts = f" ({' / '.join(fact_words(o) for o in r.options)})" if r.options else ""
        print(f"\n{r.ref}: {outcome_words(r.outcome)}{opts}{mark}")
        said = guidance_words(library, result.governance, r.rulebook, r.in_force) \
            if library is not None else ("" if r.in_force else "guidance only")
        if said:
            print(f"  {said}")
        print(f"  {r.summary}")
        for quote in r.quotes:
            print(f"  words: \u201c{quote}\u201d")
        if r.suggestion:
            print("  suggestion: the author's suggestion, not a rule of the book")
        if r.basis is Basis.INFERRED or r.suggestion and r.note:
            print(f"  {'inferred' if r.basis is Basis.INFERRED else 'note'}: {r.note}")
        if r.matched_facts:
            print("  because: " + facts_words(inc, r.matched_facts))
        print(f"  text: {r.text}")
    if result.questions:
        print("\nStill to establish:")
        for f in result.questions:  # the question in words, then what to type to answer it
            print(f"  {f.question}  (--fact {f.id}=..., {f.accepted})")


def _print_comparison(comp: Comparison) -> None:
    print(f"{comp.incident.title} under every variant")
    # outcomes in words (issue 31): the referee reads "the move is taken back and a
    # legal move is made instead", not retract_and_replay (--json keeps the codes)
    if comp.baseline:
        base = comp.baseline_outcome
        print(f"original rules ({comp.baseline}): "
              f"{outcome_words(base) if base else 'undecided'}")
    for v in comp.verdicts:
        mark = " <- DIFFERS" if v.differs else ""
        opts = f" ({' / '.join(fact_words(o) for o in v.options)})" if v.options else ""
        needs = ", ".join(fact_words(f) for f in v.unknown_facts)
        outcome = (outcome_words(v.outcome) if v.outcome else
                   "undecided" + (f" [needs {needs}]" if needs else ""))
        suggestion = " (the author's suggestion, not a rule)" if v.suggestion else ""
        print(f"  {v.label}: {outcome}{opts}{suggestion}{mark}")
    print(_agreement(comp))


def _agreement(comp: Comparison) -> str:
    """Whether the variants agree, saying how many decide and how many are undecided."""
    deciding = [v for v in comp.verdicts if v.outcome is not None]
    undecided = len(comp.verdicts) - len(deciding)
    rest = f"; the other {undecided} {'is' if undecided == 1 else 'are'} undecided" if undecided else ""
    if not deciding:
        return f"No variant decides these facts (all {undecided} undecided)."
    if not comp.agree:
        return f"The variants disagree ({len(deciding)} of {len(comp.verdicts)} decide{rest})."
    if len(deciding) == 1:
        return f"Only {deciding[0].ref} decides{rest}: nothing to compare it with."
    return f"The {len(deciding)} variants that decide agree{rest}."


def _outcome(outcome: str | None) -> str:
    """An outcome in words, or "undecided" (no ruling decides)."""
    return outcome_words(outcome) if outcome else "undecided"


def _record_errors(path: str, finding: GameFinding) -> None:
    for problem in finding.problems:
        print(f"{path}: game {finding.game}: {problem}", file=sys.stderr)
    if not finding.readable:
        print(f"{path}: game {finding.game}: the start position cannot be read; the "
              "moves were not replayed", file=sys.stderr)


def _draw_claims(args: argparse.Namespace, library: Library) -> int:
    from ..draughts.pdn import PdnReader
    from ..limits import GAME_FILE, MAX_GAME_FILE_BYTES
    from ..reconstruct.session import GameRecord
    from ..rulings import RequestOrigin, draw_claims, rulings_request
    from ..textio import open_text

    wanted = args.game or 1
    game = None
    count = 0
    warnings: list[str] = []
    try:
        with open_text(args.from_game, max_bytes=MAX_GAME_FILE_BYTES, what=GAME_FILE,
                       warnings=warnings) as handle:
            for count, found in enumerate(PdnReader(handle), 1):
                if count == wanted:
                    game = found
                    break
    except ValueError as exc:
        raise GameRecordError(str(exc)) from None
    for warning in warnings:
        warn(warning)
    if game is None:
        return fail(f"--game {wanted}: {args.from_game} has {counted(count, 'game')}")
    for error in game.errors:
        print(f"{args.from_game}: game {wanted}: {error}", file=sys.stderr)
    if any(e.message.startswith("bad FEN") for e in game.errors):
        return fail(f"{args.from_game}: game {wanted}: the start position cannot be read; "
                    "no draw claim can be judged", 1)
    # each claim as the request the Board's Draw Rulings sends for it (one builder)
    record = GameRecord.from_pdn_game(game)
    requests = [rulings_request(library, record, claim, RequestOrigin.DRAW_CLAIM, args.ply)
                for claim in draw_claims(library, game.start, game.mainline_moves(), args.ply,
                                         args.edition, args.notice,
                                         args.variant or game.variant)]
    claims = [r.claim for r in requests if r.claim is not None]
    # why the record is read in its variant (no GameType tag), as for an illegal move
    # (null in --json with a GameType tag, as ``pdn check --json`` writes it)
    note = game.variant_guess.sentence() if game.variant_guess is not None else None
    if note and not args.json:
        print(f"{args.from_game}: game {wanted}: {note}", file=sys.stderr)
    if args.json:
        print_json([{**c.as_json(), "variant_note": note} for c in claims])
    else:
        from ..rulings.governing import guidance_words

        gov = next((c.suggestions.governance for c in claims if c.suggestions is not None
                    and c.suggestions.governance is not None), None)
        if gov is not None:  # who governs the game, first
            print(gov.sentence)
        for c in claims:
            state = "HOLDS" if c.holds else ("does not hold" if c.applicable else "not applicable")
            left = (f", {counted(c.remaining, 'move')} "
                    f"{'remains' if c.remaining == 1 else 'remain'}"
                    if c.remaining is not None and not c.holds else "")
            print(f"{c.name}: {state}{left}" + (f" [{c.ref}]" if c.ref else ""))
            print(f"  {c.explanation}")
            best = c.suggestions.best if c.suggestions else None
            if best is not None:
                said = guidance_words(library, gov, best.rulebook, best.in_force)
                if said:  # another rulebook's ruling is never given as the ruling
                    print(f"  {said}: {best.ref}: {outcome_words(best.outcome)} - "
                          f"{best.summary}")
                else:
                    print(f"  ruling {best.ref}: {outcome_words(best.outcome)} - "
                          f"{best.summary}")
    return 1 if game.errors else 0


def _from_game(args: argparse.Namespace, library: Library) -> int:
    """Rulings from a record. Every game is read (or only ``--game N``); each
    record error goes to stderr as ``FILE: game N: line L col C: message``.
    Exit 0 when the record is sound, 1 when a game has a record error (then
    the record is never called legal), 2 when the file cannot be used.

    ``--json``: for one game (a file of one game, or ``--game N``) the rulings
    of its first illegal move (a list, ``[]`` when every move is legal); for a
    file of several games a list with one object per game that has an illegal
    move or a record error: ``{"game", "title", "variant", "variant_note", "rulebooks",
    "record_errors", "ply", "move", "explanation", "rulings"}`` (``variant_note``: why
    the variant was taken without a GameType tag, else null; ``ply``/``move``/``rulings``
    null without an illegal move). ``--ply``: the draw claims, each with ``variant_note``."""
    from ..rulings import suggest
    from ..rulings.fromgame import findings_from_file
    from ..rulings.governing import governance

    if args.ply is not None:
        return _draw_claims(args, library)
    warnings: list[str] = []
    findings = findings_from_file(library, args.from_game, args.game, warnings)
    first = next(findings, None)
    for warning in warnings:
        warn(warning)
    if first is None:
        return fail(f"{args.from_game}: the file has no game")
    second = next(findings, None)
    single = second is None
    unsound = False
    written = 0  # games written to the JSON list
    reported = total = 0
    for finding in _chain(first, second, findings):
        total += 1
        reported += finding.incident is not None or not finding.sound
        _record_errors(args.from_game, finding)
        unsound = unsound or not finding.sound
        found = finding.incident
        facts: dict[str, object] = dict(found.facts) if found else {}
        # the record's variant chooses the rulebooks (an English game: the Standard Laws)
        variant = args.variant or finding.variant
        result = suggest(library, found.incident, facts, args.edition, variant) \
            if found else None
        if finding.variant_note and not args.json:
            print(f"{args.from_game}: game {finding.game}: {finding.variant_note}",
                  file=sys.stderr)
        if args.json:
            if single:
                print_json(result.as_json() if result is not None else [])
            elif found is not None or not finding.sound:  # written game by game
                sys.stdout.write(",\n" if written else "[\n")
                written += 1
                errors = list(finding.problems) + (
                    [] if finding.readable else ["the start position cannot be read"])
                print_json({"game": finding.game, "title": finding.title,
                            "variant": variant,
                            "variant_note": finding.variant_note or None,
                            "rulebooks": list(result.rulebooks) if result is not None
                            else list(governance(library, variant, args.edition).rulebooks),
                            "record_errors": errors,
                            "ply": found.ply if found else None,
                            "move": found.move if found else None,
                            "explanation": found.explanation if found else None,
                            "rulings": result.as_json() if result is not None else None},
                           end="")
            continue
        head = "" if single else f"Game {finding.game} ({finding.title}): "
        if found is not None and result is not None:
            print(f"{head}Ply {found.ply} ({found.move}): {found.explanation}")
            _print_suggestions(result, library)
            if not single:
                print()
        elif not finding.sound:
            print(f"{head}The record has errors (listed on stderr): it cannot show that "
                  "every move is legal.")
        elif single:
            print("Every move of the record is legal; give --ply N to test a draw claim.")
    if args.json and not single:
        sys.stdout.write("\n]\n" if written else "[]\n")
    elif not single and not reported:
        print(f"Every move of the {total} games is legal; give --game N --ply N to test a "
              "draw claim.")
    return 1 if unsound else 0


def _chain(first: GameFinding, second: GameFinding | None,
           rest: Iterator[GameFinding]) -> Iterator[GameFinding]:
    yield first
    if second is not None:
        yield second
        yield from rest


# -- silences --------------------------------------------------------------------

def cmd_silences(args: argparse.Namespace, library: Library) -> int:
    from ..rulings import get_incident
    from ..rulings.engine import in_force_sources
    from ..rulings.silences import CONFLICT_WORDS, conflict_scope, guidance, silences

    edition = library.edition(args.edition)
    if args.proposal:
        return _fills(args, library, edition.id)
    found = silences(library, edition.id)
    if args.json:
        print_json([{**s.as_json(), "guidance": [
            {"ref": ref, "outcome": outcome, "quote": words}
            for ref, outcome, words in guidance(library, s, edition.id)]}
            if not s.conflict else s.as_json() for s in found])
        return 0
    gaps = [s for s in found if not s.conflict]
    clashes = [s for s in found if s.conflict]
    among = sum(1 for s in clashes if s.variant)
    print(f"Edition {edition.id}: {counted(len(gaps), 'silence')}, "
          f"{counted(len(clashes), 'conflict')}"
          + (f" ({among} among the rulebooks that govern another variant)" if among else ""))
    in_force: dict[str, tuple[str, ...]] = {}
    for source in in_force_sources(library, edition.id):
        for spec in source.specs:
            for inc_id in spec.incidents:
                in_force[inc_id] = tuple(dict.fromkeys(in_force.get(inc_id, ()) + (source.ref,)))
    current = None
    for s in found:
        if s.incident != current:
            current = s.incident
            inc = get_incident(library, s.incident)
            # the edition's rules (a conflict of another variant's rulebooks has its own)
            considered = ", ".join(s.rules_considered if not s.variant else in_force.get(
                s.incident, ())) or "no rule in force addresses it"
            print(f"\n{inc.title} - rules considered: {considered}")
        if s.conflict:
            how = "; ".join(f"{ref}: {outcome_words(out)}" for ref, out in s.decisions.items())
            kind = CONFLICT_WORDS[s.kind] if s.kind is not None else ""
            other = (f" (also {get_incident(library, s.other_incident).title})"
                     if s.other_incident else "")
            scope = conflict_scope(library, s)
            print(f"  CONFLICT {s.describe(inc)}{other}: {how} - {kind}"
                  + (f", {scope}" if scope else ""))
            for ref, words in s.quotes.items():
                print(f"    {ref}: \u201c{words}\u201d")
        else:
            only = (f" (only the general rule {', '.join(s.general)} decides it)"
                    if s.general else "")
            print(f"  silent: {s.describe(inc)}{only}")
            for ref, outcome, words in guidance(library, s, edition.id):
                print(f"    {ref} says: {outcome_words(outcome)}"
                      + (f" - \u201c{words}\u201d" if words else ""))
    return 0


def _fills(args: argparse.Namespace, library: Library, edition: str) -> int:
    from ..rulings import get_incident
    from ..rulings.silences import fills

    found = fills(library, args.proposal, edition)
    ref = library.resolve(args.proposal).ref
    if args.json:
        print_json([{**f.silence.as_json(), "proposal": f.proposal,
                     "outcomes": list(f.outcomes), "partly": f.partly} for f in found])
        return 0
    if not found:
        print(f"{ref} fills none of the silences of edition {edition}.")
    for f in found:
        part = " (partly)" if f.partly else ""
        inc = get_incident(library, f.silence.incident)
        print(f"{inc.title}: {f.silence.describe(inc)} -> "
              f"{'; '.join(outcome_words(o) for o in f.outcomes)}{part}")
    return 0


# -- cases -----------------------------------------------------------------------

def cmd_cases(args: argparse.Namespace, library: Library) -> int:
    from ..rulings import cases_for_proposal, load_cases, run_case

    if args.proposal:
        diffs = cases_for_proposal(library, args.proposal)
        if args.json:
            print_json([{"case": d.case.id, "title": d.case.title, "incident": d.case.incident,
                          "proposal": d.proposal, "proposed": d.proposed,
                          "original": d.original, "original_ref": d.original_ref}
                         for d in diffs])
            return 0
        if not diffs:
            print(f"{args.proposal}: decides every case like the original rules.")
        for d in diffs:
            print(f"{d.case.id}: {d.case.title}\n    {d.original_ref}: {_outcome(d.original)}"
                  f"  ->  {d.proposal}: {_outcome(d.proposed)}")
        return 0
    results = [run_case(library, c) for c in load_cases(library)]
    if args.json:
        print_json([{"id": r.case.id, "title": r.case.title, "incident": r.case.incident,
                      "facts": r.case.facts, "expected": r.case.expected,
                      "outcomes": {k: r.comparison.outcomes.get(k) for k in r.case.expected},
                      "quote_problems": list(r.quote_problems),
                      "passed": r.passed, "file": r.case.file} for r in results])
        return 0 if all(r.passed for r in results) else 1
    for r in results:
        print(f"{'ok  ' if r.passed else 'FAIL'} {r.case.id}: {r.case.title}")
        for ref, want, got in r.mismatches:
            print(f"       {ref}: expected {_outcome(want)}, the rulings give {_outcome(got)}")
        for problem in r.quote_problems:
            print(f"       {problem}")
    failed = sum(not r.passed for r in results)
    if failed:
        print(f"{failed} of {len(results)} cases failed")
    return 0 if not failed else 1


# -- report ----------------------------------------------------------------------

def cmd_report(args: argparse.Namespace, library: Library) -> int:
    from pathlib import Path

    from ..report import write_report
    from ..rulings import get_case, load_case_file

    src = Path(args.case)
    case = load_case_file(library, src) if src.suffix in (".yaml", ".yml") or src.exists() \
        else get_case(library, args.case)
    out = write_report(library, case, args.output, args.edition)
    print(f"wrote {out}")
    return 0


__all__ = ["register", "argparse"]

