"""What a tester who did not write the ballot code found after issue #15, each played
against the command line (and the core) and each now refused or stated plainly.

1. the newest edition record edited by hand (title, date, description) passed
   ``validate``: now the adopter signs every record;
2. one private key registered for two members;
3. an impossible ``--date``;
4. ``verify --json`` with no JSON for an unreadable file or an open ballot;
5. a replaced vote's receipt reported as "DOES NOT VERIFY"; a copy imported twice
   adding history twice.
"""
from __future__ import annotations

import dataclasses
import json
import shutil

import pytest
import yaml

from rulesbook.ballots import (
    dump_member_ballot,
    export_member_ballot,
    generate_key,
    load_ballot,
    load_registry,
    receipt_code,
    sign_statement,
)
from rulesbook.ballots.edition_sig import sign_edition
from rulesbook.ballots.keys import key_file, load_signing_key
from rulesbook.ballots.model import Replaced
from rulesbook.cli import main
from tests.ballots.helpers import make_keys


def _install(data_copy, sealed_file):
    target = data_copy / "apca" / "ballots" / "test.yaml"
    shutil.copy(sealed_file, target)
    return target


def _adopt(data_copy, target, *extra) -> int:
    return main(["--data", str(data_copy), "ballot", "adopt", str(target),
                 "--edition", "2026a", *extra])


def _validate(data_copy, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["--data", str(data_copy), "validate"])
    return code, capsys.readouterr().out


def _line_of(text: str, needle: str, last: bool = True) -> int:
    """1-based number of the (last) line of ``text`` containing ``needle``."""
    numbers = [i + 1 for i, ln in enumerate(text.splitlines()) if needle in ln]
    return numbers[-1] if last else numbers[0]


# -- 1. every edition record, the newest included, is signed by its adopter ---------

@pytest.mark.parametrize("edit", [
    ("description", "sealed and signed by A.", "sealed and signed by B."),
    ("description", "vote(s) signed by the members themselves",
     "vote(s) entered by proxy"),
    ("date", "'2026-03-02'", "'2026-03-01'"),
    ("title", "edition 2026a", "edition 2026 (final)"),
])
def test_a_hand_edit_of_the_newest_edition_record_is_reported(data_copy, sealed_file,
                                                              capsys, edit):
    target = _install(data_copy, sealed_file)
    assert _adopt(data_copy, target) == 0
    editions = data_copy / "editions.yaml"
    newest = yaml.safe_load(editions.read_text())["editions"][-1]
    # the closer (A, the chair in tests/ballots/conftest.py) signs by default
    assert newest["signed_by"] == "A" and newest["key"].startswith("ed25519:")
    assert _validate(data_copy, capsys)[0] == 0

    field, old, new = edit
    text = editions.read_text()
    start = text.index("id: 2026a")  # only the newest record is edited
    assert old in text[start:], (field, old)
    edited = text[:start] + text[start:].replace(old, new, 1)
    editions.write_text(edited)
    code, out = _validate(data_copy, capsys)
    assert code == 1
    line = _line_of(edited, "signature:")
    assert (f"editions.yaml:{line}:" in out and "the record of edition '2026a' was changed "
            "by hand after A signed it" in out), out


def test_the_adopter_must_be_the_chair_or_the_secretary(data_copy, sealed_file, capsys):
    target = _install(data_copy, sealed_file)
    editions = data_copy / "editions.yaml"
    before = editions.read_bytes()
    capsys.readouterr()
    assert _adopt(data_copy, target, "--as", "C") == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "C cannot adopt the ballot: only the chair or the secretary" in err
    assert editions.read_bytes() == before
    assert _adopt(data_copy, target, "--as", "B") == 0  # B is the secretary
    assert yaml.safe_load(editions.read_text())["editions"][-1]["signed_by"] == "B"
    assert _validate(data_copy, capsys)[0] == 0


def test_a_record_resigned_by_a_plain_member_or_unsigned_is_reported(data_copy, sealed_file,
                                                                     keys, capsys):
    target = _install(data_copy, sealed_file)
    assert _adopt(data_copy, target) == 0
    editions = data_copy / "editions.yaml"
    data = yaml.safe_load(editions.read_text())
    record = dict(data["editions"][-1], title="Unanimous edition")

    # C (a plain member with a registered key) edits the record and signs it afresh
    data["editions"][-1] = sign_edition(record, keys["C"], "2026-03-03T09:00:00Z")
    editions.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    code, out = _validate(data_copy, capsys)
    assert code == 1
    assert "edition '2026a' is signed by C, who cannot sign it: only the chair or the " \
           "secretary adopts an edition" in out

    # a key nobody registered, named as the chair's
    mallory, _ = generate_key("A")
    data["editions"][-1] = sign_edition(record, mallory, "2026-03-03T09:00:00Z")
    editions.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    code, out = _validate(data_copy, capsys)
    assert code == 1 and "is not registered in members.yaml" in out

    # the signature cut off altogether
    data["editions"][-1] = {k: v for k, v in record.items()
                            if k not in ("signed_by", "signed_at", "key", "signature")}
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    editions.write_text(text)
    code, out = _validate(data_copy, capsys)
    assert code == 1
    assert (f"editions.yaml:{_line_of(text, 'id: 2026a')}:" in out
            and "edition '2026a' carries no signature of the chair or secretary" in out)


# -- 2. one key, one member ------------------------------------------------------------

def test_one_private_key_cannot_be_registered_for_two_members(data_copy, config,
                                                              monkeypatch, capsys):
    monkeypatch.setenv("RULESBOOK_DATA", str(data_copy))
    keys = make_keys(data_copy, members=("A", "B", "C", "D"))
    members = data_copy / "members.yaml"
    before = members.read_bytes()
    d_file = key_file("D", keys["D"].public)
    capsys.readouterr()
    assert main(["member", "import-key", "--member", "E", str(d_file)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "already registered to member D" in err and "cannot also be member E's" in err
    assert members.read_bytes() == before
    assert not key_file("E", keys["D"].public).exists()  # nothing stored for E either

    # written into members.yaml by hand (E's statement signed with D's private key),
    # and confirmed by the chair: the statement is refused when the registry is read
    # (each chained to the one above, as the registry's hash chain requires)
    from rulesbook.ballots.registry import last_digest, statement_digest

    as_e = dataclasses.replace(load_signing_key("D", keys["D"].public), member="E")
    first = sign_statement({"op": "key", "member": "E", "key": keys["D"].public,
                            "at": "2026-02-02T09:00:00Z"}, as_e,
                           last_digest(list(load_registry(data_copy).statements)))
    statements = [first, sign_statement({"op": "role", "member": "E", "role": "member",
                                         "key": keys["D"].public,
                                         "at": "2026-02-02T10:00:00Z"},
                                        keys["A"], statement_digest(first))]
    text = members.read_text() + "".join(
        "  " + ln + "\n" for st in statements
        for ln in yaml.safe_dump([st], sort_keys=False, width=1000).splitlines())
    members.write_text(text)
    registry = load_registry(data_copy)
    assert registry.key_of("E") is None and registry.key_of("D") == keys["D"].public
    code, out = _validate(data_copy, capsys)
    assert code == 1
    line = _line_of(text, "- op: key")
    assert f"members.yaml:{line + 2}:" in out or f"members.yaml:{line}:" in out, out
    assert "already registered to member D: it cannot also be member E's" in out


# -- 3. dates are days of the calendar ------------------------------------------------

@pytest.mark.parametrize("day", ["2026-13-45", "2026-02-30", "2026-00-10"])
def test_an_impossible_adoption_date_is_refused(data_copy, sealed_file, capsys, day):
    target = _install(data_copy, sealed_file)
    editions = data_copy / "editions.yaml"
    before = editions.read_bytes()
    capsys.readouterr()
    assert _adopt(data_copy, target, "--date", day) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and f"date {day!r} is not a day" in err
    assert editions.read_bytes() == before


def test_validate_reports_an_impossible_date_in_editions_yaml(data_copy, capsys):
    editions = data_copy / "editions.yaml"
    text = editions.read_text()
    first_date = _line_of(text, "date:", last=False)
    lines = text.splitlines()
    lines[first_date - 1] = lines[first_date - 1].split("date:")[0] + 'date: "2026-02-30"'
    editions.write_text("\n".join(lines) + "\n")
    code, out = _validate(data_copy, capsys)
    assert code == 1
    assert (f"editions.yaml:{first_date}:" in out
            and "is dated '2026-02-30', which is not a day of the calendar" in out), out


# -- 4. verify --json always prints JSON ----------------------------------------------

def test_verify_json_of_a_missing_file_and_of_an_open_ballot(tmp_path, open_ballot_file,
                                                             keys, capsys):
    garbage = tmp_path / "garbage.yaml"
    garbage.write_text("kind: [unclosed\n")
    for path, code in ((tmp_path / "missing.yaml", 2), (garbage, 2), (open_ballot_file, 1)):
        capsys.readouterr()
        assert main(["ballot", "verify", str(path), "--json"]) == code, path
        captured = capsys.readouterr()
        report = json.loads(captured.out)
        assert report["ok"] is False and len(report["failures"]) == 1
        assert report["failures"][0].strip()
        assert len(captured.err.strip().splitlines()) == 1
    assert "not sealed" in report["failures"][0]


# -- 5. receipts of replaced votes; importing a copy twice ----------------------------

def _replaced_receipt(sealed_file) -> str:
    """D's first vote on question 10 (10C), replaced by D's later vote (10B)."""
    ballot = load_ballot(sealed_file)
    old = next(h.vote for h in ballot.history if isinstance(h, Replaced)
               and h.member == "D" and h.question == "10")
    assert old.ranking == ("apca:10C",)
    return receipt_code(old.signature)


def test_a_replaced_votes_receipt_on_an_intact_ballot(sealed_file, keys, capsys):
    code = _replaced_receipt(sealed_file)
    capsys.readouterr()
    assert main(["ballot", "verify", str(sealed_file), "--receipt", code]) == 0
    out = capsys.readouterr().out
    assert "intact" in out and "DOES NOT VERIFY" not in out
    assert ("were replaced by a later vote of the same member D" in out
            and "the later vote is the one counted" in out), out

    assert main(["ballot", "verify", str(sealed_file), "--receipt", code, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["failures"] == []
    assert report["receipt"]["status"] == "replaced" and report["receipt"]["ok"] is False
    assert report["receipt"]["member"] == "D"

    current = next(v for v in load_ballot(sealed_file).votes
                   if v.member == "D" and v.question == "10")
    assert main(["ballot", "verify", str(sealed_file), "--json",
                 "--receipt", receipt_code(current.signature)]) == 0
    assert json.loads(capsys.readouterr().out)["receipt"]["status"] == "unchanged"

    # a receipt no vote has is still a failure
    assert main(["ballot", "verify", str(sealed_file), "--json",
                 "--receipt", "AAAA-AAAA-AAAA-AAAA"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["receipt"]["status"] == "missing"


def test_importing_the_same_copy_twice_changes_nothing(open_ballot_file, tmp_path, keys,
                                                       capsys):
    doc, _ = export_member_ballot(load_ballot(open_ballot_file), "A", keys["A"],
                                  "2026-03-01T12:00:00Z")
    copy = tmp_path / "a.yaml"
    copy.write_text(dump_member_ballot(doc))
    assert main(["ballot", "import", str(open_ballot_file), str(copy)]) == 0
    once = load_ballot(open_ballot_file)
    capsys.readouterr()
    assert main(["ballot", "import", str(open_ballot_file), str(copy)]) == 0
    assert "already in the ballot" in capsys.readouterr().out
    twice = load_ballot(open_ballot_file)
    assert twice.history == once.history and twice.votes == once.votes
