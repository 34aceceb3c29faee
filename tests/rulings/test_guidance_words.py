"""Issue 31 retest, finding 5. Where the rules in force are silent, ``silences`` shows
what the other rulebooks say with their words: the Spanish pool rules' draw by
agreement was quoted as "A draw is the result if:" alone, a lead-in that says nothing
of agreement. And a wrong set-up had no guidance although the Standard Laws' Law 3
says where the men "shall invariably be placed": before play a wrong set-up is put
right (inferred from those words); once the game has started the law is silent."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from rulesbook.rulings import Basis, suggest
from rulesbook.rulings.catalogue import catalogue_of
from rulesbook.rulings.quotes import normalise
from rulesbook.rulings.vocabulary import outcome_words
from tests.datapaths import SEEDS

SPANISH = (SEEDS / "spanish-pool-checkers-rules.txt").read_text(encoding="utf-8")
LAWS = (SEEDS / "standard-laws-of-checkers.txt").read_text(encoding="utf-8")


def silences(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    env.pop("RULESBOOK_DATA", None)
    return subprocess.run([sys.executable, "-m", "rulesbook", "silences", *args],
                          capture_output=True, text=True, env=env, timeout=300)


def test_sources_the_words_of_the_draw_by_agreement_and_of_law_3():
    assert re.search(r"A draw is the result if:\s*- Both players agree to this decision",
                     SPANISH)
    assert "The Black men shall invariably be placed upon the first dark twelve squares" \
        in LAWS
    found = re.search(r"^3\.\s+Placement of the Men.*?(?=^4\.\s)", LAWS, re.S | re.M)
    assert found is not None
    law3 = found.group()
    assert "shall invariably be placed" in law3
    # no remedy: nothing about a set-up found wrong once the game is played
    assert not re.search(r"\b(forfeit|void|replay|start(ed)? over|annul)", law3, re.I)


def test_attack_the_draw_by_agreement_is_quoted_with_its_words(tmp_path):
    proc = silences(tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    start = lines.index(next(x for x in lines if x.startswith("Draw offer or agreement")))
    said = [x for x in lines[start:start + 6] if x.strip().startswith("spanish-pool:8 says:")]
    assert said, lines[start:start + 6]
    assert "Both players agree to this decision" in said[0], said[0]
    assert outcome_words("draw") in said[0], said[0]
    # the JSON's quote too: never the lead-in alone
    rows = json.loads(silences(tmp_path, "--json").stdout)
    quotes = [g["quote"] for r in rows if r["incident"] == "draw_offer"
              for g in r.get("guidance", ()) if g["ref"] == "spanish-pool:8"]
    assert quotes and all("Both players agree" in q for q in quotes), quotes
    assert all(normalise(q) != normalise("A draw is the result if:") for r in rows
               for g in r.get("guidance", ()) for q in [g["quote"]]), "a lead-in alone"


def test_attack_law_3_guides_a_wrong_set_up_before_play(library, tmp_path):
    (ruling,) = [s for s in catalogue_of(library).specs["standard-laws:3"]
                 if "wrong_setup" in s.incidents]
    assert ruling.outcome == "correct_setup" and ruling.basis is Basis.INFERRED
    assert ruling.when == {"game_started": False} and ruling.note
    for quote in ruling.quotes:
        assert normalise(quote) in normalise(LAWS)
    before = suggest(library, "wrong_setup", {"game_started": False}, variant="english")
    assert before.best is not None and before.best.ref == "standard-laws:3"
    after = suggest(library, "wrong_setup", {"game_started": True}, variant="english")
    assert all(r.ref != "standard-laws:3" for r in after.rulings if r.applies)
    proc = silences(tmp_path)
    lines = proc.stdout.splitlines()
    start = lines.index(next(x for x in lines if x.startswith("Wrong set-up of the men")))
    block = lines[start:start + 5]
    assert any(x.strip().startswith(f"standard-laws:3 says: {outcome_words('correct_setup')}")
               for x in block), block
