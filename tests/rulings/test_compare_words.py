"""Issue 31, Must 6: `rulings --compare` says each variant's outcome in words, as the
referee reads it, not its code; `--json` keeps the codes (a contract)."""
from __future__ import annotations

import json

from rulesbook.rulings.vocabulary import OUTCOMES
from tests.datapaths import SEEDS

FACTS = ("--fact", "discovered=at_once", "--fact", "repeated=no",
         "--fact", "reconstructible=yes")


def run(capsys, *argv):
    from rulesbook.cli import main

    code = main(list(argv))
    out, _err = capsys.readouterr()
    return code, out


def test_compare_prints_outcomes_in_words(capsys):
    apca = " ".join((SEEDS / "apca-proposed-rules-with-amendments.txt")
                    .read_text(encoding="utf-8").split())
    assert "A PROPER OR LEGAL MOVE IS MADE" in apca
    code, out = run(capsys, "rulings", "illegal_move", "--compare", *FACTS)
    assert code == 0
    lines = out.splitlines()
    rule10 = next(x for x in lines if x.strip().startswith("apca:10 "))
    assert rule10.endswith("a legal move is made instead"), rule10
    base = next(x for x in lines if x.startswith("original rules"))
    assert "a legal move is made" in base, base
    laws = next(x for x in lines if x.strip().startswith("standard-laws:10 "))
    assert "forfeits the game" in laws, laws
    codes = [c for c in OUTCOMES if "_" in c and c in out]  # "forfeit" is a word too
    assert codes == [], codes
    needs = next(x for x in lines if x.strip().startswith("apca:10B "))
    assert "players agree" in needs and "players_agree" not in needs, needs


def test_compare_json_keeps_the_codes(capsys):
    code, out = run(capsys, "rulings", "illegal_move", "--compare", "--json", *FACTS)
    by_ref = {e["ref"]: e for e in json.loads(out)}
    assert code == 0 and by_ref["apca:10"]["outcome"] == "retract_and_replay"
