"""The syntax layer of the PDN reader: tokens, tags, comments, variations, errors."""
from __future__ import annotations

import io

from rulesbook.draughts.pdn_syntax import MAX_PLIES, MAX_VARIATION_DEPTH, SyntaxReader


def raw_games(text: str):
    return list(SyntaxReader(io.StringIO(text)))


def one(text: str):
    games = raw_games(text)
    assert len(games) == 1, games
    return games[0]


def texts(nodes):
    return [n.text for n in nodes]


def test_tags_moves_result():
    g = one('[Event "E"]\n[Black "A \\"B\\""]\n[Result "1-0"]\n\n1. 11-15 23-19 2. 8-11 1-0\n')
    assert list(g.tags) == ["Event", "Black", "Result"]
    assert g.tags["Black"] == 'A "B"'
    assert texts(g.mainline) == ["11-15", "23-19", "8-11"]
    assert g.result == "1-0"
    assert g.errors == []
    assert (g.mainline[2].line, g.mainline[2].col) == (5, 19)
    assert g.tag_pos["Result"] == (3, 1)


def test_move_numbers_optional_and_ellipsis():
    g = one("1... 21-14 2. 31-24 14-32 3.24-28 32-23 4 . 2-6 *")
    assert texts(g.mainline) == ["21-14", "31-24", "14-32", "24-28", "32-23", "2-6"]
    g = one("11-15 23-19 *")
    assert texts(g.mainline) == ["11-15", "23-19"]


def test_move_forms():
    g = one("1. 9x18x27 c3-d4 2. c3:e5:c7 ed4 3. ed4:f6 ba5 *")
    assert texts(g.mainline) == ["9x18x27", "c3-d4", "c3:e5:c7", "ed4", "ed4:f6", "ba5"]


def test_results_all_forms():
    cases = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "2-0": "2-0", "0-2": "0-2",
             "1-1": "1-1", "0-0": "0-0", "*": "*", "1/2:1/2": "1/2-1/2", "0:1": "0-1",
             "1:0": "1-0"}
    for written, normal in cases.items():
        g = one(f'[Result "{written}"]\n1. 11-15 {written}\n')
        assert (g.result, g.result_text) == (normal, written)
        assert g.errors == []


def test_result_does_not_eat_moves():
    g = one("1. 1-10 1-12 0-1")
    assert texts(g.mainline) == ["1-10", "1-12"]
    assert g.result == "0-1"


def test_result_mismatch_with_tag():
    g = one('[Result "1-0"]\n1. 11-15 0-1')
    assert [(e.line, e.col) for e in g.errors] == [(2, 10)]
    assert "differs from the Result tag" in g.errors[0].message


def test_comments_nags_marks():
    g = one("{ before } 1. 11-15! { good\n move } 23-19 $14 ?! ; rest of line\n8-11 *")
    assert g.comment == "before"
    first, second, third = g.mainline
    assert first.comment == "good move"
    assert first.nags == [1]
    assert second.nags == [14, 6]
    assert second.comment == "rest of line"
    assert third.text == "8-11" and (third.line, third.col) == (3, 1)


def test_percent_escape_line():
    g = one("% a private line 1-0\n1. 11-15 *")
    assert texts(g.mainline) == ["11-15"] and g.result == "*"


def test_nested_variations():
    g = one("1. 11-15 (1. 9-14 22-18 (2. 24-20) 2. 5-9) (1. 10-14) 23-19 *")
    first = g.mainline[0]
    assert texts(g.mainline) == ["11-15", "23-19"]
    assert [texts(v) for v in first.variations] == [["9-14", "22-18", "5-9"], ["10-14"]]
    assert texts(first.variations[0][1].variations[0]) == ["24-20"]


def test_variation_pre_comment():
    g = one("1. 11-15 ({ another idea } 1. 9-14) *")
    assert g.mainline[0].variations[0][0].pre_comment == "another idea"


def test_unreadable_text_position_and_merge():
    g = one("1. 11-15 23-19 2. 8-11Black wins here 1-0")
    assert [(e.line, e.col) for e in g.errors] == [(1, 23)]
    assert g.errors[0].message == "unreadable text 'Black wins here'"
    assert g.errors[0].token == "Black wins here"
    assert texts(g.mainline) == ["11-15", "23-19", "8-11"]
    assert g.result == "1-0"


def test_unreadable_text_token_is_whole_and_other_errors_have_none():
    junk = "x" * 400
    g = one(f"1. 11-15 {junk} 23-19 ) *")
    unreadable, paren = g.errors
    assert unreadable.token == junk and unreadable.message.endswith("…")
    assert paren.token is None and paren.message == "')' without a '('"


def test_placeholders_are_kept_as_moves():
    g = one("1. - - 2. - - 1/2-1/2")
    assert texts(g.mainline) == ["-", "-", "-", "-"]
    assert g.errors == []


def test_comment_before_tags_is_reported():
    g = one('{ a file header }\n[Event "x"]\n1. 11-15 *')
    assert [(e.line, e.col) for e in g.errors] == [(1, 1)]
    assert "comment before the tags" in g.errors[0].message
    assert g.comment == "a file header"


def test_malformed_tag_is_read_and_reported():
    g = one('[Event "x"]\n[Round "11.1]\n[GameType "25"]\n\n1. ed4 *')
    assert g.tags == {"Event": "x", "Round": "11.1", "GameType": "25"}
    assert [(e.line, e.col) for e in g.errors] == [(2, 1)]
    assert "malformed tag" in g.errors[0].message


def test_unterminated_comment_stops_at_next_game():
    text = '[Event "a"]\n1. 11-15 { oops\n23-19 1-0\n\n[Event "b"]\n1. 9-14 *\n'
    a, b = raw_games(text)
    assert [(e.line, e.col, e.message) for e in a.errors][0] == (2, 10, "unterminated comment")
    assert b.tags == {"Event": "b"} and texts(b.mainline) == ["9-14"]
    assert b.errors == []


def test_unterminated_comment_at_eof():
    g = one("1. 11-15 { never closed\n and more")
    assert (g.errors[0].line, g.errors[0].col, g.errors[0].message) == (1, 10,
                                                                        "unterminated comment")


def test_unterminated_variation():
    g = one("1. 11-15 (1. 9-14 22-18 1-0")
    assert [(e.line, e.col) for e in g.errors] == [(1, 25)]
    assert g.errors[0].message == "unterminated variation (opened at line 1 col 10)"
    assert g.result == "1-0"


def test_unmatched_close_paren():
    g = one("1. 11-15 ) 23-19 *")
    assert [(e.line, e.col, e.message) for e in g.errors] == [(1, 10, "')' without a '('")]


def test_variation_depth_is_capped_without_recursion():
    depth = 5000
    text = "1. 11-15 " + "(1. 9-14 " * depth + ")" * depth + " 23-19 *"
    g = one(text)
    assert any(f"deeper than {MAX_VARIATION_DEPTH}" in e.message for e in g.errors)
    assert texts(g.mainline) == ["11-15", "23-19"]
    # exactly MAX_VARIATION_DEPTH levels were kept
    node, levels = g.mainline[0], 0
    while node.variations:
        node, levels = node.variations[0][0], levels + 1
    assert levels == MAX_VARIATION_DEPTH


def test_many_unterminated_parens_do_not_hang():
    g = one("1. 11-15 " + "(" * 100_000)
    assert g.errors and any("unterminated variation" in e.message for e in g.errors)


def test_missing_result_before_next_game():
    a, b = raw_games('[Event "a"]\n1. 11-15 23-19\n[Event "b"]\n1. 9-14 *')
    assert [(e.line, e.col) for e in a.errors] == [(2, 15)]
    assert "no result" in a.errors[0].message
    assert texts(b.mainline) == ["9-14"]


def test_multiple_games_and_line_numbers():
    text = "".join(f'[Event "{i}"]\n1. 11-15 23-19 *\n\n' for i in range(5))
    games = raw_games(text)
    assert [g.tags["Event"] for g in games] == ["0", "1", "2", "3", "4"]
    assert [g.mainline[1].line for g in games] == [2, 5, 8, 11, 14]


def test_two_games_on_one_line():
    a, b = raw_games("1. 11-15 1-0 1. 9-14 0-1")
    assert texts(a.mainline) == ["11-15"] and a.result == "1-0"
    assert texts(b.mainline) == ["9-14"] and b.result == "0-1"
    assert (b.mainline[0].line, b.mainline[0].col) == (1, 17)


def test_empty_input():
    assert raw_games("") == []
    assert raw_games("\n\n   \n") == []


def test_a_million_tokens_stop_at_the_plies_limit():
    # 500,000 moves in one game: the first MAX_PLIES are kept, then one error
    # names the limit and where it was hit (the scaling itself is checked by
    # tools/fuzz.py --scaling, not by a timing assertion here)
    text = "1. 11-15 23-19\n" * 250_000 + "*"
    g = one(text)
    assert len(g.mainline) == MAX_PLIES
    limit = [e for e in g.errors if "moves in one game" in e.message]
    assert len(limit) == 1 and f"{MAX_PLIES:,}" in limit[0].message
    assert limit[0].line == MAX_PLIES // 2 + 1 and g.result == "*"


# --------------------------------------------------------------------------- ( ) as comments

PAREN_NOTE = "comment written in parentheses: read as a comment"


def test_prose_in_parentheses_is_a_comment_and_its_result_ends_nothing():
    g = one("1. 11-15 (Score 1-0 to Nemesis.) 23-19 2. 8-11 *")
    assert texts(g.mainline) == ["11-15", "23-19", "8-11"]
    assert g.mainline[0].comment == "Score 1-0 to Nemesis." and not g.mainline[0].variations
    assert g.result == "*"
    assert [(e.line, e.col) for e in g.errors] == [(1, 10)]
    assert g.errors[0].message.startswith(PAREN_NOTE)


def test_prose_in_parentheses_over_several_lines():
    text = ('[Event "a"]\n1. 11-15 (a long note\nthat says 1-0 on its\nsecond line) 23-19 *\n'
            '[Event "b"]\n1. 9-14 *\n')
    a, b = raw_games(text)
    assert texts(a.mainline) == ["11-15", "23-19"] and a.result == "*"
    assert a.mainline[0].comment == "a long note that says 1-0 on its second line"
    assert [(e.line, e.col) for e in a.errors] == [(2, 10)]
    assert (a.mainline[1].line, a.mainline[1].col) == (4, 14)
    assert texts(b.mainline) == ["9-14"] and b.errors == []


def test_variations_stay_variations():
    g = one("1. 11-15 (1. 9-14 22-18 {a comment (with parentheses)}) 23-19 *")
    assert g.errors == []
    assert texts(g.mainline) == ["11-15", "23-19"]
    assert texts(g.mainline[0].variations[0]) == ["9-14", "22-18"]


def test_prose_nested_in_a_variation():
    g = one("1. 11-15 (1. 9-14 (the book move) 22-18) 23-19 *")
    assert texts(g.mainline) == ["11-15", "23-19"]
    (line,) = g.mainline[0].variations
    assert texts(line) == ["9-14", "22-18"] and line[0].comment == "the book move"
    assert [(e.line, e.col) for e in g.errors] == [(1, 19)]


def test_unclosed_prose_is_still_an_unterminated_variation():
    g = one("1. 11-15 (no closing parenthesis 1-0")
    assert any("unterminated variation" in e.message for e in g.errors)


def test_uppercase_squares_are_moves():
    g = one("1. E3-D4 F6-G5 2. D4XF6 *")
    assert texts(g.mainline) == ["E3-D4", "F6-G5", "D4XF6"]
    assert g.errors == []


# --------------------------------------------------------------------------- issue 34: linear tags

def _at_the_line_limit(head: str, fill: str, tail: str) -> str:
    from rulesbook.draughts.pdn_syntax import MAX_LINE_CHARS

    return head + fill * (MAX_LINE_CHARS - len(head) - len(tail) - 1) + tail + "\n"


def test_an_open_tag_as_long_as_the_line_limit_is_one_unreadable_word():
    # '[' and a name with no ']': it was read once per character (quadratic: hours at
    # the limit); the time is measured by tools/fuzz.py --scaling (pdn-open-tag)
    g = one(_at_the_line_limit("[", "a", ""))
    assert [(e.line, e.col) for e in g.errors][:1] == [(1, 1)]
    assert g.errors[0].message.startswith("unreadable text '[aaa")
    assert g.mainline == []


def test_an_open_tag_of_spaces_as_long_as_the_line_limit():
    g = one(_at_the_line_limit("[a", " ", "x"))
    assert [(e.line, e.col) for e in g.errors][:1] == [(1, 1)]
    assert g.errors[0].message.startswith("unreadable text '[a ")


def test_attack_3_the_64_kb_file_in_a_variation():
    g = one("1. 11-15 (" + "[a" + " " * 64_000 + "x\n")
    assert texts(g.mainline) == ["11-15"]
    assert [(e.line, e.col) for e in g.errors][:2] == [(1, 11), (1, 64_014)]
    assert "unterminated variation (opened at line 1 col 10)" in g.errors[1].message


def test_a_tag_line_still_reads_after_the_atomic_name():
    g = one('[Event  "x"]\n[Site nowhere]\n1. 11-15 *\n')
    assert g.tags["Event"] == "x" and texts(g.mainline) == ["11-15"]
