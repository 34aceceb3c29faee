"""The Rulings workspace, driven through the real widgets (offscreen)."""
from __future__ import annotations

import html

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QSpinBox

from rulesbook.draughts import Position, Variant
from rulesbook.rulings import GameIncident, RequestOrigin, RulingsRequest

FACTS = {"discovered": "at_once", "repeated": False, "players_agree": False,
         "reconstructible": True}


@pytest.fixture
def rulings(window):
    return window.workspaces["rulings"]


def test_board_request_fills_the_panel_and_compare_shows_10_against_10c(window, rulings, qtbot):
    window.show_workspace("rules")
    # what the board's BoardController emits: the incident with its facts and the move
    window.controller.rulingsRequested.emit(RulingsRequest(
        GameIncident("failure_to_capture", {"discovered": "at_once"}, move="10-14"),
        RequestOrigin.CHECK_RECORD))
    assert window.current_workspace() is rulings
    assert rulings.chooser.current_id() == "failure_to_capture"
    form = rulings.facts_form
    assert isinstance(form.fields["discovered"], QComboBox)
    assert form.fields["discovered"].currentText() == "at once"
    assert form.value("repeated") is None
    assert rulings.rulings.context["move"] == "10-14"
    page = rulings.rulings_view.page_html()
    assert "Not decided yet" in page
    assert "Has this player already made a false or improper move" in page

    # the referee answers the remaining questions in the typed fields
    for fact, text in (("repeated", "no"), ("players_agree", "no"), ("reconstructible", "yes")):
        combo = form.fields[fact]
        combo.setCurrentIndex(combo.findText(text))
    assert rulings.rulings.facts == FACTS
    best = rulings.rulings.suggestions.best
    assert (best.ref, best.outcome) == ("apca:10", "retract_and_replay")
    page = rulings.rulings_view.page_html()
    assert "The move is taken back and a legal move is made instead" in page
    assert "font-size:xx-large" in page
    assert html.escape(best.text[:40]) in page
    assert "Facts that matched" in page

    rulings.tabs.setCurrentIndex(rulings.TAB_COMPARE)
    table = rulings.compare_table
    row10, row10c = table.row_of("apca:10"), table.row_of("apca:10C")
    assert row10 >= 0 and row10c >= 0
    assert "taken back" in table.item(row10, 1).text()
    assert table.item(row10, 2).text() == "the original"
    assert "reconstructed to the disputed move" in table.item(row10c, 1).text()

    assert table.item(row10c, 2).text() == "DIFFERS"
    assert table.item(row10c, 1).font().bold()
    assert table.item(row10c, 0).background().color() != table.item(row10, 0).background().color()
    labels = [table.item(r, 0).text() for r in range(table.rowCount())]
    assert any(lbl.startswith("standard-laws:") for lbl in labels)
    assert any(lbl.startswith("spanish-pool:") for lbl in labels)
    assert any(lbl.startswith("acf-guide:") for lbl in labels)


def test_facts_update_live_and_numbers_are_typed(rulings, qtbot):
    rulings.chooser.search.setFocus()
    qtbot.keyClicks(rulings.chooser.search, "touch")
    visible = [rulings.chooser.list.item(i).text() for i in range(rulings.chooser.list.count())
               if not rulings.chooser.list.item(i).isHidden()]
    assert "Touched piece (touch and move)" in visible
    assert "Failure to capture" not in visible
    rulings.chooser.select("touch_move")
    rulings.rulings.select_incident("touch_move")
    form = rulings.facts_form
    assert isinstance(form.fields["offense_number"], QSpinBox)
    form.fields["piece_playable"].setCurrentIndex(form.fields["piece_playable"].findText("yes"))
    form.fields["refuses_to_move"].setCurrentIndex(
        form.fields["refuses_to_move"].findText("no"))
    # Rule 12 applies "AFTER THE PIECES HAVE BEEN ARRANGED": without notice
    form.fields["notice_given"].setCurrentIndex(form.fields["notice_given"].findText("no"))
    # and the player moved no other piece (#31: else Rule 12's forfeit alone applies)
    form.fields["moved_other_piece"].setCurrentIndex(
        form.fields["moved_other_piece"].findText("no"))
    assert rulings.rulings.suggestions.best.outcome == "must_move_piece"
    assert "The touched piece must be moved" in rulings.rulings_view.page_html()
    form.fields["offense_number"].setValue(2)
    assert rulings.rulings.facts["offense_number"] == 2
    form.fields["offense_number"].setValue(-1)  # back to "not known"
    assert "offense_number" not in rulings.rulings.facts


def test_case_library_for_a_proposal(rulings, qtbot):
    rulings.tabs.setCurrentIndex(rulings.TAB_CASES)
    rulings.cases.show_proposal("apca:10C")
    items = [rulings.cases.list.item(i) for i in range(rulings.cases.list.count())]
    ids = [i.data(Qt.ItemDataRole.UserRole + 1).id for i in items]
    assert "failure-to-capture-at-once" in ids
    assert "decides differently" in rulings.cases.summary.text()
    item = items[ids.index("failure-to-capture-at-once")]
    rulings.cases.list.setCurrentItem(item)
    rulings.cases.open_button.click()
    assert rulings.rulings.incident_id == "failure_to_capture"
    assert rulings.rulings.facts == FACTS
    assert rulings.tabs.currentIndex() == rulings.TAB_RULINGS


def test_report_preview_and_export_to_html_and_pdf(rulings, qtbot, tmp_path):
    from rulesbook.rulings import get_case

    case = get_case(rulings.rulings.library, "illegal-move-found-four-moves-later")
    rulings.rulings.load_case(case)
    rulings.tabs.setCurrentIndex(rulings.TAB_REPORT)
    pane = rulings.report
    # the referee types the decision and a note with markup: kept, then escaped
    qtbot.keyClicks(pane.editors["notes"], "White says <b>17-10</b> & 9-14 were fine")
    assert rulings.rulings.fields["notes"].endswith("were fine")
    pane.editors["decision"].setPlainText("Reconstructed to move 3; White replays.")
    assert rulings.rulings.fields["decision"] == "Reconstructed to move 3; White replays."
    pane.refresh_preview()
    assert pane.preview.image is not None and not pane.preview.image.isNull()
    preview = pane.preview.toPlainText()
    assert "Dispute report" in preview and "Reconstructed to move 3" in preview
    assert "L. Thompson" in preview

    out_html = rulings.save_report("html", str(tmp_path / "report.html"))
    text = out_html.read_text(encoding="utf-8")
    rule_text = rulings.rulings.suggestions.rulings[0].text
    assert html.escape(rule_text.splitlines()[0][:60]) in text
    assert "&lt;b&gt;17" in text and "<b>17-10</b>" not in text
    assert "<svg" in text and "(disputed)" in text
    assert "Reconstructed to move 3" in text

    out_pdf = rulings.save_report("pdf", str(tmp_path / "report.pdf"))
    data = out_pdf.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(data) > 20000  # text and the rendered diagram
    assert b"/Image" in data
    assert not list(tmp_path.glob("*.tmp*"))


def test_decision_and_notes_survive_a_restart(window, rulings, settings, qtbot):
    rulings.rulings.select_incident("failure_to_capture", FACTS)
    rulings.report.editors["decision"].setPlainText("Retracted; 15x22 played.")
    window.save()
    from ui.mainwindow import MainWindow

    again = MainWindow(window.controller, settings)
    qtbot.addWidget(again)
    again.restore()
    restored = again.workspaces["rulings"].rulings
    assert restored.incident_id == "failure_to_capture"
    assert restored.facts == FACTS
    assert restored.fields["decision"] == "Retracted; 15x22 played."


def test_from_the_board(window, rulings, qtbot):
    bc = window.workspaces["board"].board_controller
    # 2. 10-14 ignores Black's capture 15x22 (the rules' words: capturing is compulsory)
    bc.files.load_text('[GameType "23"]\n1. 11-15 22-18 2. 10-14 *\n')
    bc.check.run()
    assert bc.check.first_illegal is not None
    assert bc.check.request_rulings()
    assert window.current_workspace() is rulings
    assert rulings.rulings.incident_id == "failure_to_capture"
    assert rulings.rulings.facts.get("discovered") is not None
    assert rulings.rulings.fields["moves"] == "11-15 22-18 10-14"
    assert rulings.rulings.fields["fen"] == bc.start.fen()
    assert rulings.rulings.fields["disputed_ply"] == "3"
    assert rulings.report.editors["moves"].toPlainText() == "11-15 22-18 10-14"
    assert rulings.report.editors["disputed_ply"].text() == "3"


def test_record_context_comes_from_the_request_not_the_board(window, rulings, qtbot):
    """The panel fills the report from the request's moves/fen/ply; it never reads the
    board (whose record here is another one)."""
    bc = window.workspaces["board"].board_controller
    bc.editing.type_moves("9-14 22-18")
    messages = []
    window.controller.statusMessage.connect(messages.append)
    pool = Variant.named("pool")
    start = Position.from_fen("B:W21-32:B1-12", pool)
    window.controller.rulingsRequested.emit(RulingsRequest(
        GameIncident("failure_to_capture", {"discovered": "at_once"}, 7, "9-13"),
        RequestOrigin.CHECK_RECORD, pool, start,
        tuple("11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20".split())))
    fields = rulings.rulings.fields
    assert fields["moves"] == "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20"
    # the request carries the start as a position: the field shows it as FEN
    assert fields["fen"] == start.fen() and fields["disputed_ply"] == "7"
    assert not any(m.startswith("Not used as facts") for m in messages)
    assert rulings.rulings.facts == {"discovered": "at_once"}
    # a new request from the board is the dispute now: its record replaces the old one
    window.controller.rulingsRequested.emit(RulingsRequest(
        GameIncident("failure_to_capture", {"discovered": "at_once"}, 3),
        RequestOrigin.CHECK_RECORD, pool, start, ("11-15", "22-18", "10-14")))
    assert fields["moves"] == "11-15 22-18 10-14" and fields["disputed_ply"] == "3"
    # a request without a record (typed in elsewhere) leaves the report fields alone
    window.controller.rulingsRequested.emit(RulingsRequest(
        GameIncident("failure_to_capture", {"discovered": "at_once"}),
        RequestOrigin.CHECK_RECORD))
    assert fields["moves"] == "11-15 22-18 10-14"
    rulings.report.refresh_preview()
    assert "(disputed)" in rulings.rulings.report_html()


def _pick(combo, text):
    combo.setCurrentIndex(combo.findText(text))


def test_the_deciding_words_are_highlighted_in_the_rule_text(rulings, qtbot):
    rulings.chooser.select("appeal")
    rulings.rulings.select_incident("appeal")
    _pick(rulings.facts_form.fields["decision_by"], "tournament committee")
    best = rulings.rulings.suggestions.best
    assert best.ref == "apca:34"
    page = rulings.rulings_view.page_html()
    # the rule's words, as the text has them, inside the highlighting span
    assert "class='quote'" in page or 'class="quote"' in page
    shown = rulings.rulings_view.toPlainText()
    assert "THE DECISION OF THE TOURNAMENT COMMITTEE IS FINAL" in shown
    assert "The words that decide are highlighted" in shown
    # Qt keeps the highlight as a background on the quoted characters
    from PySide6.QtGui import QTextCursor

    doc = rulings.rulings_view.document()
    at = doc.toPlainText().find("THE DECISION OF THE TOURNAMENT COMMITTEE")
    cursor = QTextCursor(doc)
    cursor.setPosition(at + 5)
    assert cursor.charFormat().background().color().name() == "#fff59d"
    assert cursor.charFormat().fontWeight() >= 600


def test_an_inferred_ruling_says_so(rulings, qtbot):
    rulings.chooser.select("leaving_room")
    rulings.rulings.select_incident("leaving_room")
    _pick(rulings.facts_form.fields["sufficient_reason"], "no")
    _pick(rulings.facts_form.fields["opponent_consent"], "no")
    best = rulings.rulings.suggestions.best
    # Rule 30 forbids leaving but names no penalty: the forfeit is inferred
    assert (best.ref, best.outcome, best.basis) == ("apca:30", "forfeit", "inferred")
    shown = rulings.rulings_view.toPlainText()
    assert "Inferred, not in the words of the rule" in shown
    assert "names no penalty" in shown


def test_where_the_rules_are_silent(window, rulings, qtbot):
    rulings.tabs.setCurrentIndex(rulings.TAB_SILENCES)
    view = rulings.silences_view
    assert "Where the rules are silent" in view.heading.text()
    table = view.table
    rows = {(table.item(r, 0).text(), table.item(r, 1).text()): r
            for r in range(table.rowCount())}
    # Rule 34 speaks only of the committee: the director's decision is a silence
    key = next(k for k in rows if k[0] == "Appeal against a decision"
               and k[1] == "decision by: tournament director")
    referee = next(k for k in rows if k[0] == "Appeal against a decision"
                   and k[1] == "decision by: referee")
    assert table.item(rows[key], 2).text() == "apca:34"
    assert "Who made the decision" in table.item(rows[key], 1).toolTip()
    assert table.item(rows[key], 3).text() == "silent"
    # choose 30B ("One can appeal the decision of the tournament director"): it fills it
    index = view.proposal.findText("apca:30B")
    assert index > 0
    view.proposal.setCurrentIndex(index)
    view.proposal.activated.emit(index)
    status = table.item(rows[key], 3)
    assert "apca:30B" in status.text() and "appealed" in status.text()
    assert status.font().bold()
    assert "30B would settle 1 of these" in view.fill_summary.text()
    assert table.item(rows[referee], 3).text() == "silent"  # 30B names the director only
    # activating the row takes the dispute to the rulings, with those facts
    table.itemActivated.emit(table.item(rows[key], 0))
    assert rulings.rulings.incident_id == "appeal"
    assert rulings.rulings.facts == {"decision_by": "tournament_director"}
    assert rulings.tabs.currentIndex() == rulings.TAB_COMPARE


def test_compare_lists_a_misfiled_proposal_apart(window):
    window.controller.compare("apca:28")
    compare = window.workspaces["compare"]
    assert "apca:28B" not in [c.ref for c in compare.columns]
    assert not compare.apart.isHidden()
    assert "apca:28B: filed under 28, concerns 32 (Shotgun)" in compare.apart.text()
    window.controller.compare("apca:13")
    assert "apca:29A" in [c.ref for c in compare.columns]  # "especially applicable to Rule 13"


def test_the_rule_page_shows_its_rulings_with_the_words_highlighted(window):
    rules = window.workspaces["rules"]
    rules.show_ref("apca:30")
    page = rules.page.page_html()
    text = rules.page.toPlainText()
    assert "Rulings drawn from this text" in text
    assert "inferred" in text and "names no penalty" in text
    assert "background-color:#fff59d" in page


def test_compare_marks_suggestions_and_inferred_rulings(rulings):
    rulings.rulings.select_incident("illegal_move", {
        "discovered": "later_in_game", "repeated": False, "players_agree": False,
        "reconstructible": True})
    rulings.tabs.setCurrentIndex(rulings.TAB_COMPARE)
    table = rulings.compare_table
    # ACF guide 4: "I suggest that ... the position should be recreated"
    assert "the author's suggestion, not a rule" in table.item(table.row_of("acf-guide:4"),
                                                               1).text()
    # Rule 10 does not say when the move is noticed: read into it
    assert "inferred" in table.item(table.row_of("apca:10"), 1).text()
    assert "inferred" not in table.item(table.row_of("apca:10B"), 1).text()


def test_the_report_tells_what_happened_in_words_not_codes(window, rulings, qtbot):
    """Issue 19: "What happened" gives the reason in words, never the incident or
    reason code, and the disputed move named as on the scoresheet (Black's move 4 is
    ply 7: Black moves first in pool)."""
    board = window.workspaces["board"]
    bc = board.board_controller
    bc.editing.type_moves("11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20")
    board.mode_actions["check"].trigger()
    board.rulings_button.click()  # the button a referee presses
    html = rulings.rulings.report_html()
    happened = html.split("What happened", 1)[1].split("Position", 1)[0]
    assert "failure_to_capture" not in happened and "missed_capture" not in happened
    assert "Disputed move" not in happened  # the record says it, once, in words
    assert "Black had to capture" in happened
    assert "Black&#x27;s move 4" in html or "Black's move 4" in html
