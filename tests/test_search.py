import pytest

from rulesbook.search import SearchIndex, index_for, search


@pytest.mark.parametrize("query, expected", [
    ("touched a piece", {"apca:12"}),
    ("thirteen count", {"apca:28"}),
    ("spectator talking", {"apca:31"}),
    ("didn't jump", {"apca:10", "apca:21"}),
    ("crowning", {"apca:23"}),
    ("over the angle", {"apca:13"}),
    ("left the room", {"apca:30"}),
])
def test_everyday_words_find_the_rule_in_the_first_five(library, query, expected):
    refs = [h.ref for h in search(library, query, limit=5)]
    assert expected & set(refs), (query, refs)


def test_exact_references_come_first(library):
    for query, ref in [("10B", "apca:10B"), ("apca:28", "apca:28"), ("rule 28", "apca:28"),
                       ("standard-laws:10", "standard-laws:10")]:
        hits = search(library, query, limit=3)
        assert hits[0].ref == ref and hits[0].match == "reference"


def test_snippets_highlight_the_matched_words(library):
    hit = next(h for h in search(library, "spectator", limit=10) if h.ref == "apca:31")
    assert "[SPECTATOR]" in hit.snippet
    assert "<b>SPECTATOR</b>" in hit.snippet_html


def test_typos_fall_back_to_the_closest_words(library):
    hits = search(library, "specatator", limit=5)
    assert hits and hits[0].match == "fuzzy"
    assert any(h.ref.startswith("apca:31") for h in hits)


def test_ranking_is_best_first_and_limited(library):
    hits = search(library, "king", limit=7)
    assert len(hits) == 7
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_nonsense_and_empty_queries(library):
    assert search(library, "", limit=5) == []
    assert search(library, "   ", limit=5) == []
    assert search(library, "qqqqzzzz", limit=5) == []
    # FTS5 syntax in a query is taken as words, not as a query language
    assert isinstance(search(library, 'NEAR("a" OR) * ^ -"', limit=5), list)


def test_endorsements_are_not_search_hits(library):
    refs = {h.ref for h in search(library, "ok", limit=50)}
    assert "apca:1A" not in refs


def test_index_is_built_once_per_library(library):
    assert index_for(library) is index_for(library)
    assert isinstance(index_for(library), SearchIndex)


def test_the_index_lives_with_its_library():
    import gc
    import weakref

    from rulesbook import load_library

    library = load_library()
    index = weakref.ref(index_for(library))
    assert index() is index_for(library)
    del library
    gc.collect()
    assert index() is None  # nothing else keeps an old library's index alive
