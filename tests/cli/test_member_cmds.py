"""`rulesbook member ...` and the signed ballot workflow on the command line."""
from __future__ import annotations

import json
import re
import stat

import pytest
import yaml

from rulesbook.cli import main


@pytest.fixture
def env(data_copy, tmp_path, monkeypatch):
    config = tmp_path / "config"
    monkeypatch.setenv("RULESBOOK_CONFIG", str(config))
    monkeypatch.setenv("RULESBOOK_DATA", str(data_copy))
    return data_copy, config


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_keygen_keeps_the_private_key_private(env, capsys):
    data, config = env
    code, out, err = run(capsys, "member", "keygen", "--member", "A")
    assert code == 0, err
    files = list((config / "keys").glob("A-*.pem"))
    assert len(files) == 1
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert stat.S_IMODE((config / "keys").stat().st_mode) == 0o700
    pem = files[0].read_text()
    assert "PRIVATE KEY" in pem
    body = "".join(pem.splitlines()[1:-1])
    assert body not in out + err and "PRIVATE" not in out + err
    members = yaml.safe_load((data / "members.yaml").read_text())
    statement = members["registry"][0]
    assert statement["op"] == "key" and statement["member"] == "A"
    assert statement["key"].startswith("ed25519:")
    assert not any(p.suffix == ".pem" for p in data.rglob("*"))  # nothing in the rules
    assert run(capsys, "validate")[0] == 0


def test_a_key_is_never_stored_inside_the_rules_folder(env, capsys, monkeypatch):
    data, _ = env
    monkeypatch.setenv("RULESBOOK_CONFIG", str(data / "private"))
    code, _, err = run(capsys, "member", "keygen", "--member", "A")
    assert code == 2 and "never stored with the rules" in err
    assert not (data / "private").exists()


def test_passphrase_missing_or_wrong(env, capsys, tmp_path):
    data, _ = env
    secret = tmp_path / "pass.txt"
    secret.write_text("correct horse\n")
    assert run(capsys, "member", "keygen", "--member", "A", "--passphrase-file",
               str(secret))[0] == 0
    pem = next((env[1] / "keys").glob("A-*.pem")).read_text()
    assert "ENCRYPTED" in pem
    code, _, err = run(capsys, "member", "role", "A", "chair")
    assert code == 2 and "protected by a passphrase: give --passphrase-file" in err
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("battery staple\n")
    code, _, err = run(capsys, "member", "role", "A", "chair", "--passphrase-file", str(wrong))
    assert code == 2 and "wrong passphrase" in err and "Traceback" not in err
    assert "battery" not in err and "correct" not in err
    assert run(capsys, "member", "role", "A", "chair", "--passphrase-file", str(secret))[0] == 0


def test_roles_are_signed_by_the_chair(env, capsys):
    data, config = env
    for m in "ABC":
        assert run(capsys, "member", "keygen", "--member", m)[0] == 0
    assert run(capsys, "member", "role", "A", "chair")[0] == 0
    code, out, _ = run(capsys, "member", "role", "B", "secretary")
    assert code == 0 and "signed by A" in out
    # without the chair's key on this computer, no role can change
    chair_key = next((config / "keys").glob("A-*.pem"))
    hidden = chair_key.with_name("elsewhere")
    chair_key.rename(hidden)
    code, _, err = run(capsys, "member", "role", "C", "chair")
    assert code == 2 and "private key of member A" in err and "not on this computer" in err
    hidden.rename(chair_key)
    code, out, _ = run(capsys, "member", "list", "--json")
    listing = json.loads(out)
    assert listing["chair"] == "A"
    assert {k["member"]: k["role"] for k in listing["keys"]} == {
        "A": "chair", "B": "secretary", "C": "member"}
    # a hand edit of a role statement: reported at its line, and it does not count
    text = (data / "members.yaml").read_text()
    edited = text.replace("role: secretary", "role: chair")
    assert edited != text
    (data / "members.yaml").write_text(edited)
    code, out, _ = run(capsys, "validate")
    assert code == 1
    line = next(i for i, ln in enumerate(edited.splitlines(), 1) if "role: chair" in ln
                and "member: B" in ln)
    assert re.search(rf"members\.yaml:{line}:\d+: the signature of this role statement for "
                     rf"member B does not verify", out)


def test_signed_workflow_proxy_receipts_and_verify(env, capsys, tmp_path):
    data, _ = env
    for m in "ABCDE":
        assert run(capsys, "member", "keygen", "--member", m)[0] == 0
    assert run(capsys, "member", "role", "A", "chair")[0] == 0
    assert run(capsys, "member", "role", "B", "secretary")[0] == 0
    ballot = tmp_path / "b.yaml"
    assert run(capsys, "ballot", "new", str(ballot), "--quorum", "2", "--as", "A")[0] == 0
    code, out, _ = run(capsys, "ballot", "vote", str(ballot), "--member", "C", "--question",
                       "10", "--ranking", "10C")
    assert code == 0
    receipt_c = re.search(r"receipt ([A-Z2-7]{4}(?:-[A-Z2-7]{4}){3})", out)[1]
    # a postal vote of D entered by the secretary, shown as such
    code, out, _ = run(capsys, "ballot", "vote", str(ballot), "--member", "D", "--question",
                       "10", "--ranking", "10C,10A", "--proxy-by", "B")
    assert code == 0 and "proxy vote entered by B" in out
    # a plain member cannot enter votes for others
    code, _, err = run(capsys, "ballot", "vote", str(ballot), "--member", "D", "--question",
                       "10", "--ranking", "10A", "--proxy-by", "E")
    assert code == 2 and "not the chair or the secretary" in err
    # E votes on a copy and sends the signed export
    copy = tmp_path / "e-copy.yaml"
    copy.write_bytes(ballot.read_bytes())
    assert run(capsys, "ballot", "vote", str(copy), "--member", "E", "--question", "10",
               "--ranking", "10A")[0] == 0
    assert run(capsys, "ballot", "vote", str(copy), "--member", "E", "--question", "28",
               "--ranking", "28A")[0] == 0
    out_file = tmp_path / "e-signed.yaml"
    code, out, _ = run(capsys, "ballot", "export", str(copy), "--member", "E", "-o",
                       str(out_file))
    assert code == 0
    receipt_e = re.search(r"receipt ([A-Z2-7-]{19})", out)[1]
    assert run(capsys, "ballot", "import", str(ballot), str(out_file))[0] == 0
    code, out, _ = run(capsys, "ballot", "tally", str(ballot))
    assert "proxy votes: D (by B)" in out
    code, _, err = run(capsys, "ballot", "close", str(ballot), "--as", "E")
    assert code == 2 and "only the chair or the secretary" in err
    assert run(capsys, "ballot", "close", str(ballot), "--as", "B")[0] == 0
    for receipt in (receipt_c, receipt_e, receipt_e.lower().replace("-", "")):
        code, out, _ = run(capsys, "ballot", "verify", str(ballot), "--receipt", receipt)
        assert code == 0 and "unchanged" in out
    code, out, _ = run(capsys, "ballot", "verify", str(ballot), "--receipt",
                       "AAAA-BBBB-CCCC-DDDD", "--json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False
    assert any("no vote in the ballot has this receipt" in f for f in report["failures"])
    # E's vote changed in the sealed file: the receipt and the seal say so
    text = ballot.read_text()
    data_ = yaml.safe_load(text)
    for v in data_["votes"]:
        if v["member"] == "E" and v["question"] == "28":
            v["ranking"] = ["apca:28"]
    ballot.write_text(yaml.safe_dump(data_, sort_keys=False))
    code, out, _ = run(capsys, "ballot", "verify", str(ballot), "--receipt", receipt_e,
                       "--json")
    report = json.loads(out)
    assert code == 1 and set(report) >= {"ok", "failures"}
    assert any(f"receipt {receipt_e}: the vote(s) of member E on question(s) 10, 28 were "
               f"CHANGED" in f for f in report["failures"])
    assert any("the votes of E on questions '10', '28': the signature does not match" in f
               for f in report["failures"])
    assert any("the votes on question '28' changed after the seal" in f
               for f in report["failures"])


def test_a_revoked_key_signs_nothing_new(env, capsys, tmp_path):
    for m in "ABC":
        assert run(capsys, "member", "keygen", "--member", m)[0] == 0
    assert run(capsys, "member", "role", "A", "chair")[0] == 0
    code, out, _ = run(capsys, "member", "revoke", "C")
    assert code == 0 and "revoked (signed by A)" in out
    ballot = tmp_path / "b.yaml"
    assert run(capsys, "ballot", "new", str(ballot), "--as", "A")[0] == 0
    code, _, err = run(capsys, "ballot", "vote", str(ballot), "--member", "C", "--question",
                       "10", "--ranking", "10C")
    assert code == 2 and "no key in members.yaml" in err
    # C makes a new key; it counts once the chair confirms it
    code, out, _ = run(capsys, "member", "keygen", "--member", "C")
    assert code == 0 and "counts once the chair confirms it" in out
    code, _, err = run(capsys, "ballot", "vote", str(ballot), "--member", "C", "--question",
                       "10", "--ranking", "10C")
    assert code == 2 and "never confirmed by the chair" in err
    assert run(capsys, "member", "role", "C", "member")[0] == 0
    assert run(capsys, "ballot", "vote", str(ballot), "--member", "C", "--question", "10",
               "--ranking", "10C")[0] == 0


def test_a_lost_chair_key_is_revoked_by_the_secretary(env, capsys):
    for m in "ABC":
        assert run(capsys, "member", "keygen", "--member", m)[0] == 0
    assert run(capsys, "member", "role", "A", "chair")[0] == 0
    assert run(capsys, "member", "role", "B", "secretary")[0] == 0
    # C, a plain member, cannot revoke the chair's key
    code, _, err = run(capsys, "member", "revoke", "A", "--as", "C")
    assert code == 2 and "must be signed by the chair (A)" in err
    code, out, _ = run(capsys, "member", "revoke", "A", "--as", "B")
    assert code == 0 and "revoked (signed by B)" in out
    assert json.loads(run(capsys, "member", "list", "--json")[1])["chair"] is None
    # A's new key, and A names themself chair again (nobody else signs while vacant)
    assert run(capsys, "member", "keygen", "--member", "A")[0] == 0
    assert run(capsys, "member", "role", "A", "chair")[0] == 0
    listing = json.loads(run(capsys, "member", "list", "--json")[1])
    assert listing["chair"] == "A" and not listing["problems"]


def test_a_second_key_waits_and_the_first_keeps_signing(env, capsys, tmp_path):
    for m in "AB":
        assert run(capsys, "member", "keygen", "--member", m)[0] == 0
    assert run(capsys, "member", "role", "A", "chair")[0] == 0
    code, out, _ = run(capsys, "member", "keygen", "--member", "B")  # e.g. a new laptop
    assert code == 0 and "counts once the chair confirms it" in out
    ballot = tmp_path / "b.yaml"
    assert run(capsys, "ballot", "new", str(ballot), "--as", "A")[0] == 0
    code, _, err = run(capsys, "ballot", "vote", str(ballot), "--member", "B", "--question",
                       "10", "--ranking", "10B")
    assert code == 0, err  # signed with B's confirmed (first) key
    assert run(capsys, "member", "role", "B", "member")[0] == 0  # the chair confirms the new
    listing = json.loads(run(capsys, "member", "list", "--json")[1])
    assert [k["confirmed"] for k in listing["keys"] if k["member"] == "B"] == [True, True]
