"""The kill loop of tools/kill_loop.py (issue 34, Must 1): the writing commands killed
with SIGKILL at random points, then retried; every change one commit named for its
own command, ``validate``, ``git fsck`` and ``git status`` clean at the end."""
from __future__ import annotations

import pytest


def _check(load_tool, kills: int, seed: int) -> None:
    result = load_tool("kill_loop").run(kills, seed, log=False)
    print(result.summary())
    assert not result.failures, result.failures
    assert result.kills == kills
    assert set(result.per_command) >= {"member add", "propose", "ballot vote"}


def test_forty_kills_of_the_writing_commands(load_tool):
    _check(load_tool, 40, 7)


@pytest.mark.slow
def test_five_hundred_kills_of_the_writing_commands(load_tool):
    _check(load_tool, 500, 8)
