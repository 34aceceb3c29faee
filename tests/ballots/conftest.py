"""Fixtures: members with keys (chair A, secretary B) in a copy of the data folder,
and a small closed-ballot workflow on it.

``keys`` points ``$RULESBOOK_DATA`` at the copy (so the command line reads its
members.yaml) and ``$RULESBOOK_CONFIG`` at a temporary folder (the private keys).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulesbook.ballots import (
    append_statement,
    build_ballot,
    cast_vote,
    close_ballot,
    generate_key,
    load_registry,
    save_ballot,
    sign_statement,
)

AT = "2026-02-01T09:00:00Z"


def make_keys(data: Path, members=("A", "B", "C", "D", "E"), chair="A", secretary="B"):
    """A key for each member, registered in ``data``/members.yaml; ``chair`` names
    themself chair and then makes ``secretary`` secretary."""
    keys = {}
    for m in members:
        signer, _ = generate_key(m, rules_folder=data)
        append_statement(data, sign_statement({"op": "key", "member": m, "key": signer.public,
                                               "at": AT}, signer))
        keys[m] = signer
    append_statement(data, sign_statement({"op": "role", "member": chair, "role": "chair",
                                           "key": keys[chair].public, "at": AT}, keys[chair]))
    if secretary:
        append_statement(data, sign_statement(
            {"op": "role", "member": secretary, "role": "secretary",
             "key": keys[secretary].public, "at": AT}, keys[chair]))
    return keys


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


VOTES = [("D", "10", "10C"), ("A", "10", "10B,10A"), ("B", "10", "10B"), ("C", "10", "10A,10B"),
         ("D", "10", "10B"), ("E", "10", ""), ("A", "Purpose", "yes"),
         ("B", "Purpose", "yes"), ("C", "Purpose", "no"), ("A", "28", "28A"),
         ("B", "28", "original"), ("C", "28", "24B")]


@pytest.fixture
def open_ballot_file(tmp_path, library, keys, registry) -> Path:
    ballot = build_ballot(library, "test-ballot", method="irv", quorum=3)
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
