import json

import pytest

from rulesbook.cli import main
from rulesbook.compare import compare_rule, compare_topic, mentions


def test_compare_rule_28_shows_every_variant(library):
    comparison = compare_rule(library, "28")
    refs = [v.ref for v in comparison.variants]
    assert refs[0] == "apca:28"
    assert "apca:28A" in refs
    assert "apca:24B" in refs  # misfiled under 24, concerns 28
    assert any(r.startswith("spanish-pool:") for r in refs)
    by_ref = {v.ref: v for v in comparison.variants}
    assert by_ref["apca:24B"].why == "concerns"
    assert by_ref["apca:28A"].diff.changed
    assert not by_ref["apca:28"].diff.changed


# Shotgun's rule set, one proposal per number: each of these is filed under one rule
# and is about another (28B: "a match between equals ... a Tie" is Rule 32's matter).
FILED_ELSEWHERE = ["apca:28B", "apca:2B", "apca:12B", "apca:13B", "apca:22B", "apca:23B",
                   "apca:27B", "apca:29B", "apca:32B"]


@pytest.mark.parametrize("ref", FILED_ELSEWHERE)
def test_a_proposal_merely_filed_under_a_rule_is_listed_apart(library, ref):
    prop = library.index[ref]
    comparison = compare_rule(library, prop.rule)
    assert ref not in [v.ref for v in comparison.variants]
    (apart,) = [f for f in comparison.filed_apart if f.ref == ref]
    assert apart.filed_under == prop.rule and apart.concerns == prop.concerns
    for target in prop.concerns:  # ... and it is an alternative to the rule it concerns
        if target in library.index and target.startswith("apca:"):
            assert ref in [v.ref for v in compare_rule(library, target).variants]


def test_the_label_says_where_it_is_filed_and_what_it_concerns(library):
    (apart,) = compare_rule(library, "apca:28").filed_apart
    assert apart.label == "apca:28B: filed under 28, concerns 32"


def test_a_proposal_that_names_the_rule_is_compared_with_it(library):
    # 29A: "This Rule should be especially applicable to Rule 13"
    assert "13" in mentions(library.index["apca:29A"].text)
    variant = next(v for v in compare_rule(library, "apca:13").variants if v.ref == "apca:29A")
    assert variant.why == "refers to"


def test_compare_from_a_proposal_ref_uses_its_rule(library):
    assert compare_rule(library, "10B").subject == "apca:10"


def test_endorsement_is_the_original_unchanged(library):
    comparison = compare_rule(library, "apca:1")
    v = next(v for v in comparison.variants if v.ref == "apca:1A")
    assert v.kind == "endorsement" and not v.diff.changed


@pytest.mark.parametrize("topic, rule", [
    ("touch-move", "apca:12"),    # Rule 12 "TOUCHES ONE HE MUST EITHER MOVE IT" (11 is arranging)
    ("crowning", "apca:23"),      # Rule 23 is the crowning rule; 16 is capturing into the row
    ("illegal-move", "apca:10"),  # Rule 10 "A FALSE, IMPROPER OR ILLEGAL MOVE"; 8 calls the referee
    ("time-limits", "apca:9"),    # Rule 9 "USING DOUBLE CLOCKS"
    ("repetition", "spanish-pool:8"),  # no APCA rule has it
])
def test_the_topic_baseline_is_the_rule_it_is_mainly_about(library, topic, rule):
    comparison = compare_topic(library, topic)
    assert comparison.original.ref == rule
    assert comparison.variants[0].ref == rule and not comparison.variants[0].diff.changed


def test_compare_topic(library):
    comparison = compare_topic(library, "touch-move")
    refs = {v.ref for v in comparison.variants}
    assert "apca:12" in refs and "standard-laws:7" in refs
    data = comparison.to_dict()
    assert {"ref", "rulebook", "text", "diff"} <= set(data["variants"][0])


def test_cli_compare_lists_the_misfiled_apart(capsys):
    assert main(["compare", "apca:28", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [f["ref"] for f in data["filed_apart"]] == ["apca:28B"]
    assert "apca:28B" not in [v["ref"] for v in data["variants"]]
    assert main(["compare", "apca:28"]) == 0
    assert "apca:28B: filed under 28, concerns 32" in capsys.readouterr().out


def test_a_baseline_that_is_not_the_topics_rule_is_refused(data_copy):
    from rulesbook.loading import validate_folder

    path = data_copy / "topics.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("baseline: apca:12", "baseline: apca:1", 1), "utf-8")
    messages = [p.message for p in validate_folder(data_copy)]
    assert any("baseline apca:1 does not have the topic 'touch-move'" in m for m in messages)


def test_a_preamble_proposal_is_titled_by_its_heading(library, capsys):
    # Shotgun's "Purpose" stands before the numbered rules and has no title of its
    # own: the comparison is titled by the record's id, as its variant is (it said None).
    entry = library.index["apca:Purpose"]
    assert entry.title is None and entry.rule is None
    comparison = compare_rule(library, "apca:Purpose")
    assert comparison.title == entry.id == comparison.variants[0].title
    assert main(["compare", "apca:Purpose", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "Purpose"
