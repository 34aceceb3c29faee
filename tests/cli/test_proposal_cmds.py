"""`rulesbook member add`, `propose`, `proposal edit|withdraw` and where a new
proposal shows: the whole committee workflow of issue 18 on the command line, in a
rules folder (every change one commit)."""
from __future__ import annotations

import difflib
import json
import re
import subprocess

import pytest
import yaml
from dulwich.repo import Repo

from rulesbook.cli import main
from rulesbook.rulesfolder.trailer import split_trailer

# The source's own words (seeds/apca-proposed-rules-with-amendments.txt): "A = Pecan;
# B = shotgun; C = Kacher; D = Blaine; E = Moochie, and others will be given identifying
# letters as they enter their proposed changes": the next member is F, then G.
NEXT_LETTERS = ("F", "G")
NEW_28 = ("The lone King must be caught before the player with the lone King counts "
          "fifteen, or the game is declared a draw. This rule is used only when there are "
          "four pieces on the board, and all pieces are Kings.")
ADDITION = "In Match Play each player shall have five minutes for every move."


@pytest.fixture
def folder(tmp_path, data_copy, monkeypatch, capsys):
    monkeypatch.setenv("RULESBOOK_CONFIG", str(tmp_path / "config"))
    club = tmp_path / "club"
    assert main(["init", str(club), "--from", str(data_copy)]) == 0
    monkeypatch.setenv("RULESBOOK_DATA", str(club))
    capsys.readouterr()
    return club


def run(capsys, *argv):
    argv = [str(a) for a in argv]
    if argv[:1] in (["propose"], ["proposal"]) and "--member" in argv:
        signer = argv[argv.index("--as") + 1] if "--as" in argv else \
            argv[argv.index("--member") + 1]
        with_key(capsys, signer)
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def with_key(capsys, member: str) -> None:
    """A proposal is signed by its author: ``member`` makes a key (and the chair A, the
    first to make one, confirms it), as a committee member does before proposing."""
    from rulesbook.ballots import load_registry
    from rulesbook.datafolder import resolve_data_dir

    root = resolve_data_dir(None)
    registry = load_registry(root)
    if registry.key_of(member) or member not in {m for m in _ids(root)}:
        return
    if registry.chair is None and member != "A":
        with_key(capsys, "A")
    assert main(["member", "keygen", "--member", member]) == 0
    if load_registry(root).key_of(member) is None:
        assert main(["member", "role", member, "member"]) == 0
    elif load_registry(root).chair is None:
        assert main(["member", "role", member, "chair"]) == 0
    capsys.readouterr()


def _ids(root):
    from rulesbook.cli.common import member_ids

    return member_ids(root)


def commits(folder) -> list[str]:
    """The folder's commits, newest first, without the signing keys' set-up that
    :func:`with_key` adds before a member's first proposal."""
    with Repo(str(folder)) as repo:
        # the messages without the trailer naming the program (issue 32)
        messages = (split_trailer(w.commit.message.decode())[0].strip()
                    for w in repo.get_walker())
        return [m for m in messages
                if not re.fullmatch(r"Member \w+: (new signing key|role \w+)", m)]


def test_member_add_gives_the_next_letter_and_refuses_a_taken_one(folder, capsys):
    code, out, err = run(capsys, "member", "add", "Frank", "--json")
    assert code == 0, err
    assert json.loads(out) == {"id": NEXT_LETTERS[0], "name": "Frank"}
    assert json.loads(run(capsys, "member", "add", "Gil", "--json")[1])["id"] == NEXT_LETTERS[1]
    code, _, err = run(capsys, "member", "add", "Someone", "--letter", "A")
    assert code == 2 and "already member Pecan" in err and err.count("\n") == 1
    code, _, err = run(capsys, "member", "add", "pecan")
    assert code == 2 and "already member A" in err
    code, _, err = run(capsys, "member", "add", "Bad", "--letter", "f1")
    assert code == 2 and "not a member letter" in err
    code, _, err = run(capsys, "member", "add", "two\nlines")
    assert code == 2 and "one line" in err
    members = yaml.safe_load((folder / "members.yaml").read_text())["members"]
    assert [m["id"] for m in members][-2:] == list(NEXT_LETTERS)
    assert commits(folder)[0] == "Member G: Gil joins the committee"
    assert run(capsys, "validate")[0] == 0


def test_propose_diff_holds_only_the_new_record(folder, capsys):
    run(capsys, "member", "add", "Frank")
    before = (folder / "apca" / "rulebook.yaml").read_text(encoding="utf-8")
    code, out, err = run(capsys, "propose", "--member", "F", "--rule", "28", "--kind",
                         "replacement", "--text", NEW_28, "--json")
    assert code == 0, err
    assert json.loads(out) == {"ref": "apca:28F", "member": "F", "rule": "apca:28",
                               "kind": "replacement", "text": NEW_28}
    after = (folder / "apca" / "rulebook.yaml").read_text(encoding="utf-8")
    old_lines, new_lines = before.splitlines(), after.splitlines()
    changes = [op for op in difflib.SequenceMatcher(None, old_lines, new_lines,
                                                    autojunk=False).get_opcodes()
               if op[0] != "equal"]
    # one insertion of six lines (five of the record, one of its author's signature),
    # nothing else touched
    assert [(tag, i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in changes] == [("insert", 0, 6)]
    assert new_lines[changes[0][3] + 5].strip().startswith("signed: {by: \"F\"")
    added = new_lines[changes[0][3]:changes[0][4]]
    assert added[0].strip() == '- id: "28F"'
    assert (yaml.safe_load("\n".join(added).strip()[2:].replace("\n" + " " * 8, "\n"))
            ["member"] == "F")
    assert f"text: {json.dumps(NEW_28, ensure_ascii=False)}" in after
    diff = subprocess.run(["git", "-C", str(folder), "diff", "HEAD~1", "--numstat"],
                          capture_output=True, text=True)
    if diff.returncode == 0:  # git may be absent; dulwich wrote the commit
        assert diff.stdout.split()[:3] == ["6", "0", "apca/rulebook.yaml"]
    assert commits(folder)[0].startswith("Proposal 28F by member F: replacement for 28")


def test_ids_follow_the_source_convention_and_are_stable(folder, capsys):
    run(capsys, "member", "add", "Frank")
    first = json.loads(run(capsys, "propose", "--member", "F", "--rule", "rule 28", "--kind",
                           "comment", "--text", "One.", "--topic", "thirteen-count",
                           "--json")[1])
    second = json.loads(run(capsys, "propose", "--member", "F", "--rule", "apca:28",
                            "--kind", "comment", "--text", "Two.", "--topic",
                            "thirteen-count", "--json")[1])
    assert (first["ref"], second["ref"]) == ("apca:28F", "apca:28F2")
    run(capsys, "proposal", "withdraw", "28F2", "--member", "F")
    third = json.loads(run(capsys, "propose", "--member", "F", "--rule", "28", "--kind",
                           "comment", "--text", "Three.", "--topic", "thirteen-count",
                           "--json")[1])
    assert third["ref"] == "apca:28F3"  # a withdrawn id is never given again
    code, out, err = run(capsys, "propose", "--member", "F", "--kind", "addition", "--text",
                         ADDITION, "--title", "Time in match play", "--json")
    assert code == 0, err
    assert json.loads(out) == {"ref": "apca:F1", "member": "F", "rule": None,
                               "kind": "addition", "text": ADDITION}


@pytest.mark.parametrize("argv, words", [
    (["--member", "Z", "--rule", "28", "--kind", "comment", "--text", "x"], "no member 'Z'"),
    (["--member", "F", "--rule", "99", "--kind", "comment", "--text", "x"],
     "not a rule reference"),
    (["--member", "F", "--rule", "28A", "--kind", "comment", "--text", "x"], "not a rule"),
    (["--member", "F", "--rule", "standard-laws:10", "--kind", "comment", "--text", "x"],
     "proposals are made to the rulebook 'apca'"),
    (["--member", "F", "--kind", "replacement", "--text", "x"], "needs the rule"),
    (["--member", "F", "--kind", "addition", "--text", "x"], "needs a title"),
    (["--member", "F", "--rule", "28", "--kind", "comment", "--text", " \n "], "is empty"),
    (["--member", "F", "--rule", "28", "--kind", "comment", "--text", "a\x00b"],
     "control character U+0000"),
    (["--member", "F", "--rule", "28", "--kind", "comment", "--text", "a\x85b"],
     "control character U+0085"),
    (["--member", "F", "--rule", "28", "--kind", "comment", "--text", "x", "--topic", "clok"],
     "no topic 'clok'"),
    (["--member", "F", "--rule", "28", "--kind", "comment", "--text", "x", "--concerns", "99"],
     "not a rule reference"),
])
def test_propose_refuses_bad_input_and_writes_nothing(folder, capsys, argv, words):
    run(capsys, "member", "add", "Frank")
    with_key(capsys, "F")
    before = (folder / "apca" / "rulebook.yaml").read_bytes()
    log = commits(folder)
    code, _, err = run(capsys, "propose", *argv)
    assert code == 2 and words in err and err.count("\n") == 1, err
    assert (folder / "apca" / "rulebook.yaml").read_bytes() == before
    assert commits(folder) == log


def test_hostile_text_lands_verbatim(folder, capsys, tmp_path):
    run(capsys, "member", "add", "Frank")
    text = ('He said: "no" # not a comment\n- not a list\n  key: value\n&anchor *alias ’13’'
            ' \\ back\tslash \u2028line separator 😀 {flow: [x]} --- ...')
    source = tmp_path / "t.txt"
    source.write_text(text + "\r\n", encoding="utf-8")
    code, out, err = run(capsys, "propose", "--member", "F", "--rule", "28", "--kind",
                         "comment", "--text-file", source, "--topic", "thirteen-count",
                         "--json")
    assert code == 0, err
    code, out, _ = run(capsys, "show", "28F", "--json")
    assert json.loads(out)["text"] == text


def test_edit_is_refused_on_a_rulings_quote_it_would_break(folder, capsys):
    code, _, err = run(capsys, "proposal", "edit", "28A", "--member", "A", "--text",
                       "Something else.")
    # 28A's rulings quote its words (rules_data/README.md): the data would be invalid
    assert code == 2 and "not written" in err and "is not in the text of apca:28A" in err


def test_the_committee_workflow(folder, capsys, tmp_path):
    """Member F, a replacement for rule 28 and an addition; shown, compared with their
    redlines, searched, put on a new ballot, voted, closed, adopted; edit refused."""
    assert run(capsys, "member", "add", "Frank")[0] == 0
    assert run(capsys, "propose", "--member", "F", "--rule", "28", "--kind", "replacement",
               "--text", NEW_28)[0] == 0
    code, _, err = run(capsys, "propose", "--member", "F", "--kind", "addition", "--title",
                       "Time in match play", "--text", ADDITION, "--topic", "time-limits")
    assert code == 0, err
    # show: a word redline against the text in force (rule 28's own words)
    code, out, _ = run(capsys, "show", "28F", "--json")
    shown = json.loads(out)
    assert shown["in_force"]["ref"] == "apca:28"
    ops = [(d["op"], d["text"].strip()) for d in shown["redline"]]
    # NEW_28 is rule 28's first and last sentences with "fifteen" for "thirteen"
    # (case aside: the original is in capitals), so the redline marks just that word
    # and the two sentences left out
    assert ("delete", "THIRTEEN,") in ops and ("insert", "fifteen,") in ops
    assert any(o == "delete" and "INCLUDING JUMPS" in t for o, t in ops)
    assert not any(o != "equal" and "LONE KING MUST BE CAUGHT" in t.upper() for o, t in ops)
    code, out, _ = run(capsys, "show", "28F")
    assert "[+" in out or "{+" in out
    # compare: the new variant with its diff against the original
    code, out, _ = run(capsys, "compare", "28", "--json")
    variants = {v["ref"]: v for v in json.loads(out)["variants"]}
    assert "apca:28F" in variants and variants["apca:28F"]["diff"]
    # search finds it (the index is built from the folder as it now stands)
    code, out, _ = run(capsys, "search", "fifteen", "--json")
    assert "apca:28F" in [h["ref"] for h in json.loads(out)]
    # the ballot: 28F an option of question 28, F1 a yes/no question
    for member in ("A", "B", "C", "F"):
        with_key(capsys, member)
    ballot = folder / "apca" / "ballots" / "2027.yaml"
    assert run(capsys, "ballot", "new", ballot, "--quorum", "3", "--as", "A")[0] == 0
    data = yaml.safe_load(ballot.read_text())
    questions = {q["id"]: q for q in data["questions"]}
    assert "apca:28F" in questions["28"]["options"]
    assert questions["F1"]["options"] == ["status-quo", "apca:F1"]
    assert "F" in data["roll"]
    for member in ("A", "B", "C", "F"):
        assert run(capsys, "ballot", "vote", ballot, "--member", member, "--question", "28",
                   "--ranking", "28F")[0] == 0
        assert run(capsys, "ballot", "vote", ballot, "--member", member, "--question", "F1",
                   "--ranking", "yes")[0] == 0
    code, _, err = run(capsys, "ballot", "close", ballot, "--as", "A")
    assert code == 0, err
    # an edit after the close: refused, naming the ballot
    code, _, err = run(capsys, "proposal", "edit", "28F", "--member", "F", "--text", "Changed.")
    assert code == 2 and "2027" in err and "closed ballot" in err
    code, _, err = run(capsys, "proposal", "withdraw", "F1", "--member", "F")
    assert code == 2 and "2027" in err
    code, _, err = run(capsys, "ballot", "adopt", ballot, "--edition", "2027")
    assert code == 0, err
    code, out, _ = run(capsys, "edition", "show", "2027", "--json")
    assert NEW_28 in out and ADDITION in out
    assert run(capsys, "validate")[0] == 0


def test_withdrawn_stays_in_the_record_and_leaves_the_next_ballot(folder, capsys, tmp_path):
    run(capsys, "member", "add", "Frank")
    run(capsys, "propose", "--member", "F", "--rule", "28", "--kind", "replacement",
        "--text", NEW_28)
    code, out, err = run(capsys, "proposal", "withdraw", "28F", "--reason", "a better one",
                         "--member", "F")
    assert code == 0, err
    shown = json.loads(run(capsys, "show", "28F", "--json")[1])
    assert shown["withdrawn"]["reason"] == "a better one" and shown["withdrawn"]["date"]
    code, _, err = run(capsys, "proposal", "edit", "28F", "--text", "x", "--member", "F")
    assert code == 2 and "withdrawn on" in err
    assert commits(folder)[0] == "Proposal 28F: withdrawn (a better one) (by member F)"
    out = tmp_path / "b.yaml"
    assert run(capsys, "ballot", "new", out)[0] == 0
    assert "apca:28F" not in out.read_text()


def test_a_deletion_carried_repeals_its_rule(folder, capsys):
    run(capsys, "member", "add", "Frank")
    code, out, err = run(capsys, "propose", "--member", "F", "--rule", "28", "--kind",
                         "deletion", "--text", "Drop the count: play it out.", "--json")
    assert code == 0, err
    assert json.loads(out)["kind"] == "deletion"
    for member in ("A", "B", "C", "F"):
        with_key(capsys, member)
    ballot = folder / "apca" / "ballots" / "2027.yaml"
    assert run(capsys, "ballot", "new", ballot, "--quorum", "3", "--as", "A")[0] == 0
    questions = {q["id"]: q for q in yaml.safe_load(ballot.read_text())["questions"]}
    assert "apca:28F" in questions["28"]["options"]
    for member in ("A", "B", "C", "F"):
        assert run(capsys, "ballot", "vote", ballot, "--member", member, "--question", "28",
                   "--ranking", "28F")[0] == 0
    assert run(capsys, "ballot", "close", ballot, "--as", "A")[0] == 0
    code, _, err = run(capsys, "ballot", "adopt", ballot, "--edition", "2027")
    assert code == 0, err
    code, out, err = run(capsys, "edition", "show", "2027", "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert "apca:28" not in [r["ref"] for r in shown["rules"]]
    assert "apca:27" in [r["ref"] for r in shown["rules"]]
    assert run(capsys, "validate")[0] == 0
