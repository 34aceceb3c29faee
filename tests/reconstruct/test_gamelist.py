"""The game list's core (rulesbook.reconstruct.gamelist): entries from the tags,
the filter (every word, any column, any case), the sort, record defects."""
from __future__ import annotations

from rulesbook.reconstruct.gamelist import (
    Column,
    filter_games,
    game_list,
    record_defect,
    sort_games,
    split_games,
)
from tests.datapaths import CORPUS

PDN = ('[Event "Ohio State 1946"]\n[White "M Rex"]\n[Black "MF Tinsley"]\n[Round "2"]\n'
       '[Result "1/2-1/2"]\n1. 11-15 23-18 1/2-1/2\n\n'
       '[Event "US National"]\n[White "MF Tinsley"]\n[Black "E Fuller"]\n[Round "10"]\n'
       '[Date "????.??.??"]\n[Result "0-1"]\n1. 11-15 23-18 0-1\n\n'
       '[Event "Blitz"]\n[White "A\x1b[31mB"]\n[Black "?"]\n1. 11-15 junk 23-18 *\n')


def test_entries_show_the_tags_unknown_ones_empty_controls_visible():
    entries = game_list(split_games(PDN))
    assert [e.cell(Column.WHITE) for e in entries][:2] == ["M Rex", "MF Tinsley"]
    assert entries[1].cell(Column.DATE) == ""  # "????.??.??" is unknown
    assert entries[2].cell(Column.BLACK) == ""
    assert "\x1b" not in entries[2].cell(Column.WHITE)  # a terminal escape is not shown raw


def test_filter_every_word_in_some_column_any_case():
    entries = game_list(split_games(PDN))
    assert filter_games(entries, "TINSLEY") == [0, 1]
    assert filter_games(entries, "tinsley fuller") == [1]
    assert filter_games(entries, "tinsley blitz") == []
    assert filter_games(entries, "  ") == [0, 1, 2]
    # a word does not match across two columns ("rex mf" is not one cell)
    assert filter_games(entries, "rexmf") == []


def test_sort_numbers_as_numbers_ties_in_file_order():
    entries = game_list(split_games(PDN))
    rows = [0, 1, 2]
    assert sort_games(entries, rows, Column.ROUND) == [0, 1, 2]  # 2 before 10, empty last
    assert sort_games(entries, rows, Column.ROUND, descending=True) == [1, 0, 2]
    assert sort_games(entries, rows, Column.WHITE)[:2] == [2, 0]  # "A…" before "M Rex"


def test_a_defect_is_found_with_the_files_line():
    chunks = split_games(PDN)
    assert record_defect(chunks[0]) == ""
    defect = record_defect(chunks[2])
    lines = PDN.splitlines()
    line = next(n for n, text in enumerate(lines, 1) if "junk" in text)
    col = lines[line - 1].index("junk") + 1
    assert defect == f"line {line} col {col}: unreadable text 'junk'"


def test_tinsleys_file_lists_every_game():
    text = (CORPUS / "english-tinsley-1946-1960s.pdn").read_text(encoding="utf-8")
    entries = game_list(split_games(text))
    assert len(entries) == 724  # the corpus README's count
    assert text.count('[White "') == 724


def test_the_result_digits_are_not_words_of_the_filter():
    """Issue 33 Must 6: "1" is a whole number in a column a user means, not the 1 of
    "0-1" nor of round 10; ``result:`` and a tag name look in that one place."""
    entries = game_list(split_games(PDN))
    assert filter_games(entries, "1") == [0]  # game 1 (its number); no round, no result
    assert filter_games(entries, "10") == [1]  # round 10
    assert filter_games(entries, "result:0-1") == [1]
    assert filter_games(entries, "result:1/2-1/2") == [0]
    assert filter_games(entries, "tinsley result:1-0") == []
    assert filter_games(entries, "tins") == [0, 1]  # the start of a word
    assert filter_games(entries, "insley") == []  # not the middle of one
    # the first moves are not a column of a file with players, but can be asked for
    assert filter_games(entries, "23-18") == []
    assert filter_games(entries, "moves:23-18") == [0, 1, 2]
    assert filter_games(entries, "moves:junk") == [2]


def test_a_file_without_players_lists_its_first_moves_and_comment():
    text = ('[Event "ACF archive game 1"]\n[Site "Glasgow"]\n{Scored by hand; forfeit} '
            '1. 11-15 (1. 9-13 22-18) 23-19 2. 8-11 {a slip?} 22-17 3. 9-13 17-14 '
            '4. 10x17 21x14 *\n\n'
            '[Event "ACF archive game 2"]\n1.9-14 22-18 2. 5-9 24-19 1-0\n')
    entries = game_list(split_games(text))
    from rulesbook.reconstruct.gamelist import MOVES_COLUMNS, PLAYER_COLUMNS, columns_of

    assert columns_of(entries) == MOVES_COLUMNS
    assert columns_of(game_list(split_games(PDN))) == PLAYER_COLUMNS
    assert [e.cell(Column.MOVES) for e in entries] == [
        "1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14", "1. 9-14 22-18 2. 5-9 24-19"]
    assert [e.cell(Column.COMMENT) for e in entries] == ["Scored by hand; forfeit", ""]
    assert filter_games(entries, "forfeit") == [0]
    assert filter_games(entries, "9-14") == [1]
    assert filter_games(entries, "moves:9-13") == [0]  # not the variation's
    assert filter_games(entries, "site:glasgow") == [0]
    # a number typed is a game's number (or a round's), not a move number "2." nor
    # the square 8 of 8-11 (found by the #33 retest: "3" listed every game)
    assert filter_games(entries, "game 2") == [1]
    assert filter_games(entries, "2") == [1]
    assert filter_games(entries, "8") == []
    assert filter_games(entries, "8-11") == [0]
