"""Fixtures: members with keys (chair A, secretary B) in a copy of the data folder,
and a small closed-ballot workflow on it.

``keys`` points ``$RULESBOOK_DATA`` at the copy (so the command line reads its
members.yaml) and ``$RULESBOOK_CONFIG`` at a temporary folder (the private keys).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulesbook.ballots import build_ballot, cast_vote, close_ballot, load_registry, save_ballot
from tests.ballots.helpers import VOTES, make_keys


@pytest.fixture
def config(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv("RULESBOOK_CONFIG", str(folder))
    return folder


@pytest.fixture
def keys(data_copy, config, monkeypatch) -> dict:
    monkeypatch.setenv("RULESBOOK_DATA", str(data_copy))
    return make_keys(data_copy)


@pytest.fixture
def registry(keys, data_copy):
    return load_registry(data_copy)


@pytest.fixture
def open_ballot_file(tmp_path, library, keys, registry) -> Path:
    ballot = build_ballot(library, "test-ballot", method="irv", quorum=3,
                          opened_at="2026-02-15T00:00:00Z")
    for member, question, ranking in VOTES:
        ballot = cast_vote(ballot, member, question, ranking, at="2026-03-01T10:00:00Z",
                           signer=keys[member], registry=registry)
    path = tmp_path / "ballot.yaml"
    save_ballot(path, ballot)
    return path


@pytest.fixture
def sealed_file(open_ballot_file, keys, registry) -> Path:
    from rulesbook.ballots import load_ballot

    ballot = close_ballot(load_ballot(open_ballot_file), keys["A"], registry,
                          at="2026-03-02T12:00:00Z")
    save_ballot(open_ballot_file, ballot)
    return open_ballot_file
