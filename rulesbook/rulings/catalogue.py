"""The incident catalogue (``incidents.yaml``), fact values, and the rulings
specs read from rule and proposal records."""
from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import FactTypeError, UnknownFactError, UnknownIncidentError
from .vocabulary import Basis

if TYPE_CHECKING:
    from ..library import Library

FACT_TYPES = ("yes/no", "number", "choice")
#: How a ruling stands on its text: the words say it, or it is read into a silent text.
BASES = tuple(basis.value for basis in Basis)
_YES = ("yes", "y", "true", "t", "1", "on")
_NO = ("no", "n", "false", "f", "0", "off")


def did_you_mean(word: object, options: Iterable[object]) -> str:
    guess = difflib.get_close_matches(str(word), [str(o) for o in options], n=1, cutoff=0.6)
    return f" (did you mean {guess[0]!r}?)" if guess else ""


@dataclass(frozen=True)
class Fact:
    """A fact the referee establishes: ``yes/no``, ``number`` or ``choice``."""

    id: str
    type: str
    question: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None   # a number fact: the least value that can happen
    whole: bool = False            # a number fact that counts: whole numbers only

    def _number(self, value: Any, where: str) -> int | float:
        """``value`` as a number this fact can take (a whole count, not below its minimum)."""
        number = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str):
            text = value.strip()
            try:
                number = int(text)
            except ValueError:
                try:
                    number = float(text)
                except ValueError:
                    pass
        if number is None or number != number or abs(number) == float("inf"):
            raise FactTypeError(f"{where} must be a number, not {value!r}")
        if self.whole:
            if number != int(number):
                raise FactTypeError(f"{where} counts, so it must be a whole number, not {value!r}")
            number = int(number)
        if self.minimum is not None and number < self.minimum:
            low = int(self.minimum) if self.minimum == int(self.minimum) else self.minimum
            raise FactTypeError(f"{where} cannot be less than {low}, not {value!r}")
        return number

    @property
    def accepted(self) -> str:
        """What values are accepted, in words."""
        if self.type == "yes/no":
            return "yes or no"
        if self.type == "number":
            words = "a whole number" if self.whole else "a number"
            if self.minimum is not None:
                low = int(self.minimum) if self.minimum == int(self.minimum) else self.minimum
                words += f" from {low}"
            return words
        return "one of " + ", ".join(self.choices)

    def coerce(self, value: Any, incident: str = "") -> bool | int | float | str:
        """``value`` as this fact's type; raises :class:`FactTypeError`."""
        where = f"fact {self.id!r}" + (f" of {incident}" if incident else "")
        if self.type == "yes/no":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _YES + _NO:
                return value.strip().lower() in _YES
            raise FactTypeError(f"{where} must be yes or no, not {value!r}")
        if self.type == "number":
            return self._number(value, where)
        if isinstance(value, str):
            key = value.strip().lower().replace("-", "_").replace(" ", "_")
            if key in self.choices:
                return key
            raise FactTypeError(f"{where} must be one of {', '.join(self.choices)}, not "
                                f"{value!r}{did_you_mean(key, self.choices)}")
        raise FactTypeError(f"{where} must be one of {', '.join(self.choices)}, not {value!r}")


@dataclass(frozen=True)
class Overlap:
    """The same position is also a case of ``incident``: when ``when`` holds on this
    incident's facts, the other's facts are ``facts`` (other fact -> this fact)."""

    incident: str
    when: dict[str, Any] = field(hash=False, compare=False)
    facts: dict[str, str] = field(hash=False, compare=False)
    note: str = ""


@dataclass(frozen=True)
class Incident:
    """A type of dispute, with the facts that decide it."""

    id: str
    title: str
    description: str
    facts: tuple[Fact, ...]
    topics: tuple[str, ...] = ()
    overlaps: tuple[Overlap, ...] = ()

    def fact(self, fact_id: str) -> Fact:
        for fact in self.facts:
            if fact.id == fact_id:
                return fact
        raise UnknownFactError(
            f"incident {self.id!r} has no fact {fact_id!r}{did_you_mean(fact_id, self.fact_ids)}; "
            f"its facts are: " + ", ".join(f"{f.id} ({f.accepted})" for f in self.facts))

    @property
    def fact_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.facts)

    def check_facts(self, facts: Mapping[str, Any] | None) -> dict[str, Any]:
        """The facts with values coerced to their types; raises on unknown facts or bad values."""
        out = {}
        for key, value in (facts or {}).items():
            fact = self.fact(str(key))
            out[fact.id] = fact.coerce(value, self.id)
        return out


@dataclass(frozen=True)
class RulingSpec:
    """One ``rulings:`` entry of a record: when it applies and what it decides."""

    incidents: tuple[str, ...]
    when: dict[str, Any] = field(hash=False, compare=False)
    outcome: str = ""
    options: tuple[str, ...] = ()
    summary: str = ""
    count: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    index: int = 0
    quotes: tuple[str, ...] = ()          # the words that establish the outcome
    condition_quotes: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    basis: Basis = Basis.STATED
    note: str = ""                        # what was inferred and why
    suggestion: bool = False              # an author's suggestion, not a rule of the book
    general: bool = False                 # a general rule that specific remedies qualify

    @property
    def all_quotes(self) -> tuple[str, ...]:
        """The outcome's quotes, then each condition's, without repeats (a quote whose words
        stand inside another quote is left out)."""
        from .quotes import normalise

        quotes = list(dict.fromkeys((*self.quotes, *self.condition_quotes.values())))
        folded = [normalise(q) for q in quotes]
        return tuple(q for i, q in enumerate(quotes)
                     if not any(i != j and folded[i] in folded[j] and
                                (folded[i] != folded[j] or j < i)
                                for j in range(len(quotes))))

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any], index: int = 0) -> RulingSpec:
        inc = raw["incident"]
        return cls(incidents=tuple(inc) if isinstance(inc, list) else (inc,),
                   when=dict(raw.get("when") or {}), outcome=raw["outcome"],
                   options=tuple(raw.get("options", ())), summary=raw["summary"],
                   count=dict(raw.get("count") or {}), index=index,
                   quotes=tuple(raw.get("quotes", ())),
                   condition_quotes=dict(raw.get("condition_quotes") or {}),
                   basis=Basis(raw.get("basis", "stated")), note=raw.get("note", ""),
                   suggestion=bool(raw.get("suggestion", False)),
                   general=bool(raw.get("general", False)))


def condition_holds(condition: Any, value: Any) -> bool:
    """Does a known fact ``value`` satisfy ``condition`` (value, list of values, or range)?"""
    if isinstance(condition, dict):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return (("min" not in condition or value >= condition["min"])
                and ("max" not in condition or value <= condition["max"])
                and ("over" not in condition or value > condition["over"])
                and ("under" not in condition or value < condition["under"]))
    if isinstance(condition, list):
        return any(condition_holds(c, value) for c in condition)
    if isinstance(condition, bool) or isinstance(value, bool):
        return isinstance(condition, bool) and isinstance(value, bool) and condition == value
    return bool(condition == value)


def condition_problem(fact: Fact, condition: Any) -> str | None:
    """Why ``condition`` cannot be a condition on ``fact`` (None when it can)."""
    if fact.type == "yes/no":
        return None if isinstance(condition, bool) else (
            f"fact {fact.id!r} is yes/no: the condition must be true or false, not {condition!r}")
    if fact.type == "number":
        items = condition if isinstance(condition, list) else [condition]
        for item in items:
            if isinstance(item, dict):
                continue
            if isinstance(item, bool) or not isinstance(item, (int, float)):
                return (f"fact {fact.id!r} is a number: the condition must be a number or "
                        f"{{min/max/over/under: N}}, not {item!r}")
        return None
    items = condition if isinstance(condition, list) else [condition]
    for item in items:
        if not isinstance(item, str) or item not in fact.choices:
            return (f"fact {fact.id!r} is one of {', '.join(fact.choices)}, not {item!r}"
                    f"{did_you_mean(item, fact.choices)}")
    return None


def parse_incidents(data_list: Iterable[Mapping[str, Any]]) -> tuple[Incident, ...]:
    """Incidents from the plain data of ``incidents`` documents."""
    out = []
    for data in data_list:
        for raw in data.get("incidents", ()):
            facts = tuple(Fact(f["id"], f["type"], f["question"], tuple(f.get("choices", ())),
                               f.get("minimum"), bool(f.get("whole", False)))
                          for f in raw.get("facts", ()))
            overlaps = tuple(Overlap(o["incident"], dict(o.get("when") or {}),
                                     dict(o.get("facts") or {}), o.get("note", ""))
                             for o in raw.get("overlaps", ()))
            out.append(Incident(raw["id"], raw["title"], raw["description"].strip(), facts,
                                tuple(raw.get("topics", ())), overlaps))
    return tuple(out)


# -- kept with the library ------------------------------------------------------

@dataclass(frozen=True)
class Catalogue:
    """The incidents and the rulings specs of a library, read once and kept with it
    (:meth:`rulesbook.library.Library.derived`)."""

    incidents: Mapping[str, Incident]
    specs: Mapping[str, tuple[RulingSpec, ...]]  # ref -> its rulings


def _build_catalogue(library: Library) -> Catalogue:
    docs = library.extra.get("incidents", ())
    found = {i.id: i for i in parse_incidents(d.data for d in docs)}
    specs = {ref: tuple(RulingSpec.from_raw(r, k) for k, r in enumerate(entry.rulings))
             for ref, entry in library.index.items() if entry.rulings}
    return Catalogue(found, specs)


def catalogue_of(library: Library) -> Catalogue:
    """The incidents and rulings specs of ``library`` (read once per library)."""
    return library.derived(_build_catalogue)


def incidents(library: Library) -> tuple[Incident, ...]:
    """Every incident of the catalogue, in file order."""
    return tuple(catalogue_of(library).incidents.values())


def get_incident(library: Library, incident_id: str) -> Incident:
    """The incident ``incident_id``; raises :class:`UnknownIncidentError` listing the known ids."""
    found = catalogue_of(library).incidents.get(str(incident_id).strip())
    if found is None:
        known = list(catalogue_of(library).incidents)
        raise UnknownIncidentError(
            f"unknown incident {incident_id!r}{did_you_mean(incident_id, known)}; known incidents: "
            + ", ".join(known))
    return found


def specs_for(library: Library, ref: str) -> tuple[RulingSpec, ...]:
    """The rulings specs recorded on the rule or proposal ``ref``."""
    return catalogue_of(library).specs.get(ref, ())
