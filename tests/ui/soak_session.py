"""A long session in a real app process (run by tests/ui/test_soak.py through
tests/ui/app_harness.py): what a referee and a secretary do in a day.

Globals from the harness: ``app``, ``launcher``, ``window``. Settings come from
the environment: SOAK_PDN (a corpus file), SOAK_STEPS, SOAK_VOTES, SOAK_SAVES,
SOAK_SHOWS, SOAK_CASE (where the case is saved). Every action goes through the
widgets a user touches: keys on the board, the ranking box and Enter on the
Ballots screen, the Save buttons, the workspace shortcuts (Ctrl+1 … Ctrl+6).
Prints one line ``SOAK {json}`` with the counts and the RSS and
``sys.getrefcount(None)`` measured after a warm-up and at the end.
"""
# ruff: noqa: F821 - app, launcher and window come from the harness
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

STEPS = int(os.environ.get("SOAK_STEPS", "2000"))
VOTES = int(os.environ.get("SOAK_VOTES", "200"))
SAVES = int(os.environ.get("SOAK_SAVES", "100"))
SHOWS = int(os.environ.get("SOAK_SHOWS", "50"))
PDN = Path(os.environ["SOAK_PDN"])
CASE = Path(os.environ["SOAK_CASE"])
ERRORS: list[str] = []


def rss_kib() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def pump() -> None:
    QApplication.processEvents()


def fail_on_dialog(*args, **_kwargs):
    ERRORS.append("an error dialog was shown: " + " | ".join(str(a) for a in args[1:3]))
    return QMessageBox.StandardButton.Ok


QMessageBox.critical = fail_on_dialog
QMessageBox.warning = fail_on_dialog

board_ws = window.workspaces["board"]
ballots_ws = window.workspaces["ballots"]
ballots_ws.ask_unsaved = lambda: "discard"
board_ws.confirm_close = lambda: "discard"
bc = board_ws.board_controller
workspace_keys = [Qt.Key.Key_1 + i for i in range(len(window.workspaces))]


def board_session(steps: int) -> int:
    """Step forwards to the end and back to the start with the arrow keys."""
    done = 0
    widget = board_ws.board
    key = Qt.Key.Key_Right
    while done < steps:
        before = bc.ply
        widget.setFocus()
        QTest.keyClick(widget, key)
        widget.repaint()
        pump()
        if bc.ply == before:  # an end of the record: turn round
            key = Qt.Key.Key_Left if key == Qt.Key.Key_Right else Qt.Key.Key_Right
        else:
            done += 1
    return done


def sign_in_as_secretary() -> None:
    """The secretary (B) types the paper ballots: every vote signed with B's key."""
    panel = ballots_ws.key_panel
    panel.member_combo.setCurrentIndex(panel.member_combo.findData("B"))
    panel.use_button.click()


def vote_session(votes: int) -> int:
    """Type rankings into the ranking box and press Enter, member after member."""
    window.show_workspace("ballots")
    ballots_ws.tabs.setCurrentIndex(ballots_ws.TAB_VOTES)
    pump()
    ballot = ballots_ws.ballots.ballot
    members = [ballots_ws.member_combo.itemData(i) for i in range(ballots_ws.member_combo.count())]
    questions = ballot.questions
    done = 0
    while done < votes:
        member = members[done % len(members)]
        q_row = (done // len(members)) % len(questions)
        ballots_ws.member_combo.setCurrentIndex(ballots_ws.member_combo.findData(member))
        ballots_ws.question_list.setCurrentRow(q_row)
        options = len(questions[q_row].options)
        ranking = " ".join(str((done + k) % options + 1) for k in range(min(2, options)))
        ballots_ws.ranking_edit.selectAll()
        QTest.keyClicks(ballots_ws.ranking_edit, ranking)
        QTest.keyClick(ballots_ws.ranking_edit, Qt.Key.Key_Return)
        pump()
        if ballots_ws.vote_error.text():
            ERRORS.append(f"vote {done}: {ballots_ws.vote_error.text()}")
            break
        done += 1
    return done


def save_session(saves: int) -> tuple[int, int]:
    case_saves = ballot_saves = 0
    window.show_workspace("board")
    pump()
    if bc.case_path is None:
        board_ws.save_case(CASE)  # the first save names the file (the dialog's answer)
    for i in range(saves):
        # a small change each time, so that every save writes something new
        bc.set_notes(f"soak note {i}")
        board_ws.save_case_action.trigger()  # the toolbar's Save Case (Ctrl+S)
        pump()
        if f"soak note {i}" in CASE.read_text(encoding="utf-8"):
            case_saves += 1
    window.show_workspace("ballots")
    pump()
    for i in range(saves):
        member = ballots_ws.member_combo.itemData(i % ballots_ws.member_combo.count())
        ballots_ws.member_combo.setCurrentIndex(ballots_ws.member_combo.findData(member))
        ballots_ws.question_list.setCurrentRow(i % ballots_ws.question_list.count())
        ballots_ws.ranking_edit.selectAll()
        QTest.keyClicks(ballots_ws.ranking_edit, "1")
        QTest.keyClick(ballots_ws.ranking_edit, Qt.Key.Key_Return)
        ballots_ws.save_button.click()
        pump()
        if not ballots_ws.ballots.dirty:
            ballot_saves += 1
    return case_saves, ballot_saves


def show_session(rounds: int) -> int:
    shown = 0
    for _ in range(rounds):
        for key in workspace_keys:
            QTest.keyClick(window, key, Qt.KeyboardModifier.ControlModifier)
            current = window.current_workspace()
            current.repaint()
            pump()
            shown += 1
    return shown


def run() -> None:
    sign_in_as_secretary()
    window.show_workspace("board")
    assert board_ws.open_pdn(PDN, 0), "the corpus game did not open"
    pump()
    plies = len(bc.moves)
    # warm-up: every kind of work once, so that caches and lazy widgets exist
    board_session(min(STEPS, 2 * plies))
    vote_session(5)
    save_session(2)
    show_session(1)
    # the app loads the gap search's compiled kernel (numba, ~45 MB once) in
    # the background 2 s after start: loaded here first, it is not counted as
    # growth of the session
    from rulesbook.reconstruct.gap.compiled import warm_up

    warm_up()
    window.show_workspace("board")
    pump()
    rss0, none0 = rss_kib(), sys.getrefcount(None)
    steps = board_session(STEPS)
    votes = vote_session(VOTES)
    case_saves, ballot_saves = save_session(SAVES)
    shows = show_session(SHOWS)
    pump()
    rss1, none1 = rss_kib(), sys.getrefcount(None)
    print("SOAK " + json.dumps({
        "plies": plies, "steps": steps, "votes": votes, "case_saves": case_saves,
        "ballot_saves": ballot_saves, "shows": shows, "rss_kib": [rss0, rss1],
        "none_refcount": [none0, none1], "errors": ERRORS,
        "pyside": __import__("PySide6").__version__, "python": sys.version.split()[0],
    }), flush=True)


run()
app.exit(0)
