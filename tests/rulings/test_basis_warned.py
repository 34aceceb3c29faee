"""Issue 31 retest, finding 3 (Must 3, ``basis`` honest): a caution for a first
distraction is only *inferred* from words that forfeit a player "after being warned":
they do not say that a first offence is met with a warning, nor who gives it. apca:29
was marked so; 25B, whose words are Rule 29's, was still ``stated``. 29A gave one
sentence ("can be warned by the opposing player") two bases: ``stated`` for a
distraction, ``inferred`` for moving over the angle. The words come from the seed
text of the APCA proposals (tests/data/seeds)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from rulesbook.rulings import Basis, compare
from rulesbook.rulings.catalogue import catalogue_of
from rulesbook.rulings.quotes import normalise
from tests.datapaths import SEEDS

APCA = normalise((SEEDS / "apca-proposed-rules-with-amendments.txt").read_text(encoding="utf-8"))
FORFEIT_29 = "a player continuing this and other actions after being warned"
OPPONENT_29A = "a player continuing this and/or other actions can be warned by the opposing player"
#: words that impose a warning or caution themselves (the rule states it)
IMPOSED = re.compile(r"\b(shall|will|is|are|he shall) (be )?(warned|cautioned)\b|"
                     r"\bcautioned for the first\b|\ballow one warning\b")
ONLY_AFTER = re.compile(r"\bafter (being|he has been) warned\b")


def specs(library, ref: str, incident: str, outcome: str):
    return [s for s in catalogue_of(library).specs[ref]
            if incident in s.incidents and s.outcome == outcome]


def test_sources_25b_repeats_rule_29s_words():
    lower = APCA.lower()
    # Rule 29 and 25B (twice, then) forfeit a player who continues after being warned
    assert lower.count(FORFEIT_29) >= 2, "Rule 29's sentence and 25B's"
    assert OPPONENT_29A in lower and "moving a piece over the angle of a square" in lower


def test_attack_25b_caution_is_inferred_as_rule_29s(library):
    for ref in ("apca:29", "apca:25B"):
        (caution,) = specs(library, ref, "distraction", "caution")
        assert caution.basis is Basis.INFERRED and "after being warned" in caution.note.lower()
        (forfeit,) = specs(library, ref, "distraction", "forfeit")
        assert forfeit.basis is Basis.STATED  # "…after being warned forfeits the game"
    verdicts = {v.ref: v for v in compare(library, "distraction", {"warned": False}).verdicts}
    assert verdicts["apca:25B"].basis is verdicts["apca:29"].basis is Basis.INFERRED


def test_attack_29a_one_sentence_one_basis(library):
    (distraction,) = specs(library, "apca:29A", "distraction", "caution")
    (angle,) = specs(library, "apca:29A", "over_the_angle", "caution")
    for spec in (distraction, angle):
        # the sentence lets the opponent warn; it imposes no caution of its own
        words = normalise(" ".join(spec.all_quotes)).lower()
        assert "can be warned by the opposing player" in words
        assert not IMPOSED.search(words), words
        assert spec.basis is Basis.INFERRED and "opposing player" in spec.note, spec.ref
    assert distraction.basis is angle.basis


def test_attack_no_caution_is_stated_from_a_forfeit_after_a_warning(library):
    """Every caution in the catalogue whose words only forfeit a player "after being
    warned" (none of them imposes a warning) is marked inferred, with a note."""
    checked = 0
    for ref, rulings in catalogue_of(library).specs.items():
        for spec in rulings:
            if spec.outcome != "caution":
                continue
            words = normalise(" ".join(spec.all_quotes)).lower()
            if ONLY_AFTER.search(words) and not IMPOSED.search(words):
                checked += 1
                assert spec.basis is Basis.INFERRED and spec.note, ref
    assert checked >= 3  # apca:29, apca:25B, standard-laws:13


def test_attack_the_command_line_shows_the_inferred_caution(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    env.pop("RULESBOOK_DATA", None)
    proc = subprocess.run([sys.executable, "-m", "rulesbook", "rulings", "distraction",
                           "--fact", "warned=no", "--compare", "--json"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    basis = {v["ref"]: v["basis"] for v in json.loads(proc.stdout)}
    assert basis["apca:25B"] == basis["apca:29"] == basis["apca:29A"] == "inferred", basis
