"""A gap search stopped before it finished (issue 21): what it found is kept
and listed, Ctrl+C on the command line says it was interrupted (exit 130),
and the moves the players agree on are checked with messages a referee can
read."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulesbook.cli import main
from rulesbook.draughts import DraughtsError, Position
from rulesbook.reconstruct.gap import Status, fill_gap
from rulesbook.reconstruct.gap import search as gap_search
from tests.datapaths import REPO
from tests.long_gap import LONG_GAP

# two kings a side shuffling: a great many sequences lead back to the same
# position, so a search of 10 plies keeps running long after its first finds
KINGS = Position.from_fen("W:WK29,K32:BK1,K4", "pool")


def replays(start: Position, target: Position, sequence) -> bool:
    """Every move legal where it is played, and the last position the target
    (checked with the engine's own move list, not the gap search)."""
    position = start
    for move in sequence:
        if move not in position.legal_moves():
            return False
        position = position.play(move)
    return position == target


class StopAfter:
    """A cancel token set from its ``calls``-th look on by the forward search
    (it looks at its first position and every 1,024 after; the looks of a
    backward layer being built, every 64 positions it examines, are not
    counted: :meth:`counting_forward`): where it stops depends on no clock."""

    def __init__(self, calls: int) -> None:
        self.calls = calls
        self.building = False

    def is_set(self) -> bool:
        if self.building:
            return False
        self.calls -= 1
        return self.calls < 0

    def counting_forward(self, monkeypatch) -> StopAfter:
        grow = gap_search.GapSearch._grow

        def building(search, *args):
            self.building = True
            try:
                return grow(search, *args)
            finally:
                self.building = False

        monkeypatch.setattr(gap_search.GapSearch, "_grow", building)
        return self


@pytest.mark.parametrize("bounded", [False, True])
def test_a_cancelled_search_lists_what_it_found(bounded, monkeypatch):
    # no backward layer built after the first (they are built after so much
    # time): the search stops at the same position on any machine
    monkeypatch.setattr(gap_search, "GROW", float("inf"))
    kwargs = {"max_plies": 10} if bounded else {"plies": 10}
    # the Python search (the compiled one looks at the token every 50 ms:
    # tests/reconstruct/test_gap_kernel.py cancels it)
    result = fill_gap(KINGS, KINGS, limit=100_000,
                      cancel=StopAfter(3).counting_forward(monkeypatch), compiled=False,
                      **kwargs)
    assert result.cancelled and result.status is Status.CANCELLED
    assert result.sequences, result.explanation
    assert len(set(result.sequences)) == len(result.sequences)
    assert all(replays(KINGS, KINGS, seq) for seq in result.sequences)
    assert f"{len(result.sequences):,} sequences found so far" in result.explanation
    assert "more may exist" in result.explanation
    assert result.to_dict()["complete"] is False  # --json says the list is not complete
    assert "no sequence" not in result.explanation and "impossible" not in result.explanation
    # what the referee could add to make it finish
    assert "add a move the players agree on" in result.explanation
    if bounded:
        # the shorter gaps were searched to the end before it stopped
        assert "searched completely" in result.explanation
        # (nothing in 2 plies: each side moves once and cannot be back)
        assert {len(seq) for seq in result.sequences} >= {0, 4}


def test_a_search_cancelled_at_once_found_nothing_and_says_so():
    result = fill_gap(KINGS, KINGS, plies=10, limit=100_000, progress=lambda f, n: False)
    assert result.status is Status.CANCELLED and result.sequences == ()
    assert "says nothing about whether one exists" in result.explanation


def test_a_search_stopped_by_the_limit_says_what_would_narrow_it():
    # issue 20's case: five orders of the same moves lead to this board
    board = "B:W17,20,21,22,25,26,28,29,30,31,32:B1,2,3,4,5,6,7,8,12"
    for limit in (1, 2):
        cut = fill_gap("start", board, plies=8, limit=limit)
        assert cut.truncated and "add a move the players agree on" in cut.explanation
    # the listed sequences of the cut search differ first at ply 1 (9-14 / 10-15 ...)
    two = fill_gap("start", board, plies=8, limit=2)
    assert f"the one at ply {two.diverge_at[0]}" in two.explanation
    whole = fill_gap("start", board, plies=8, limit=100)
    assert not whole.truncated and "add a move" not in whole.explanation


# ---------------------------------------------------------------- --known
START = "start"
# the position after 1. 11-15 23-19 2. 8-11 22-17 (pool from the start: Black first)
AFTER_FOUR = Position.start("pool")
for _text in ("11-15", "23-19", "8-11", "22-17"):
    AFTER_FOUR = AFTER_FOUR.play(next(m for m in AFTER_FOUR.legal_moves()
                                      if AFTER_FOUR.move_text(m) == _text))
BOARD = AFTER_FOUR.fen()


def reconstruct(capsys, *known: str, plies: str = "4"):
    code = main(["reconstruct", "--from", START, "--to", BOARD, "--plies", plies,
                 "--known", *known])
    out, err = capsys.readouterr()
    return code, out, err


def test_known_moves_that_fit_still_reconstruct(capsys):
    code, out, err = reconstruct(capsys, "1:11-15", "4:22-17")
    assert code == 0, err
    assert "exactly one sequence" in out


@pytest.mark.parametrize("known, words", [
    # past the end of the gap
    (["6:9-13"], ["9-13", "ply 6", "beyond the 4-ply gap"]),
    # a Black man's step (toward 29-32) at a ply of White, who has no king
    (["2:9-13"], ["9-13", "Black's", "ply 2 is White's"]),
    # a White man's step at a ply of Black
    (["3:22-18"], ["22-18", "White's", "ply 3 is Black's"]),
    # two moves for one ply (written once as a ply, once as Black's 2nd move)
    (["3:8-11", "2B:9-13"], ["two known moves for ply 3", "8-11", "9-13"]),
    # no piece can make it: not on one diagonal, an odd number of rows
    (["3:1-32"], ["1-32", "not on one diagonal"]),
    # not legal in the earlier position (the first missing ply): 13 is empty
    # at the start, and 9-18 is no step (two rows) nor a capture there
    (["1:13-17"], ["13-17", "ply 1 is not legal", "legal moves: 9-13, 9-14"]),
    (["1:9-18"], ["9-18", "ply 1 is not legal"]),
    # unreadable
    (["3:eleven-15"], ["eleven"]),
    (["3"], ["write PLY:MOVE"]),
])
def test_known_moves_that_cannot_belong_to_the_gap(capsys, known, words):
    code, out, err = reconstruct(capsys, *known)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    for word in words:
        assert word in err, err
    assert "parity" not in err and "odd" not in err.split(":", 2)[-1].split("(")[0]


def test_long_steps_need_flying_kings():
    # 32-9 follows one diagonal five rows long: a flying king's move in pool,
    # no move at all in English
    english = Position.from_fen("W:WK29,K32:BK1,K4", "english")
    with pytest.raises(DraughtsError, match="32-9 cannot be played.*one square at a time"):
        fill_gap(english, english, plies=4, known=["1:32-9"], variant="english")
    # in pool the kings of KINGS fly: the move is accepted (and played)
    found = fill_gap(KINGS, KINGS, plies=4, known=["1:32-9"])
    assert found.sequences and all(KINGS.move_text(seq[0]) == "32-9" for seq in found.sequences)
    # ... but not from the start, where Black can have no king by ply 3
    pool = Position.start("pool")
    with pytest.raises(DraughtsError, match="9-23 is a king's move.*Black.*no king"):
        fill_gap(pool, pool, plies=4, known=["3:9-23"])


# ---------------------------------------------------------------- Ctrl+C

def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists() or sys.platform == "win32",
                    reason="needs /proc to see that the search is running, and POSIX signals")
def test_ctrl_c_says_it_was_interrupted_and_exits_130():
    # a gap the search takes long over (tests/long_gap.py): it is still
    # searching when the signal comes
    cmd = [sys.executable, "-m", "rulesbook", "reconstruct", "--variant", LONG_GAP.variant,
           "--from", LONG_GAP.earlier, "--to", LONG_GAP.board, "--plies", str(LONG_GAP.plies)]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        # wait until it has been computing a while (past start-up and into
        # the search), by its CPU time; the wall-clock limit only ends a hang
        deadline = time.monotonic() + 120
        while _cpu_seconds(proc.pid) < 4.0:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the search never got going"
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (out, err)
    # one line says it was interrupted; the others are the search's progress lines
    *progress, last = err.strip().splitlines()
    assert "Traceback" not in err and "interrupted" in last
    assert all("Ctrl+C stops and lists what was found" in line for line in progress)
    # how far it got, and what it found so far
    assert "search cancelled after" in out and "positions" in out and "% of the search" in out
    assert "found so far" in out or "no sequence found yet" in out
    assert "impossible" not in out and "lead to the board" not in out


def test_a_flying_kings_capture_known_by_its_ends_may_end_off_its_first_diagonal():
    # Russian, Black's king on 32 takes 23 and 22: 32x18x25 (one row from 32,
    # not on a diagonal with it), read off the board by hand. Known as "ply 1
    # started on 32 and ended on 25" it must be accepted and found, not
    # refused as "not on one diagonal, a capture moves an even number of rows"
    before = Position.from_fen("B:WK7,15,22,23,29,30,31:BK32", "russian")
    capture = next(m for m in before.legal_moves() if m.path == (32, 18, 25))
    after = before.play(capture)
    result = fill_gap(before, after, plies=1, known=["1:32-25"])
    assert result.status is Status.UNIQUE
    assert result.sequences[0][0].path == (32, 18, 25)
