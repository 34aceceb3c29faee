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
    assert "Failure to capture - edition" in out and "failure_to_capture" not in out, out
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
