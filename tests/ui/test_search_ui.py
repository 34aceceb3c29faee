"""Searching as a referee does: type, Enter, read the rule with the words marked;
narrow the hits to one rulebook (issue 19)."""
from __future__ import annotations

from PySide6.QtCore import Qt

from ui.search import words_to_mark


def type_query(window, qtbot, text: str) -> None:
    field = window.search_field
    field.setFocus()
    field.clear()
    qtbot.keyClicks(field, text)
    qtbot.waitUntil(lambda: window.search_results.model.rowCount() > 0, timeout=3000)


def test_words_to_mark_takes_the_matched_words_and_the_query():
    assert words_to_mark("crowning", "a man [crowned] on the [crown] row") == (
        "crowned", "crown", "crowning")
    assert words_to_mark("a to", "nothing matched") == ()  # words under 3 letters


def test_the_opened_rule_marks_the_words_searched_for(window, qtbot):
    type_query(window, qtbot, "touched a piece")
    hit = window.search_results.model.hits[0]
    qtbot.keyClick(window.search_field, Qt.Key.Key_Return)
    rules = window.workspaces["rules"]
    assert window.current_workspace() is rules and rules.current == hit.ref
    marks = rules.page.extraSelections()
    assert marks, "no word of the search is marked on the rule's page"
    marked = {m.cursor.selectedText().lower() for m in marks}
    assert marked <= {w.lower() for w in words_to_mark("touched a piece", hit.snippet)}
    assert "touched" in marked or "piece" in marked
    # another page opened from the tree is not marked with the old search's words
    rules.show_ref("apca:1")
    assert rules.page.extraSelections() == []


def test_the_rulebook_filter_keeps_one_rulebook(window, qtbot):
    scope = window.search_scope
    books = {scope.itemData(i) for i in range(scope.count())}
    assert {None, "apca", "standard-laws", "spanish-pool", "acf-guide"} <= books
    type_query(window, qtbot, "touch")
    assert {h.rulebook for h in window.search_results.model.hits} != {"standard-laws"}
    scope.setCurrentIndex(scope.findData("standard-laws"))
    qtbot.waitUntil(lambda: {h.rulebook for h in window.search_results.model.hits}
                    == {"standard-laws"}, timeout=3000)
