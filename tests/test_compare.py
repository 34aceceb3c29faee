from rulesbook.compare import compare_rule, compare_topic


def test_compare_rule_28_shows_every_variant(library):
    comparison = compare_rule(library, "28")
    refs = [v.ref for v in comparison.variants]
    assert refs[0] == "apca:28"
    assert {"apca:28A", "apca:28B"} <= set(refs)
    assert "apca:24B" in refs  # misfiled under 24, concerns 28
    assert any(r.startswith("spanish-pool:") for r in refs)
    by_ref = {v.ref: v for v in comparison.variants}
    assert by_ref["apca:24B"].why == "concerns"
    assert by_ref["apca:28A"].diff.changed
    assert not by_ref["apca:28"].diff.changed


def test_compare_from_a_proposal_ref_uses_its_rule(library):
    assert compare_rule(library, "10B").subject == "apca:10"


def test_endorsement_is_the_original_unchanged(library):
    comparison = compare_rule(library, "apca:1")
    v = next(v for v in comparison.variants if v.ref == "apca:1A")
    assert v.kind == "endorsement" and not v.diff.changed


def test_compare_topic(library):
    comparison = compare_topic(library, "touch-move")
    refs = {v.ref for v in comparison.variants}
    assert "apca:12" in refs and "standard-laws:7" in refs
    assert comparison.original.ref.startswith("apca:")
    data = comparison.to_dict()
    assert {"ref", "rulebook", "text", "diff"} <= set(data["variants"][0])
