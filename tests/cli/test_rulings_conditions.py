"""CLI rulings print an unanswered condition as the question and the answer it
needs (acf-guide:2 applies when the player has NOT resigned), not bare fact ids."""
from __future__ import annotations

import subprocess
import sys


def test_condition_printed_with_answer_needed() -> None:
    out = subprocess.run([sys.executable, "-m", "rulesbook", "rulings", "resignation",
                          "--variant", "english"],
                         capture_output=True, text=True, timeout=300).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("acf-guide:2:"))
    assert "[if resigned, position_hopeless]" not in line
    # rules_data/acf-guide: when: {resigned: false, ...} ("Not resigning")
    assert " no" in line and " yes" in line
