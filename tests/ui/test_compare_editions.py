"""Comparing variants, editions, redlines and exports."""
from __future__ import annotations

from PySide6.QtWidgets import QApplication

from ui.controller import AppController
from ui.mainwindow import MainWindow


def test_compare_rule_28_shows_proposal_24B_in_a_column(window, controller):
    controller.compare("28")
    compare = window.workspaces["compare"]
    assert window.current_workspace() is compare
    refs = [c.ref for c in compare.columns]
    assert refs[:2] == ["apca:28", "apca:28A"]
    assert "apca:28B" not in refs  # filed under 28, concerns 32: listed apart
    assert "apca:24B" in refs
    assert "spanish-pool:8" in refs
    col = compare.columns[refs.index("apca:24B")]
    assert "Shotgun" in col.header.text()
    assert "long line" in col.browser.toPlainText()
    assert 'class="ins"' in col.browser.page_html()  # highlighted against the original
    # columns line up: same top, same height
    assert len({c.geometry().top() for c in compare.columns}) == 1


def test_compare_columns_can_be_chosen(window, controller):
    controller.compare("apca:28")
    compare = window.workspaces["compare"]
    compare.set_group_visible("Proposals", False)
    assert [c.ref for c in compare.columns] == ["apca:28", "spanish-pool:8"]
    compare.set_group_visible("Proposals", True)
    compare.set_column_visible("apca:28A", False)
    assert "apca:28A" not in [c.ref for c in compare.columns]
    assert "apca:24B" in [c.ref for c in compare.columns]


def test_compare_scrolling_is_synchronized(window, controller, qtbot):
    controller.compare("topic:thirteen-count")
    compare = window.workspaces["compare"]
    window.resize(1280, 300)

    def scrollable_bars():
        bars = [c.browser.verticalScrollBar() for c in compare.shown_columns()]
        return [b for b in bars if b.maximum() > 0]

    qtbot.waitUntil(lambda: len(scrollable_bars()) >= 2)  # laid out at the new height
    scrollable = scrollable_bars()
    scrollable[0].setValue(scrollable[0].maximum())
    assert all(b.value() == b.maximum() for b in scrollable)


def test_compare_pages_columns_instead_of_scrolling_sideways(window, controller, qtbot):
    """Issue 19: at 1024x700 nothing scrolls sideways. As many columns as fit are
    shown, the original stays first, and Next/Previous (Alt+N/Alt+P) bring the rest."""
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)
    controller.compare("28")
    compare = window.workspaces["compare"]
    QApplication.processEvents()  # the columns are laid out
    assert not compare.scroll_area.horizontalScrollBar().isVisible()
    all_refs = [c.ref for c in compare.columns]
    assert len(all_refs) > 3  # 28, its proposals and the other rulebooks: more than fit
    seen: list[str] = []
    for _ in range(len(all_refs)):
        shown = compare.shown_columns()
        assert shown[0].ref == "apca:28"  # the original is always the first column
        assert 1 < len(shown) < len(all_refs)
        right = compare.scroll_area.viewport().width()
        for column in shown:  # every shown column lies wholly inside the viewport
            assert column.geometry().right() <= right, column.ref
        seen += [c.ref for c in shown if c.ref not in seen]
        if not compare.next_button.isEnabled():
            break
        compare.next_button.click()
    assert seen == all_refs  # Next reaches every column, in order
    assert compare.previous_button.isEnabled()
    assert f"of {len(all_refs)}" in compare.summary.text()
    while compare.previous_button.isEnabled():
        compare.previous_button.click()
    assert [c.ref for c in compare.shown_columns()][:2] == ["apca:28", "apca:28A"]
    # wide enough for all of them: no paging buttons
    window.resize(3000, 700)
    QApplication.processEvents()
    if len(compare.shown_columns()) == len(all_refs):
        assert not compare.next_button.isVisible()


def test_compare_topic(window, controller):
    controller.compare("topic:touch-move")
    compare = window.workspaces["compare"]
    refs = [c.ref for c in compare.columns]
    assert "apca:12" in refs and "acf-guide:26" in refs


def test_redline_between_two_editions(qtbot, two_editions, settings):
    ctrl = AppController()
    assert ctrl.load(two_editions).ok
    win = MainWindow(ctrl, settings)
    qtbot.addWidget(win)
    editions = win.workspaces["editions"]
    assert editions.model.rowCount() == 2
    editions.set_redline("original", "second")
    text = editions.redline_view.toPlainText()
    assert "apca:28" in text and "(changed)" in text and "1 changed" in text
    assert "says" in text  # 28A's words
    assert 'class="del"' in editions.redline_view.page_html()

    # the consolidated view of the second edition shows 28A's text
    editions.show_edition("second")
    assert "Text of apca:28A, adopted in second" in editions.consolidated.toPlainText()

    # the edition in force, chosen in the toolbar, changes the rule page
    win.confirm_edition = lambda _old, _new: True
    win.edition_combo.setCurrentIndex(win.edition_combo.findData("second"))
    win.edition_combo.activated.emit(win.edition_combo.currentIndex())
    assert ctrl.edition_id == "second"
    ctrl.open_ref("28")
    page = win.workspaces["rules"].page.toPlainText()
    assert "Text in force — Second edition (test)" in page
    assert "If the player with the lone king says" in page
    assert "Original text" in page
    assert "Second edition (test)" in win.edition_status.text()


def test_export_redline_to_pdf_and_html(qtbot, two_editions, settings, tmp_path):
    ctrl = AppController()
    ctrl.load(two_editions)
    win = MainWindow(ctrl, settings)
    qtbot.addWidget(win)
    editions = win.workspaces["editions"]
    editions.set_redline("original", "second")
    title, body = editions.redline_document()
    pdf = win.export_as("pdf", title, body, path=str(tmp_path / "redline.pdf"))
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(data) > 5000
    assert b"/Font" in data and data.rstrip().endswith(b"%%EOF")
    html_file = win.export_as("html", title, body, path=str(tmp_path / "redline.html"))
    text = html_file.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "<del" in text and "apca:28" in text
    assert not list(tmp_path.glob(".redline*.tmp"))  # atomic: no temp files left
    # File > Export from the current workspace
    win.show_workspace("editions")
    assert win.current_workspace().export_document()[0].startswith("Redline")
