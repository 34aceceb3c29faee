"""The record-by-record merge of signed files: ballots whose votes name rows of a
signatures table, and the members' registry (a dated log of signed statements).
Two members' votes and two members' keys added on different clones merge without
conflict and still verify; one signed vote changed on both sides is one conflict."""
from __future__ import annotations

import yaml

from rulesbook.ballots import (
    append_statement,
    build_ballot,
    cast_vote,
    dump_ballot,
    generate_key,
    load_registry,
    parse_ballot,
    sign_statement,
)
from rulesbook.ballots.registry import build_registry
from rulesbook.ballots.seal import check_votes
from rulesbook.rulesfolder.merge import merge_file
from tests.ballots.helpers import make_keys

BALLOT = "apca/ballots/b.yaml"


def signed_votes(ballot):
    return {(v.member, v.question, v.ranking, v.signature) for v in ballot.votes}


def test_votes_cast_on_two_clones_merge_each_with_its_own_signature(library, data_copy):
    keys = make_keys(data_copy)
    registry = load_registry(data_copy)
    base = build_ballot(library, "b", quorum=3, signer=keys["A"], registry=registry,
                        at="2026-02-15T09:00:00Z")

    def cast(ballot, member, question, ranking, at, proxy_by=None):
        return cast_vote(ballot, member, question, ranking, at=at, registry=registry,
                         signer=keys[proxy_by or member], proxy_by=proxy_by)

    ours = cast(base, "A", "10", "10B,10A", "2026-03-01T10:00:00Z")
    ours = cast(ours, "C", "28", "28A", "2026-03-01T10:05:00Z")
    theirs = cast(base, "B", "10", "10C", "2026-03-01T09:00:00Z")  # earlier: row 0 there
    theirs = cast(theirs, "B", "10", "10A", "2026-03-01T11:00:00Z")  # replaces it
    theirs = cast(theirs, "D", "28", "24B", "2026-03-01T11:30:00Z", proxy_by="B")
    texts = [dump_ballot(b).encode() for b in (base, ours, theirs)]
    # each side numbers its own signature rows from 0
    for text in texts[1:]:
        data = yaml.safe_load(text)
        assert 0 in {e["signed"] for e in data["votes"] + data.get("history", [])}
    result = merge_file(BALLOT, *texts)
    assert result.conflicts == ()
    merged = parse_ballot(result.data.decode(), BALLOT)
    assert signed_votes(merged) == signed_votes(ours) | signed_votes(theirs)
    assert [(h.member, h.ranking, h.vote.signature) for h in merged.history] == [
        (h.member, h.ranking, h.vote.signature) for h in theirs.history]
    assert check_votes(merged, registry) == []  # every vote carries its own signature
    assert next(v for v in merged.votes if v.member == "D").proxy_by == "B"
    # the file reads as `ballot` writes it: the table rebuilt in its own order
    assert result.data.decode() == dump_ballot(merged)


def test_a_signed_vote_changed_on_both_sides_is_one_conflict(library, data_copy):
    keys = make_keys(data_copy)
    registry = load_registry(data_copy)
    base = build_ballot(library, "b", quorum=3, signer=keys["A"], registry=registry,
                        at="2026-02-15T09:00:00Z")
    ours = cast_vote(base, "D", "10", "10A", at="2026-03-01T10:00:00Z", signer=keys["A"],
                     proxy_by="A", registry=registry)
    theirs = cast_vote(base, "D", "10", "10C", at="2026-03-01T10:01:00Z", signer=keys["B"],
                       proxy_by="B", registry=registry)
    result = merge_file(BALLOT, *(dump_ballot(b).encode() for b in (base, ours, theirs)))
    assert [c.record for c in result.conflicts] == ["votes[member=D, question=10].ranking"]
    assert "apca:10A" in result.conflicts[0].ours and "apca:10C" in result.conflicts[0].theirs


def _key(member: str, at: str):
    signer, _ = generate_key(member)
    return signer, sign_statement({"op": "key", "member": member, "key": signer.public,
                                   "at": at}, signer)


def _with(text: bytes, *statements) -> bytes:
    data = yaml.safe_load(text)
    data["registry"] = list(data.get("registry", [])) + list(statements)
    return yaml.safe_dump(data, sort_keys=False).encode()


def test_keys_added_on_two_clones_merge_into_a_registry_that_verifies(data_copy):
    base = (data_copy / "members.yaml").read_bytes()
    assert "registry" not in yaml.safe_load(base)  # the seed: no keys yet
    # B made his key at 10:00 on his clone, A his at 11:00 on his: appended one after
    # the other (ours, then theirs) B's would be dated before A's, which the registry
    # refuses
    a, a_key = _key("A", "2026-03-01T11:00:00Z")
    _, b_key = _key("B", "2026-03-01T10:00:00Z")
    ours, theirs = _with(base, a_key), _with(base, b_key)
    assert build_registry([a_key, b_key]).problems != ()
    result = merge_file("members.yaml", base, ours, theirs)
    assert result.conflicts == ()
    merged = yaml.safe_load(result.data)
    assert merged["registry"] == [b_key, a_key]
    assert build_registry(merged["registry"]).problems == ()
    assert merge_file("members.yaml", base, theirs, ours).data == result.data  # either side
    # the next statement, written after the merge, is appended and verifies
    (data_copy / "members.yaml").write_bytes(result.data)
    after = append_statement(data_copy,
        {"op": "role", "member": "A", "role": "chair", "key": a.public,
         "at": "2026-03-01T12:00:00Z"}, a)
    assert after.problems == () and after.chair == "A"
    assert {k.member for k in load_registry(data_copy).keys} == {"A", "B"}


def test_statements_of_the_same_second_keep_each_sides_order(data_copy):
    at = "2026-03-01T10:00:00Z"
    base = (data_copy / "members.yaml").read_bytes()
    a, a_key = _key("A", at)
    a_chair = sign_statement({"op": "role", "member": "A", "role": "chair", "key": a.public,
                              "at": at}, a)
    _, b_key = _key("B", at)
    ours, theirs = _with(base, a_key, a_chair), _with(base, b_key)
    result = merge_file("members.yaml", base, ours, theirs)
    assert result.conflicts == ()
    statements = yaml.safe_load(result.data)["registry"]
    assert statements.index(a_key) < statements.index(a_chair)  # a key before its role
    assert build_registry(statements).problems == ()
