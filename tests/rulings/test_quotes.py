"""Every ruling cites its words: quotes found in the rule text (and in the source
document itself), a basis, and the validator refusing what does not hold."""
from __future__ import annotations

import shutil

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.datapath import bundled_data_dir
from rulesbook.loading import validate_folder
from rulesbook.rulings import load_cases
from rulesbook.rulings.catalogue import catalogue_of
from rulesbook.rulings.quotes import _folded, find_quote, merged_spans, normalise, quote_spans


def all_specs(library):
    for ref, specs in catalogue_of(library).specs.items():
        for spec in specs:
            yield ref, spec


def test_find_quote_normalises_whitespace_and_case():
    text = "THE DECISION OF THE\n TOURNAMENT   COMMITTEE IS FINAL."
    span = find_quote(text, "the tournament committee is final")
    assert span is not None and text[span.start:span.end] == "THE\n TOURNAMENT   COMMITTEE IS FINAL"
    assert find_quote(text, "the referee is final") is None
    assert find_quote(text, "   ") is None


def test_spans_are_in_text_order_and_merged_when_they_overlap():
    text = "one two three four five"
    assert [s.quote for s in quote_spans(text, ["four", "two three"])] == ["two three", "four"]
    assert merged_spans(text, ["two three", "three four", "absent"]) == ((4, 18),)


def test_every_ruling_has_a_basis_and_its_quotes_stand_in_its_text(library):
    count = 0
    for ref, spec in all_specs(library):
        count += 1
        text = library.index[ref].text
        assert spec.basis in ("stated", "inferred"), ref
        if spec.basis == "stated":
            assert spec.quotes, ref
        else:
            assert spec.note, ref
        for quote in spec.all_quotes:
            assert find_quote(text, quote), (ref, quote)
        for fact in spec.when:
            assert fact in spec.condition_quotes or spec.basis == "inferred", (ref, fact)
    assert count >= 140


def test_every_quote_is_in_the_source_document(library, seeds_dir):
    """Independent of the YAML texts: the quoted words are in the seed file itself."""
    sources = {b.id: normalise((seeds_dir / b.source).read_text(encoding="utf-8"))
               for b in library.rulebooks}
    # The seed files break lines mid-sentence and put stray "|" lines between rules.
    for book_id, text in sources.items():
        sources[book_id] = normalise(text.replace(" | ", " ").replace("|", " "))
    for ref, spec in all_specs(library):
        book = ref.partition(":")[0]
        for quote in spec.all_quotes:
            assert normalise(quote) in sources[book], (ref, quote)


def test_the_audit_examples_read_as_their_words(library):
    def rulings(ref):
        return list(catalogue_of(library).specs[ref])

    # "THE DECISION OF THE TOURNAMENT COMMITTEE IS FINAL": the committee only
    (final,) = rulings("apca:34")
    assert final.when == {"decision_by": "tournament_committee"}
    # "EITHER PLAYER MAY, UPON GIVING SATISFACTORY NOTICE ... ARRANGE": no forfeit with notice
    for ref in ("apca:12", "standard-laws:7"):
        assert all(s.when.get("notice_given") is False for s in rulings(ref)
                   if "touch_move" in s.incidents)
    # only APCA 23 says "THE SAME PLAY MUST THEN BE MADE"
    crown_and_replay = {ref for ref, s in all_specs(library) if s.outcome == "crown_and_replay"}
    assert crown_and_replay == {"apca:23"}
    assert not any(s.when.get("opponent_moved") for s in rulings("spanish-pool:6"))
    # Spanish rule 8 counts the moves of "the player with the three kings"
    spanish = [s for s in rulings("spanish-pool:8") if "thirteen_count" in s.incidents]
    assert spanish and all("three_kings_moves" in s.when and "lone_king_moves" not in s.when
                           for s in spanish)
    # the ACF guide's author: "I suggest"
    assert all(s.suggestion for s in rulings("acf-guide:4"))
    assert not any(s.suggestion for s in rulings("acf-guide:26"))


def test_every_case_expectation_carries_its_quote(library):
    cases = load_cases(library)
    assert len(cases) >= 38
    for case in cases:
        for ref, outcome in case.expected.items():
            if outcome is None:
                continue
            if ref in case.inferred:  # the text states no such outcome: a note, no quote
                assert case.inferred[ref].strip() and ref not in case.quotes, (case.id, ref)
                continue
            entry = library.index[ref]
            endorses = getattr(entry, "is_endorsement", False)
            text = library.index[entry.rule].text if endorses else entry.text
            assert find_quote(text, case.quotes[ref]), (case.id, ref)


def _copy(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), data, ignore=shutil.ignore_patterns("__pycache__"))
    return data


def test_a_quote_not_in_the_text_is_refused_with_the_nearest_words(tmp_path):
    data = _copy(tmp_path)
    book = data / "apca" / "rulebook.yaml"
    text = book.read_text(encoding="utf-8")
    wrong = '- "THE DECISION OF THE TOURNAMENT COMMITTEE IS FINAL AND NO RE-DRESS IS POSSIBLE"'
    assert wrong in text
    book.write_text(text.replace(wrong, wrong.replace("COMMITTEE", "DIRECTOR")), "utf-8")
    found = [p for p in validate_folder(data) if "is not in the text of apca:34" in p.message]
    assert len(found) == 1 and found[0].file == "apca/rulebook.yaml"
    assert "the decision of the tournament committee" in found[0].message


def test_an_inferred_ruling_needs_a_note_and_a_condition_needs_a_quote(tmp_path):
    data = _copy(tmp_path)
    book = data / "acf-guide" / "rulebook.yaml"
    lines = book.read_text(encoding="utf-8").split("\n")
    # drop the note of the first inferred ruling, and the condition quotes of a stated one
    inferred = next(i for i, line in enumerate(lines) if line.strip() == "basis: inferred")
    note = next(i for i in range(inferred, len(lines)) if lines[i].strip().startswith("note:"))
    del lines[note]
    cq = next(i for i, line in enumerate(lines) if "first_flag_claimed: \"" in line)
    del lines[cq]
    del lines[cq - 1]  # its condition_quotes: key
    book.write_text("\n".join(lines), encoding="utf-8")
    messages = [p.message for p in validate_folder(data)]
    assert any("an inferred ruling needs a note" in m for m in messages)
    assert any("condition first_flag_claimed has no quote" in m for m in messages)


def test_a_case_expectation_without_its_quote_is_refused(tmp_path):
    data = _copy(tmp_path)
    case = data / "cases" / "both-flags-down.yaml"
    text = case.read_text(encoding="utf-8")
    case.write_text(text.split("quotes:")[0], encoding="utf-8")
    messages = [str(p) for p in validate_folder(data)]
    assert any("both-flags-down.yaml" in m and "acf-guide:15: draw has no quote" in m
               for m in messages)


_TEXTS = st.lists(st.sampled_from(list("abAB .,\n\t\x1c-") + ["\u00df", "SS", "ss"]),
                  max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=_TEXTS, quote=_TEXTS)
def test_a_quote_is_found_where_the_folded_text_holds_it(text, quote):
    """The search of an ASCII text (a pattern) finds what the folded text holds, at
    the same place: the normalised text, each of its characters traced back."""
    wanted = normalise(quote)
    span = find_quote(text, quote)
    if not wanted:
        assert span is None
        return
    folded, where = _folded(text)
    at = folded.find(wanted)
    if at < 0:
        assert span is None, (text, quote)
    else:
        assert span == (where[at], where[at + len(wanted) - 1] + 1, quote), (text, quote)
