"""Data never renders as rich text: HTML in a ballot question's title, a member's
name, an incident's title, description and fact question, a case, an edition, a
PDN comment and a player's name is shown as the literal text everywhere, in
labels, text views and every tooltip, never as bold text, an image or a link."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import QModelIndex
from PySide6.QtGui import QAction, Qt, QTextDocument  # QtGui's Qt has mightBeRichText
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QLabel,
    QTextEdit,
    QWidget,
)

from tests.ui.conftest import copy_data

BOLD = '<b style="font-size:40px">BOLDMARK</b>'
IMAGE = "<img src=file:///etc/hostname>"
LINK = '<a href="javascript:alert(1)">LINKMARK</a>'
HOSTILE = f"{BOLD} {IMAGE} {LINK}"
BALLOT = Path("apca") / "ballots" / "2026-committee.yaml"

PDN = f"""[Event "{BOLD}"]
[Black "{LINK}"]
[White "{IMAGE}"]
[GameType "23"]
{{{HOSTILE}}}
1. 11-15 {{{HOSTILE}}} 23-19 2. 8-11 (2. 9-14 {{{HOSTILE}}}) 22-17 *
"""


def rendered(text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText) -> QTextDocument | None:
    """How Qt shows ``text`` in a label or a tooltip: a document when it takes it as
    rich text (RichText, or AutoText that ``Qt.mightBeRichText`` — QLabel's and
    QToolTip's own test), None when it shows the characters as they are."""
    if fmt == Qt.TextFormat.PlainText or fmt == Qt.TextFormat.MarkdownText:
        return None
    if fmt == Qt.TextFormat.AutoText and not Qt.mightBeRichText(text):
        return None
    doc = QTextDocument()
    doc.setHtml(text)
    return doc


def document_problems(doc: QTextDocument, allowed_images=()) -> list[str]:
    """Images, huge fonts and script links a document really renders."""
    out = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            fmt = frag.charFormat()
            if fmt.isImageFormat() and fmt.toImageFormat().name() not in allowed_images:
                out.append(f"an image {fmt.toImageFormat().name()!r}")
            if fmt.fontPointSize() >= 30 or (fmt.hasProperty(fmt.Property.FontPixelSize)
                                             and fmt.intProperty(fmt.Property.FontPixelSize) >= 30):
                out.append(f"a 40px font for {frag.text()!r}")
            if fmt.isAnchor() and fmt.anchorHref().lower().startswith("javascript"):
                out.append(f"a link {fmt.anchorHref()!r}")
            it += 1
        block = block.next()
    return out


def shown_problems(where: str, text: str, fmt=Qt.TextFormat.AutoText, allowed_images=()):
    """What is wrong with how ``text`` is shown; the text shown."""
    doc = rendered(text, fmt)
    # a zero-width space (a line may break there: ui.widgets.breakable) is not seen
    visible = (text if doc is None else doc.toPlainText()).replace("\u200b", "")
    problems = [] if doc is None else document_problems(doc, allowed_images)
    for mark, literal in (("BOLDMARK", BOLD), ("LINKMARK", LINK)):
        if mark in visible and literal not in visible:
            problems.append(f"{mark} shown without its tags")
    return [f"{where}: {p}: {text[:120]!r}" for p in problems], visible


def everything_shown(window: QWidget) -> tuple[list[str], list[str]]:
    """Walk every label, text view, item, model row, combo box, action and tooltip
    under ``window``: (problems, every text as shown)."""
    from ui.rulings.report import DIAGRAM_URL

    problems: list[str] = []
    texts: list[str] = []

    def see(where, text, fmt=Qt.TextFormat.AutoText, images=()):
        if not text:
            return
        p, visible = shown_problems(where, text, fmt, images)
        problems.extend(p)
        texts.append(visible)

    for w in [window, *window.findChildren(QWidget)]:
        name = f"{type(w).__name__} {w.objectName() or w.accessibleName()}"
        see(f"tooltip of {name}", w.toolTip())
        see(f"title of {name}", w.windowTitle(), Qt.TextFormat.PlainText)
        if isinstance(w, QLabel):
            see(f"label {name}", w.text(), w.textFormat())
        elif isinstance(w, QTextEdit):
            problems += [f"{name}: {p}" for p in document_problems(w.document(), (DIAGRAM_URL,))]
            texts.append(w.toPlainText())
        elif isinstance(w, QComboBox):
            for i in range(w.count()):
                see(f"item of {name}", w.itemText(i), Qt.TextFormat.PlainText)
                see(f"item tooltip of {name}",
                    w.itemData(i, Qt.ItemDataRole.ToolTipRole) or "")
        elif isinstance(w, QAbstractItemView) and w.model() is not None:
            model = w.model()
            stack = [QModelIndex()]
            while stack:
                parent = stack.pop()
                try:
                    columns = model.columnCount(parent)
                except TypeError:  # private in list models: one column
                    columns = 1
                for r in range(min(model.rowCount(parent), 400)):
                    for c in range(columns):
                        index = model.index(r, c, parent)
                        see(f"row of {name}", str(index.data() or ""), Qt.TextFormat.PlainText)
                        see(f"row tooltip of {name}",
                            str(index.data(Qt.ItemDataRole.ToolTipRole) or ""))
                        if c == 0 and model.rowCount(index):
                            stack.append(index)
    for action in window.findChildren(QAction):
        see(f"tooltip of action {action.text()!r}", action.toolTip())
    return problems, texts


def hostile_data(folder: Path) -> Path:
    """The bundled data with HTML in every kind of title, name and description."""
    def edit(rel: str, change) -> None:
        path = folder / rel
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(doc)
        path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True),
                        encoding="utf-8")

    def members(doc):
        doc["members"][0]["name"] = HOSTILE  # member A, who proposed 10A

    def incidents(doc):
        first = doc["incidents"][0]
        first["title"] = f"Title {HOSTILE}"
        first["description"] = f"Description {HOSTILE} & more"
        first["facts"][0]["question"] = f"Question {HOSTILE} & more?"

    def ballot(doc):
        doc["title"] = f"Ballot {HOSTILE}"
        for q in doc["questions"]:
            if q["id"] == "10":
                q["title"] = f"Question 10 {HOSTILE}"

    def editions(doc):
        doc["editions"][0]["description"] = f"Edition {HOSTILE}"

    def case(doc):
        doc["title"] = f"Case {HOSTILE}"
        doc["description"] = f"Case description {HOSTILE}"

    edit("members.yaml", members)
    edit("incidents.yaml", incidents)
    edit(str(BALLOT), ballot)
    edit("editions.yaml", editions)
    edit("cases/incomplete-jump.yaml", case)
    return folder


@pytest.fixture
def hostile_window(qtbot, tmp_path, settings):
    from tests.ballots.helpers import make_keys
    from ui.controller import AppController
    from ui.mainwindow import MainWindow

    data = hostile_data(copy_data(tmp_path / "data"))
    # every vote is signed: A is chair (he opened the ballot), B secretary
    make_keys(data, open_seed=True)
    controller = AppController()
    result = controller.load(data)
    assert result.ok, result.problems
    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    win.workspaces["board"].confirm_close = lambda: "discard"
    win.workspaces["ballots"].ask_unsaved = lambda: "discard"
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.workspaces["board"].board_controller.shutdown()


def _assert_clean(win, literal_in: list[str]):
    problems, texts = everything_shown(win)
    assert not problems, "\n".join(problems)
    for piece in literal_in:
        assert any(piece in t for t in texts), f"{piece!r} is not shown anywhere"


def test_ballot_questions_and_member_names_are_shown_literally(hostile_window, qtbot):
    win = hostile_window
    ws = win.workspaces["ballots"]
    win.show_workspace("ballots")
    row = [q.id for q in ws.ballots.ballot.questions].index("10")
    ws.question_list.setCurrentRow(row)
    ws.diff_box.setChecked(True)
    # the question's own texts, read back from what is shown
    assert f"Question 10 {HOSTILE}" in ws.options_view.toPlainText()
    assert ws.question_list.currentItem().text() == f"10: Question 10 {HOSTILE}"
    problems, visible = shown_problems("vote question", ws.vote_question.text(),
                                       ws.vote_question.textFormat())
    assert not problems and f"10: Question 10 {HOSTILE}" in visible
    assert f"Ballot {HOSTILE}" in ws.info.text()
    # a vote for 10A (proposed by member A, whose name is HTML): grid and tally tooltips
    # the secretary's key in use, through the key panel's own widgets
    panel = ws.key_panel
    panel.member_combo.setCurrentIndex(panel.member_combo.findData("B"))
    panel.use_button.click()
    assert panel.status.text().startswith("Signing as B"), panel.status.text()
    ws.tabs.setCurrentIndex(ws.TAB_VOTES)
    ws.member_combo.setCurrentIndex(ws.member_combo.findData("B"))
    ws.question_list.setCurrentRow(row)
    ws.ranking_edit.setText("2 1")
    assert ws.enter_ranking(), ws.vote_error.text()
    tip = ws.grid.item(row, ws.ballots.ballot.roll.index("B")).toolTip()
    problems, visible = shown_problems("vote tooltip", tip)
    assert not problems and f"10A ({HOSTILE})" in visible
    ws.tabs.setCurrentIndex(ws.TAB_TALLY)
    ws.show_result("10")
    assert f"10A ({HOSTILE})" in ws.working.toPlainText()
    # a typed ranking that is HTML comes back as the literal text in the error
    ws.tabs.setCurrentIndex(ws.TAB_VOTES)
    ws.ranking_edit.setText(BOLD)
    assert not ws.enter_ranking()
    assert ws.vote_error.textFormat() == Qt.TextFormat.PlainText
    for tab in range(ws.tabs.count()):
        ws.tabs.setCurrentIndex(tab)
        _assert_clean(win, [f"Question 10 {HOSTILE}"])


def test_incidents_cases_and_editions_are_shown_literally(hostile_window):
    win = hostile_window
    ws = win.workspaces["rulings"]
    win.show_workspace("rulings")
    ws.rulings.select_incident("illegal_move")
    form = ws.facts_form
    for label, want in ((form.title, f"Title {HOSTILE}"),
                        (form.description, f"Description {HOSTILE} & more")):
        problems, visible = shown_problems("incident", label.text(), label.textFormat())
        assert not problems and visible == want
    question = next(w for w in form.findChildren(QLabel) if "Question" in w.text())
    problems, visible = shown_problems("fact", question.text(), question.textFormat())
    assert not problems
    # the label shows the question as written: "&&" is how a label with an Alt-key
    # buddy shows one "&", and the "& more" makes no Alt key of " "
    assert visible.replace("&&", "&") == f"Question {HOSTILE} & more?"
    assert question.buddy() is form.fields["discovered"]
    item = ws.chooser.list.currentItem()
    problems, visible = shown_problems("incident tooltip", item.toolTip())
    assert not problems and f"Description {HOSTILE} & more" in visible
    ws.chooser.search.setText("BOLDMARK")  # the search still finds it by its words
    assert not item.isHidden()
    ws.chooser.search.setText("")
    for tab in range(ws.tabs.count()):
        ws.tabs.setCurrentIndex(tab)
        _assert_clean(win, [f"Title {HOSTILE}"])
    assert any(f"Case description {HOSTILE}" in shown_problems("", ws.cases.list.item(i)
                                                               .toolTip())[1]
               for i in range(ws.cases.list.count()))
    win.show_workspace("editions")
    _assert_clean(win, [f"Edition {HOSTILE}"])


def test_pdn_comments_and_player_names_are_shown_literally(hostile_window, qtbot):
    win = hostile_window
    ws = win.workspaces["board"]
    win.show_workspace("board")
    assert ws.import_text(PDN, source="hostile.pdn")
    bc = ws.board_controller
    assert [m.text for m in bc.moves] == ["11-15", "23-19", "8-11", "22-17"]
    assert HOSTILE in ws.comment_view.toPlainText()  # the game's comment at the start
    assert LINK in ws.record_title.text() and BOLD in ws.record_title.text()
    bc.go(1)
    assert HOSTILE in ws.comment_view.toPlainText()
    problems, visible = shown_problems("move tooltip", ws.move_list.item_for_ply(1).toolTip())
    assert not problems and HOSTILE in visible
    bc.go(3)
    assert "Variation:" in ws.comment_view.toPlainText()
    assert HOSTILE in ws.comment_view.toPlainText()
    _assert_clean(win, [HOSTILE, f"{LINK} – {IMAGE}"])
