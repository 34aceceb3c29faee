"""Issue 31 retest, finding 4 (Must 6, words everywhere a referee reads), on the
command line: the incident's title without its id beside it, outcomes in words (not
``retract_and_replay``), the facts a ruling matched as their questions and answers
(not ``discovered=at_once``), counts in the singular or the plural ("1 time",
"39 moves remain", never "time(s)"), and ``rulesbook cases`` naming a condition in words
(not ``repetitions={'max': 2}``). ``--json`` keeps the codes.

The words expected are those of the data: the incidents' questions
(rules_data/incidents.yaml) and the outcome table of the vocabulary; which outcome each
rule gives comes from its text (tests/data/seeds)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import yaml

from rulesbook.datapath import bundled_data_dir
from rulesbook.rulings.vocabulary import OUTCOMES, outcome_words
from rulesbook.textio import counted
from tests.datapaths import SEEDS

FACTS = ("--fact", "discovered=at_once", "--fact", "repeated=no", "--fact",
         "reconstructible=yes")
#: English kings move one square; after ply 8 the start position stands a third time
KINGS = ('[GameType "21"]\n[SetUp "1"]\n[FEN "B:WK32:BK1,K2,K3"]\n\n'
         "1. 1-5 32-27 2. 5-1 27-32 3. 1-5 32-27 4. 5-1 27-32 *\n")


def rulesbook(tmp_path, *args: str, data=None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    env.pop("RULESBOOK_DATA", None)
    if data is not None:
        env["RULESBOOK_DATA"] = str(data)
    return subprocess.run([sys.executable, "-m", "rulesbook", *args], capture_output=True,
                          text=True, env=env, timeout=300)


def question(incident: str, fact: str) -> str:
    doc = yaml.safe_load((bundled_data_dir() / "incidents.yaml").read_text(encoding="utf-8"))
    found = next(i for i in doc["incidents"] if i["id"] == incident)
    return next(f["question"] for f in found["facts"] if f["id"] == fact)


def test_counted_says_one_or_many():
    assert [counted(n, "move") for n in (0, 1, 2, 1000)] == ["0 moves", "1 move", "2 moves",
                                                             "1,000 moves"]


def test_attack_rulings_print_titles_outcomes_and_facts_in_words(tmp_path):
    apca = " ".join((SEEDS / "apca-proposed-rules-with-amendments.txt")
                    .read_text(encoding="utf-8").split())
    assert "A PROPER OR LEGAL MOVE IS MADE" in apca  # rule 10: the move is made again
    proc = rulesbook(tmp_path, "rulings", "failure_to_capture", *FACTS)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # the incident and the edition in force by their titles, never their ids
    assert "Failure to capture - Proposed Playing Rules (original text)" in out, out
    assert "failure_to_capture" not in out and "edition original" not in out, out
    rule10 = next(line for line in out.splitlines() if line.startswith("apca:10: "))
    assert rule10 == f"apca:10: {outcome_words('retract_and_replay')}", rule10
    assert [code for code in OUTCOMES if "_" in code and code in out] == []
    because = next(line for line in out.splitlines() if line.strip().startswith("because:"))
    assert "=" not in because and "_" not in because, because
    assert f"{question('failure_to_capture', 'discovered')} at once" in because, because
    assert f"{question('failure_to_capture', 'repeated')} no" in because, because
    # --json keeps the codes
    proc = rulesbook(tmp_path, "rulings", "failure_to_capture", *FACTS, "--json")
    rulings = {r["ref"]: r for r in json.loads(proc.stdout)}
    assert rulings["apca:10"]["outcome"] == "retract_and_replay"
    assert rulings["apca:10"]["matched_facts"]["discovered"] == "at_once"
    proc = rulesbook(tmp_path, "rulings", "failure_to_capture", *FACTS, "--compare")
    assert proc.stdout.startswith("Failure to capture under every variant"), proc.stdout


def test_attack_draw_claims_count_in_the_singular_and_the_plural(tmp_path):
    path = tmp_path / "kings.pdn"
    path.write_text(KINGS, encoding="utf-8")
    once = rulesbook(tmp_path, "rulings", "--from-game", str(path), "--ply", "1").stdout
    thrice = rulesbook(tmp_path, "rulings", "--from-game", str(path), "--ply", "8").stdout
    for out in (once, thrice):
        assert "(s)" not in out, out
        assert "(repetition)" not in out and "(strong_side_count)" not in out, out
        assert [code for code in OUTCOMES if "_" in code and code in out] == [], out
    assert "The position has occurred 1 time;" in once, once
    assert "The position has occurred 3 times;" in thrice, thrice
    # the Standard Laws' forty moves: one played by Black, 39 to go
    laws = (SEEDS / "standard-laws-of-checkers.txt").read_text(encoding="utf-8")
    assert "forty" in laws.lower()
    assert re.search(r"stronger side: does not hold, 39 moves remain", once), once
    assert outcome_words("play_on") in once
    claims = json.loads(rulesbook(tmp_path, "rulings", "--from-game", str(path), "--ply",
                                  "1", "--json").stdout)
    assert {c["incident"] for c in claims} >= {"repetition", "strong_side_count"}


def test_attack_cases_names_a_condition_in_words(tmp_path):
    """A case whose facts its quoted ruling does not meet: the condition it needs, in
    words (it printed "repetitions={'max': 2}, during_strong_side_count=yes")."""
    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), data, ignore=shutil.ignore_patterns("__pycache__"))
    case = data / "cases" / "repetition-during-strong-side-count.yaml"
    text = case.read_text(encoding="utf-8")
    assert "  during_strong_side_count: true\n" in text
    case.write_text(text.replace("  during_strong_side_count: true\n",
                                 "  during_strong_side_count: false\n"), encoding="utf-8")
    proc = rulesbook(tmp_path, "cases", data=data)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    problems = [line for line in proc.stdout.splitlines() if line.startswith("       ")]
    assert problems, proc.stdout
    for line in problems:
        assert "=" not in line and "{" not in line and "_" not in line, line
    repetitions = question("repetition", "repetitions")
    assert any(f"{repetitions} at most 2" in line for line in problems), problems
    assert any(f"expected {outcome_words('draw')}" in line for line in problems), problems
    assert re.search(r"\n1 of \d+ cases failed\n", proc.stdout), proc.stdout


def test_attack_silences_name_the_other_incident_of_a_conflict_by_its_title(tmp_path):
    """A conflict found under two incidents named the second by its id ("(also
    strong_side_count)"); the referee reads its title."""
    doc = yaml.safe_load((bundled_data_dir() / "incidents.yaml").read_text(encoding="utf-8"))
    titles = {i["id"]: i["title"] for i in doc["incidents"]}
    proc = rulesbook(tmp_path, "silences")
    assert proc.returncode == 0, proc.stderr
    also = re.findall(r"\(also ([^)]*)\)", proc.stdout)
    assert also, "no conflict spans two incidents any more: the test lost its subject"
    assert [a for a in also if a in titles] == [], also
    assert set(also) <= set(titles.values()), set(also) - set(titles.values())


def test_the_boards_verdict_line_names_the_edition_by_its_title():
    """The Check panel's line under an illegal move of a pool game read "Under edition
    original (pool checkers)"; the referee reads the edition's title."""
    from rulesbook.draughts import VARIANTS
    from rulesbook.loading import load_library
    from rulesbook.rulings import RequestOrigin, RulingsRequest, verdict_line
    from rulesbook.rulings.fromgame import GameIncident

    library = load_library(bundled_data_dir())
    incident = GameIncident("failure_to_capture", {"discovered": "at_once", "repeated": "no",
                                                   "reconstructible": "yes"})
    line = verdict_line(library, RulingsRequest(incident, RequestOrigin.CHECK_RECORD,
                                                  VARIANTS["pool"]))
    titles = [e.title for e in library.editions]
    assert any(line.startswith(f"Under {t} (pool checkers): ") for t in titles), line
    assert "edition " not in line.split(":")[0], line


def test_still_to_establish_asks_the_question_before_the_key_to_type(tmp_path):
    """'Still to establish' reads as questions (the incident's own words), each followed by
    the ``--fact`` a referee types and what it accepts; not ``key: question``."""
    incidents = yaml.safe_load((bundled_data_dir() / "incidents.yaml").read_text("utf-8"))
    touch = next(i for i in incidents["incidents"] if i["id"] == "touch_move")
    out = rulesbook(tmp_path, "rulings", "touch_move")
    assert out.returncode == 0, out.stderr
    asked = out.stdout.split("Still to establish:", 1)[1].strip().splitlines()
    assert asked, out.stdout
    facts = {f["id"]: f for f in touch["facts"]}
    for line in asked:
        key = re.search(r"\(--fact (\w+)=\.\.\., ", line)
        assert key and key.group(1) in facts, line
        assert line.strip().startswith(facts[key.group(1)]["question"]), line
        assert not line.strip().startswith(key.group(1) + ":"), line
