"""Kill the app, start it again, find the work: real processes, a real SIGKILL.

Each app process runs the shipped entry point through ``tests/ui/app_harness.py``
(``python -m tests.ui.app_harness SCRIPT --data DIR``) offscreen, with its
autosave, settings and logs in the test's folder.
"""
from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.datapaths import REPO
from tests.ui.conftest import copy_data

BALLOT = Path("apca") / "ballots" / "2026-committee.yaml"
MOVES = ["11-15", "23-19", "8-11", "22-17"]

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

EDIT = """
board = window.workspaces["board"]
board.board_controller.editing.type_moves(" ".join({moves!r}))
ws = window.workspaces["ballots"]
window.show_workspace("ballots")
ws.key_panel.member_combo.setCurrentIndex(ws.key_panel.member_combo.findData("B"))
ws.key_panel.use_button.click()  # the secretary signs the votes typed in
questions = [q.id for q in ws.ballots.ballot.questions]
for member, question, text in {votes!r}:
    ws.member_combo.setCurrentIndex(ws.member_combo.findData(member))
    ws.question_list.setCurrentRow(questions.index(question))
    ws.ranking_edit.setText(text)
    assert ws.enter_ranking(), ws.vote_error.text()
if {method!r}:
    ws.method_combo.setCurrentIndex(ws.method_combo.findData({method!r}))
    ws.choose_method_button.click()
print("edited", flush=True)
"""

REPORT = """
import json
board = window.workspaces["board"]
ws = window.workspaces["ballots"]
offered = ws.recovery_banner.isVisibleTo(ws) and ws.restore_button.isVisibleTo(ws)
banner = ws.recovery_label.text() if ws.recovery_banner.isVisibleTo(ws) else ""
restored = ws.restore_recovery() if offered else False
b = ws.ballots.ballot
print("REPORT " + json.dumps({
    "board_moves": [m.text for m in board.board_controller.moves],
    "board_banner": board.banner.isVisibleTo(board),
    "offered": offered, "banner": banner, "restored": restored,
    "dirty": ws.ballots.dirty, "method": b.method,
    "votes": {f"{v.member}/{v.question}": list(v.ranking) for v in b.votes},
}), flush=True)
app.exit(0)
"""


class App:
    """One app process on ``data``, sharing the test's autosave, settings and logs."""

    def __init__(self, tmp_path: Path, data: Path, name: str, script: str):
        script_file = tmp_path / f"{name}.py"
        script_file.write_text(script, encoding="utf-8")
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
                   RULESBOOK_AUTOSAVE_DIR=str(tmp_path / "autosave"),
                   XDG_CONFIG_HOME=str(tmp_path / "config"),
                   RULESBOOK_LOG_DIR=str(tmp_path / "logs"))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.ui.app_harness", str(script_file),
             "--data", str(data)], cwd=REPO, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.stderr = ""

    def line_starting(self, prefix: str, timeout: float = 15.0) -> str:
        """The first line of its output that starts with ``prefix``."""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while time.monotonic() < deadline:
                if not sel.select(timeout=deadline - time.monotonic()):
                    break
                line = self.proc.stdout.readline()
                if not line:  # the app ended without the line
                    break
                if line.startswith(prefix):
                    return line.strip()
        self.kill()
        pytest.fail(f"the app never printed {prefix!r}; stderr:\n{self.stderr}")

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self._close()

    def _close(self) -> None:
        """Keep what the app wrote to stderr (for a failure's message), then close its pipes."""
        if not self.proc.stderr.closed:
            self.stderr = self.proc.stderr.read()
        self.proc.stdout.close()
        self.proc.stderr.close()

    def wait(self) -> int:
        code = self.proc.wait(15)
        self._close()
        return code


def edit_and_kill(tmp_path: Path, data: Path, votes, method: str = "") -> None:
    app = App(tmp_path, data, "edit", EDIT.format(moves=MOVES, votes=votes, method=method))
    try:
        app.line_starting("edited")
    finally:
        app.kill()
    assert app.proc.returncode == -signal.SIGKILL


def report(tmp_path: Path, data: Path) -> dict:
    app = App(tmp_path, data, "report", REPORT)
    line = app.line_starting("REPORT ")
    assert app.wait() == 0
    return json.loads(line[len("REPORT "):])


def with_keys(data: Path) -> Path:
    """Members' keys (in $RULESBOOK_CONFIG, which the app processes inherit)."""
    from tests.ballots.helpers import make_keys

    make_keys(data, open_seed=True)
    return data


def test_killed_app_recovers_the_board_record_and_the_unsaved_votes(tmp_path):
    data = with_keys(copy_data(tmp_path / "data"))
    before = (data / BALLOT).read_bytes()
    # (no method chosen: it is a signed setting of the open ballot, issue 27)
    edit_and_kill(tmp_path, data, [("B", "10", "2 1"), ("C", "10", "4")])
    assert (data / BALLOT).read_bytes() == before  # the ballot FILE is written on Save only

    found = report(tmp_path, data)
    assert found["board_moves"] == MOVES and found["board_banner"]
    assert found["offered"] and "2 vote(s) (B on 10, C on 10)" in found["banner"]
    assert found["restored"] and found["dirty"]
    assert found["votes"] == {"B/10": ["apca:10A", "apca:10"], "C/10": ["apca:10C"]}
    assert found["method"] == "irv"


def test_a_stale_recovery_is_refused_and_kept_aside(tmp_path):
    from rulesbook.ballots import load_ballot
    from tests.ballots.helpers import cli_vote

    data = with_keys(copy_data(tmp_path / "data"))
    edit_and_kill(tmp_path, data, [("B", "10", "2 1")])
    # meanwhile E votes with `rulesbook ballot vote`: signed, as every vote in a folder
    # must be since #27 (an unsigned one makes the folder fail to open)
    cli_vote(data, "E", "10", "apca:10B")

    found = report(tmp_path, data)
    assert not found["offered"] and not found["restored"]
    assert "NOT restored" in found["banner"] and "has changed" in found["banner"]
    assert found["votes"] == {"E/10": ["apca:10B"]}  # the file as it is, not undone
    aside = list((tmp_path / "autosave" / "ballots" / "set-aside").glob("*.json"))
    assert len(aside) == 1 and str(aside[0]) in found["banner"]
    kept = json.loads(aside[0].read_text(encoding="utf-8"))
    assert kept["changes"][0]["member"] == "B"  # the typed vote is not lost
    assert not list((tmp_path / "autosave" / "ballots").glob("*.json"))
    assert load_ballot(data / BALLOT).votes[0].member == "E"
