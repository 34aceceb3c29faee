"""Issue #34, Must 3, as the app is used (found by a tester driving the real app):
another long record opened over unsaved work (Save answered), the case just saved
opened again over a move typed since, and the app started after a crash with a
long autosave. The GUI thread never counts a long record from the start (the
reader counts it under the limits the board counts it with) nor stalls over
100 ms (GuiThreadProbe); the counts and claims are those counted from the start."""
from __future__ import annotations

import gc
import json
import threading

import pytest
from PySide6.QtWidgets import QApplication

from tests.long_record import long_record
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    private_autosave_dir,
)
from tests.ui.test_board_long import STALL_MS, GuiThreadProbe, saved_moves

#: GameType of a PDN game
POOL, ENGLISH = "23", "21"


def shuffle_pdn(plies: int, game_type: str) -> str:
    """A game of ``plies`` plies: two kings shuffling (legal in pool and English)
    from W:WK1:BK2, an illegal move (not a diagonal step) at the middle ply."""
    steps = ({0: "1-5", 1: "5-1"}, {0: "2-6", 1: "6-2"})
    wrong = {"1-5": "1-3", "5-1": "5-7", "2-6": "2-4", "6-2": "6-8"}
    moves = [steps[i % 2][(i // 2) % 2] for i in range(plies)]
    moves[plies // 2] = wrong[moves[plies // 2]]
    numbered = [f"{i // 2 + 1}. " + " ".join(moves[i:i + 2]) for i in range(0, plies, 2)]
    return "\n".join([f'[GameType "{game_type}"]', '[SetUp "1"]', '[FEN "W:WK1:BK2"]',
                      '[Result "*"]', "", *[" ".join(numbered[j:j + 8])
                                           for j in range(0, len(numbered), 8)]]) + " *\n"


class FromScratch:
    """Every count of a long legal play worked out from the start on the GUI thread
    (the controller's :func:`count_states` with nothing earlier to go on)."""

    def __init__(self, monkeypatch):
        import ui.board.counts as counts

        self.gui = threading.get_ident()
        self.counted: list[int] = []
        real = counts.count_states

        def spy(start, replayed, rules, earlier=None):
            states = real(start, replayed, rules, earlier)
            if earlier is None and threading.get_ident() == self.gui and len(states) > 300:
                self.counted.append(len(states) - 1)
            return states
        monkeypatch.setattr(counts, "count_states", spy)


def counted_as_from_scratch(bc) -> None:
    from ui.board.counts import announcements_for, count_states

    counts = bc.counts
    scratch = count_states(bc.start, bc.replay, counts.rules)
    assert [counts.at(p) for p in range(len(scratch))] == scratch
    assert counts.announcements() == announcements_for(counts.library, bc.start, bc.replay,
                                                       counts.edition_id)


def wait_idle(qtbot, bc) -> None:
    qtbot.waitUntil(lambda: bc.files.reading is None and bc.files.saving is None,
                    timeout=300000)
    qtbot.wait(30)


def last_move(bc) -> str:
    """A legal move at the end of the legal play (the board goes there)."""
    bc.go(bc.available_plies)
    position = bc.position()
    return position.move_text(position.legal_moves()[0])


@pytest.mark.parametrize("plies", [8000, pytest.param(60000, marks=pytest.mark.slow)])
def test_open_another_long_pdn_over_unsaved_work_answering_save(ws, qtbot, tmp_path,
                                                                 monkeypatch, plies):
    bc = ws.board_controller
    bc.editing.confirm_splice = lambda _at, _later: "replace"
    first, other = tmp_path / "pool.pdn", tmp_path / "english.pdn"
    first.write_text(shuffle_pdn(plies, POOL), encoding="utf-8")
    other.write_text(shuffle_pdn(plies, ENGLISH), encoding="utf-8")
    assert ws.open_pdn(first)
    wait_idle(qtbot, bc)
    case = tmp_path / "case.yaml"
    assert ws.save_case_soon(case)
    wait_idle(qtbot, bc)
    typed = last_move(bc)
    bc.editing.type_moves(typed)
    assert bc.unsaved_work
    kept = [m.text for m in bc.moves]
    statuses: list[str] = []
    bc.files.statusMessage.connect(statuses.append)
    read_when_asked: list[list[str]] = []
    ws.confirm_replace = lambda _what: (
        read_when_asked.append([s for s in statuses if "english.pdn" in s]), "save")[1]
    scratch = FromScratch(monkeypatch)
    probe = GuiThreadProbe()
    probe.begin("open another PDN, Save answered")
    assert ws.open_pdn(other)
    probe.tick()
    wait_idle(qtbot, bc)
    probe.end()
    assert read_when_asked == [[]], read_when_asked  # asked once, before it was read
    assert saved_moves(case) == kept  # saved first
    assert bc.variant.name == "english" and len(bc.moves) == plies and not bc.unsaved_work
    assert "Imported english.pdn" in ws.status_text()
    print(plies, probe.figures())
    assert scratch.counted == [], "counted again from the start on the GUI thread"
    assert probe.over(STALL_MS) == {}, probe.figures()
    counted_as_from_scratch(bc)


@pytest.mark.parametrize("plies", [20, 8000])
def test_the_case_just_saved_opened_again_over_a_move_typed_shows_it(ws, qtbot, tmp_path,
                                                                     plies):
    """Save Case, a move typed, Open Case on the same file, Save answered: the file
    saved is the one opened (the move typed is in the board, nothing unsaved)."""
    bc = ws.board_controller
    record = long_record(plies, middle=False)
    assert ws.import_text(record.pdn, source="legal.pdn")
    wait_idle(qtbot, bc)
    case = tmp_path / "case.yaml"
    assert ws.save_case_soon(case)
    wait_idle(qtbot, bc)
    bc.editing.type_moves(last_move(bc))
    assert bc.unsaved_work and len(bc.moves) == plies + 1
    typed = [m.text for m in bc.moves]
    asked: list[str] = []
    ws.confirm_replace = lambda what: (asked.append(what), "save")[1]
    bc.files.open_case(case)
    wait_idle(qtbot, bc)
    assert asked == ["the case case.yaml"]
    assert saved_moves(case) == typed
    assert [m.text for m in bc.moves] == typed, "the case shown is not the one saved"
    assert not bc.unsaved_work and f"Opened the case {case}: {plies + 1} plies" \
        in ws.status_text()
    # Cancel keeps the board as it is, the case not read
    bc.editing.type_moves(last_move(bc))
    ws.confirm_replace = lambda _what: "cancel"
    assert not bc.files.open_case(case)
    assert bc.files.reading is None and len(bc.moves) == plies + 2 and bc.unsaved_work
    assert "Nothing was replaced" in ws.status_text()


@pytest.mark.parametrize("plies", [8000, pytest.param(60000, marks=pytest.mark.slow)])
def test_the_app_started_after_a_crash_recovers_a_long_autosave_without_stalling(
        ws, qtbot, tmp_path, monkeypatch, plies):
    """The app's own start (the Launcher: the window built, the library loaded on a
    worker) with the autosave a killed run left: read, counted once under the
    library's limits, off the GUI thread."""
    from ui.app import Launcher
    from ui.app import _resume_gc_when_started as resume_gc_when_started

    bc = ws.board_controller
    bc.editing.confirm_splice = lambda _at, _later: "replace"
    path = tmp_path / "pool.pdn"
    path.write_text(shuffle_pdn(plies, POOL), encoding="utf-8")
    assert ws.open_pdn(path)
    wait_idle(qtbot, bc)
    bc.editing.type_moves(last_move(bc))  # at the illegal move: the later ones replaced
    bc.editing.type_moves(last_move(bc))
    moves = [m.text for m in bc.moves]
    bc.files.enabled = False  # the autosave left as the run that "crashed" wrote it
    saved = json.loads(bc.files.autosave_path.read_text(encoding="utf-8"))
    saved.update(dirty=True, pid=2 ** 22 + 1)  # pid: no such process
    bc.shutdown()
    bc.files.autosave_path.write_text(json.dumps(saved), encoding="utf-8")

    scratch = FromScratch(monkeypatch)
    probe = GuiThreadProbe()
    gc.disable()  # as ui.app.main starts: no collection until the window is shown
    launcher = Launcher()  # the window built (before the event loop runs: not probed)
    resume_gc_when_started(launcher)
    # probed from the window shown (as ui.app's when_ready is called), the read after
    launcher.controller.libraryLoaded.connect(
        lambda _library: probe.begin("the app started, the autosave recovered"))
    launcher.start(None, background=True)
    board = launcher.window.workspaces["board"]
    recovered = board.board_controller
    try:
        qtbot.waitUntil(lambda: launcher.ready_at is not None and recovered.files.reading is None
                        and len(recovered.moves) == len(moves), timeout=300000)
        qtbot.wait(30)
        probe.end()
        assert [m.text for m in recovered.moves] == moves
        assert recovered.ply == saved["ply"] and recovered.unsaved_work
        assert board.banner.isVisibleTo(board)
        assert "restored the unsaved work" in launcher.window.start_notice.text()
        print(plies, probe.figures())
        assert scratch.counted == [], "counted again from the start on the GUI thread"
        assert probe.over(STALL_MS) == {}, probe.figures()
        counted_as_from_scratch(recovered)
    finally:
        board.confirm_close = lambda: "discard"
        recovered.shutdown()
        launcher.controller.wait()
        launcher.window.close()
        launcher.window.deleteLater()
        QApplication.processEvents()
        gc.enable()


def test_a_long_record_read_says_how_far_it_is(ws, qtbot, tmp_path):
    """While a long record is read, the title over the move list (readable at
    1024x700, wrapped: not cut off) says how many plies of how many are replayed,
    then counted, and is said again at least every 0.5 s; the status line says
    each step (not each figure: the status log keeps them)."""
    import time

    bc = ws.board_controller
    ws.resize(1024 - 140, 700 - 80)  # the Board's part of a window of 1024x700
    path = tmp_path / "pool.pdn"
    path.write_text(shuffle_pdn(20000, POOL), encoding="utf-8")
    title = ws.record_title
    shown: list[tuple[float, str, str]] = []
    statuses: list[str] = []
    bc.files.progressChanged.connect(
        lambda text: shown.append((time.monotonic(), text, title.text())))
    bc.files.statusMessage.connect(statuses.append)
    assert ws.open_pdn(path)
    wait_idle(qtbot, bc)
    texts = [text for _at, text, _title in shown]
    assert all(text == in_title for _at, text, in_title in shown)
    assert any(t.startswith("Reading pool.pdn: replayed ") and "of 20,000 plies (" in t
               for t in texts), texts
    assert any("counted " in t and " of 10,000 plies (" in t for t in texts), texts
    assert not any(" of 20,000 plies" in s for s in statuses), statuses
    assert "Reading pool.pdn: finding the draw claims…" in statuses
    times = [at for at, _text, _title in shown]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    print(f"said again every {max(gaps):.2f} s at most, {len(shown)} times:", texts)
    assert max(gaps) < 0.5 * 2, gaps  # 0.5 s, with a margin for a loaded machine
    # the title wraps in its column: the longest of them not cut off
    title.setText(max(texts, key=len))
    QApplication.processEvents()
    assert title.wordWrap() and title.heightForWidth(title.width()) <= title.height()
    bc.files.progressChanged.emit("")  # the title of the record shown, once read
    assert title.text().startswith("Imported record") or "pool checkers" in title.text()
    assert "Imported pool.pdn" in ws.status_text()


def test_the_autosave_of_a_long_record_encodes_each_move_once(ws, qtbot, tmp_path):
    """The autosave written at every edit is the session's JSON (the moves encoded
    once each, joined): read back, it is what to_session says, and recovers."""
    import os
    import time

    bc = ws.board_controller
    bc.editing.confirm_splice = lambda _at, _later: "replace"
    record = long_record(8000, middle=False)
    assert ws.import_text(record.pdn, source="legal.pdn")
    wait_idle(qtbot, bc)
    bc.editing.set_comment(3, 'a "quoted" comment, ünïcode')
    bc.editing.type_moves(last_move(bc))
    assert bc.files.autosave()  # the ply moved on since the edit's autosave
    written = json.loads(bc.files.autosave_path.read_text(encoding="utf-8"))
    assert written == {**bc.files.to_session(), "version": 1, "pid": os.getpid(),
                       "saved_at": written["saved_at"]}
    assert written["moves"][2] == {"text": record.moves[2],
                                   "comment": 'a "quoted" comment, ünïcode'}
    assert len(written["moves"]) == 8001
    cpu = time.thread_time()
    for _ in range(10):
        assert bc.files.autosave()
    print(f"autosave of 8,001 plies: {(time.thread_time() - cpu) * 100:.1f} ms CPU")
