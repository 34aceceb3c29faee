"""Issue 31 retest, item 3: ``rulesbook silences`` computed conflicts only among the
rules of the APCA edition in force. The Standard Laws and the ACF guide both govern
English checkers, and decide a false move differently: Law 10, "If either player,
makes a false or improper move, he shall instantly forfeit the game to his opponent";
the guide's section 3, "Typical rules allow one warning by the referee, with a forfeit
for the next infraction", and "Illegal moves are allowed to stand if they are not
caught"; section 4, "the position should be recreated back to the point where the
illegal move was made". Those are conflicts among the rulebooks that govern one
variant, each to be shown with both quotes."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rulesbook.rulings.quotes import normalise
from rulesbook.rulings.silences import silences
from rulesbook.rulings.vocabulary import outcome_words
from tests.datapaths import SEEDS

SL = normalise((SEEDS / "standard-laws-of-checkers.txt").read_text(encoding="utf-8"))
ACF = normalise((SEEDS / "acf-tournament-director-guide.txt").read_text(encoding="utf-8"))
LAW_10 = "If either player, makes a false or improper move, he shall instantly forfeit the game"
ACF_3 = "Typical rules allow one warning by the referee, with a forfeit for the next infraction"
ACF_3_STANDS = "Illegal moves are allowed to stand if they are not caught"
ACF_4 = "the position should be recreated back to the point where the illegal move was made"


def rulesbook(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    env.pop("RULESBOOK_DATA", None)
    return subprocess.run([sys.executable, "-m", "rulesbook", *args], capture_output=True,
                          text=True, env=env, timeout=300)


def english_conflicts(found, incident: str, refs: set[str]):
    return [s for s in found if s.incident == incident and s.conflict
            and s.variant == "english" and set(s.conflict) == refs]


def test_the_sources_decide_a_false_move_differently():
    assert normalise(LAW_10) in SL
    for words in (ACF_3, ACF_3_STANDS, ACF_4):
        assert normalise(words) in ACF


@pytest.mark.parametrize("incident", ["illegal_move", "failure_to_capture", "incomplete_jump"])
def test_attack_law_10_against_the_acf_guide_is_a_conflict_with_both_quotes(library, incident):
    found = silences(library)
    # noticed at once, a first offence: Law 10 forfeits, the guide warns
    at_once = english_conflicts(found, incident, {"standard-laws:10", "acf-guide:3"})
    first = [s for s in at_once if s.facts.get("discovered") == "at_once"
             and s.facts.get("repeated") is False]
    assert first, [s.as_json() for s in found if s.incident == incident]
    (c,) = first
    assert c.decisions == {"standard-laws:10": "forfeit", "acf-guide:3": "caution"}
    assert normalise(LAW_10) in normalise(c.quotes["standard-laws:10"])
    assert normalise(c.quotes["acf-guide:3"]) in ACF
    assert c.rulebooks == ("standard-laws", "acf-guide")
    # noticed after the game: the guide lets it stand; Law 10 forfeits "instantly"
    after = [s for s in at_once if s.facts.get("discovered") == "after_game"]
    assert after and after[0].decisions["acf-guide:3"] == "move_stands"
    # noticed later in the game: section 4 recreates the position
    later = english_conflicts(found, incident, {"standard-laws:10", "acf-guide:4"})
    assert {s.decisions["acf-guide:4"] for s in later} == {"restart_from_move",
                                                          "void_and_replay"}
    assert all(normalise(s.quotes["acf-guide:4"]) in ACF for s in later)


def test_the_editions_own_conflicts_are_unchanged_and_not_marked(library):
    found = silences(library)
    own = [s for s in found if s.conflict and not s.variant]
    assert own and all(not s.rulebooks for s in own)
    # no English rule is counted among the edition's own conflicts, nor an APCA rule
    # among English ones
    assert all(not r.startswith(("standard-laws:", "acf-guide:")) for s in own
               for r in s.conflict)
    assert all(r.startswith(("standard-laws:", "acf-guide:")) for s in found if s.variant
               for r in s.conflict)


def test_attack_the_command_flags_them_with_both_quotes(tmp_path):
    proc = rulesbook(tmp_path, "silences", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = [r for r in json.loads(proc.stdout) if r.get("variant") == "english"
            and r["incident"] == "failure_to_capture"
            and set(r["conflict"]) == {"standard-laws:10", "acf-guide:3"}]
    assert rows and all(set(r["quotes"]) == {"standard-laws:10", "acf-guide:3"} for r in rows)
    assert all(r["rulebooks"] == ["standard-laws", "acf-guide"] for r in rows)
    proc = rulesbook(tmp_path, "silences")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    flagged = [i for i, line in enumerate(lines) if "CONFLICT" in line
               and f"standard-laws:10: {outcome_words('forfeit')}" in line
               and f"acf-guide:3: {outcome_words('caution')}" in line]
    assert flagged
    i = flagged[0]
    assert "among the rulebooks that govern English checkers (the Standard Laws and the ACF " \
           "guide)" in lines[i]
    quoted = " ".join(lines[i + 1:i + 3])
    assert normalise(LAW_10) in normalise(quoted) and "acf-guide:3:" in quoted
