"""Reading the rules: the tree, topics, the rule page, search."""
from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import copy_data


def test_rule_28_page_shows_its_proposals(window, controller):
    rules = window.workspaces["rules"]
    assert controller.open_ref("28")
    assert window.current_workspace() is rules
    text = rules.page.toPlainText()
    assert "apca:28 — The 13-count" in text
    assert "28A — Pecan (A), replacement" in text
    assert "28B — Shotgun (B), replacement" in text
    assert "misfiled" in text  # the source note on 28B
    assert "apca:32" in text  # 28B concerns rule 32
    assert "24B" in text  # filed under 24 but concerning 28
    html = rules.page.page_html()
    assert 'href="rule:apca:28A"' in html and 'href="topic:thirteen-count"' in html
    # the tree follows
    assert rules.tree.currentIndex().data() == "28. The 13-count"


def test_tree_selection_opens_rules_and_topics_open_the_concordance(window, qtbot):
    rules = window.workspaces["rules"]
    index = rules.tree_model.index_for_ref("apca:12")
    rules.tree.setCurrentIndex(index)
    assert rules.current == "apca:12"
    row = rules.topic_model.row_of("touch-move")
    rules.topics.setCurrentIndex(rules.topic_model.index(row))
    assert rules.current == "topic:touch-move"
    text = rules.page.toPlainText()
    assert "Touch and move" in text and "standard-laws" in text.lower() or "Standard" in text
    rules.go_back()
    assert rules.current == "apca:12"


def test_data_text_is_escaped(qtbot, tmp_path, settings):
    from ui.controller import AppController
    from ui.mainwindow import MainWindow

    folder = copy_data(tmp_path / "hostile")
    book = folder / "apca" / "rulebook.yaml"
    text = book.read_text(encoding="utf-8")
    evil = ("<script>alert(1)</script> <img src=file:///etc/passwd> <a href='https://x'>x</a>"
            " [click](javascript:alert(2)) ![pic](file:///etc/hosts)")
    text = text.replace('title: "The standard board"\n    text: "',
                        f'title: "The standard board"\n    text: "{evil} ', 1)
    book.write_text(text, encoding="utf-8")
    ctrl = AppController()
    assert ctrl.load(folder).ok
    win = MainWindow(ctrl, settings)
    qtbot.addWidget(win)
    ctrl.open_ref("apca:1")
    page = win.workspaces["rules"].page
    assert "<script>alert(1)</script>" in page.toPlainText()
    assert "<img src=file:///etc/passwd>" in page.toPlainText()
    html = page.page_html()
    assert "<script" not in html and "<img" not in html and "<a href='https://x'" not in html
    assert "[click](javascript:alert(2))" in page.toPlainText()
    assert "javascript:" not in html.replace("(javascript:alert(2))", "")
    assert 'href="javascript' not in html and "file:///etc/hosts\"" not in html


def test_search_as_you_type_and_open_first_hit(window, qtbot):
    field = window.search_field
    field.setFocus()
    qtbot.keyClicks(field, "touched a piece")
    popup = window.search_results
    qtbot.waitUntil(popup.isVisible, timeout=3000)
    hits = popup.model.hits
    assert hits and hits[0].ref in {"acf-guide:26", "apca:12", "apca:12A", "apca:13B",
                                    "standard-laws:7", "apca:11"}
    snippets = [popup.model.index(i).data(Qt.ItemDataRole.UserRole + 2)
                for i in range(popup.model.rowCount())]
    assert any("<b>touched</b>" in s.lower() for s in snippets)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    rules = window.workspaces["rules"]
    assert rules.current == hits[0].ref
    assert window.current_workspace() is rules
    assert not popup.isVisible()
    assert rules.page.toPlainText().startswith(hits[0].ref)


def test_search_arrow_keys_choose_a_hit(window, qtbot):
    field = window.search_field
    field.setFocus()
    qtbot.keyClicks(field, "touched a piece")
    qtbot.waitUntil(window.search_results.isVisible, timeout=3000)
    second = window.search_results.model.hits[1].ref
    qtbot.keyClick(field, Qt.Key.Key_Down)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert window.workspaces["rules"].current == second


def test_rule_reference_jumps_straight_to_the_rule(window, qtbot):
    window.show_workspace("editions")
    field = window.search_field
    field.setFocus()
    qtbot.keyClicks(field, "10B")
    qtbot.keyClick(field, Qt.Key.Key_Return)  # before the debounce fires
    assert window.workspaces["rules"].current == "apca:10B"
    assert window.current_workspace().id == "rules"


def test_models_pass_the_model_tester(qtmodeltester, controller):
    from ui.models import (
        EditionListModel,
        RulebookTreeModel,
        SearchResultsModel,
        TopicListModel,
    )

    tree = RulebookTreeModel()
    tree.set_library(controller.library)
    qtmodeltester.check(tree)
    topics = TopicListModel()
    topics.set_library(controller.library)
    qtmodeltester.check(topics)
    results = SearchResultsModel()
    results.set_hits(controller.search("touched a piece"))
    qtmodeltester.check(results)
    editions = EditionListModel()
    editions.set_library(controller.library)
    editions.set_in_force("original")
    qtmodeltester.check(editions)
    assert tree.rowCount() == len(controller.library.rulebooks)
    apca = tree.index(0, 0)
    assert apca.data() == "APCA proposed rules"


def test_the_tree_model_answers_both_of_qts_parent_calls(window):
    """``parent()`` is the model's owner (QObject), ``parent(index)`` the index above;
    the override took over the first and answered an invalid index (issue #20, mypy)."""
    rules = window.workspaces["rules"]
    tree = rules.tree_model
    assert tree.parent() is rules
    book = tree.index(0, 0)
    rule = tree.index(0, 0, book)
    assert rule.isValid() and tree.parent(rule) == book
    assert not tree.parent(book).isValid()
