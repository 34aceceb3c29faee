"""Issue #14 in the Ballots workspace: "none" typed as a ranking is an
abstention (it was read as a vote for the original); a number of 5,000 digits
is a plain refusal, not a ValueError."""
from __future__ import annotations

import pytest

from rulesbook.ballots import BallotError, build_ballot


@pytest.fixture
def question(library):
    ballot = build_ballot(library, "b", method="irv")
    return ballot.question("10")


@pytest.mark.parametrize("typed", ["none", "None", "-", "0", "abstain"])
def test_abstention_words_abstain(question, typed):
    from ui.ballots.controller import parse_ranking_numbers

    assert parse_ranking_numbers(question, typed) == []


def test_a_huge_option_number_is_refused_plainly(question):
    from ui.ballots.controller import parse_ranking_numbers

    with pytest.raises(BallotError, match="there is no option"):
        parse_ranking_numbers(question, "9" * 5000)
