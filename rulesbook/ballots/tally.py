"""Counting a ballot: plurality, instant runoff (IRV), Schulze and approval.

Every count is exact integer arithmetic and deterministic, and every result
shows its working (counts, IRV rounds, the Schulze pairwise table and
strongest paths). The rules, per question:

* **Who counts.** Every member with a vote on the question is *voting*
  (quorum counts them, abstentions included). A non-empty ranking is a
  *ballot cast*; abstentions are not cast.
* **Quorum.** Fewer voting members than ``quorum``: the original stands.
* **Methods.** ``plurality``: first choices. ``approval``: every option in a
  ranking is approved. ``irv``: first choices; while no option holds more
  than half of the continuing ballots, the option(s) with fewest votes are
  eliminated (a tie for last is broken by the earlier rounds, then all tied
  options go out together) and their ballots move to the next continuing
  choice. ``schulze``: pairwise preferences (an option ranked beats every
  option left unranked; unranked options are tied), strongest paths by
  winning votes, Floyd–Warshall (O(n³) in the number of options).
* **Ties.** A tie the method cannot break (equal top counts, IRV with every
  remaining option tied, several Schulze winners) means no winner: the
  original stands.
* **Threshold.** Only a winner that is not the original must pass it (the
  original stands anyway). The winner's support is its first-choice count
  (plurality), approvals (approval), its votes in the last IRV round (irv),
  or the number of ballots ranking it above the original (schulze). The base
  is the ballots cast (``threshold_base: cast``) or the whole roll (``roll``):

  ================  =============================  ===========================
  threshold         passes when                     meaning
  ================  =============================  ===========================
  plurality         (always)                       most votes wins
  simple-majority   ``2 * support > base``         more than half
  two-thirds        ``3 * support >= 2 * base``    at least two thirds
  three-quarters    ``4 * support >= 3 * base``    at least three quarters
  ================  =============================  ===========================
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypedDict

from .model import METHODS, THRESHOLD_BASES, THRESHOLDS, Ballot, BallotError, Question, Vote

#: the rankings cast on a question, each with the number of members who cast it
Rankings = Counter[tuple[str, ...]]


class _IrvRoundFields(TypedDict):
    round: int
    counts: dict[str, int]
    exhausted: int
    eliminated: list[str]


class IrvRoundJson(_IrvRoundFields, total=False):
    """One round of an instant-runoff count (``note`` only when there is one)."""

    note: str


class Pairwise(TypedDict):
    """The Schulze working: ``d[a][b]`` ballots prefer a to b, ``p`` the strongest paths."""

    d: dict[str, dict[str, int]]
    p: dict[str, dict[str, int]]
    winners: list[str]


class QuestionResultJson(TypedDict):
    """One question of ``rulesbook ballot tally --json`` (and of a closed ballot's results)."""

    question: str
    rule: str | None
    winner: str | None
    stands: str
    reason: str
    counts: dict[str, int]
    rounds: list[IrvRoundJson]
    pairwise: Pairwise | None
    method: str
    threshold: str
    threshold_base: str
    quorum: int
    voting: int
    cast: int
    base: int
    support: int | None
    options: list[str]


class _Common(TypedDict):
    """The fields every result of one question shares, whatever the outcome."""

    question: str
    rule: str | None
    options: tuple[str, ...]
    method: str
    threshold: str
    threshold_base: str
    quorum: int
    voting: int
    cast: int
    base: int


@dataclass(frozen=True)
class IrvRound:
    number: int
    counts: dict[str, int]  # option -> votes (continuing options only)
    exhausted: int
    eliminated: tuple[str, ...] = ()
    note: str = ""

    def to_dict(self) -> IrvRoundJson:
        data: IrvRoundJson = {"round": self.number, "counts": dict(self.counts),
                              "exhausted": self.exhausted, "eliminated": list(self.eliminated)}
        if self.note:
            data["note"] = self.note
        return data


class Stands(str, Enum):
    """What a question's count leaves standing: the original text, or the winner."""

    ORIGINAL = "original"
    ADOPTED = "adopted"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class QuestionResult:
    question: str
    rule: str | None
    options: tuple[str, ...]
    method: str
    threshold: str
    threshold_base: str
    quorum: int
    voting: int  # members with a vote (abstentions included)
    cast: int  # non-empty rankings
    base: int  # the number the threshold is measured against
    winner: str | None  # the option that won (may be the original), None if none did
    stands: Stands
    reason: str
    counts: dict[str, int] = field(default_factory=dict)
    support: int | None = None  # the winner's support measured against the threshold
    rounds: tuple[IrvRound, ...] = ()
    pairwise: Pairwise | None = None

    @property
    def adopted(self) -> str | None:
        """The proposal adopted by this question, if any."""
        return self.winner if self.stands is Stands.ADOPTED else None

    def to_dict(self) -> QuestionResultJson:
        return {
            "question": self.question, "rule": self.rule, "winner": self.winner,
            "stands": self.stands.value, "reason": self.reason, "counts": dict(self.counts),
            "rounds": [r.to_dict() for r in self.rounds], "pairwise": self.pairwise,
            "method": self.method, "threshold": self.threshold,
            "threshold_base": self.threshold_base, "quorum": self.quorum,
            "voting": self.voting, "cast": self.cast, "base": self.base,
            "support": self.support, "options": list(self.options),
        }


def passes_threshold(threshold: str, support: int, base: int) -> bool:
    """Exact integer test of ``support`` out of ``base`` against ``threshold``."""
    if threshold == "plurality":
        return True
    if threshold == "simple-majority":
        return 2 * support > base
    if threshold == "two-thirds":
        return 3 * support >= 2 * base
    if threshold == "three-quarters":
        return 4 * support >= 3 * base
    raise BallotError(f"unknown threshold {threshold!r} (one of {', '.join(THRESHOLDS)})")


_THRESHOLD_WORDS = {"simple-majority": "more than half", "two-thirds": "at least two thirds",
                    "three-quarters": "at least three quarters"}


# -- the methods -------------------------------------------------------------

def _top(counts: dict[str, int], options: tuple[str, ...]) -> list[str]:
    best = max(counts.values()) if counts else 0
    return [o for o in options if counts.get(o, 0) == best]


def count_first_choices(question: Question, rankings: Rankings) -> dict[str, int]:
    counts = dict.fromkeys(question.options, 0)
    for ranking, weight in rankings.items():
        counts[ranking[0]] += weight
    return counts


def count_approvals(question: Question, rankings: Rankings) -> dict[str, int]:
    counts = dict.fromkeys(question.options, 0)
    for ranking, weight in rankings.items():
        for option in ranking:
            counts[option] += weight
    return counts


def run_irv(question: Question, rankings: Rankings) -> tuple[str | None, list[IrvRound], str]:
    """(winner or None, rounds, why) by instant runoff."""
    continuing = list(question.options)
    rounds: list[IrvRound] = []
    history: list[dict[str, int]] = []
    while True:
        counts = dict.fromkeys(continuing, 0)
        exhausted = 0
        live = set(continuing)
        for ranking, weight in rankings.items():
            for option in ranking:
                if option in live:
                    counts[option] += weight
                    break
            else:
                exhausted += weight
        history.append(counts)
        number = len(rounds) + 1
        active = sum(counts.values())
        leaders = _top(counts, tuple(continuing))
        if active and 2 * counts[leaders[0]] > active and len(leaders) == 1:
            rounds.append(IrvRound(number, counts, exhausted,
                                   note=f"{leaders[0]} has more than half of the "
                                        f"{active} continuing ballots"))
            return leaders[0], rounds, "majority of the continuing ballots"
        if len(continuing) == 1:
            rounds.append(IrvRound(number, counts, exhausted, note="the last option left"))
            if active == 0:
                return None, rounds, "no ballot ranks any option"
            return continuing[0], rounds, "the last option left"
        low = min(counts.values())
        lowest = [o for o in continuing if counts[o] == low]
        if len(lowest) == len(continuing):
            rounds.append(IrvRound(number, counts, exhausted,
                                   note="every remaining option is tied"))
            return None, rounds, (f"tie: {', '.join(continuing)} have {low} vote(s) each and "
                                  f"instant runoff cannot break it")
        note = ""
        if len(lowest) > 1:  # backward tie-break: fewest votes in the latest earlier round
            for earlier in reversed(history[:-1]):
                least = min(earlier[o] for o in lowest)
                narrowed = [o for o in lowest if earlier[o] == least]
                if len(narrowed) < len(lowest):
                    note = "tie for last broken by an earlier round"
                    lowest = narrowed
                    if len(lowest) == 1:
                        break
            if len(lowest) > 1:
                note = "options tied for last are eliminated together"
        rounds.append(IrvRound(number, counts, exhausted, tuple(lowest), note))
        continuing = [o for o in continuing if o not in lowest]


def schulze_tables(question: Question, rankings: Rankings) -> tuple[list[list[int]],
                                                                   list[list[int]]]:
    """The pairwise table d[i][j] (ballots preferring option i to j) and the strongest
    paths p[i][j] (winning votes), options indexed as in ``question.options``."""
    options = question.options
    n = len(options)
    index = {o: i for i, o in enumerate(options)}
    d = [[0] * n for _ in range(n)]
    for ranking, weight in rankings.items():
        ranked = [index[o] for o in ranking]
        unranked = [i for i in range(n) if i not in set(ranked)]
        for pos, a in enumerate(ranked):
            row = d[a]
            for b in ranked[pos + 1:]:
                row[b] += weight
            for b in unranked:
                row[b] += weight
    p = [[(d[i][j] if d[i][j] > d[j][i] else 0) if i != j else 0 for j in range(n)]
         for i in range(n)]
    for k in range(n):
        pk = p[k]
        for i in range(n):
            if i == k:
                continue
            pik = p[i][k]
            if not pik:
                continue
            pi = p[i]
            for j in range(n):
                if j != i and j != k:
                    via = pik if pik < pk[j] else pk[j]
                    if via > pi[j]:
                        pi[j] = via
    return d, p


def run_schulze(question: Question, rankings: Rankings) -> tuple[list[str], Pairwise]:
    options = question.options
    d, p = schulze_tables(question, rankings)
    n = len(options)
    winners = [options[i] for i in range(n)
               if all(p[i][j] >= p[j][i] for j in range(n) if j != i)]
    table: Pairwise = {"d": {options[i]: {options[j]: d[i][j] for j in range(n) if j != i}
                   for i in range(n)},
             "p": {options[i]: {options[j]: p[i][j] for j in range(n) if j != i}
                   for i in range(n)},
             "winners": winners}
    return winners, table


# -- one question, a whole ballot --------------------------------------------

def tally_question(ballot: Ballot, question: Question, method: str | None = None,
                   threshold: str | None = None, threshold_base: str | None = None,
                   quorum: int | None = None,
                   votes: Sequence[Vote] | None = None) -> QuestionResult:
    method = method or ballot.method
    threshold = threshold or ballot.threshold
    threshold_base = threshold_base or ballot.threshold_base
    quorum = ballot.quorum if quorum is None else quorum
    if method not in METHODS:
        raise BallotError(f"unknown method {method!r} (one of {', '.join(METHODS)})")
    if threshold not in THRESHOLDS:
        raise BallotError(f"unknown threshold {threshold!r} (one of {', '.join(THRESHOLDS)})")
    if threshold_base not in THRESHOLD_BASES:
        raise BallotError(f"unknown threshold base {threshold_base!r}")
    if votes is None:
        votes = ballot.votes_on(question.id)
    voting = len(votes)
    rankings: Rankings = Counter(v.ranking for v in votes if v.ranking)
    cast = sum(rankings.values())
    base = cast if threshold_base == "cast" else len(ballot.roll)
    common = _Common(question=question.id, rule=question.rule, options=question.options,
                     method=method, threshold=threshold, threshold_base=threshold_base,
                     quorum=quorum, voting=voting, cast=cast, base=base)
    counts = (count_approvals if method == "approval" else count_first_choices)(
        question, rankings)
    rounds: tuple[IrvRound, ...] = ()
    pairwise: Pairwise | None = None

    def fail(reason: str, **extra: Any) -> QuestionResult:
        return QuestionResult(winner=None, stands=Stands.ORIGINAL, reason=reason, counts=counts,
                              rounds=rounds, pairwise=pairwise, **common, **extra)

    if voting < quorum:
        return fail(f"no quorum: {voting} member(s) voted, {quorum} needed; the original stands")
    if cast == 0:
        return fail("no ballots cast (every vote abstains); the original stands")
    support: int | None = None
    winner: str | None
    if method in ("plurality", "approval"):
        leaders = _top(counts, question.options)
        if len(leaders) > 1:
            return fail(f"tie: {', '.join(leaders)} have {counts[leaders[0]]} "
                        f"{'approvals' if method == 'approval' else 'votes'} each; "
                        f"the original stands")
        winner = leaders[0]
        support = counts[winner]
        how = f"{support} of {cast} ballots " + ("approve it" if method == "approval"
                                                   else "rank it first")
    elif method == "irv":
        winner, irv_rounds, why = run_irv(question, rankings)
        rounds = tuple(irv_rounds)
        if winner is None:
            return fail(f"{why}; the original stands")
        support = irv_rounds[-1].counts[winner]
        how = f"{why}: {support} votes in round {len(irv_rounds)}"
    else:
        winners, pairwise = run_schulze(question, rankings)
        if len(winners) != 1:
            return fail(f"tie: Schulze winners {', '.join(winners)}; the original stands")
        winner = winners[0]
        if winner != question.original:
            support = pairwise["d"][winner][question.original]
            how = (f"the Schulze winner; {support} of {cast} ballots prefer it to "
                   f"{question.original}")
        else:
            how = "the Schulze winner"
    if winner == question.original:
        return QuestionResult(winner=winner, stands=Stands.ORIGINAL,
                              reason=f"the original ({winner}) wins: {how}", counts=counts,
                              support=support, rounds=rounds, pairwise=pairwise, **common)
    assert support is not None  # measured for every winner but the original
    if not passes_threshold(threshold, support, base):
        return fail(f"{winner} wins but has {support} of {base} "
                    f"({'ballots cast' if threshold_base == 'cast' else 'members on the roll'})"
                    f", not {_THRESHOLD_WORDS[threshold]}; the original stands",
                    support=support)
    return QuestionResult(winner=winner, stands=Stands.ADOPTED,
                          reason=f"{winner} adopted: {how}"
                                 + ("" if threshold == "plurality" else
                                    f" ({_THRESHOLD_WORDS[threshold]} of {base} needed)"),
                          counts=counts, support=support, rounds=rounds, pairwise=pairwise,
                          **common)


def tally(ballot: Ballot, method: str | None = None, threshold: str | None = None,
          threshold_base: str | None = None, quorum: int | None = None
          ) -> tuple[QuestionResult, ...]:
    """The result of every question, in ballot order."""
    by_question: dict[str, list[Vote]] = {q.id: [] for q in ballot.questions}
    for vote in ballot.votes:
        by_question[vote.question].append(vote)
    return tuple(tally_question(ballot, q, method, threshold, threshold_base, quorum,
                                votes=by_question[q.id]) for q in ballot.questions)
