"""Fixtures: a small closed-ballot workflow on a copy of the data folder."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulesbook.ballots import build_ballot, cast_vote, close_ballot, save_ballot


@pytest.fixture
def open_ballot_file(tmp_path, library) -> Path:
    ballot = build_ballot(library, "test-ballot", method="irv", quorum=3)
    votes = [("D", "10", "10C"), ("A", "10", "10B,10A"), ("B", "10", "10B"), ("C", "10", "10A,10B"),
             ("D", "10", "10B"), ("E", "10", ""), ("A", "Purpose", "yes"),
             ("B", "Purpose", "yes"), ("C", "Purpose", "no"), ("A", "28", "28A"),
             ("B", "28", "original"), ("C", "28", "24B")]
    for member, question, ranking in votes:
        ballot = cast_vote(ballot, member, question, ranking, at="2026-03-01T10:00:00Z")
    path = tmp_path / "ballot.yaml"
    save_ballot(path, ballot)
    return path


@pytest.fixture
def sealed_file(open_ballot_file) -> Path:
    from rulesbook.ballots import load_ballot

    ballot = close_ballot(load_ballot(open_ballot_file), at="2026-03-02T12:00:00Z")
    save_ballot(open_ballot_file, ballot)
    return open_ballot_file
