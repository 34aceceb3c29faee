"""The four attacks of issue #15, each played the way a member who wants another
result would play it, and each detected.

Against the code before the issue (an unsigned SHA-256 seal over part of the file,
no check of an edition against its ballot, imports trusting ``member:``) each of
these attacks went through: ``verify`` said intact, ``validate`` said OK and
``adopt`` wrote the edition. Here every one is refused, with the reason.
"""
from __future__ import annotations

import dataclasses
import shutil

import yaml

from rulesbook.ballots import (
    Vote,
    dump_member_ballot,
    generate_key,
    load_ballot,
    save_ballot,
    tally,
)
from rulesbook.ballots.seal import compute_seal
from rulesbook.ballots.signing import sign_vote
from rulesbook.cli import main
from rulesbook.loading import load_library


def _install(data_copy, sealed_file):
    target = data_copy / "apca" / "ballots" / "test.yaml"
    shutil.copy(sealed_file, target)
    return target


def _reseal(path, change):
    """What a tamperer can do: change the ballot, recount it and recompute the seal's
    digest and parts exactly as ``close_ballot`` does, keeping the closer's name, key
    and (old) signature — or with no key at all, forging everything but the signature."""
    ballot = load_ballot(path)
    changed = change(ballot)
    changed = dataclasses.replace(changed, results=tuple(r.to_dict() for r in tally(changed)))
    fresh = compute_seal(changed, ballot.seal.closed_at)
    seal = dataclasses.replace(fresh, closed_by=ballot.seal.closed_by, key=ballot.seal.key,
                               signature=ballot.seal.signature)
    # the digest a tamperer computes must also cover the closer fields he kept
    from rulesbook.ballots.seal import canonical_form, digest_of

    digest, parts = digest_of(canonical_form(changed, seal))
    seal = dataclasses.replace(seal, digest=digest, parts=parts)
    save_ballot(path, dataclasses.replace(changed, seal=seal))
    return load_ballot(path)


def _flip_to_10c(ballot):
    """Three votes on question 10 flipped so that 10C wins."""
    votes = []
    flipped = 0
    for v in ballot.votes:
        if v.question == "10" and flipped < 3 and v.member in ("A", "B", "C"):
            v = dataclasses.replace(v, ranking=("apca:10C",))
            flipped += 1
        votes.append(v)
    return dataclasses.replace(ballot, votes=tuple(votes))


def test_reseal_is_detected_by_verify_validate_and_adopt(data_copy, sealed_file, capsys,
                                                         tmp_path):
    target = _install(data_copy, sealed_file)
    assert main(["ballot", "verify", str(target)]) == 0
    forged = _reseal(target, _flip_to_10c)
    assert {r["question"]: r["winner"] for r in forged.results}["10"] == "apca:10C"
    capsys.readouterr()

    assert main(["ballot", "verify", str(target)]) == 1
    err = capsys.readouterr().err
    assert "the closer's signature does not match the seal" in err
    assert "the vote of A on question '10': the signature does not match the vote" in err
    assert "changed after they were cast" in err

    assert main(["--data", str(data_copy), "validate"]) == 1
    out = capsys.readouterr().out
    assert "apca/ballots/test.yaml:" in out and "closer's signature" in out

    editions = data_copy / "editions.yaml"
    before = editions.read_bytes()
    assert main(["--data", str(data_copy), "ballot", "adopt", str(target),
                 "--edition", "2026a"]) == 2  # the folder itself no longer loads
    assert "the ballot does not verify" in capsys.readouterr().err
    outside = tmp_path / "forged.yaml"  # nor does adopt take it from elsewhere
    shutil.move(target, outside)
    assert main(["--data", str(data_copy), "ballot", "adopt", str(outside),
                 "--edition", "2026a"]) == 2
    assert "fails verification, it cannot be adopted" in capsys.readouterr().err
    assert editions.read_bytes() == before


def test_reseal_signed_by_a_member_who_may_not_close(data_copy, sealed_file, keys, capsys):
    """C (a plain member) signs the forged seal with C's own registered key."""
    target = _install(data_copy, sealed_file)
    ballot = _flip_to_10c(load_ballot(target))
    # even with every flipped vote re-signed (impossible without A's and B's keys):
    # the seal itself is C's, and C is no closer
    ballot = dataclasses.replace(ballot, results=tuple(r.to_dict() for r in tally(ballot)))
    save_ballot(target, dataclasses.replace(
        ballot, seal=compute_seal(ballot, ballot.seal.closed_at, keys["C"])))
    assert main(["ballot", "verify", str(target), "--json"]) == 1
    import json

    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert any("the closer C was not the chair or the secretary" in f
               for f in report["failures"])


def test_after_adoption_a_reseal_or_a_hand_edit_of_the_edition_is_reported(
        data_copy, sealed_file, capsys):
    target = _install(data_copy, sealed_file)
    assert main(["--data", str(data_copy), "ballot", "adopt", str(target),
                 "--edition", "2026a"]) == 0
    assert main(["--data", str(data_copy), "validate"]) == 0
    editions = data_copy / "editions.yaml"
    adopted_text = editions.read_text()
    sealed_text = target.read_text()

    # resealing the adopted ballot: its digest no longer matches the edition
    _reseal(target, _flip_to_10c)
    capsys.readouterr()
    assert main(["--data", str(data_copy), "validate"]) == 1
    out = capsys.readouterr().out
    assert "closer's signature" in out
    assert "editions.yaml:" in out and "ballot 'test-ballot', which does not verify" in out
    target.write_text(sealed_text)

    # the adopted proposal replaced by hand (10B -> 10A): reported at its line
    lines = adopted_text.splitlines()
    n = next(i for i, ln in enumerate(lines) if "proposal: apca:10B" in ln)
    lines[n] = lines[n].replace("apca:10B", "apca:10A")
    editions.write_text("\n".join(lines) + "\n")
    assert main(["--data", str(data_copy), "validate"]) == 1
    out = capsys.readouterr().out
    assert (f"editions.yaml:{n + 1}:" in out and "adopts apca:10A (question '10'), but the "
            "sealed ballot adopted apca:10B" in out)
    # ...and the app (which loads through the same validation) refuses it: no edition
    # with 10A's text is ever put in force
    from rulesbook.errors import LibraryError

    try:
        load_library(data_copy)
    except LibraryError as exc:
        assert any("adopts apca:10A" in p.message for p in exc.problems)
    else:  # pragma: no cover - the check above failed
        raise AssertionError("a hand-edited edition loaded")

    # an earlier record edited by hand breaks the chain at the next record
    editions.write_text(adopted_text.replace("The 34 original proposed rules",
                                             "The 33 original proposed rules"))
    assert main(["--data", str(data_copy), "validate"]) == 1
    out = capsys.readouterr().out
    assert "the edition chain is broken: the record of edition 'original'" in out


def test_forged_member_ballot_is_refused(open_ballot_file, tmp_path, keys, config, capsys):
    before = open_ballot_file.read_bytes()
    for forger in ("C", "mallory"):
        if forger == "mallory":  # a key nobody registered, named as B's
            key, _ = generate_key("B")
        else:  # a committee member's own, registered key
            key = keys["C"]
        vote = sign_vote("test-ballot", Vote("B", "10", ("apca:10C",), "2026-03-01T12:00:00Z"),
                         key)
        doc = {"schema_version": 1, "kind": "member-ballot", "ballot": "test-ballot",
               "member": "B", "key": key.public, "at": vote.at, "signature": vote.signature,
               "votes": [{"question": "10", "ranking": ["apca:10C"]}]}
        path = tmp_path / f"b-by-{forger}.yaml"
        path.write_text(dump_member_ballot(doc))
        assert main(["ballot", "import", str(open_ballot_file), str(path)]) == 1
        err = capsys.readouterr().err
        assert "nothing imported" in err and "this copy says member 'B'" in err
        assert ("not by a key of member B" in err if forger == "C"
                else "is not registered in members.yaml" in err)
        assert open_ballot_file.read_bytes() == before

    # B's own file, with the vote changed after signing
    doc = yaml.safe_load(path.read_text())
    vote = sign_vote("test-ballot", Vote("B", "10", ("apca:10B",), "2026-03-01T12:00:00Z"),
                     keys["B"])
    doc.update(key=keys["B"].public, signature=vote.signature)
    doc["votes"][0].update(ranking=["apca:10C"])
    path.write_text(dump_member_ballot(doc))
    assert main(["ballot", "import", str(open_ballot_file), str(path)]) == 1
    assert "the votes in this copy do not carry B's signature" in capsys.readouterr().err
    assert open_ballot_file.read_bytes() == before


def test_title_and_description_are_sealed(data_copy, sealed_file, capsys):
    target = _install(data_copy, sealed_file)
    for field, value in (("title", "Unanimous ballot"), ("description", "Adopted by all.")):
        data = yaml.safe_load(target.read_text())
        data[field] = value
        target.write_text(yaml.safe_dump(data, sort_keys=False))
        assert main(["ballot", "verify", str(target)]) == 1
        assert f"the {field} changed after the seal" in capsys.readouterr().err
        outside = sealed_file.with_name("edited.yaml")
        shutil.move(target, outside)
        assert main(["--data", str(data_copy), "ballot", "adopt", str(outside),
                     "--edition", "x"]) == 2
        assert "fails verification" in capsys.readouterr().err
        shutil.copy(sealed_file, target)
