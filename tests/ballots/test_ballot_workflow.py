"""Import of members' copies, the shipped ballot, adoption and the command line."""
from __future__ import annotations

import dataclasses
import json
import re
import shutil

import pytest

from rulesbook.ballots import BallotError, build_ballot, cast_vote, dump_ballot, load_ballot
from rulesbook.cli import main
from rulesbook.datapath import bundled_data_dir
from rulesbook.editions import consolidate, redline
from rulesbook.loading import load_library

SHIPPED = bundled_data_dir() / "apca" / "ballots" / "2026-committee.yaml"

AT = "2026-03-01T11:00:00Z"
# E's votes, as `ballot export` writes them (canonical options)
E_VOTES = [("28", ["apca:28A", "apca:28"]), ("Heading", ["apca:Heading"]),
           ("10", ["apca:10C", "apca:10A"])]


def member_file(path, keys, member="E", votes=E_VOTES, ballot="test-ballot", signer=None,
                extra=()):
    """A member-ballot of ``member`` whose votes are signed together by ``signer``
    (default: the member), over exactly the rankings written; ``extra`` votes too."""
    from rulesbook.ballots import Vote, dump_member_ballot
    from rulesbook.ballots.signing import batch_message

    key = keys[signer or member]
    everything = list(votes) + list(extra)
    signed_as = [Vote(member, q, tuple(r), AT) for q, r in everything]
    # a batch signs each question once: a question voted twice is signed as written
    signature = key.sign(batch_message(ballot, {v.question: v for v in signed_as}.values()))
    doc = {"schema_version": 1, "kind": "member-ballot", "ballot": ballot, "member": member,
           "key": key.public, "at": AT, "signature": signature,
           "votes": [{"question": q, "ranking": list(r)} for q, r in everything]}
    path.write_text(dump_member_ballot(doc))
    return path


# -- import ----------------------------------------------------------------------

def test_import_merges_a_member_file(open_ballot_file, tmp_path, keys):
    path = member_file(tmp_path / "e.yaml", keys)
    assert main(["ballot", "import", str(open_ballot_file), str(path)]) == 0
    ballot = load_ballot(open_ballot_file)
    mine = {v.question: v.ranking for v in ballot.votes if v.member == "E"}
    assert mine == {"28": ("apca:28A", "apca:28"), "Heading": ("apca:Heading",),
                    "10": ("apca:10C", "apca:10A")}
    assert any(h.member == "E" and h.question == "10" and h.ranking == ()
               for h in ballot.history)  # E's abstention was replaced, and recorded


@pytest.mark.parametrize("bad,message", [
    (("9", ["9Z"]), "'9Z' is not an option"),
    (("2", ["2B"]), "no question '2'"),
    (("28", ["apca:28A"]), "voted twice (first at line"),
    (("9", ["apca:9A", "apca:9A"]), "ranked twice"),
])
def test_a_bad_line_refuses_the_whole_file(open_ballot_file, tmp_path, capsys, bad, message,
                                           keys):
    path = member_file(tmp_path / "e.yaml", keys, extra=[bad])
    lines = path.read_text().splitlines()
    last = max(i for i, ln in enumerate(lines, 1) if ln.startswith("- question:"))
    before = open_ballot_file.read_bytes()
    assert main(["ballot", "import", str(open_ballot_file), str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    where = re.search(re.escape(str(path)) + r":(\d+):\d+: [^\n]*" + re.escape(message), err)
    assert where and last <= int(where[1]) <= len(lines)  # the appended vote's lines
    assert open_ballot_file.read_bytes() == before


@pytest.mark.parametrize("change,message", [
    ({"member": "Z"}, "not on the roll"),
    ({"ballot": "other"}, "is for ballot 'other'"),
])
def test_import_checks_the_member_and_the_ballot(open_ballot_file, tmp_path, capsys, change,
                                                 message, keys):
    path = member_file(tmp_path / "e.yaml", keys)
    text = path.read_text()
    for key, value in change.items():
        text = text.replace(f"{key}: {'E' if key == 'member' else 'test-ballot'}\n",
                            f"{key}: {value}\n", 1)
    path.write_text(text)
    before = open_ballot_file.read_bytes()
    assert main(["ballot", "import", str(open_ballot_file), str(path)]) == 1
    assert message in capsys.readouterr().err
    assert open_ballot_file.read_bytes() == before


def test_import_into_a_closed_ballot_changes_nothing(sealed_file, tmp_path, capsys, keys):
    path = member_file(tmp_path / "e.yaml", keys)
    before = sealed_file.read_bytes()
    assert main(["ballot", "import", str(sealed_file), str(path)]) == 2
    assert "closed" in capsys.readouterr().err
    assert sealed_file.read_bytes() == before


def test_a_failed_write_leaves_the_old_file(open_ballot_file, monkeypatch, keys):
    from rulesbook.ballots import io
    from rulesbook.storage import SaveError

    def broken(path, text):
        raise SaveError("disk full")
    monkeypatch.setattr(io, "atomic_write_text", broken)
    before = open_ballot_file.read_bytes()
    assert main(["ballot", "vote", str(open_ballot_file), "--member", "E", "--question", "10",
                 "--ranking", "10A"]) == 2
    assert open_ballot_file.read_bytes() == before


# -- the shipped ballot -------------------------------------------------------------

def test_the_shipped_ballot_is_what_ballot_new_builds(library, tmp_path):
    # the shipped ballot was written before ballots recorded their opening time (it has
    # no lower bound on its votes' times but the keys' registration: docs/threat-model.md)
    built = dataclasses.replace(build_ballot(library, "2026-committee"), opened_at="")
    assert SHIPPED.read_text() == dump_ballot(built)
    out = tmp_path / "2026-committee.yaml"
    assert main(["ballot", "new", str(out)]) == 0
    written = out.read_text()
    assert re.search(r"^opened_at: '\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ'$", written, re.M)
    assert re.sub(r"^opened_at: .*\n", "", written, flags=re.M) == SHIPPED.read_text()


def test_the_shipped_ballot_validates_open_and_without_votes(library):
    assert library.extra["ballot"]  # the loader found and checked it
    ballot = load_ballot(SHIPPED)
    assert ballot.status == "open" and ballot.votes == () and ballot.seal is None
    assert ballot.roll == ("A", "B", "C", "D", "E")


def test_the_questions_follow_the_proposals(library):
    ballot = load_ballot(SHIPPED)
    q = {x.id: x for x in ballot.questions}
    assert q["10"].options == ("apca:10", "apca:10A", "apca:10B", "apca:10C")
    assert "2" not in q  # 2A is an OK and 2B is about the pieces (Rule 3)
    assert q["3"].options == ("apca:3", "apca:2B") and q["3"].endorsements == ("apca:3A",)
    assert "apca:1D" not in q["1"].options  # a comment
    assert "apca:3B" not in q["3"].options and "apca:3B" in q["5"].options  # misfiled
    assert all("apca:5B" in q[r].options for r in ("14", "17", "19"))
    assert q["Purpose"].rule is None and q["Purpose"].options == ("status-quo", "apca:Purpose")
    assert q["11B"].options == ("status-quo", "apca:11B")
    for question in ballot.questions:
        for ref in question.options[1:]:
            assert library.index[ref].kind in ("replacement", "addition")


def test_bad_references_in_a_ballot_are_validation_problems(data_copy, capsys):
    target = data_copy / "apca" / "ballots" / "2026-committee.yaml"
    text = target.read_text().replace("options: ['apca:9', 'apca:9A'",
                                      "options: ['apca:9', 'apca:9U'", 1)
    text = text.replace("roll: [A, B, C, D, E]", "roll: [A, B, C, D, X]")
    target.write_text(text)
    assert main(["--data", str(data_copy), "validate"]) == 1
    out = capsys.readouterr().out
    assert "option apca:9U is a comment, which offers no text to adopt" in out
    assert "member 'X' is neither in members.yaml" in out
    assert "apca/ballots/2026-committee.yaml:" in out


# -- adoption ------------------------------------------------------------------------

def test_adopt_makes_the_next_edition(data_copy, sealed_file, capsys):
    shutil.copy(sealed_file, data_copy / "apca" / "ballots" / "test.yaml")
    ballot_file = data_copy / "apca" / "ballots" / "test.yaml"
    editions = data_copy / "editions.yaml"
    comments = [ln for ln in editions.read_text().splitlines() if ln.startswith("#")]
    assert main(["--data", str(data_copy), "ballot", "adopt", str(ballot_file),
                 "--edition", "2026a"]) == 0
    text = editions.read_text()
    assert all(c in text for c in comments)  # an append, not a rewrite
    library = load_library(data_copy)
    new = library.edition()
    assert new.id == "2026a" and new.base == "original" and new.date == "2026-03-02"
    seal = load_ballot(ballot_file).seal.digest
    assert seal in new.description
    # the provenance: who signed (every current vote, by its member) and who sealed
    from tests.ballots.helpers import VOTES

    current = len({(m, q) for m, q, _ in VOTES})  # D voted twice on 10: one counts
    assert f"{current} vote(s) signed by the members themselves; sealed and signed by A." \
        in new.description
    assert new.seal == f"sha256:{seal}" and new.ballot == "test-ballot"
    assert {(a.proposal, a.rule, a.ballot, a.question) for a in new.adopted} == {
        ("apca:10B", "apca:10", "test-ballot", "10"),
        ("apca:Purpose", None, "test-ballot", "Purpose")}
    book = consolidate(library, "2026a")
    assert book.rule("apca:10").text == library.index["apca:10B"].text
    assert book.rule("apca:Purpose").source == "apca:Purpose"
    changes = {e.ref: e.status for e in redline(library, "original", "2026a").changes}
    assert changes == {"apca:10": "changed", "apca:Purpose": "added"}
    # adopting again is refused and changes nothing
    before = editions.read_bytes()
    assert main(["--data", str(data_copy), "ballot", "adopt", str(ballot_file),
                 "--edition", "2026b"]) == 2
    assert "already adopted" in capsys.readouterr().err
    assert editions.read_bytes() == before


def test_adopt_refuses_open_or_tampered_ballots(data_copy, open_ballot_file, sealed_file,
                                                capsys, tmp_path):
    editions = data_copy / "editions.yaml"
    before = editions.read_bytes()
    opened = tmp_path / "open.yaml"
    opened.write_text(dump_ballot(build_ballot(load_library(data_copy), "x")))
    assert main(["--data", str(data_copy), "ballot", "adopt", str(opened),
                 "--edition", "e2"]) == 2
    assert "not closed" in capsys.readouterr().err
    sealed_file.write_text(sealed_file.read_text().replace("quorum: 3", "quorum: 2"))
    assert main(["--data", str(data_copy), "ballot", "adopt", str(sealed_file),
                 "--edition", "e2"]) == 2
    assert "fails verification" in capsys.readouterr().err
    assert editions.read_bytes() == before


# -- the command line ------------------------------------------------------------------

def test_cli_workflow_and_tally_json(tmp_path, capsys, keys):
    path = tmp_path / "b.yaml"
    assert main(["ballot", "new", str(path), "--method", "schulze", "--threshold",
                 "two-thirds", "--quorum", "2"]) == 0
    for member, ranking in (("A", "10B,10A"), ("B", "apca:10B"), ("C", "10A,10B")):
        assert main(["ballot", "vote", str(path), "--member", member, "--question", "10",
                     "--ranking", ranking]) == 0
    capsys.readouterr()
    assert main(["ballot", "tally", str(path), "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    r = next(x for x in results if x["question"] == "10")
    assert set(r) >= {"question", "winner", "stands", "reason", "counts", "rounds", "pairwise"}
    assert (r["winner"], r["stands"]) == ("apca:10B", "adopted")
    assert r["pairwise"]["d"]["apca:10B"]["apca:10A"] == 2
    assert main(["ballot", "tally", str(path), "--json", "--method", "irv",
                 "--threshold", "plurality"]) == 0
    r = next(x for x in json.loads(capsys.readouterr().out) if x["question"] == "10")
    assert r["rounds"] and r["method"] == "irv"
    assert main(["ballot", "tally", str(path)]) == 0
    assert "pairwise" in capsys.readouterr().out
    assert main(["ballot", "close", str(path), "--as", "C"]) == 2  # a member, not a closer
    assert "only the chair or the secretary" in capsys.readouterr().err
    assert main(["ballot", "close", str(path), "--as", "B"]) == 0
    assert main(["ballot", "verify", str(path)]) == 0
    assert main(["ballot", "vote", str(path), "--member", "A", "--question", "10",
                 "--ranking", "10A"]) == 2
    assert "closed" in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["ballot", "tally", "missing.yaml"], "cannot read"),
    (["ballot", "vote", "missing.yaml", "--member", "A", "--question", "1", "--ranking", "x"],
     "cannot read"),
    (["ballot", "adopt", "missing.yaml", "--edition", "x"], "cannot read"),
])
def test_cli_errors_are_messages(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_cli_refuses_an_existing_output(tmp_path, capsys):
    out = tmp_path / "b.yaml"
    out.write_text("keep me")
    assert main(["ballot", "new", str(out)]) == 2
    assert out.read_text() == "keep me"


def test_a_proxy_vote_is_shown_in_the_tally_and_the_edition(data_copy, open_ballot_file, keys,
                                                            registry, capsys):
    from rulesbook.ballots import close_ballot, save_ballot

    ballot = load_ballot(open_ballot_file)
    ballot = cast_vote(ballot, "E", "10", "10B", at="2026-03-01T11:00:00Z",
                       signer=keys["B"], proxy_by="B", registry=registry)
    with pytest.raises(BallotError, match="not the chair or the secretary"):
        cast_vote(ballot, "E", "10", "10C", signer=keys["C"], proxy_by="C", registry=registry)
    with pytest.raises(BallotError, match="must be signed by the proxy B"):
        cast_vote(ballot, "E", "10", "10C", signer=keys["C"], proxy_by="B", registry=registry)
    ballot = close_ballot(ballot, keys["B"], registry, at="2026-03-02T12:00:00Z")
    target = data_copy / "apca" / "ballots" / "proxy.yaml"
    save_ballot(target, ballot)
    assert main(["ballot", "tally", str(target)]) == 0
    assert "proxy votes: E (by B)" in capsys.readouterr().out
    assert main(["--data", str(data_copy), "ballot", "adopt", str(target),
                 "--edition", "2026p"]) == 0
    edition = load_library(data_copy).edition()
    assert "1 entered by proxy by B (E on 10)" in edition.description
    assert "sealed and signed by B" in edition.description
