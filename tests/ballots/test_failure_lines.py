"""Issue #29: a vote tampered by hand is reported at its own line, by ``validate`` and
by ``ballot verify`` (file:line:col: message), the seal's mismatch at the seal, the
recount at the results — through the real command line.

The lines expected are found in the file's text as written (where the vote's ``-``
item begins), never typed in; before the fix every problem was placed at ``seal:``
and ``ballot verify`` printed no file:line at all.
"""
from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

from rulesbook.ballots import close_ballot, load_ballot, save_ballot
from rulesbook.ballots.model import Vote
from rulesbook.ballots.signing import ballot_texts, sign_votes
from rulesbook.cli import main

TARGET = Path("apca") / "ballots" / "test.yaml"


def _vote_lines(text: str, key: str = "votes") -> list[int]:
    """The 1-based line where each item of the top-level list ``key`` begins."""
    lines = text.splitlines()
    start = lines.index(f"{key}:")
    out = []
    for n in range(start + 1, len(lines)):
        if lines[n].startswith("- "):
            out.append(n + 1)
        elif not lines[n].startswith(" "):
            break
    return out


def _find_vote(text: str, member: str, question: str) -> int:
    """The line where ``member``'s vote on ``question`` begins."""
    lines = text.splitlines()
    for line in _vote_lines(text):
        if lines[line - 1] == f"- member: {member}" and \
                lines[line].strip() in (f"question: {question}", f"question: '{question}'"):
            return line
    raise AssertionError(f"no vote of {member} on {question}")


def _tamper(path: Path, member: str, question: str, new_ranking: str) -> int:
    """Change by hand the ranking of ``member``'s vote on ``question``; its line."""
    text = path.read_text()
    line = _find_vote(text, member, question)
    lines = text.splitlines(keepends=True)
    k = next(n for n in range(line, line + 4) if lines[n].startswith("  ranking:"))
    assert lines[k] != f"  ranking: {new_ranking}\n"
    lines[k] = f"  ranking: {new_ranking}\n"
    path.write_text("".join(lines))
    return line


def _line_of(path: Path, key: str) -> int:
    return path.read_text().splitlines().index(f"{key}:") + 1


def _problems(out: str, file: str) -> list[tuple[int, str]]:
    """(line, message) of every ``file:line:col: message`` line of ``out``."""
    found = []
    for row in out.splitlines():
        m = re.match(rf"{re.escape(file)}:(\d+):\d+: (.*)$", row)
        if m:
            found.append((int(m.group(1)), m.group(2)))
    return found


def test_a_vote_changed_by_hand_is_reported_at_its_own_line(data_copy, sealed_file, capsys):
    target = data_copy / TARGET
    shutil.copy(sealed_file, target)
    vote_line = _tamper(target, "C", "28", "['apca:28A']")
    seal_line, results_line = _line_of(target, "seal"), _line_of(target, "results")
    assert vote_line not in (seal_line, results_line)
    capsys.readouterr()

    assert main(["--data", str(data_copy), "validate"]) == 1
    found = _problems(capsys.readouterr().out, str(TARGET))
    assert (vote_line, "the ballot does not verify: the vote of C on question '28': the "
            "signature does not match the vote(s) (changed after they were cast, or "
            "forged)") in found
    assert (seal_line, "the ballot does not verify: the votes on question '28' changed "
            "after the seal") in found
    assert all(line in (vote_line, seal_line, results_line) for line, _ in found), found

    assert main(["ballot", "verify", str(target)]) == 1
    err = capsys.readouterr().err
    verified = _problems(err, str(target))
    assert len(verified) == len(err.splitlines()) - 1  # every failure at its file:line
    assert (vote_line, "the vote of C on question '28': the signature does not match the "
            "vote(s) (changed after they were cast, or forged)") in verified
    assert (seal_line, "the votes on question '28' changed after the seal") in verified

    assert main(["ballot", "verify", str(target), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [p["message"] for p in report["problems"]] == report["failures"]
    assert {p["file"] for p in report["problems"]} == {str(target)}
    signature = [p for p in report["problems"] if "signature does not match" in p["message"]]
    assert [(p["line"], p["col"]) for p in signature] == [(vote_line, 3)]


def test_in_a_batch_signed_together_the_vote_the_seal_shows_changed_is_named(
        data_copy, open_ballot_file, keys, registry, capsys):
    """C casts two votes at once (one signature over both); the second is changed by
    hand: the failure is at that vote's line, not at the first vote of the batch."""
    ballot = load_ballot(open_ballot_file)
    kept = tuple(v for v in ballot.votes if v.member != "C")
    batch = sign_votes(ballot.id, [Vote("C", "10", ("apca:10A",), "2026-03-01T11:00:00Z"),
                                   Vote("C", "28", ("apca:24B",), "2026-03-01T11:00:00Z")],
                       keys["C"], ballot_texts(ballot))
    ballot = dataclasses.replace(ballot, votes=kept + tuple(batch))
    target = data_copy / TARGET
    save_ballot(target, close_ballot(ballot, keys["A"], registry, at="2026-03-02T12:00:00Z"))
    assert main(["ballot", "verify", str(target)]) == 0
    capsys.readouterr()
    other_line = _find_vote(target.read_text(), "C", "10")  # the batch's first vote
    vote_line = _tamper(target, "C", "28", "['apca:28A']")

    assert main(["--data", str(data_copy), "validate"]) == 1
    found = _problems(capsys.readouterr().out, str(TARGET))
    bad = [(line, m) for line, m in found if "signature does not match" in m]
    assert [line for line, _ in bad] == [vote_line] and other_line != vote_line
    assert "the seal shows the one on question '28' changed" in bad[0][1]

    assert main(["ballot", "verify", str(target)]) == 1
    verified = _problems(capsys.readouterr().err, str(target))
    assert [line for line, m in verified if "signature does not match" in m] == [vote_line]


def test_an_open_ballots_tampered_vote_is_reported_at_its_line(data_copy, open_ballot_file,
                                                               capsys):
    target = data_copy / TARGET
    shutil.copy(open_ballot_file, target)
    vote_line = _tamper(target, "B", "28", "['apca:28A']")
    capsys.readouterr()
    assert main(["--data", str(data_copy), "validate"]) == 1
    found = _problems(capsys.readouterr().out, str(TARGET))
    assert [line for line, m in found if "the vote of B on question '28': the signature "
            "does not match" in m] == [vote_line]
    assert _line_of(target, "votes") != vote_line


def test_a_ballot_that_is_not_yaml_is_placed_where_the_reader_stopped(tmp_path, sealed_file,
                                                                      capsys):
    """``ballot verify --json`` of a file broken by hand: its ``problems`` entry gives
    the line and column of the break (it gave line 0, col 0 with the place only in the
    message)."""
    target = tmp_path / "broken.yaml"
    lines = Path(sealed_file).read_text().splitlines(keepends=True)
    at = _vote_lines("".join(lines))[1]
    lines[at - 1] = "- member: [ M831\n"
    target.write_text("".join(lines))
    capsys.readouterr()
    assert main(["ballot", "verify", str(target), "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    [problem] = report["problems"]
    assert problem["file"] == str(target)
    assert problem["line"] >= at and problem["col"] > 0, problem
    assert f":{problem['line']}:{problem['col']}:" in report["failures"][0] or \
        "not valid YAML" in problem["message"]
