"""Every benchmark script answers ``--help`` with its description and runs nothing
(issue #29: ``bench_ballot_verify.py --help`` ran the benchmark)."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
SCRIPTS = sorted(p for p in BENCH.glob("*.py") if '__name__ == "__main__"' in p.read_text())


def test_every_script_is_found():
    assert {p.name for p in SCRIPTS} >= {"bench_sync.py", "bench_ballot_verify.py",
                                         "run_all.py"}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_help_prints_the_description_and_runs_nothing(script, tmp_path):
    doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8")))
    assert doc, f"{script.name} has no docstring to print"
    run = subprocess.run([sys.executable, str(script), "--help"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    if "argparse" in script.read_text(encoding="utf-8"):
        assert run.stdout.startswith("usage:"), run.stdout  # argparse's, then it exits
    else:  # the description and nothing else: no benchmark output after it
        assert run.stdout.strip() == doc.strip(), run.stdout
