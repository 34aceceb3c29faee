"""The outcome codes a ruling may give, each with its meaning in plain words."""
from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from .catalogue import Incident
    from .engine import Ruling, Verdict

#: The value of an established fact: yes/no, a number, or one of its choices.
FactValue: TypeAlias = bool | int | float | str

OUTCOMES: dict[str, str] = {
    "retract_and_replay": "the move is taken back and a legal move is made instead",
    "restart_from_move": "the game is reconstructed to the disputed move and played on from there",
    "move_stands": "the move stands as played",
    "caution": "the player is cautioned (warned)",
    "caution_then_forfeit": "a caution for the first offense, forfeit of the game for the next",
    "forfeit": "the offending player forfeits the game",
    "draw": "the game (or match) is drawn",
    "referee_options": "the referee chooses among the listed options",
    "opponent_options": "the opponent chooses among the listed options",
    "void_and_replay": "the game is declared void and started over",
    "adjudicate": "the game is adjudicated",
    "no_penalty": "no penalty",
    "play_on": "no claim holds: play goes on",
    "by_agreement": "the players settle it by agreement",
    "referee_decides": "the referee (or official) decides",
    "must_move_piece": "the touched piece must be moved",
    "must_complete_move": "the move must be completed in the direction begun",
    "crown_and_replay": "the opponent's move is put back, the man is crowned, and the same move is made",
    "put_back_and_crown": "the opponent's move is put back until the man is crowned; the text does not say the same move must be made",
    "crown_piece": "the man is crowned now",
    "replace_piece": "the piece is put back on the board",
    "remove_spectator": "the spectator is ordered from the room; play stops until he has left",
    "result_stands": "the result already reached stands",
    "extra_games": "the match continues with further games",
    "tiebreak": "the tie is broken by the tie-break method",
    "decision_final": "the decision is final",
    "appeal_allowed": "the decision can be appealed",
    "clocks_30_minutes": "double clocks are set, 30 minutes for each player to finish the game",
    "clocks_20_minutes": "double clocks are set, 20 minutes for each player to finish the game",
    "clocks_10_minutes": "double clocks are set, 10 minutes for each player to finish the game",
    "call_time": "\"Time\" is called; a move not completed within another minute loses the game",
    "stop_clocks": "the clocks are stopped at once and started again when the dispute is settled",
    "arbiter_decides": "a written statement of facts goes to a disinterested arbiter, whose decision is final",
    "not_allowed": "it is not allowed (no penalty is stated: the referee decides what follows)",
    "correct_setup": "the men are placed on their proper squares before the game can start",
    "record_and_turn_in": "the players record the game and turn the scoresheets in to the tournament director",
    "fresh_pairing": "the players are paired afresh: two players who have already met are not paired again",
    "repairing_permitted": "pairing the two players again is permitted: the pairing may stand",
    "bye_to_lowest": "the bye goes to the player with the lowest total who has not already had a bye",
    "draw_lots": "the referee draws at random among the players who qualify",
    "three_points": "three points are scored, as for a bye",
}

#: The outcomes that put a position back (a move taken back, the game played on from
#: the disputed move): a ruling giving one for an incident with a ``reconstructible``
#: fact holds only where the position can be recreated (APCA 10B: "If it becomes
#: impossible to reconstruct the game to the point in question then the referee can
#: resolve it"), so its ``when`` must hold ``reconstructible: true``.
PUTS_BACK: tuple[str, ...] = ("retract_and_replay", "restart_from_move",
                              "crown_and_replay", "put_back_and_crown")

class Basis(str, enum.Enum):
    """How a ruling rests on its rule: its words say it (``stated``), or the committee
    reads it from them (``inferred``, shown with the reasoning). A str enum: the data
    files and the JSON keep the plain words."""

    STATED = "stated"
    INFERRED = "inferred"

    def __str__(self) -> str:
        return self.value


#: Outcomes that list options (``options:`` is required with them, refused otherwise).
WITH_OPTIONS = ("referee_options", "opponent_options")

#: Keys of a ruling's ``count:`` (parameters of the draughts engine's CountRules).
COUNT_KEYS = ("three_vs_one_limit", "long_line_limit", "strong_side_limit",
              "strong_side_extension", "king_weight", "man_weight", "repetition_limit")

#: Incidents decided by a count that the engine can compute from a game.
DRAW_CLAIM_INCIDENTS = ("thirteen_count", "strong_side_count", "repetition")


def outcome_words(outcome: str) -> str:
    """An outcome code in the plain words a player reads (the code itself if unknown)."""
    return OUTCOMES.get(outcome, outcome.replace("_", " "))


def fact_words(value: object) -> str:
    """A fact's value as words: yes/no, a number, a choice without underscores."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


def condition_words(ruling: Ruling, incident: Incident | None, fact_id: str) -> str:
    """A condition of ``ruling`` the referee has not answered yet, as the question and
    the answer it needs ("Has this player already made a false or improper move in
    this game? no"); the fact's id only when the incident does not know it."""
    return fact_condition_words(incident, fact_id, ruling.conditions.get(fact_id))


def fact_condition_words(incident: Incident | None, fact_id: str, condition: object) -> str:
    """A fact and a value (or a condition on it: a list of choices, bounds such as
    ``{"max": 2}``) as the question and its answer: "How many times has the same
    position (same side to move) occurred? at most 2"; the fact's id in words only
    when the incident does not know it. One place for the facts a referee reads:
    the conditions of a ruling, the facts it matched, a case's, a silence's."""
    question = fact_id.replace("_", " ")
    if incident is not None:
        try:
            question = incident.fact(fact_id).question
        except LookupError:
            pass
    if isinstance(condition, list):
        answer = " or ".join(fact_words(c) for c in condition)
    elif isinstance(condition, dict):
        bounds = {"min": "at least", "max": "at most", "over": "over", "under": "under"}
        answer = " and ".join(f"{bounds.get(k, k)} {fact_words(v)}"
                              for k, v in condition.items())
    else:
        answer = fact_words(condition)
    return f"{question} {answer}"


def facts_words(incident: Incident | None, facts: Mapping[str, object]) -> str:
    """Facts (or conditions) as the referee reads them, one question and answer after
    another ("; " between them): :func:`fact_condition_words` of each."""
    return "; ".join(fact_condition_words(incident, k, v) for k, v in facts.items())


def verdict_words(verdict: Verdict) -> str:
    """How one variant decides a case, as the app and the report both state it:
    the outcome in words with its options, or what it still needs to decide."""
    if verdict.outcome is None:
        words = verdict.summary or "does not decide this case"
        if verdict.unknown_facts:
            words += " (needs: " + ", ".join(f.replace("_", " ")
                                             for f in verdict.unknown_facts) + ")"
    else:
        words = outcome_words(verdict.outcome)
        if verdict.options:
            words += ": " + ", ".join(o.replace("_", " ") for o in verdict.options)
    if verdict.endorses:
        words += f" (endorses {verdict.endorses})"
    if verdict.basis is Basis.INFERRED:
        words += " (inferred)"
    elif verdict.suggestion:
        words += " (the author's suggestion, not a rule)"
    return words[:1].upper() + words[1:]
