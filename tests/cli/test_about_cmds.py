"""``rulesbook about`` (issue 32): Help ▸ About for the command line."""
from __future__ import annotations

import json

import pytest

from rulesbook.cli import main
from rulesbook.version import version


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_about_json_names_the_version_and_every_component(capsys):
    code, out, err = run(capsys, "about", "--json")
    assert (code, err) == (0, "")
    about = json.loads(out)
    assert about["version"] == version() and about["bundle"] is False
    assert {"program", "seed_data", "gap_search", "components", "python"} <= set(about)
    names = {c["name"].lower() for c in about["components"]}
    assert {"python", "rulesbook", "pyside6_essentials", "numba", "dulwich"} <= names
    assert all(c["licence"] for c in about["components"])


def test_about_warm_up_prepares_the_compiled_search(capsys, tmp_path, monkeypatch):
    from rulesbook.reconstruct.gap import compiled as gap_compiled

    if not gap_compiled.AVAILABLE:
        pytest.skip(f"numba is not installed here: {gap_compiled.why_unavailable()}")
    code, out, err = run(capsys, "about", "--warm-up", "--json")
    gap = json.loads(out)["gap_search"]
    assert (code, gap["compiled"], gap["warmed_up"], gap["reason"]) == (0, True, True, ""), err
    assert gap["kind"] == gap_compiled.KIND == "jit"  # the venv compiles it with numba


def test_a_kernel_that_cannot_be_prepared_is_one_line_and_exit_1(capsys, monkeypatch):
    from rulesbook.reconstruct.gap import compiled as gap_compiled

    def broken() -> None:
        raise RuntimeError("LLVM could not be loaded\nsecond line of advice")

    monkeypatch.setattr(gap_compiled, "AVAILABLE", True)
    monkeypatch.setattr(gap_compiled, "_warm_up", broken)
    code, out, err = run(capsys, "about", "--warm-up")
    assert code == 1 and "Traceback" not in out + err and err == ""
    line = next(line for line in out.splitlines() if line.startswith("Gap search:"))
    assert "could not be prepared (RuntimeError: LLVM could not be loaded second line" in line
    assert "searches run in Python" in line
