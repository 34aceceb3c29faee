"""Issue 17, the tester's findings: each ruling checked against the words of its text."""
from __future__ import annotations

import json

from rulesbook.rulings import compare
from rulesbook.rulings.catalogue import catalogue_of
from rulesbook.rulings.quotes import find_quote, normalise

NOTICE = "EITHER PLAYER MAY, UPON GIVING SATISFACTORY NOTICE TO HIS OPPONENT"


def specs_of(library, ref, incident):
    return [s for s in catalogue_of(library).specs.get(ref, ()) if incident in s.incidents]


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


# Words that must stand in a quote said to fix the outcome (the outcome's own words).
OUTCOME_WORDS = {"forfeit": ("forfeit", "lose", "lost", "loses", "win"),
                 "draw": ("draw", "tie"), "caution": ("caution", "warn", "penaliz")}


def test_a_case_quote_contains_the_outcome_it_is_said_to_fix(library):
    from rulesbook.rulings import load_cases

    for case in load_cases(library):
        for ref, outcome in case.expected.items():
            if outcome in OUTCOME_WORDS and ref not in case.inferred:
                quote = normalise(case.quotes[ref])
                assert any(w in quote for w in OUTCOME_WORDS[outcome]), (case.id, ref, quote)


def test_the_tester_s_cases_rest_on_inferred_rulings(library):
    # Rule 9, ACF 15, Rule 30, 26B, Law 13, 23B: their words state no forfeit / draw.
    from rulesbook.rulings import compare, get_case

    named = {"flag-falls-with-clocks": ("apca:9", "acf-guide:15"),
             "leaving-room-without-consent": ("apca:30", "apca:26B", "standard-laws:13"),
             "stronger-side-not-making-progress": ("apca:23B",),
             "stronger-side-within-extension": ("apca:23B",)}
    for case_id, refs in named.items():
        case = get_case(library, case_id)
        comp = compare(library, case.incident, case.facts)
        for ref in refs:
            assert ref in case.inferred and ref not in case.quotes, (case_id, ref)
            # the ruling that gives it is itself inferred, with a note
            assert comp.verdict(ref).basis == "inferred", (case_id, ref)


def test_every_inferred_expectation_rests_on_an_inferred_ruling(library):
    from rulesbook.rulings import compare, load_cases

    for case in load_cases(library):
        comp = compare(library, case.incident, case.facts)
        for ref in case.inferred:
            assert comp.verdict(ref).basis == "inferred", (case.id, ref)


def _copy(tmp_path):
    import shutil

    from rulesbook.datapath import bundled_data_dir

    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), data, ignore=shutil.ignore_patterns("__pycache__"))
    return data


def test_case_inferred_is_validated(tmp_path):
    from rulesbook.loading import validate_folder

    data = _copy(tmp_path)
    case = data / "cases" / "both-flags-down.yaml"
    text = case.read_text(encoding="utf-8")
    # both quoted and inferred, and an inferred ref with no expected outcome
    case.write_text(text + "inferred:\n  acf-guide:15: read into the text for a test\n"
                    "  apca:34: not expected in this case at all\n", encoding="utf-8")
    messages = [str(p) for p in validate_folder(data)]
    assert any("acf-guide:15 is both quoted and inferred" in m for m in messages)
    assert any("inferred names 'apca:34'" in m for m in messages)
    # an inferred expectation needs no quote: without it the case is valid
    case.write_text(text.split("quotes:")[0]
                    + "inferred:\n  acf-guide:15: read into the text for a test\n",
                    encoding="utf-8")
    assert not [m for m in map(str, validate_folder(data)) if "both-flags-down" in m]


def run(capsys, *argv):
    from rulesbook.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_counts_that_cannot_happen_are_refused(capsys):
    # "How many times ... this time included?": a count, 1 or more, whole.
    for bad in ("-3", "0", "1.5"):
        code, out, err = run(capsys, "rulings", "touch_move", "--fact", "notice_given=no",
                             "--fact", "piece_playable=no", "--fact", f"offense_number={bad}")
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (bad, err)
        assert "offense_number" in err and "Traceback" not in err
    code, out, _ = run(capsys, "rulings", "touch_move", "--fact", "notice_given=no",
                       "--fact", "piece_playable=no", "--fact", "offense_number=2.0")
    assert code == 0 and "forfeit" in out  # 2.0 is the whole number 2


def test_a_fact_given_twice_with_different_values_is_refused(capsys):
    code, out, err = run(capsys, "rulings", "touch_move", "--fact", "piece_playable=yes",
                         "--fact", "piece_playable=no")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "piece_playable" in err and "twice" in err
    code, _, _ = run(capsys, "rulings", "touch_move", "--fact", "piece_playable=yes",
                     "--fact", "piece_playable=yes")
    assert code == 0


def test_compare_says_how_many_decide(capsys, library):
    facts = {"notice_given": True, "piece_playable": True, "refuses_to_move": False}
    comp = compare(library, "touch_move", facts)
    deciding = sum(v.outcome is not None for v in comp.verdicts)
    undecided = len(comp.verdicts) - deciding
    assert deciding and undecided  # the case of the finding: some undecided
    code, out, _ = run(capsys, "rulings", "touch_move", "--compare",
                       *[a for k, v in facts.items() for a in ("--fact", f"{k}={'yes' if v else 'no'}")])
    last = out.strip().splitlines()[-1]
    assert code == 0 and "All variants agree" not in out
    assert f"{deciding} variants that decide agree" in last
    assert f"other {undecided} are undecided" in last
    # a single deciding variant is not "agreement"
    code, out, _ = run(capsys, "rulings", "dispute_with_clocks", "--compare")
    comp = compare(library, "dispute_with_clocks", {})
    if sum(v.outcome is not None for v in comp.verdicts) == 1:
        assert "Only " in out.strip().splitlines()[-1]


def test_an_acf_suggestion_is_marked_in_text_and_json(capsys):
    # ACF guide 4: "There is less clarity in ACF and EDA rules ... I suggest ...".
    argv = ("rulings", "illegal_move", "--fact", "discovered=later_in_game",
            "--fact", "reconstructible=yes", "--edition", "original")
    code, out, _ = run(capsys, *argv, "--compare", "--json")
    by_ref = {e["ref"]: e for e in json.loads(out)}
    assert code == 0 and by_ref["acf-guide:4"]["suggestion"] is True
    assert all(e["suggestion"] is False for r, e in by_ref.items() if r.startswith("apca:"))
    code, out, _ = run(capsys, *argv, "--compare")
    line = next(x for x in out.splitlines() if "acf-guide:4" in x)
    assert "suggestion" in line
    code, out, _ = run(capsys, *argv, "--json")
    entries = json.loads(out)
    assert entries and all(e["suggestion"] is False for e in entries if e["ref"].startswith("apca:"))


def test_show_and_compare_read_references_as_search_does(capsys, library):
    from rulesbook.refnames import Vocabulary, reference_from_names

    vocab = Vocabulary.from_library(library)
    # the issue's own examples of references
    for text, want in (("SL 7", "standard-laws:7"), ("Standard Laws 7", "standard-laws:7"),
                       ("ACF 3", "acf-guide:3"), ("Spanish 6", "spanish-pool:6")):
        assert reference_from_names(library, vocab, text) == want
        assert library.resolve(text).ref == want
        code, out, err = run(capsys, "show", text)
        assert code == 0 and out.startswith(want), (text, err)
        code, out, err = run(capsys, "compare", text)
        assert code == 0 and want in out and "not a rule reference" not in err
    code, out, err = run(capsys, "show", "XX 7")
    assert code == 2 and "'XX 7' is not a rule reference" in err


def test_13a_only_names_rule_29_and_is_listed_apart(capsys, library):
    from rulesbook.compare import compare_rule, mentions

    # 13A: "(See Rule 29 for additional comments on this Rule)": a pointer, not a text for 29.
    assert "29" in mentions(library.index["apca:13A"].text)
    comp = compare_rule(library, "apca:29")
    assert "apca:13A" not in [v.ref for v in comp.variants]
    assert [r.ref for r in comp.refers_apart] == ["apca:13A"]
    assert comp.refers_apart[0].filed_under == "apca:13"
    code, out, _ = run(capsys, "compare", "apca:29", "--json")
    data = json.loads(out)
    assert "apca:13A" not in [v["ref"] for v in data["variants"]]
    assert [r["ref"] for r in data["refers_apart"]] == ["apca:13A"]
    # 29A speaks of moving over the angle, Rule 13's subject: still an alternative there
    assert "apca:29A" in [v.ref for v in compare_rule(library, "apca:13").variants]


def test_one_schema_error_is_not_buried_under_follow_on_errors(tmp_path):
    from rulesbook.loading import validate_folder

    data = _copy(tmp_path)
    book = data / "apca" / "rulebook.yaml"
    text = book.read_text(encoding="utf-8")
    assert "basis: stated" in text
    book.write_text(text.replace("basis: stated", "basis: maybe", 1), encoding="utf-8")
    problems = validate_folder(data)
    assert len(problems) == 1, [str(p) for p in problems[:5]]
    assert problems[0].file == "apca/rulebook.yaml" and "'maybe'" in problems[0].message
