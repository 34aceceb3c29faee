"""The library commands' contracts: exit codes and JSON keys are fixed."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rulesbook.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_clean_and_broken(capsys, data_copy):
    code, out, _ = run(capsys, "validate", str(data_copy))
    assert code == 0 and "OK" in out
    (data_copy / "members.yaml").write_text("schema_version: 1\nkind: members\nmembers: []\n",
                                            encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(data_copy))
    assert code == 1
    assert "members.yaml:3:" in out


def test_validate_json(capsys, data_copy):
    (data_copy / "topics.yaml").write_text("schema_version: 1\nkind: topics\ntopics: 3\n",
                                           encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(data_copy), "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False
    assert {"file", "line", "col", "message"} <= set(data["problems"][0])


def test_export_json_contract(capsys):
    code, out, _ = run(capsys, "export", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) >= {"rulebooks", "members", "topics", "editions"}
    apca = next(b for b in data["rulebooks"] if b["id"] == "apca")
    assert set(apca) >= {"id", "title", "rules", "preamble"}
    rule = apca["rules"][9]
    assert set(rule) >= {"ref", "number", "title", "text", "topics", "notes", "proposals"}
    assert rule["ref"] == "apca:10"
    prop = rule["proposals"][1]
    assert set(prop) >= {"ref", "member", "member_name", "kind", "text", "topics", "notes"}
    assert prop["ref"] == "apca:10B" and prop["member_name"] == "Shotgun"
    assert {p["ref"] for p in apca["preamble"]} == {"apca:Purpose", "apca:Heading", "apca:Spirit"}
    assert any(m["id"] == "E" for m in data["members"])


def test_show(capsys):
    code, out, _ = run(capsys, "show", "24B", "--json")
    data = json.loads(out)
    assert code == 0 and data["ref"] == "apca:24B" and data["member"] == "B"
    code, out, _ = run(capsys, "show", "rule 28")
    assert code == 0 and "28A" in out and "Pecan" in out


def test_show_unknown_reference_is_a_message(capsys):
    code, out, err = run(capsys, "show", "apca:99")
    assert code == 2 and "apca:99" in err and "Traceback" not in err


def test_compare_json_contract(capsys):
    code, out, _ = run(capsys, "compare", "28", "--json")
    data = json.loads(out)
    assert code == 0
    for variant in data["variants"]:
        assert {"ref", "rulebook", "text", "diff"} <= set(variant)
    assert "apca:24B" in [v["ref"] for v in data["variants"]]
    code, out, _ = run(capsys, "compare", "--topic", "spectators", "--json")
    assert code == 0 and json.loads(out)["subject"] == "topic:spectators"
    code, _, err = run(capsys, "compare", "--topic", "spectator")
    assert code == 2 and "did you mean 'spectators'" in err


def test_search_json_contract(capsys):
    code, out, _ = run(capsys, "search", "touched a piece", "--limit", "3", "--json")
    hits = json.loads(out)
    assert code == 0 and len(hits) == 3
    assert set(hits[0]) >= {"ref", "rulebook", "title", "snippet", "score"}


def test_edition_commands(capsys):
    code, out, _ = run(capsys, "edition", "list", "--json")
    assert code == 0 and json.loads(out)[0]["id"] == "original"
    code, out, _ = run(capsys, "edition", "show", "original", "--json")
    assert code == 0 and len(json.loads(out)["rules"]) == 34
    code, out, _ = run(capsys, "edition", "diff", "original", "original", "--json")
    assert code == 0 and json.loads(out)["changes"] == []
    code, _, err = run(capsys, "edition", "show", "nope")
    assert code == 2 and "no edition 'nope'" in err


def test_data_option_on_a_broken_folder(capsys, data_copy):
    (data_copy / "members.yaml").write_bytes(b"\xff\xfe")
    code, _, err = run(capsys, "--data", str(data_copy), "show", "28")
    assert code == 2 and "members.yaml" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["--help"], ["validate", "--help"]])
def test_the_console_entry_point_runs(argv):
    result = subprocess.run([sys.executable, "-m", "rulesbook", *argv], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and "usage" in result.stdout
