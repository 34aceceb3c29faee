"""Cross-checks of the rulings data, run by the loader: :func:`check_library` (a
:class:`rulesbook.library.LibraryCheck`, which :mod:`rulesbook.loading` passes to
:meth:`rulesbook.library.Library.load`) checks the incidents, the ``rulings:`` of
rule and proposal records, and the case files.
Every problem is placed at file:line:col, with a "did you mean" where it helps."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import Problem
from ..model import Proposal
from ..yamlio import LoadedYaml
from .case_record import case_game
from .catalogue import Incident, condition_problem, did_you_mean, parse_incidents
from .quotes import find_quote, normalise
from .vocabulary import COUNT_KEYS, OUTCOMES, PUTS_BACK, WITH_OPTIONS

if TYPE_CHECKING:
    from ..library import Library


def check_library(library: Library,
                  docs: Mapping[str, Sequence[LoadedYaml]]) -> list[Problem]:
    problems: list[Problem] = []
    inc_docs = docs.get("incidents", [])
    incidents: dict[str, Incident] = {}
    for doc in inc_docs:
        for i, raw in enumerate(doc.data["incidents"]):
            if raw["id"] in incidents:
                problems.append(doc.problem(("incidents", i, "id"),
                                            f"incident id {raw['id']!r} is used twice"))
            seen = set()
            for j, fact in enumerate(raw.get("facts", ())):
                if fact["id"] in seen:
                    problems.append(doc.problem(("incidents", i, "facts", j, "id"),
                                                f"fact id {fact['id']!r} is used twice in "
                                                f"{raw['id']}"))
                seen.add(fact["id"])
            topic_ids = [t.id for t in library.topics]
            for j, topic in enumerate(raw.get("topics", ())):
                if topic_ids and topic not in topic_ids:
                    problems.append(doc.problem(("incidents", i, "topics", j),
                                                f"unknown topic {topic!r}"
                                                f"{did_you_mean(topic, topic_ids)}"))
        for inc in parse_incidents([doc.data]):
            incidents.setdefault(inc.id, inc)
    for doc in docs.get("rulebook", []):
        data = doc.data
        for j, prop in enumerate(data.get("preamble", ())):
            _check_rulings(doc, ("preamble", j), prop, incidents, bool(inc_docs), problems)
        for i, rule in enumerate(data["rules"]):
            _check_rulings(doc, ("rules", i), rule, incidents, bool(inc_docs), problems)
            for j, prop in enumerate(rule.get("proposals", ())):
                _check_rulings(doc, ("rules", i, "proposals", j), prop, incidents,
                               bool(inc_docs), problems)
    seen_cases: dict[str, str] = {}
    for doc in docs.get("case", []):
        check_case(library, doc, incidents, seen_cases, problems)
    return problems


def _check_rulings(doc: LoadedYaml, path: tuple[Any, ...], record: Mapping[str, Any],
                   incidents: Mapping[str, Incident], have_catalogue: bool,
                   problems: list[Problem]) -> None:
    for k, ruling in enumerate(record.get("rulings", ())):
        here = path + ("rulings", k)
        names = ruling["incident"] if isinstance(ruling["incident"], list) else [ruling["incident"]]
        known = []
        for n, name in enumerate(names):
            at = here + (("incident", n) if isinstance(ruling["incident"], list) else ("incident",))
            if name in incidents:
                known.append(incidents[name])
            elif have_catalogue:
                problems.append(doc.problem(at, f"unknown incident {name!r}"
                                            f"{did_you_mean(name, incidents)}"))
            else:
                problems.append(doc.problem(at, "rulings name incidents, but there is no "
                                            "incidents.yaml in the data folder"))
        for fact_id, condition in (ruling.get("when") or {}).items():
            lacking = [inc for inc in known if fact_id not in inc.fact_ids]
            if lacking:
                inc = lacking[0]
                problems.append(doc.problem(
                    here + ("when", fact_id),
                    f"unknown fact {fact_id!r} for incident {', '.join(i.id for i in lacking)}"
                    f"{did_you_mean(fact_id, inc.fact_ids)}; its facts are: "
                    + ", ".join(inc.fact_ids)))
                continue
            for inc in known[:1]:
                why = condition_problem(next(f for f in inc.facts if f.id == fact_id), condition)
                if why:
                    problems.append(doc.problem(here + ("when", fact_id), why))
        outcome = ruling["outcome"]
        if outcome not in OUTCOMES:
            problems.append(doc.problem(here + ("outcome",), f"unknown outcome {outcome!r}"
                                        f"{did_you_mean(outcome, OUTCOMES)}; known outcomes: "
                                        + ", ".join(OUTCOMES)))
        elif outcome in WITH_OPTIONS and not ruling.get("options"):
            problems.append(doc.problem(here + ("outcome",),
                                        f"outcome {outcome} needs options: (the choices open)"))
        elif outcome not in WITH_OPTIONS and ruling.get("options"):
            problems.append(doc.problem(here + ("options",), f"options are only given with "
                                        f"{' or '.join(WITH_OPTIONS)}, not {outcome}"))
        _check_puts_back(doc, here, ruling, known, problems)
        for key in ruling.get("count") or {}:
            if key not in COUNT_KEYS:  # the schema refuses these too; kept for old schemas
                problems.append(doc.problem(here + ("count", key), f"unknown count key {key!r}"))
        _check_quotes(doc, here, record, ruling, problems)


def _check_puts_back(doc: LoadedYaml, here: tuple[Any, ...], ruling: Mapping[str, Any],
                     incidents: Sequence[Incident], problems: list[Problem]) -> None:
    """A ruling that puts a position back, for an incident that has a
    ``reconstructible`` fact, holds only where the position can be recreated: its
    ``when`` says ``reconstructible: true``."""
    if ruling["outcome"] not in PUTS_BACK:
        return
    having = [inc.id for inc in incidents if "reconstructible" in inc.fact_ids]
    when = ruling.get("when") or {}
    if having and when.get("reconstructible") is not True:
        at = here + (("when",) if "when" in ruling else ("outcome",))
        problems.append(doc.problem(at, f"outcome {ruling['outcome']} puts the position back "
                                    f"({OUTCOMES[ruling['outcome']]}): for "
                                    f"{', '.join(having)} it holds only where the game can be "
                                    f"reconstructed; add reconstructible: true to its when:"))


def _check_quotes(doc: LoadedYaml, here: tuple[Any, ...], record: Mapping[str, Any],
                  ruling: Mapping[str, Any], problems: list[Problem]) -> None:
    """Every quote stands in the record's own text; every condition has a quote or the
    ruling is ``inferred`` with a note; a ``stated`` ruling quotes its outcome."""
    text = record.get("text", "")
    name = f"{doc.data.get('id', '')}:{record.get('id', '')}"
    for k, quote in enumerate(ruling.get("quotes", ())):
        if find_quote(text, quote) is None:
            problems.append(doc.problem(here + ("quotes", k), _not_found(name, text, quote)))
    when = ruling.get("when") or {}
    for fact_id, quote in (ruling.get("condition_quotes") or {}).items():
        if fact_id not in when:
            problems.append(doc.problem(here + ("condition_quotes", fact_id),
                                        f"condition_quotes names {fact_id!r}, which is not a "
                                        f"condition of this ruling (when: "
                                        f"{', '.join(when) or 'none'})"))
        elif find_quote(text, quote) is None:
            problems.append(doc.problem(here + ("condition_quotes", fact_id),
                                        _not_found(name, text, quote)))
    basis = ruling.get("basis")
    if basis == "stated" and not ruling.get("quotes"):
        problems.append(doc.problem(here + ("basis",), "a stated ruling needs quotes: the "
                                    "words of its text that give the outcome"))
    if basis == "inferred" and not ruling.get("note"):
        problems.append(doc.problem(here + ("basis",), "an inferred ruling needs a note "
                                    "saying what was inferred and why"))
    unquoted = [f for f in when if f not in (ruling.get("condition_quotes") or {})]
    if unquoted and basis != "inferred":
        problems.append(doc.problem(here + ("when", unquoted[0]),
                                    f"condition {', '.join(unquoted)} has no quote: give "
                                    f"condition_quotes from the text, or make the ruling "
                                    f"basis: inferred with a note"))


def _own_words(library: Library, ref: str) -> str:
    """The text whose words decide for ``ref``: an endorsement ("OK") stands on its rule's."""
    entry = library.index[ref]
    if isinstance(entry, Proposal) and entry.is_endorsement and entry.rule:
        return library.index[entry.rule].text
    return entry.text


def _not_found(name: str, text: str, quote: str) -> str:
    """The message for a quote that is not in the text, with the nearest passage."""
    import difflib

    words = normalise(text).split(" ")
    size = max(1, len(normalise(quote).split(" ")))
    passages = [" ".join(words[i:i + size]) for i in range(max(1, len(words) - size + 1))]
    guess = difflib.get_close_matches(normalise(quote), passages, n=1, cutoff=0.6)
    hint = f" (the text has {guess[0]!r})" if guess else ""
    return f"quote {quote!r} is not in the text of {name}{hint}"


def check_case(library: Library, doc: LoadedYaml, incidents: Mapping[str, Incident],
               seen: dict[str, str], problems: list[Problem]) -> None:
    data = doc.data
    if data["id"] in seen:
        problems.append(doc.problem(("id",), f"case id {data['id']!r} is already used by "
                                    f"{seen[data['id']]}"))
    seen[data["id"]] = doc.file
    inc = incidents.get(data["incident"])
    if inc is None:
        problems.append(doc.problem(("incident",), f"unknown incident {data['incident']!r}"
                                    f"{did_you_mean(data['incident'], incidents)}"))
    else:
        for key, value in data["facts"].items():
            fact = next((f for f in inc.facts if f.id == key), None)
            if fact is None:
                problems.append(doc.problem(("facts", key), f"unknown fact {key!r} for incident "
                                            f"{inc.id}{did_you_mean(key, inc.fact_ids)}; its "
                                            f"facts are: " + ", ".join(inc.fact_ids)))
                continue
            try:
                fact.coerce(value, inc.id)
            except ValueError as exc:
                problems.append(doc.problem(("facts", key), str(exc)))
    refs = list(library.index)
    for ref, outcome in data["expected"].items():
        if ref not in library.index:
            problems.append(doc.problem(("expected", ref), f"expected names {ref!r}, which "
                                        f"does not exist{did_you_mean(ref, refs)}"))
        if outcome is not None and outcome not in OUTCOMES:
            problems.append(doc.problem(("expected", ref), f"unknown outcome {outcome!r}"
                                        f"{did_you_mean(outcome, OUTCOMES)}"))
    quotes = data.get("quotes") or {}
    inferred = data.get("inferred") or {}
    for ref, outcome in data["expected"].items():
        if (outcome is not None and ref in library.index and ref not in quotes
                and ref not in inferred):
            problems.append(doc.problem(("expected", ref), f"expected {ref}: {outcome} has no "
                                        f"quote: give quotes: {{{ref}: the words of its text "
                                        f"that fix it}}, or, when the text states no such "
                                        f"outcome, inferred: {{{ref}: what was inferred and why}}"))
    for ref in inferred:
        if data["expected"].get(ref) is None:
            problems.append(doc.problem(("inferred", ref), f"inferred names {ref!r}, which has "
                                        f"no expected outcome in this case"))
        elif ref in quotes:
            problems.append(doc.problem(("inferred", ref), f"{ref} is both quoted and inferred: "
                                        f"an expectation the text does not state has no quote "
                                        f"that fixes it (say which words it rests on in the note)"))
    for ref, quote in quotes.items():
        if ref not in data["expected"]:
            problems.append(doc.problem(("quotes", ref), f"quotes names {ref!r}, which has no "
                                        f"expected outcome in this case"))
        elif ref in library.index and find_quote(_own_words(library, ref), quote) is None:
            problems.append(doc.problem(("quotes", ref),
                                        _not_found(ref, _own_words(library, ref), quote)))
    for j, ref in enumerate(data.get("sources", ())):
        if ref not in library.index:
            problems.append(doc.problem(("sources", j), f"source {ref!r} does not exist"
                                        f"{did_you_mean(ref, refs)}"))
    if data.get("fen") or data.get("moves"):
        try:
            case_game(data)
        except ValueError as exc:
            problems.append(doc.problem(("moves",) if data.get("moves") else ("fen",), str(exc)))
