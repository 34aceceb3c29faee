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
    from ui.ballots.ranking import parse_ranking_numbers

    assert parse_ranking_numbers(question, typed) == []


def test_a_huge_option_number_is_refused_plainly(question):
    from ui.ballots.ranking import parse_ranking_numbers

    with pytest.raises(BallotError, match="there is no option"):
        parse_ranking_numbers(question, "9" * 5000)


def test_a_bidi_override_in_a_member_name_is_shown_visibly(open_ballots, tmp_path):
    from tests.ui.conftest import copy_data

    data = copy_data(tmp_path / "data")
    members = data / "members.yaml"
    text = members.read_text(encoding="utf-8")
    assert "name: Pecan" in text
    members.write_text(text.replace("name: Pecan", 'name: "Pe\\u202Ecan"'), encoding="utf-8")
    _win, ws = open_ballots(data)
    labels = [ws.member_combo.itemText(i) for i in range(ws.member_combo.count())]
    assert "A Pe<U+202E>can" in labels
    assert not any("\u202e" in label for label in labels)
