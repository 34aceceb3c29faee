"""Issue 31 retest, item 6: ``basis: stated`` was claimed for rulings whose words do
not state them. Each test reads the rule's words in the source documents
(tests/data/seeds) and checks that the ruling is marked ``inferred``, with a note,
where its text does not say it; and that ``rulesbook cases``, which recomputes every
expectation from the quoted words, still agrees."""
from __future__ import annotations

import re

from rulesbook.rulings import Basis, load_cases, run_case, suggest
from rulesbook.rulings.catalogue import catalogue_of
from rulesbook.rulings.quotes import normalise
from tests.datapaths import SEEDS

APCA = normalise((SEEDS / "apca-proposed-rules-with-amendments.txt").read_text(encoding="utf-8"))
SL_TEXT = (SEEDS / "standard-laws-of-checkers.txt").read_text(encoding="utf-8")
SPANISH = normalise((SEEDS / "spanish-pool-checkers-rules.txt").read_text(encoding="utf-8"))


def specs(library, ref: str, incident: str, outcome: str):
    return [s for s in catalogue_of(library).specs[ref]
            if incident in s.incidents and s.outcome == outcome]


def law(number: int) -> str:
    """The words of one Standard Law, from its heading to the next one."""
    found = re.search(rf"^{number}\.\s.*?(?=^{number + 1}\.\s)", SL_TEXT, re.S | re.M)
    assert found is not None
    return normalise(found.group())


def test_law_10_states_a_false_move_not_a_failure_to_capture(library):
    words = "If either player, makes a false or improper move, he shall instantly forfeit"
    assert normalise(words) in law(10)
    # the law (and the laws before it) never say that a capture must be taken
    laws = normalise(SL_TEXT)
    assert not re.search(r"\b(must|compelled to|obliged to) (capture|jump|take)\b", laws)
    assert "capture" not in law(10) and "jump" not in law(10)
    (stated,) = specs(library, "standard-laws:10", "illegal_move", "forfeit")
    assert stated.basis is Basis.STATED
    for incident in ("failure_to_capture", "incomplete_jump"):
        (spec,) = specs(library, "standard-laws:10", incident, "forfeit")
        assert spec.basis is Basis.INFERRED and "false or improper move" in spec.note
    # and the rulings say so where the referee reads them
    result = suggest(library, "failure_to_capture", {"discovered": "at_once"},
                     variant="english")
    assert result.best.ref == "standard-laws:10" and result.best.inferred


def test_23b_states_no_outcome_before_the_thirtieth_move(library):
    words = ("he can be required by his opponent or referee to make changes within the "
             "aliment of his pieces or his opponent's pieces within 30 moves")
    assert normalise(words) in APCA
    (play_on,) = specs(library, "apca:23B", "strong_side_count", "play_on")
    # its quote speaks of the count beginning again, not of play going on
    assert all("play" not in normalise(q) for q in play_on.all_quotes)
    assert play_on.basis is Basis.INFERRED and play_on.note


def test_spanish_rule_8_states_the_draw_not_play_before_thirteen(library):
    words = ("the player with the three kings must achieve the win within thirteen moves, "
             "even if the fourteenth move would result in a capture, or the result is also a "
             "draw")
    assert normalise(words) in SPANISH
    (play_on,) = specs(library, "spanish-pool:8", "thirteen_count", "play_on")
    assert play_on.basis is Basis.INFERRED and play_on.note
    (draw,) = specs(library, "spanish-pool:8", "thirteen_count", "draw")
    assert draw.basis is Basis.STATED and any("draw" in normalise(q) for q in draw.quotes)
    # a stated draw quotes the words that make it a draw
    (repetition,) = specs(library, "spanish-pool:8", "repetition", "draw")
    assert repetition.basis is Basis.STATED
    assert any(normalise("A draw is the result if") in normalise(q) for q in repetition.quotes)
    assert normalise("A draw is the result if") in SPANISH


def test_every_stated_ruling_of_these_rules_quotes_its_outcome_word(library):
    """A stated draw or forfeit quotes a word of its outcome (the check that found the
    Spanish rule 8's repetition draw without "A draw is the result if")."""
    words = {"draw": ("draw",), "forfeit": ("forfeit", "lose", "loses", "lost")}
    for ref in ("spanish-pool:8", "apca:23B", "standard-laws:10"):
        for spec in catalogue_of(library).specs[ref]:
            if spec.basis is Basis.STATED and spec.outcome in words:
                quoted = " ".join(normalise(q) for q in spec.all_quotes)
                assert any(w in quoted for w in words[spec.outcome]), (ref, spec.summary)


def test_cases_still_agree_with_their_quoted_words(library):
    results = [run_case(library, c) for c in load_cases(library)]
    assert len(results) >= 39
    assert [(r.case.id, r.mismatches, r.quote_problems) for r in results if not r.passed] == []
