"""The dispute report as a referee hands it to the players (issue 19).

Expected values come from the case's own record, worked by hand on the board:
1. 11-15 22-18 2. 15x22 25x18 3. 8-11 29-25 4. 9-13 18-15 5. 10-14 — ply 9 is
Black's move 5 (Black moves first in pool); after 18-15 a White man stands on
15 with 10 and 11 behind it and 19 and 18 empty, so Black had to capture:
10x19 or 11x18.
"""
from __future__ import annotations

import dataclasses
import html
import re

import pytest

from rulesbook.report import ordinal, record_view, report_html, report_markdown
from rulesbook.rulings import GameRecordError, get_case


@pytest.fixture
def capture_case(library):
    return get_case(library, "failure-to-capture-at-once")


@pytest.mark.parametrize("n, text", [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"),
                                     (11, "11th"), (12, "12th"), (13, "13th"), (21, "21st"),
                                     (22, "22nd"), (101, "101st"), (111, "111th")])
def test_ordinals(n, text):
    assert ordinal(n) == text


def test_the_disputed_move_is_named_as_on_the_scoresheet(capture_case):
    view = record_view(capture_case)
    assert view.caption == "Position before Black's move 5, 10-14"
    assert view.illegal is not None and view.illegal.ply == 9
    assert set(view.illegal.legal_moves) == {"10x19", "11x18"}


def test_what_happened_gives_the_reason_in_words(library, capture_case):
    text, _svg = report_markdown(library, capture_case)
    happened = text.split("## What happened", 1)[1].split("##", 1)[0]
    assert "had to capture" in happened
    assert "10x19" in happened and "11x18" in happened
    assert "failure_to_capture" not in text and "(failure" not in text


def test_facts_are_words_not_codes(library):
    case = get_case(library, "failure-to-jump-noticed-after-game")
    text, _svg = report_markdown(library, case)
    facts = text.split("## Facts established", 1)[1].split("##", 1)[0]
    assert facts.strip()
    assert not re.search(r"\*\*[a-z]+_[a-z_]+\*\*", facts), facts  # no `after_game` codes


def test_a_variant_that_needs_a_fact_says_which(library, capture_case):
    # 10B's conditions are on players_agree and reconstructible: without them the
    # report says what it needs, as the app's comparison does, not "does not decide"
    case = dataclasses.replace(capture_case, facts={"discovered": "at_once", "repeated": False})
    text, _svg = report_markdown(library, case)
    row = next(line for line in text.splitlines() if line.startswith("| apca:10B"))
    assert "needs: players agree" in row


def test_the_diagram_draws_the_required_captures_and_the_move_played(library, capture_case):
    _text, svg = report_markdown(library, capture_case)
    arrows = re.findall(r"<polyline [^>]*>", svg)
    assert len(arrows) == 3  # 10x19 and 11x18 (legal), 10-14 (played, dashed)
    assert sum("stroke-dasharray" in a for a in arrows) == 1


def test_event_round_and_players_come_from_the_case(library, capture_case):
    case = dataclasses.replace(capture_case, event="APCA Open 2026", round="3",
                               date="2026-05-02",
                               players={"black": "A. Moore", "white": "B. Lane"})
    page = html.unescape(re.sub(r"<[^>]+>", "", report_html(library, case)))
    for label, value in (("Event", "APCA Open 2026"), ("Round", "3"), ("Date", "2026-05-02"),
                         ("Black (red men)", "A. Moore"), ("White", "B. Lane")):
        assert f"{label}: {value}" in page


def test_a_broken_record_is_an_error_not_a_report(library, capture_case):
    case = dataclasses.replace(capture_case, moves="1. 11-15 22-18 2. 10-14 18x11", disputed_ply=None)
    with pytest.raises(GameRecordError, match="cannot be played"):
        record_view(case)


def test_the_report_names_the_program_that_wrote_it(library, capture_case):
    """Issue 32: a committee reading a report later knows which version decided it."""
    from rulesbook.version import version

    page = report_html(library, capture_case)
    assert f'<meta name="generator" content="Rulesbook {version()}">' in page
    assert f"Report written by Rulesbook {version()}." in page
    text, _svg = report_markdown(library, capture_case)
    last = text.rstrip().splitlines()[-1].replace("\\", "")  # Markdown's escapes undone
    assert last == f"*Report written by Rulesbook {version()}.*"


def test_a_ruling_that_applies_only_if_asks_the_referees_question(library):
    """#31 Must 6: words, not codes. The late arrival case (twenty minutes late): the ACF
    guide's "Consistently arriving late" is not allowed only if the player is consistently
    late; the report asks the incident's question with the answer that ruling needs."""
    case = get_case(library, "late-arrival-twenty-minutes")
    page = html.unescape(re.sub(r"<[^>]+>", "", report_html(library, case)))
    rulings = page.split("Rulings under", 1)[1].split("How each", 1)[0]
    assert ("applies only if: Does this player consistently arrive late (round after "
            "round)? yes") in rulings, rulings
    assert "applies only if: consistently late" not in rulings
