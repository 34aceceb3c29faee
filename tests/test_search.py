import pytest

from rulesbook.search import SearchIndex, index_for, search

# (query, expected refs: any of them in the first five) - the expected rule chosen by
# reading its text (the words it uses are quoted in the comment where they differ).
EVERYDAY_QUERIES = [
    # the audit's misses
    ("adjourn", {"acf-guide:17", "acf-guide:27"}),  # "the game is finished after the second game"
    ("taking too long to move", {"apca:8", "apca:9A", "apca:9B", "standard-laws:5"}),
    ("let go of the piece", {"apca:13A", "standard-laws:8"}),  # "released", "hand is withdrawn"
    ("piece fell on the floor", {"acf-guide:3"}),  # "no penalty if the pieces are bumped"
    ("which color moves first", {"apca:7"}),
    ("left to smoke", {"apca:30"}),
    # touching and arranging
    ("touched a piece", {"apca:12"}),
    ("he touched a checker and moved another", {"apca:12", "apca:13B"}),
    ("straightening pieces", {"apca:11", "acf-guide:26"}),
    ("fix the checkers on their squares", {"apca:11"}),
    ("bumped the pieces by accident", {"acf-guide:3"}),
    ("a spot holds a man", {"apca:14B"}),
    ("over the angle", {"apca:13"}),
    ("picked up my own checker", {"apca:22"}),
    ("took off my own man by mistake", {"apca:22", "standard-laws:9"}),
    # illegal moves and captures
    ("didn't jump", {"apca:10", "apca:21"}),
    ("he moved twice", {"acf-guide:3", "apca:10"}),  # "moving out of turn (moving twice)"
    ("wrong move", {"apca:10"}),
    ("take back a move", {"apca:10", "apca:10B", "spanish-pool:7"}),
    ("huff", {"spanish-pool:7"}),
    ("do I have to jump", {"spanish-pool:5", "apca:21", "apca:10", "spanish-pool:7"}),
    ("stopped jumping halfway", {"apca:21", "apca:21A", "apca:18B", "apca:10"}),
    ("can I take the smaller number", {"apca:20", "apca:19B"}),
    ("illegal move noticed later", {"acf-guide:4", "apca:10B"}),
    ("can't reconstruct the game", {"apca:10B", "acf-guide:4"}),
    ("man moves backward", {"apca:14"}),
    ("can a man capture backwards", {"apca:14", "apca:5B"}),
    ("flying king", {"spanish-pool:7", "apca:15"}),
    ("king moves any distance", {"apca:15", "apca:16B"}),
    ("jump the same piece twice", {"apca:19", "apca:17B"}),
    ("captured pieces removed", {"apca:19", "apca:17"}),
    ("jumping through the king row", {"apca:24", "apca:16"}),
    # crowning
    ("crowning", {"apca:23"}),
    ("forgot to crown the king", {"apca:23"}),
    ("opponent didn't crown my king", {"apca:23"}),
    # counts and draws
    ("thirteen count", {"apca:28"}),
    ("lone king long line", {"apca:24B"}),
    ("three kings against one", {"apca:28", "spanish-pool:8"}),
    ("stronger side won't finish", {"apca:27"}),
    ("forty move count", {"acf-guide:30", "standard-laws:12"}),
    ("same position three times", {"spanish-pool:8", "apca:23B"}),
    ("draw by repetition", {"spanish-pool:8", "apca:23B"}),
    ("what is a draw", {"apca:25"}),
    ("how do you win", {"apca:26"}),
    # time
    ("flag fell", {"acf-guide:15"}),
    ("both flags down", {"acf-guide:15"}),
    ("ran out of time", {"apca:9B", "apca:26A", "spanish-pool:8"}),
    ("double clocks", {"apca:9"}),
    ("five minutes per move", {"standard-laws:5", "apca:9C"}),
    ("opponent keeps stalling", {"apca:8", "acf-guide:2"}),
    ("clocks stopped during an argument", {"apca:11B"}),
    ("game not finished when the round ends", {"acf-guide:27"}),
    ("second game at the halfway point", {"acf-guide:17"}),
    ("arrived late", {"acf-guide:31"}),
    # conduct
    ("spectator talking", {"apca:31"}),
    ("spectator giving hints", {"apca:31"}),
    ("making noise", {"apca:29"}),
    ("hovering over the board", {"apca:29"}),
    ("pointing at the board", {"standard-laws:13"}),
    ("cell phone ringing", {"acf-guide:2"}),
    ("left the room", {"apca:30"}),
    ("bathroom break", {"apca:30", "acf-guide:2"}),
    # board, pieces, colours
    ("board size", {"apca:1"}),
    ("what colour are the squares", {"apca:1"}),
    ("size of the checkers", {"apca:3"}),
    ("starting position", {"apca:5"}),
    ("who chooses colours", {"apca:6"}),
    # decisions, ties, appeals
    ("appeal the referee's decision", {"apca:30B", "apca:34", "apca:34A"}),
    ("complaint to the president", {"apca:34A"}),
    ("match is tied", {"apca:32"}),
    ("tie break", {"apca:29B", "acf-guide:33"}),
    ("honor points", {"acf-guide:33"}),
    ("dispute not covered by the rules", {"standard-laws:16"}),
]


@pytest.mark.parametrize("query, expected", EVERYDAY_QUERIES, ids=[q for q, _ in EVERYDAY_QUERIES])
def test_everyday_words_find_the_rule_in_the_first_five(library, query, expected):
    refs = [h.ref for h in search(library, query, limit=5)]
    assert expected & set(refs), (query, refs)


def test_there_are_at_least_sixty_everyday_queries():
    assert len(EVERYDAY_QUERIES) >= 60
    assert len({q for q, _ in EVERYDAY_QUERIES}) == len(EVERYDAY_QUERIES)


@pytest.mark.parametrize("query, ref", [
    ("SL 7", "standard-laws:7"), ("Standard Laws 7", "standard-laws:7"),
    ("standard law 10", "standard-laws:10"), ("ACF 3", "acf-guide:3"),
    ("Spanish 6", "spanish-pool:6"), ("spanish rule 6", "spanish-pool:6"),
    ("APCA 28", "apca:28"), ("SL-16", "standard-laws:16"),
])
def test_rulebook_names_are_read_as_references(library, query, ref):
    hits = search(library, query, limit=3)
    assert hits[0].ref == ref and hits[0].match == "reference"


def test_long_and_hostile_queries_stay_queries(library):
    assert isinstance(search(library, "1" * 20000 + "!", limit=5), list)
    assert isinstance(search(library, "SL " + "7" * 5000, limit=5), list)
    assert isinstance(search(library, "let go " * 2000, limit=5), list)


def test_a_name_that_is_no_rulebook_is_searched_as_words(library):
    hits = search(library, "Spanish 99", limit=5)
    assert all(h.match != "reference" for h in hits)
    assert all(h.match != "reference" for h in search(library, "board 7", limit=5))


def test_the_synonyms_are_data_not_code(data_copy):
    from rulesbook import load_library

    path = data_copy / "synonyms.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  smoke: [smoking, \"leave the room\"]\n", ""), "utf-8")
    without = load_library(data_copy)
    assert "apca:30" not in [h.ref for h in search(without, "smoke", limit=5)]
    path.write_text(text.replace("standard-laws: [SL,", "standard-lawz: [SL,"), "utf-8")
    from rulesbook.loading import validate_folder
    messages = [p.message for p in validate_folder(data_copy)]
    assert any("unknown rulebook 'standard-lawz' (did you mean 'standard-laws'?)" in m
               for m in messages)


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
    from rulesbook.datapath import bundled_data_dir

    library = load_library(bundled_data_dir())
    index = weakref.ref(index_for(library))
    assert index() is index_for(library)
    del library
    gc.collect()
    assert index() is None  # nothing else keeps an old library's index alive
