"""Every way a user opens a data folder runs the checks of the rulings and of the
ballots, which the loader only gets as a parameter (``Library.load(folder,
checks)``) from the one place that names them, :mod:`rulesbook.loading`.

Each broken folder below is the bundled data with one reference broken by hand.
The expected message is written from the check that finds it (the format strings
in ``rulesbook/rulings/checks.py`` and ``rulesbook/ballots/checks.py``), at the
line and column of the value the test changed."""
from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import pytest

import rulesbook
from rulesbook.cli import main
from rulesbook.errors import LibraryError
from rulesbook.library import Library
from rulesbook.loading import library_checks, validate_folder
from rulesbook.rulings.checks import check_library as check_rulings
from tests.datapaths import REPO


class Broken(NamedTuple):
    file: str      # relative to the data folder
    before: str    # a line of the bundled file, as it is
    after: str     # the same line with the reference broken
    at: str        # where the problem is placed: the key of the value, or the list item
    message: str   # the check's message


BROKEN = {
    "ruling": Broken(
        "apca/rulebook.yaml", "      - incident: slow_play_complaint\n",
        "      - incident: slow_play_complant\n", "incident",
        # rulings/checks.py: f"unknown incident {name!r}{did_you_mean(name, incidents)}"
        "unknown incident 'slow_play_complant' (did you mean 'slow_play_complaint'?)"),
    "ballot": Broken(
        "apca/ballots/2026-committee.yaml", "  endorsements: ['apca:1A']\n",
        "  endorsements: ['apca:1Z']\n", "'apca:1Z'",
        # ballots/checks.py: f"{ref!r} is not an endorsement"
        "'apca:1Z' is not an endorsement"),
}


def break_reference(folder: Path, broken: Broken) -> str:
    """Make the change in ``folder``; the problem line it must give (file:line:col: …)."""
    path = folder / broken.file
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert broken.before in lines, f"{broken.before!r} is no longer in the bundled {broken.file}"
    number = lines.index(broken.before) + 1
    lines[number - 1] = broken.after
    path.write_text("".join(lines), encoding="utf-8")
    column = broken.after.index(broken.at) + 1
    return f"{broken.file}:{number}:{column}: {broken.message}"


@pytest.fixture(params=sorted(BROKEN))
def broken_folder(request, data_copy) -> tuple[Path, str]:
    return data_copy, break_reference(data_copy, BROKEN[request.param])


def test_the_bundled_folder_is_clean_with_every_check():
    assert validate_folder(REPO / "rules_data") == []


def test_rulesbook_validate_rejects_it(broken_folder, capsys):
    folder, expected = broken_folder
    assert main(["validate", str(folder)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert expected in out
    assert out[-1] == f"1 problem in {folder}"  # the singular, never "problem(s)"


def test_a_command_that_opens_the_library_rejects_it(broken_folder, capsys):
    folder, expected = broken_folder
    assert main(["--data", str(folder), "show", "28"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert expected in captured.err.splitlines()


def test_the_public_api_rejects_it(broken_folder):
    folder, expected = broken_folder
    with pytest.raises(LibraryError) as caught:
        rulesbook.load_library(folder)
    assert [str(p) for p in caught.value.problems] == [expected]
    assert [str(p) for p in rulesbook.validate_folder(folder)] == [expected]


def test_the_app_rejects_it(broken_folder):
    from ui.controller import load_folder  # what the app's load thread runs

    folder, expected = broken_folder
    result = load_folder(folder)
    assert not result.ok
    assert [str(p) for p in result.problems] == [expected]


def test_the_loader_checks_only_what_it_is_given(broken_folder):
    folder, expected = broken_folder
    assert Library.load(folder, ()).root == folder  # the broken reference goes unseen
    with pytest.raises(LibraryError) as caught:
        Library.load(folder, library_checks())
    assert [str(p) for p in caught.value.problems] == [expected]


def test_every_check_is_passed():
    from rulesbook.ballots.checks import check_library as check_ballots

    assert library_checks() == (check_rulings, check_ballots)


def calls_of_library_load(source: str) -> list[int]:
    """The lines of ``source`` that call ``Library.load``."""
    return sorted(node.lineno for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "load" and isinstance(node.func.value, ast.Name)
                  and node.func.value.id == "Library")


def test_the_call_check_finds_what_is_planted():
    assert calls_of_library_load("Library.load(root, ())\nlibrary.load(x)\n"
                                 "x = Library.load\nLibrary.load(root, checks)\n") == [1, 4]


@pytest.mark.parametrize("tree", ["rulesbook", "ui", "tools", "bench"])
def test_only_rulesbook_loading_calls_the_loader(tree):
    """A folder opened elsewhere with ``Library.load`` could forget a check."""
    allowed = {REPO / "rulesbook" / "loading.py"}
    found = [f"{path.relative_to(REPO)}:{line}" for path in sorted((REPO / tree).rglob("*.py"))
             if path not in allowed
             for line in calls_of_library_load(path.read_text(encoding="utf-8"))]
    assert not found, found
