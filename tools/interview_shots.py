"""Screenshots of a gap interview on the Board's Gap tab at 1024 x 700 (issue 30,
Done means): a 20-ply gap cut from a real game (a Tinsley game, from ply 20,
``bench/gap_cases.py``), searched as a referee searches it, each question answered
with the move really played, until one sequence is left.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.ui.app_harness
tools/interview_shots.py [app args…]`` with ``INTERVIEW_OUT`` (a folder; default
/tmp/interview) and ``INTERVIEW_GAME`` (default "tinsley game 15"). It prints each
step (the question, the counts, the seconds) and saves interview-N.png."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path("bench").resolve()))  # run from the repository
from gap_cases import english_cases  # noqa: E402 - the bench's corpus cases

from rulesbook.reconstruct.gap import parse_known  # noqa: E402

OUT = Path(os.environ.get("INTERVIEW_OUT", "/tmp/interview"))
GAME = os.environ.get("INTERVIEW_GAME", "tinsley game 15")
PLIES = 20


def pump(until, limit: float = 300.0) -> None:
    end = time.monotonic() + limit
    while not until():
        if time.monotonic() > end:
            raise TimeoutError("the search did not finish")
        QApplication.processEvents()
        time.sleep(0.005)


def shoot(win, n: int) -> None:
    for _ in range(5):
        QApplication.processEvents()
    path = OUT / f"interview-{n}.png"
    win.grab().save(str(path))
    print("saved", path, flush=True)


def main(win) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    case = next(c for c in english_cases(PLIES, 100) if c.name == GAME)
    win.resize(1024, 700)
    win.show_workspace("board")
    ws = win.workspaces["board"]
    ws.confirm_close = lambda: "discard"
    bc = ws.board_controller
    bc.editing.new_game("english", case.earlier)
    assert bc.gap.mark_board_now(case.board)
    ws.panels.setCurrentIndex(2)
    ws.gap_kind.setCurrentIndex(0)
    ws.gap_plies.setValue(PLIES)
    box = ws.gap_panel.interview
    finished: list = []
    bc.gap.finished.connect(finished.append)
    began = time.monotonic()
    ws.start_gap()
    pump(lambda: finished and not bc.gap.running)
    result = finished[-1]
    print(f"{case.name}: {result.count:,} sequences in {time.monotonic() - began:.1f} s")
    answers = 0
    shoot(win, answers)
    while result.count > 1 and bc.gap.question() is not None:
        question = bc.gap.question()
        right = [n for n, k in enumerate(question.known)
                 if parse_known(k).matches(case.truth[question.ply - 1].path)]
        print(f"  Q{answers + 1}: {box.question_label.text()!r} -> {question.known[right[0]]}")
        finished.clear()
        began = time.monotonic()
        if right[0] < len(box.answer_buttons):
            box.answer_buttons[right[0]].click()
        else:
            box.more_answers.activated.emit(box.more_answers.findData(right[0]))
        pump(lambda: finished and not bc.gap.running)
        result = finished[-1]
        answers += 1
        print(f"     {result.count:,} left, {time.monotonic() - began:.1f} s")
        shoot(win, answers)
    assert result.sequences == (tuple(case.truth),), "the interview missed the game"
    print(f"{answers} answers; ceil(log2(count)) + 2 bound met")


main(window)  # noqa: F821 - given by tests.ui.app_harness
app.exit(0)  # noqa: F821
