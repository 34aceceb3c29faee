"""A ``members.yaml`` edited by hand into another shape is read before the folder is
validated (to name the member a change is by, to check the member of a key): each
command answers with a readable message about the file, never an internal error.
Found by the strict type check (the ids were read with ``.get`` on whatever the file
held)."""
from __future__ import annotations

import pytest

from rulesbook.cli import main

#: members.yaml bodies a hand edit may leave: the list a scalar, a member a word, an
#: id a number
BROKEN = {
    "members-a-number": "schema_version: 1\nkind: members\nmembers: 5\n",
    "member-a-word": "schema_version: 1\nkind: members\nmembers:\n  - A\n",
    "id-a-number": "schema_version: 1\nkind: members\nmembers:\n  - {id: 7, name: Seven}\n",
    "file-a-list": "- A\n- B\n",
}


@pytest.fixture
def env(data_copy, tmp_path, monkeypatch):
    monkeypatch.setenv("RULESBOOK_CONFIG", str(tmp_path / "config"))
    monkeypatch.setenv("RULESBOOK_DATA", str(data_copy))
    return data_copy


@pytest.mark.parametrize("body", BROKEN.values(), ids=BROKEN.keys())
@pytest.mark.parametrize("argv", [
    ("member", "keygen", "--member", "A"),
    ("propose", "--member", "A", "--rule", "apca:28", "--kind", "comment", "--text", "Why."),
], ids=["keygen", "propose"])
def test_a_hand_broken_members_file_is_a_readable_error(env, capsys, body, argv):
    (env / "members.yaml").write_text(body, encoding="utf-8")
    code = main(list(argv))
    err = capsys.readouterr().err
    assert code == 2
    assert "internal error" not in err
    lines = err.strip().splitlines()
    assert lines and lines[0].startswith(f"rulesbook {argv[0]}")
