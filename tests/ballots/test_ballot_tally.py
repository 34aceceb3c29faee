"""Counting: methods that disagree, exact thresholds, quorum, ties, shown working."""
from __future__ import annotations

import pytest

from rulesbook.ballots import (
    Ballot,
    BallotError,
    Question,
    Vote,
    passes_threshold,
    tally,
    tally_question,
)

Q10 = Question("10", "apca:10", ("apca:10", "apca:10A", "apca:10B", "apca:10C"))
ADD = Question("Purpose", None, ("status-quo", "apca:Purpose"))


def make(profile, question=Q10, roll=None, **settings) -> Ballot:
    """``profile``: list of (count, ranking) with rankings as short ids ("A>C>B")."""
    votes = []
    n = 0
    for count, ranking in profile:
        for _ in range(count):
            n += 1
            ref = [] if not ranking else [
                o if o in question.options else f"apca:10{o}" if question.rule
                else question.options[1] if o == "Y" else "status-quo"
                for o in ranking.split(">")]
            votes.append(Vote(f"M{n}", question.id, tuple(ref)))
    if roll is None:
        roll = tuple(f"M{i}" for i in range(1, n + 1))
    settings.setdefault("threshold", "plurality")
    settings.setdefault("quorum", 0)
    return Ballot("t", "test", "apca", roll=tuple(roll), questions=(question,),
                  votes=tuple(votes), **settings)


# 6 A>C>B, 5 B>C>A, 4 C>B>A: plurality elects A, IRV elects B, Schulze elects C.
SPLIT = [(6, "A>C>B"), (5, "B>C>A"), (4, "C>B>A")]


def test_plurality_irv_and_schulze_elect_different_options():
    ballot = make(SPLIT)
    winners = {m: tally(ballot, method=m)[0].winner for m in ("plurality", "irv", "schulze")}
    assert winners == {"plurality": "apca:10A", "irv": "apca:10B", "schulze": "apca:10C"}
    for method in winners:
        assert tally(ballot, method=method)[0].stands == "adopted"


def test_plurality_counts_first_choices():
    r = tally(make(SPLIT), method="plurality")[0]
    assert r.counts == {"apca:10": 0, "apca:10A": 6, "apca:10B": 5, "apca:10C": 4}
    assert r.support == 6 and r.cast == 15 and r.rounds == () and r.pairwise is None


def test_irv_rounds_show_the_transfers():
    r = tally(make(SPLIT), method="irv")[0]
    rounds = [x.to_dict() for x in r.rounds]
    assert rounds[0]["counts"] == {"apca:10": 0, "apca:10A": 6, "apca:10B": 5, "apca:10C": 4}
    assert rounds[0]["eliminated"] == ["apca:10"]
    assert rounds[1]["eliminated"] == ["apca:10C"]
    assert rounds[2]["counts"] == {"apca:10A": 6, "apca:10B": 9}
    assert r.support == 9


def test_schulze_pairwise_table_and_strongest_paths():
    r = tally(make(SPLIT), method="schulze")[0]
    d, p = r.pairwise["d"], r.pairwise["p"]
    assert d["apca:10C"]["apca:10A"] == 9 and d["apca:10A"]["apca:10C"] == 6
    assert d["apca:10C"]["apca:10B"] == 10 and d["apca:10B"]["apca:10C"] == 5
    assert d["apca:10A"]["apca:10"] == 15  # everyone ranks something above the unranked original
    assert p["apca:10C"]["apca:10A"] == 9 and p["apca:10A"]["apca:10C"] == 0
    assert r.pairwise["winners"] == ["apca:10C"]
    assert r.support == 15  # ballots preferring 10C to the original


def test_schulze_strongest_paths_match_the_published_example():
    # The 45-voter example of Schulze's method (Wikipedia): E wins; C has most first choices.
    profile = [(5, "A>C>B>E>D"), (5, "A>D>E>C>B"), (8, "B>E>D>A>C"), (3, "C>A>B>E>D"),
               (7, "C>A>E>B>D"), (2, "C>B>A>D>E"), (7, "D>C>E>B>A"), (8, "E>B>A>D>C")]
    question = Question("10", "apca:10", ("apca:10", "apca:10A", "apca:10B", "apca:10C",
                                          "apca:10D", "apca:10E"))
    ballot = make(profile, question=question)
    r = tally(ballot, method="schulze")[0]
    assert r.winner == "apca:10E"
    assert tally(ballot, method="plurality")[0].winner == "apca:10C"
    p = r.pairwise["p"]
    letters = "ABCDE"
    table = [[p[f"apca:10{a}"][f"apca:10{b}"] for b in letters if b != a] for a in letters]
    assert table == [[28, 28, 30, 24], [25, 28, 33, 24], [25, 29, 29, 24], [25, 28, 28, 24],
                     [25, 28, 28, 31]]
    d = r.pairwise["d"]
    assert d["apca:10A"]["apca:10B"] == 20 and d["apca:10B"]["apca:10A"] == 25


def test_approval_counts_every_ranked_option():
    ballot = make([(3, "A"), (2, "B>C"), (2, "C>B")])
    r = tally(ballot, method="approval")[0]
    assert r.counts == {"apca:10": 0, "apca:10A": 3, "apca:10B": 4, "apca:10C": 4}
    assert r.winner is None and "tie" in r.reason and r.stands == "original"
    r = tally(make([(3, "A"), (2, "B>C"), (2, "C")]), method="approval")[0]
    assert r.winner == "apca:10C" and r.support == 4


# -- thresholds at the boundary ------------------------------------------------

@pytest.mark.parametrize("threshold,support,base,ok", [
    ("two-thirds", 6, 9, True), ("two-thirds", 5, 9, False),
    ("two-thirds", 7, 10, True), ("two-thirds", 6, 10, False),
    ("simple-majority", 6, 10, True), ("simple-majority", 5, 10, False),
    ("simple-majority", 5, 9, True), ("simple-majority", 4, 9, False),
    ("three-quarters", 6, 8, True), ("three-quarters", 5, 8, False),
    ("three-quarters", 8, 10, True), ("three-quarters", 7, 10, False),
    ("plurality", 1, 10, True),
])
def test_passes_threshold_exactly(threshold, support, base, ok):
    assert passes_threshold(threshold, support, base) is ok


@pytest.mark.parametrize("yes,no,ok", [(6, 3, True), (5, 4, False)])
def test_two_thirds_of_nine_members(yes, no, ok):
    ballot = make([(yes, "Y"), (no, "N")], question=ADD, threshold="two-thirds")
    r = tally(ballot, method="plurality")[0]
    assert r.base == 9
    assert (r.stands, r.winner) == (("adopted", "apca:Purpose") if ok else ("original", None))
    if not ok:
        assert "not at least two thirds" in r.reason


@pytest.mark.parametrize("yes,no,ok", [(7, 3, True), (6, 4, False)])
def test_two_thirds_of_ten_members(yes, no, ok):
    ballot = make([(yes, "Y"), (no, "N")], question=ADD, threshold="two-thirds")
    for method in ("plurality", "irv", "schulze", "approval"):
        r = tally(ballot, method=method)[0]
        assert r.stands == ("adopted" if ok else "original"), method
        assert r.support == yes


def test_threshold_against_the_roll_or_the_votes_cast():
    # 6 yes, 1 no, 3 abstain on a roll of 10: 6/7 of the votes cast, 6/10 of the roll.
    ballot = make([(6, "Y"), (1, "N"), (3, "")], question=ADD, threshold="two-thirds")
    assert tally(ballot, threshold_base="cast")[0].stands == "adopted"
    r = tally(ballot, threshold_base="roll")[0]
    assert (r.stands, r.base, r.cast, r.voting) == ("original", 10, 7, 10)


def test_an_original_winner_needs_no_threshold():
    ballot = make([(2, "N"), (1, "Y")], question=ADD, threshold="three-quarters")
    r = tally(ballot)[0]
    assert r.winner == "status-quo" and r.stands == "original"


# -- quorum --------------------------------------------------------------------

def test_quorum_not_met_keeps_the_original():
    ballot = make([(4, "A")], roll=[f"M{i}" for i in range(1, 10)], quorum=5)
    r = tally(ballot, method="plurality")[0]
    assert (r.winner, r.stands) == (None, "original")
    assert r.reason.startswith("no quorum: 4 member(s) voted, 5 needed")
    assert r.counts["apca:10A"] == 4  # the working is still shown


def test_abstentions_count_towards_quorum_not_the_votes_cast():
    ballot = make([(3, "A"), (2, "")], quorum=5, threshold="simple-majority")
    r = tally(ballot, method="plurality")[0]
    assert (r.voting, r.cast, r.stands) == (5, 3, "adopted")
    assert tally(make([(3, "A")], quorum=5), method="plurality")[0].stands == "original"


def test_no_ballots_cast():
    r = tally(make([(3, "")]))[0]
    assert r.winner is None and "no ballots cast" in r.reason


# -- ties ----------------------------------------------------------------------

def test_plurality_tie_keeps_the_original():
    r = tally(make([(2, "A"), (2, "B")]), method="plurality")[0]
    assert (r.winner, r.stands) == (None, "original") and r.reason.startswith("tie")


def test_irv_tie_between_the_last_options():
    r = tally(make([(2, "A>B"), (2, "B>A")]), method="irv")[0]
    assert (r.winner, r.stands) == (None, "original") and "tie" in r.reason
    assert r.rounds[-1].note == "every remaining option is tied"


def test_irv_tie_for_last_broken_by_an_earlier_round():
    # Round 1: A 4, B 3, C 2, D 2 -> C and D tied last, both out together
    profile = [(4, "A"), (3, "B>A"), (2, "C>B"), (2, "D>B")]
    question = Question("10", "apca:10", ("apca:10", "apca:10A", "apca:10B", "apca:10C",
                                          "apca:10D"))
    r = tally(make(profile, question=question), method="irv")[0]
    assert r.rounds[0].eliminated == ("apca:10",)
    assert r.rounds[1].eliminated == ("apca:10C", "apca:10D")
    assert r.rounds[1].note == "options tied for last are eliminated together"
    assert r.winner == "apca:10B" and r.support == 7


def test_schulze_tie_keeps_the_original():
    r = tally(make([(1, "A>B"), (1, "B>A")]), method="schulze")[0]
    assert (r.winner, r.stands) == (None, "original")
    assert r.pairwise["winners"] == ["apca:10A", "apca:10B"]


def test_results_are_deterministic_and_json_ready():
    import json

    a = [r.to_dict() for r in tally(make(SPLIT), method="schulze")]
    b = [r.to_dict() for r in tally(make(list(reversed(SPLIT))), method="schulze")]
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert set(a[0]) >= {"question", "winner", "stands", "reason", "counts", "rounds",
                         "pairwise"}


def test_unknown_method_is_refused():
    with pytest.raises(BallotError, match="unknown method"):
        tally_question(make(SPLIT), Q10, method="borda")
