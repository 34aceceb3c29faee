"""Issue 33, the Rulings workspace at 1024x700: every question of the facts form in
sight without scrolling (found by the retest: the last question was below the fold
of the form's scroll area, once the window had been made smaller); at 1.25x font,
where the six questions of an incident cannot all fit beside the incident list, the
form says how many are below and Tab brings each into sight."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from tests.ui.layout_states import scale_font


def _in_sight(form, widget: QWidget) -> bool:
    """``widget`` wholly inside what the facts form's scroll area shows."""
    viewport = form.questions_scroll.viewport()
    top = widget.mapTo(viewport, widget.rect().topLeft()).y()
    bottom = widget.mapTo(viewport, widget.rect().bottomLeft()).y()
    return top >= 0 and bottom < viewport.height()


def _question(form, field: QWidget) -> QLabel:
    """The words of the question whose field is ``field`` (its label's buddy)."""
    return next(label for label in form.findChildren(QLabel) if label.buddy() is field)


def _settle(qtbot) -> None:
    qtbot.wait(20)  # the fit runs once the questions and the splitters are laid out
    for _ in range(3):
        QApplication.processEvents()


@pytest.fixture
def make_window(qtbot, controller, settings):
    made = []

    def make():
        from ui.mainwindow import MainWindow

        win = MainWindow(controller, settings)
        qtbot.addWidget(win)
        win.workspaces["board"].confirm_close = lambda: "discard"
        win.workspaces["ballots"].ask_unsaved = lambda: "discard"
        win.show()
        qtbot.waitExposed(win)
        made.append(win)
        return win

    yield make
    for win in made:
        win.workspaces["board"].board_controller.shutdown()


def _incidents(ws, as_shown: bool = False):
    """Make each incident current in turn, yielding its title (``as_shown``: first the
    one current now, as the window shows it)."""
    lst = ws.chooser.list
    if as_shown:
        yield f"{lst.currentItem().text()} (as shown)"
    for row in range(lst.count()):
        lst.setCurrentRow(row)
        yield lst.item(row).text()


@pytest.mark.parametrize("path", ["shown, then the window made 1024x700",
                                  "1024x700, the Board first"])
def test_every_question_is_in_sight_at_1024x700(make_window, qtbot, path):
    window = make_window()
    ws = window.workspaces["rulings"]
    if path.startswith("shown"):
        window.show_workspace("rulings")  # at the window's first size, 1200x780
        _settle(qtbot)
        window.resize(1024, 700)  # the user makes it smaller
    else:
        window.resize(1024, 700)
        window.show_workspace("board")
        _settle(qtbot)
        window.show_workspace("rulings")
    _settle(qtbot)
    form = ws.facts_form
    problems = []
    checked = 0
    for incident in _incidents(ws, as_shown=True):
        _settle(qtbot)
        checked += len(form.fields)
        out = [fact for fact, field in form.fields.items()
               if not _in_sight(form, field) or not _in_sight(form, _question(form, field))]
        if out or form.questions_scroll.verticalScrollBar().maximum() > 0:
            problems.append(f"{incident}: below the fold {out}, the form scrolls by "
                            f"{form.questions_scroll.verticalScrollBar().maximum()} px")
    assert checked > 60  # every incident's questions, not a few
    assert not problems, "\n".join(problems)
    rows = ws.chooser.list.viewport().height() // ws.chooser.list.sizeHintForRow(0)
    assert rows >= 6, f"the incident list shows {rows} rows"


def test_at_a_larger_font_the_questions_below_are_said_and_reached_by_tab(
        qapp, make_window, qtbot):
    before = scale_font(qapp, 1.25)
    try:
        window = make_window()
        window.resize(1024, 700)
        window.show_workspace("rulings")
        _settle(qtbot)
        ws = window.workspaces["rulings"]
        form = ws.facts_form
        scrolled = 0
        for incident in _incidents(ws):
            _settle(qtbot)
            bar = form.questions_scroll.verticalScrollBar()
            below = [fact for fact, field in form.fields.items()
                     if not _in_sight(form, field)]
            assert below == form.hidden_below(), incident
            if not below:
                assert not form.more_below.isVisible(), incident
                continue
            scrolled += 1
            # the scroll area says so, beside Clear the answers
            n = len(below)
            assert form.more_below.isVisible(), incident
            assert form.more_below.text() == \
                f"▼ {n} more question{'s' if n > 1 else ''} below", form.more_below.text()
            assert bar.isVisible() and bar.maximum() > 0
            # Tab from the first question reaches every one, each with its words in sight
            fields = list(form.fields.items())
            fields[0][1].setFocus(Qt.FocusReason.TabFocusReason)
            _settle(qtbot)
            for fact, field in fields[1:]:
                QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
                _settle(qtbot)
                assert QApplication.focusWidget() is field, (incident, fact)
                assert _in_sight(form, field) and _in_sight(form, _question(form, field)), \
                    (incident, fact, bar.value())
            assert not form.more_below.isVisible(), (incident, form.more_below.text())
            assert bar.value() > 0
        assert scrolled > 0  # the case this test is about did happen
    finally:
        qapp.setFont(before)
