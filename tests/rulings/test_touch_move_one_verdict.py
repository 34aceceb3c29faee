"""#31: a player who touched a playable piece and moved another one gets one verdict
per rule. APCA 12: "HE MUST EITHER MOVE IT OR FORFEIT THE GAME"; Standard Laws 7:
"he must either move that man or forfeit the game" -- having moved another piece he
did not move it, so the forfeit applies, and "must move the piece" no longer can."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesbook.rulings.vocabulary import outcome_words

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("rule", ["apca:12"])
def test_attack_moved_another_piece_gives_one_verdict(tmp_path, rule):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    proc = subprocess.run(
        [sys.executable, "-m", "rulesbook", "--data", str(ROOT / "rules_data"), "rulings",
         "touch_move", "--fact", "piece_playable=yes", "--fact", "notice_given=no",
         "--fact", "moved_other_piece=yes", "--fact", "refuses_to_move=no"],
        capture_output=True, text=True, env=env, timeout=120)
    lines = [line for line in proc.stdout.splitlines() if line.strip().startswith(f"{rule}:")]
    if not lines and "--all" in proc.stderr:
        pytest.fail(proc.stderr)
    # the outcome in words (issue 31, Must 6)
    assert [line.split(":", 2)[2].strip() for line in lines] == [outcome_words("forfeit")], \
        proc.stdout
