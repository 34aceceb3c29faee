"""Test helpers: members with keys, and an edition adopted the real way (a signed,
sealed ballot in the data folder) for tests that need a second edition."""
from __future__ import annotations

from pathlib import Path

AT = "2026-02-01T09:00:00Z"
# the votes of the ballot of tests/ballots/conftest.py (D votes twice on question 10)
VOTES = [("D", "10", "10C"), ("A", "10", "10B,10A"), ("B", "10", "10B"), ("C", "10", "10A,10B"),
         ("D", "10", "10B"), ("E", "10", ""), ("A", "Purpose", "yes"),
         ("B", "Purpose", "yes"), ("C", "Purpose", "no"), ("A", "28", "28A"),
         ("B", "28", "original"), ("C", "28", "24B")]


def make_keys(data: Path, members=("A", "B", "C", "D", "E"), chair="A", secretary="B",
              open_seed=False):
    """A key for each member (in ``$RULESBOOK_CONFIG`` or the user config folder),
    registered in ``data``/members.yaml; ``chair`` names themself chair and makes
    ``secretary`` secretary; ``open_seed``: the chair also signs the settings of the
    seed's ballot (``apca/ballots/2026-committee.yaml``), so that it takes votes."""
    from rulesbook.ballots import append_statement, generate_key

    keys = {}
    for m in members:
        signer, _ = generate_key(m, rules_folder=data)
        append_statement(data, {"op": "key", "member": m, "key": signer.public,
                                               "at": AT}, signer)
        keys[m] = signer
    append_statement(data, {"op": "role", "member": chair, "role": "chair",
                                           "key": keys[chair].public, "at": AT}, keys[chair])
    if secretary:
        append_statement(data,
            {"op": "role", "member": secretary, "role": "secretary",
             "key": keys[secretary].public, "at": AT}, keys[chair])
    if open_seed:
        sign_seed_ballot(data, keys[chair])
    return keys


SEED_BALLOT = Path("apca") / "ballots" / "2026-committee.yaml"


def sign_seed_ballot(data: Path, signer) -> None:
    """The chair opens the seed's ballot (``ballot sign``): its settings signed."""
    from rulesbook.ballots import load_ballot, load_registry, open_ballot, save_ballot
    from rulesbook.loading import load_library

    path = data / SEED_BALLOT
    save_ballot(path, open_ballot(load_library(data), load_ballot(path), signer,
                                  "2026-02-01T10:00:00Z", load_registry(data)))


def cli_vote(data: Path, member: str, question: str, ranking: str) -> None:
    """``member``'s own signed vote on the seed's ballot, saved by another program (as
    `rulesbook ballot vote` saves it: with the member's key from ``$RULESBOOK_CONFIG``)."""
    from rulesbook.ballots import load_registry, load_signing_key, vote_file

    registry = load_registry(data)
    signer = load_signing_key(member, registry.registered_key(member))
    vote_file(data / SEED_BALLOT, member, question, ranking, signer=signer, registry=registry)


def adopt_edition(data: Path, edition_id: str, votes: dict, *, ballot_id: str = "b1",
                  title: str | None = None, date: str | None = None) -> Path:
    """Members A, B and C vote ``votes`` ({question: ranking}) on a new ballot, the chair
    closes it, and it is adopted as ``edition_id``: the edition carries the chain record
    and the ballot's digest, as `ballot adopt` writes them. Returns the ballot file."""
    from rulesbook.ballots import (
        adopt_ballot,
        build_ballot,
        cast_vote,
        close_ballot,
        load_registry,
        save_ballot,
    )
    from rulesbook.loading import load_library

    keys = make_keys(data, members=("A", "B", "C"))
    registry = load_registry(data)
    library = load_library(data)
    ballot = build_ballot(library, ballot_id, quorum=3, roll=("A", "B", "C", "D", "E"),
                          signer=keys["A"], at="2026-04-01T09:00:00Z", registry=registry)
    for member in ("A", "B", "C"):
        for question, ranking in votes.items():
            ballot = cast_vote(ballot, member, question, ranking, at="2026-05-01T10:00:00Z",
                               signer=keys[member], registry=registry)
    ballot = close_ballot(ballot, keys["A"], registry, at="2026-05-02T12:00:00Z")
    path = data / "apca" / "ballots" / f"{ballot_id}.yaml"
    save_ballot(path, ballot)
    adopt_ballot(load_library(data), ballot, edition_id, signer=keys["A"], title=title,
                 date=date)
    return path
