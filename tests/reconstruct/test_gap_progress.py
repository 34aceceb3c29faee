"""Issue 20: a CLI gap search that runs long says so on stderr (never on stdout)."""
from __future__ import annotations

import io
import json
import sys

import pytest

from rulesbook.cli.progress import EVERY_SECONDS, QUIET_SECONDS, GapProgress
from tests.interrupted import interrupt_when
from tests.long_gap import LONG_GAP

STOP_HINT = "Ctrl+C stops and lists what was found"


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_not_a_terminal_stays_quiet_for_the_first_seconds_then_reports_now_and_then():
    clock, out = FakeClock(), io.StringIO()
    progress = GapProgress("the 8-ply gap", out, clock)
    clock.now += QUIET_SECONDS / 2
    assert progress(0.1, 1_000) is True  # never cancels
    assert out.getvalue() == ""
    clock.now += QUIET_SECONDS / 2
    progress(0.25, 123_456)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    assert "123,456 positions searched" in lines[0] and "25% done" in lines[0]
    assert "8-ply gap" in lines[0] and STOP_HINT in lines[0]
    clock.now += EVERY_SECONDS / 2
    progress(0.3, 200_000)
    assert len(out.getvalue().splitlines()) == 1  # not every report: every few seconds
    clock.now += EVERY_SECONDS / 2
    progress(0.4, 300_000)
    assert len(out.getvalue().splitlines()) == 2


def test_at_a_terminal_the_first_report_is_shown_at_once():
    clock, out = FakeClock(), Terminal()
    progress = GapProgress("gaps of up to 12 plies", out, clock)
    progress(0.0, 10)
    assert "gaps of up to 12 plies" in out.getvalue() and STOP_HINT in out.getvalue()


def test_a_closed_stderr_does_not_stop_the_search():
    clock, out = FakeClock(), io.StringIO()
    progress = GapProgress("the 8-ply gap", out, clock)
    out.close()
    clock.now += 2 * QUIET_SECONDS  # a line is due: writing it fails
    assert progress(0.5, 1) is True


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_long_search_prints_progress_on_stderr_and_ctrl_c_lists_what_was_found():
    # a gap the search takes long over (tests/long_gap.py)
    cmd = [sys.executable, "-m", "rulesbook", "reconstruct", "--variant", LONG_GAP.variant,
           "--from", LONG_GAP.earlier, "--to", LONG_GAP.board, "--plies", str(LONG_GAP.plies),
           "--json"]
    # the first line is due after 2 s of search
    got = interrupt_when(cmd, lambda seen: any(STOP_HINT in line for line in seen), hang=90)
    seen, out, err = got.seen, got.out, got.err
    assert got.returncode == 130, (out, err)
    line = next(line for line in seen if STOP_HINT in line)
    assert f"{LONG_GAP.plies}-ply gap" in line and "positions searched" in line and "% done" in line
    result = json.loads(out)  # stdout is the JSON answer alone, no progress in it
    assert result["status"] == "cancelled"
    assert "interrupted" in err.strip().splitlines()[-1] and "Traceback" not in err
