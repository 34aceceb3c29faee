"""Issue 33 Must 6, the game list filter (real dialog, offscreen): a free word is
looked for in the columns a user means (players, event, date, round, the game's
number), from the start of a word and numbers whole, so "Example 1" lists Example
1 first and not every game whose result "0-1" has a 1; ``column:value`` filters
look in one column (``result:1-0``); a file without player tags (the ACF
archive's kind) shows the first moves and the comment instead, and they filter.
The expected rows are worked out here from the file written, not from the list."""
from __future__ import annotations

import re

from PySide6.QtCore import Qt

from tests.ui.archive import archive_games, archive_text, numbered
from tests.ui.test_gamelist import make_dialog, tags_of_file

#: the events in the file's order: Example 1 is not the first game
ORDER = (3, 10, 1, 12, 2, 11, 4, 5, 6, 7, 8, 9)
RESULTS = ("0-1", "1-0", "1/2-1/2")


def examples() -> str:
    return "".join(f'[Event "Example {n}"]\n[White "P{n}"]\n[Black "Q{n}"]\n'
                   f'[Round "{n + 20}"]\n[Result "{RESULTS[i % 3]}"]\n1. 11-15 {RESULTS[i % 3]}\n\n'
                   for i, n in enumerate(ORDER))


def events(dialog) -> list[str]:
    return [row[2] for row in dialog.rows_text()]


def filtered(qtbot, dialog, words: str) -> list[list[str]]:
    dialog.filter_edit.clear()
    qtbot.keyClicks(dialog.filter_edit, words)
    return dialog.rows_text()


def test_example_1_lists_example_1_first_and_not_the_results_with_a_1(qtbot):
    dialog = make_dialog(qtbot, examples())
    filtered(qtbot, dialog, "Example 1")
    shown = events(dialog)
    # "1" whole in a column a user means: the event "Example 1", and game 1 (its number)
    assert shown[0] == "Example 1"
    assert sorted(shown) == sorted({"Example 1", f"Example {ORDER[0]}"})
    assert dialog.count_label.text() == f"2 of {len(ORDER)} games"
    # a round is a column too: round 21 is Example 1's, not Example 10's ("21" whole)
    filtered(qtbot, dialog, "21")
    assert events(dialog) == ["Example 1"]
    filtered(qtbot, dialog, "exam")  # from the start of a word: every game
    assert len(events(dialog)) == len(ORDER)
    dialog.reject()


def test_result_and_other_column_filters(qtbot):
    text = examples()
    dialog = make_dialog(qtbot, text)
    tags = tags_of_file(text)
    for result in RESULTS:
        filtered(qtbot, dialog, f"result:{result}")
        expected = [t["Event"] for t in tags if t["Result"] == result]
        assert events(dialog) == expected and len(expected) == len(ORDER) // 3
    # a free word with a column filter: both must match
    filtered(qtbot, dialog, "example result:1-0 round:22")
    assert events(dialog) == [t["Event"] for t in tags
                              if t["Result"] == "1-0" and t["Round"] == "22"]
    filtered(qtbot, dialog, "game:3")
    assert events(dialog) == [tags[2]["Event"]]
    filtered(qtbot, dialog, "result:")  # being typed: no filter yet
    assert len(events(dialog)) == len(ORDER)
    dialog.reject()


def test_a_file_without_players_shows_and_filters_first_moves_and_comment(qtbot):
    games = archive_games()
    dialog = make_dialog(qtbot, archive_text())
    headers = [dialog.model.headerData(c, Qt.Orientation.Horizontal)
               for c in range(dialog.model.columnCount())]
    assert headers == ["First moves", "Comment", "Event", "Date", "Round", "Result"]
    rows = dialog.rows_text()
    assert [row[0] for row in rows] == [numbered(m[:6]) for _e, _c, _r, m in games]
    assert [row[1] for row in rows] == [c for _e, c, _r, _m in games]
    assert "First moves" in dialog.filter_edit.placeholderText()
    # a word of the comment
    filtered(qtbot, dialog, "forfeit")
    assert events(dialog) == [e for e, c, _r, _m in games if "forfeit" in c]
    assert 0 < len(events(dialog)) < len(games)
    filtered(qtbot, dialog, "comment:forfeit")
    assert events(dialog) == [e for e, c, _r, _m in games if "forfeit" in c]
    # the first moves of a game: the games that open with all of them
    moves = games[4][3][:4]
    filtered(qtbot, dialog, " ".join(moves[1:]))
    expected = [e for e, _c, _r, m in games if set(moves[1:]) <= set(m[:6])]
    assert games[4][0] in expected and events(dialog) == sorted(
        expected, key=lambda e: int(re.sub(r"\D", "", e)))
    assert len(expected) < len(games)
    dialog.reject()
