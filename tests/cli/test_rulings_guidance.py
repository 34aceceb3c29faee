"""Issue 31 retest, item 1, through the real command: the draw claims of an English
checkers game (PDN GameType "21") came from pool rulebooks (APCA rule 28, the Spanish
pool rules' rule 8) and were printed as *the* ruling. The Standard Laws and the ACF
guide govern English checkers; their count is "within forty of his own moves" and
neither has a 13-count or a rule on repetition, so the pool rules' rulings may only be
shown as guidance: marked so in ``--json`` (``governs``/``guidance`` per ruling), and
printed after the sentence saying who governs the game."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.datapaths import SEEDS

SENTENCE = ("An English checkers game: the Standard Laws and the ACF guide govern it; "
            "the APCA edition in force is for pool checkers")
#: English kings move one square; the position after ply 8 is the start's, a third time
RECORD = ('[GameType "21"]\n[SetUp "1"]\n[FEN "B:WK32:BK1,K2,K3"]\n\n'
          "1. 1-5 32-27 2. 5-1 27-32 3. 1-5 32-27 4. 5-1 27-32 *\n")


def rulesbook(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    env.pop("RULESBOOK_DATA", None)
    return subprocess.run([sys.executable, "-m", "rulesbook", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_sources_the_pool_rules_govern_pool_and_the_laws_have_no_13_count():
    apca = (SEEDS / "apca-proposed-rules-with-amendments.txt").read_text(encoding="utf-8")
    spanish = (SEEDS / "spanish-pool-checkers-rules.txt").read_text(encoding="utf-8")
    laws = (SEEDS / "standard-laws-of-checkers.txt").read_text(encoding="utf-8")
    assert "Pool Checkers" in apca and "pool checkers" in spanish.lower()
    assert "three times" in spanish and "three times" not in laws
    assert "thirteen" not in laws.lower()


def test_attack_json_marks_every_ruling_that_does_not_govern_as_guidance(tmp_path):
    path = tmp_path / "english.pdn"
    path.write_text(RECORD, encoding="utf-8")
    proc = rulesbook(tmp_path, "rulings", "--from-game", str(path), "--ply", "8", "--json")
    assert proc.returncode == 0, proc.stderr
    claims = {c["incident"]: c for c in json.loads(proc.stdout)}
    assert claims["repetition"]["moves"] == 3
    rulings = [r for c in claims.values() for r in c["rulings"]]
    assert rulings
    governing = {"standard-laws", "acf-guide"}
    for r in rulings:
        # the existing keys stay; the marks are added
        assert {"ref", "rulebook", "outcome", "basis", "variant", "rulebooks"} <= set(r)
        assert r["governs"] is (r["rulebook"] in governing), r
        assert r["guidance"] is (r["rulebook"] not in governing), r
    pool = [r for r in rulings if r["rulebook"] in ("apca", "spanish-pool")]
    assert pool and all(r["guidance"] and not r["governs"] for r in pool)
    # the governing rulebooks' rulings first, within each claim
    for c in claims.values():
        marks = [r["governs"] for r in c["rulings"]]
        assert marks == sorted(marks, reverse=True), c["incident"]
    # a pool game: the edition in force governs, nothing is guidance
    proc = rulesbook(tmp_path, "rulings", "thirteen_count", "--fact", "three_kings_vs_one=yes",
                     "--fact", "lone_king_moves=13", "--json")
    (first, *_) = json.loads(proc.stdout)
    assert first["ref"] == "apca:28" and first["governs"] and not first["guidance"]


def test_attack_the_draw_claims_say_who_governs_first_and_never_give_guidance_as_the_ruling(
        tmp_path):
    path = tmp_path / "english.pdn"
    path.write_text(RECORD, encoding="utf-8")
    proc = rulesbook(tmp_path, "rulings", "--from-game", str(path), "--ply", "8")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(SENTENCE), lines[0]
    # no pool rule is printed as "ruling ..." of this game
    for line in lines:
        if "apca:" in line or "spanish-pool:" in line:
            assert not line.strip().startswith("ruling "), line
            assert "guidance only" in line and "not for this English checkers game" in line
    assert any("ruling standard-laws:12" in line for line in lines)
    # and an incident asked for with --variant english: the sentence first, each pool
    # ruling marked
    proc = rulesbook(tmp_path, "rulings", "repetition", "--variant", "english",
                     "--fact", "repetitions=3")
    out = proc.stdout.splitlines()
    assert out[0].startswith(SENTENCE), out[0]
    heads = [i for i, line in enumerate(out) if line.startswith("spanish-pool:8: ")]
    assert heads and all("guidance only: the Spanish pool rules are for pool checkers"
                         in out[i + 1] for i in heads)
