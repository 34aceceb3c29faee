"""Issue 17, the tester's findings: each ruling checked against the words of its text."""
from __future__ import annotations

from rulesbook.rulings import compare
from rulesbook.rulings.catalogue import _cache
from rulesbook.rulings.quotes import find_quote, normalise

NOTICE = "EITHER PLAYER MAY, UPON GIVING SATISFACTORY NOTICE TO HIS OPPONENT"


def specs_of(library, ref, incident):
    return [s for s in _cache(library).specs.get(ref, ()) if incident in s.incidents]


def test_touch_after_notice_is_not_decided_by_12a_or_13b(library):
    # Rule 11's words stay in force whichever proposal replaces Rule 12; neither 12A
    # nor 13B speaks of notice, so neither may order the piece moved after notice.
    assert find_quote(library.index["apca:11"].text, NOTICE) is not None
    for ref in ("apca:12A", "apca:13B"):
        assert "notice" not in normalise(library.index[ref].text)
    comp = compare(library, "touch_move", {"notice_given": True, "piece_playable": True,
                                           "refuses_to_move": False, "touch_disputed": False})
    for ref in ("apca:12A", "apca:13B"):
        assert comp.verdict(ref).outcome != "must_move_piece", ref
    # ... while a touch without notice still must be moved ("it must me moved").
    comp = compare(library, "touch_move", {"notice_given": False, "piece_playable": True,
                                           "refuses_to_move": False, "touch_disputed": False})
    assert comp.verdict("apca:12A").outcome == "must_move_piece"
    assert comp.verdict("apca:13B").outcome == "must_move_piece"
    for ref in ("apca:12A", "apca:13B"):
        for spec in specs_of(library, ref, "touch_move"):
            if spec.outcome == "must_move_piece":
                assert spec.when.get("notice_given") is False and spec.basis == "inferred", ref


def test_9c_does_not_decide_a_resigned_game(library):
    # 9C's text says nothing of resignation; ACF 15: "A resigned game takes precedence
    # over a fallen flag".
    assert "resign" not in normalise(library.index["apca:9C"].text)
    for clocks in (True, False):
        comp = compare(library, "time_forfeit", {"clocks_in_use": clocks, "resigned_first": True})
        for ref in ("apca:9B", "apca:9C"):
            assert comp.verdict(ref).outcome != "forfeit", (ref, clocks)
    for spec in specs_of(library, "apca:9C", "time_forfeit"):
        assert spec.when.get("resigned_first") is False and spec.basis == "inferred"


def test_29a_warning_by_the_opponent_is_not_a_stated_caution(library):
    # "can be warned by the opposing player": no referee's caution in the words.
    assert "caution" not in normalise(library.index["apca:29A"].text).replace(
        "a word of caution to the complaining player", "")
    for spec in specs_of(library, "apca:29A", "over_the_angle"):
        if spec.outcome == "caution":
            assert spec.basis == "inferred" and spec.note


def test_sl13_consent_is_not_read_from_accompaniment(library):
    # "(unless accompanied by his opponent)" is company; consent is "his opponent's assent".
    for spec in specs_of(library, "standard-laws:13", "leaving_room"):
        if spec.when.get("opponent_consent") is True:
            assert not any("accompanied" in normalise(q) for q in spec.all_quotes)
            assert any("assent" in normalise(q) for q in spec.all_quotes)
