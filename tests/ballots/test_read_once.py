"""``validate`` turns each document into its model once (issue #29): a ballot file
into a Ballot once, members.yaml into a registry once, whichever checks ask for them
(the loader's, the seal chain's, the texts', the proposals' authors')."""
from __future__ import annotations

import gc
from collections import Counter

from rulesbook.ballots import io, registry
from rulesbook.gcpause import cycles_paused
from rulesbook.loading import validate_folder


def _count_reads(monkeypatch) -> Counter[str]:
    calls: Counter[str] = Counter()
    read_ballot, build = io._read_ballot, registry._build_from_doc

    def counted_ballot(doc):
        calls[doc.file] += 1
        return read_ballot(doc)

    def counted_registry(doc):
        calls["registry of " + doc.file] += 1
        return build(doc)

    monkeypatch.setattr(io, "_read_ballot", counted_ballot)
    monkeypatch.setattr(registry, "_build_from_doc", counted_registry)
    return calls


def test_validate_reads_each_ballot_and_the_registry_once(data_copy, monkeypatch):
    calls = _count_reads(monkeypatch)
    assert validate_folder(data_copy) == []
    assert calls == {"apca/ballots/2026-committee.yaml": 1, "registry of members.yaml": 1}


def test_a_ballot_that_fails_does_not_make_validate_read_the_folder_again(
        data_copy, sealed_file, monkeypatch):
    """A vote changed by hand stops the folder loading: the proposals' authors are
    still checked, on the documents read (members.yaml's registry built once, its
    1,001 signatures in a committee's folder), and no value's line but the problems'
    is looked up in the whole text again."""
    from rulesbook.yamlio import LoadedYaml

    target = data_copy / "apca" / "ballots" / "test.yaml"
    text = sealed_file.read_text()
    assert "  ranking: ['apca:24B']\n" in text
    target.write_text(text.replace("  ranking: ['apca:24B']\n", "  ranking: ['apca:28A']\n"))
    calls = _count_reads(monkeypatch)
    whole: list[str] = []
    marks = LoadedYaml.marks.func  # the cached_property's function

    def counted_marks(doc):
        whole.append(doc.file)
        return marks(doc)

    monkeypatch.setattr(LoadedYaml, "marks", property(counted_marks))
    problems = validate_folder(data_copy)
    assert problems and all(p.file == "apca/ballots/test.yaml" for p in problems)
    assert calls["registry of members.yaml"] == 1 and whole == []


def test_a_ballot_read_once_is_still_the_callers_to_change(data_copy):
    from rulesbook.yamlio import load_file

    doc = load_file(data_copy / "apca" / "ballots" / "2026-committee.yaml", "b.yaml")
    first, problems = io.ballot_from_doc(doc)
    problems.append("a caller's own problem")
    again, problems_again = io.ballot_from_doc(doc)
    assert again is first and problems_again == []


def test_the_collector_comes_back_after_a_pause_and_only_then():
    assert gc.isenabled()
    with cycles_paused():
        assert not gc.isenabled()
        with cycles_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block found it paused
    assert gc.isenabled()
    gc.disable()
    try:
        with cycles_paused():
            pass
        assert not gc.isenabled()  # a program that turned it off keeps it off
    finally:
        gc.enable()
