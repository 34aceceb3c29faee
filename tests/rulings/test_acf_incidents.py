"""Issue 31, Must 5: the ACF guide's disputes are incidents with their facts and
rulings, each from its quoted words (tests/data/seeds); where the APCA rules are
silent, `silences` says so and shows what the ACF guide and the Spanish rules say;
touch-move gains "moved another piece" (APCA 12, Standard Laws 7)."""
from __future__ import annotations

import pytest

from rulesbook.rulings import compare, get_incident, suggest
from rulesbook.rulings.quotes import normalise
from rulesbook.rulings.silences import guidance, silences
from tests.datapaths import SEEDS

ACF = normalise((SEEDS / "acf-tournament-director-guide.txt").read_text(encoding="utf-8"))
SPANISH = normalise((SEEDS / "spanish-pool-checkers-rules.txt").read_text(encoding="utf-8"))

CASES = [
    # incident, facts, ref, outcome, the source's words
    ("electronic_device", {"device_noise": True}, "acf-guide:2", "not_allowed",
     ACF, "Cell phone noise (such phones should be turned off or on vibrate mode)"),
    ("draw_offer", {"position_lost": True}, "acf-guide:2", "not_allowed",
     ACF, "Offering a draw on a lost position"),
    ("draw_offer", {"both_agree": True}, "spanish-pool:8", "draw",
     SPANISH, "Both players agree to this decision"),
    ("resignation", {"resigned": False, "position_hopeless": True}, "acf-guide:2",
     "not_allowed", ACF, "Not resigning when the position is hopeless"),
    ("resignation", {"resigned": True}, "spanish-pool:8", "forfeit",
     SPANISH, "Either player can forfeit the game at any time and this will result in a win "
              "for the opponent"),
    ("scoresheet_dispute", {"deliberately_false": True}, "acf-guide:2", "not_allowed",
     ACF, "Intentionally not writing moves down to confuse the opponent"),
    ("scoresheet_dispute", {"scoresheets_provided": True, "recorded_and_turned_in": False},
     "acf-guide:16", "record_and_turn_in", ACF,
     "players should record their games on the scoresheets and turn them in"),
    ("room_conduct", {"conduct": "smoking"}, "acf-guide:2", "not_allowed",
     ACF, "Smoking in playing room"),
    ("room_conduct", {"conduct": "noise"}, "acf-guide:23", "not_allowed",
     ACF, "The noise level in the playing room should be kept to a minimum"),
    ("late_arrival", {"consistently_late": True}, "acf-guide:2", "not_allowed",
     ACF, "Consistently arriving late"),
    ("leaving_room", {"sufficient_reason": False, "opponent_consent": False}, "acf-guide:2",
     "not_allowed", ACF, "Leaving the playing room (except bathroom)"),
    # byes and pairings (the guide's section on Swiss pairings, and the rules sheet)
    ("bye", {"had_bye_before": True}, "acf-guide:10", "not_allowed",
     ACF, "A player shall not receive more than one bye in a tournament"),
    ("bye", {"first_round": False, "tie_for_bye": False}, "acf-guide:10", "bye_to_lowest",
     ACF, "After the first round, the person with the lowest total (who has not already had a "
          "bye) receives the bye"),
    ("bye", {"first_round": False, "tie_for_bye": True, "fresh_pairings_decide": False},
     "acf-guide:10", "draw_lots", ACF, "If there is more than one person who qualifies for the "
     "bye because of a tie in match points, then the referee shall randomly draw for the bye"),
    ("bye_points", {"scored": "bye"}, "acf-guide:32", "three_points",
     ACF, "A bye will receive three points"),
    ("swiss_pairing", {"met_before": True, "fresh_pairing_possible": True, "round": "earlier"},
     "acf-guide:8", "fresh_pairing", ACF,
     "Fresh pairings should be made so that the same two players are not repaired"),
    ("swiss_pairing", {"round": "next_to_last", "met_before": True, "bottom_two": True},
     "acf-guide:9", "repairing_permitted", ACF, "it is permissible to repair the bottom two "
     "players if this avoids reshuffling all the way back to the top"),
    ("swiss_pairing", {"round": "final", "met_before": True, "fresh_pairing_possible": False},
     "acf-guide:9", "repairing_permitted", ACF, "In the final round, repairing is permitted"),
    ("swiss_pairing", {"round": "final", "met_before": True, "fresh_pairing_possible": True},
     "acf-guide:9", "fresh_pairing", ACF, "fresh pairings are still sought, if all else is equal"),
    ("swiss_pairing", {"third_meeting": True}, "acf-guide:9", "fresh_pairing", ACF,
     "it's recommended to avoid having two opponents play each other three times in a Swiss "
     "tournament"),
]


@pytest.mark.parametrize("incident,facts,ref,outcome,source,words", CASES,
                         ids=[f"{c[0]}-{c[2]}-{c[3]}" for c in CASES])
def test_the_acf_guides_disputes_are_decided_by_their_words(library, incident, facts, ref,
                                                            outcome, source, words):
    assert normalise(words) in source
    verdict = compare(library, incident, facts).verdict(ref)
    assert verdict.outcome == outcome
    assert any(normalise(words) in normalise(q) or normalise(q) in normalise(words)
               for q in verdict.quotes)


@pytest.mark.parametrize("incident", ["electronic_device", "draw_offer", "resignation",
                                      "scoresheet_dispute", "room_conduct", "bye",
                                      "bye_points", "swiss_pairing"])
def test_the_apca_rules_are_silent_and_silences_shows_the_other_rulebooks(library, incident):
    found = [s for s in silences(library, "original", incident) if not s.conflict]
    assert found and found[0].rules_considered == ()
    said = {ref for ref, _, _ in guidance(library, found[0])}
    assert said & {"acf-guide:2", "acf-guide:8", "acf-guide:9", "acf-guide:10", "acf-guide:16",
                   "acf-guide:23", "acf-guide:32", "spanish-pool:8"}
    result = suggest(library, incident, {})
    assert not result.binding  # guidance only under the APCA rules


def test_a_wrong_setup_is_an_incident_and_5a_decides_it_before_the_game(library):
    words = "no game can start unless all men are properly placed on their designated squares"
    assert normalise(words) in normalise(
        (SEEDS / "apca-proposed-rules-with-amendments.txt").read_text(encoding="utf-8"))
    assert get_incident(library, "wrong_setup").fact("game_started")
    assert compare(library, "wrong_setup", {"game_started": False}
                   ).verdict("apca:5A").outcome == "correct_setup"
    # found in mid-game: no rulebook says what follows
    comp = compare(library, "wrong_setup", {"game_started": True})
    assert all(v.outcome is None for v in comp.verdicts)


@pytest.mark.parametrize("variant,ref", [(None, "apca:12"), ("english", "standard-laws:7")])
def test_touch_move_moved_another_piece_forfeits(library, variant, ref):
    # APCA 12: "HE MUST EITHER MOVE IT OR FORFEIT THE GAME"; Standard Laws 7: "he must
    # either move that man or forfeit the game"
    assert get_incident(library, "touch_move").fact("moved_other_piece")
    result = suggest(library, "touch_move", {"notice_given": False, "piece_playable": True,
                                             "moved_other_piece": True}, variant=variant)
    assert result.best.ref == ref and result.best.outcome == "forfeit"


def test_the_bye_of_the_first_round_is_left_to_the_referee(library):
    """The guide draws no rule for the first round's bye: its "Additional Variations"
    say "perhaps the bye could be randomly drawn from the eight players with the lowest
    rating. This is merely a possible suggestion." No ruling decides it."""
    assert normalise("This is merely a possible suggestion") in ACF
    comp = compare(library, "bye", {"first_round": True, "had_bye_before": False},
                   variant="english")
    assert all(v.outcome is None for v in comp.verdicts if v.ref.startswith("acf-guide:"))


def test_a_pairing_of_players_who_have_met_is_not_fresh_in_an_earlier_round(library):
    """Section 8's fresh pairing and section 9's exceptions do not both decide one set of
    facts: the next to last round's other players are paired fresh (inferred, with its
    note), and the bottom two may be paired again."""
    other = compare(library, "swiss_pairing", {"round": "next_to_last", "met_before": True,
                                               "bottom_two": False,
                                               "fresh_pairing_possible": True})
    verdict = other.verdict("acf-guide:9")
    assert verdict.outcome == "fresh_pairing" and str(verdict.basis) == "inferred"
    assert other.verdict("acf-guide:8").outcome is None
