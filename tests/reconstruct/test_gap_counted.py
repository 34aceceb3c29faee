"""Issue 30, Must 5: the sequences counted so far, told with each progress report
(``fill_gap(counted=...)``, :meth:`GapSearch.found_now`), are a proven lower
bound: they never go back and never pass the count the search ends with.

Gaps small enough to finish, from real English games (the Tinsley collection,
from ply 20: ``bench/gap_cases.py``): 20 plies of game 91 for the compiled
search (seconds, 2,781 sequences), 16 plies of game 4 for the Python one
(the reference; a second or two, 98 sequences).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulesbook.reconstruct.gap import compiled as gap_compiled
from rulesbook.reconstruct.gap import fill_gap

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gap_cases import english_cases  # noqa: E402 - the bench's corpus cases

CASES = [pytest.param(True, 20, "tinsley game 91", id="compiled"),
         pytest.param(False, 16, "tinsley game 4", id="python")]


@pytest.mark.parametrize("compiled, plies, name", CASES)
def test_the_count_so_far_never_goes_back_nor_passes_the_count(compiled, plies, name):
    if compiled and not gap_compiled.AVAILABLE:
        pytest.skip("numba is not installed")
    if compiled:
        gap_compiled.warm_up()  # (the search runs compiled, not in Python meanwhile)
    case = next(c for c in english_cases(plies, 100) if c.name == name)
    told: list[int] = []  # counted(n), as told
    reports: list[int] = []  # the count so far at each progress report
    result = fill_gap(case.earlier, case.board, plies=plies, compiled=compiled,
                      counted=told.append,
                      progress=lambda _f, _n: reports.append(told[-1] if told else -1))
    assert result.count is not None and result.count == result.count_at_least > 0
    assert told and -1 not in reports  # told before every report
    assert told == sorted(told), "the count so far went back"
    assert max(told) <= result.count
    # it moves with the work: several values on the way, not 0 then the count
    assert len(set(told)) >= 3, sorted(set(told))
    assert 0 < max(told)
