"""Issue 31, Must 2: "a game legal in several variants takes the variant that the
file's other games need" -- the whole file's, not those read before it (the reader
counted only the games before an ambiguous game and, when none of those told, the
first later game that did, and quoted those partial counts as the file's).

The games come from the corpus (english-oca-2.0.pdn: English collection, no GameType
tags) and one pool game written here; what each game needs is read from its moves
(``guess_variant``: the variants in which all its moves are legal), and the expected
variant and counts follow from those and the rule: the variant most games of the file
need, the app's default (pool, the first tried) on a tie."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from rulesbook.draughts import pdn_variant
from rulesbook.draughts.pdn import read_games
from rulesbook.draughts.pdn_syntax import SyntaxReader
from rulesbook.draughts.pdn_variant import guess_variant
from rulesbook.reconstruct import read_records
from rulesbook.reconstruct.importing import import_record
from tests.datapaths import CORPUS

#: legal in pool checkers only (men capture backwards: 14x23 ... 18x20)
POOL_ONLY = ('[Event "Pool only"]\n[White "PW"]\n[Black "PB"]\n[Result "*"]\n\n'
             "12-16 24-20 9-14 23-18 14x23 27x18 10-14 18x9 5x14 22-18 14x23 26x12 6-9 "
             "32-27 7-10 27-24 11-16 20x11 8x15 31-26 9-14 26-23 4-8 24-20 8-11 28-24 "
             "15-18 20-16 18x20 *\n")


def _raws(text: str):
    return list(SyntaxReader(io.StringIO(text)))


def _games() -> tuple[str, list[str]]:
    """(a game legal in pool and English, [two games legal in English only]) of the corpus."""
    text = (CORPUS / "english-oca-2.0.pdn").read_text(encoding="utf-8")
    games = read_games(text)
    both, english = None, []
    for raw, game in zip(_raws(text), games, strict=True):
        names = [v.name for v in guess_variant(raw).fitting]
        if both is None and {"pool", "english"} <= set(names):
            both = game.to_pdn()
        elif names == ["english"] and len(english) < 3:
            english.append(game.to_pdn())
    assert both is not None and len(english) == 3
    return both, english


def _check(tmp_path, text: str) -> list[dict]:
    path = tmp_path / "file.pdn"
    path.write_text(text, encoding="utf-8")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    proc = subprocess.run([sys.executable, "-m", "rulesbook", "pdn", "check", str(path),
                           "--json"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def test_the_pool_game_is_pool_only():
    assert [v.name for v in guess_variant(_raws(POOL_ONLY)[0]).fitting] == ["pool"]


# (layout of the file, the ambiguous game's index, its variant, the words of its note)
LAYOUTS = {
    # pool-only, ambiguous, English, English: 2 of the 3 games that tell need English
    "major": ("P A E E", 1, "english",
              "the file's other games need English checkers (2 of the 3 games that tell "
              "the variants apart)"),
    # ambiguous, English-only, pool-only: 1 each of 2, a tie, the app's default (pool)
    "tie": ("A E P", 0, "pool",
            "need pool checkers and English checkers equally (1 each of the 2 games that "
            "tell the variants apart): a tie, decided by the app's default (pool checkers)"),
    # ambiguous first, three English games after it: 3 of the 3
    "first": ("A E E E", 0, "english",
              "the file's other games need English checkers (3 of the 3 games that tell "
              "the variants apart)"),
}


def _file(layout: str) -> str:
    both, english = _games()
    pieces, e = [], iter(english)
    for letter in layout.split():
        pieces.append({"A": both, "P": POOL_ONLY}.get(letter) or next(e))
    return "\n".join(p.rstrip("\n") + "\n" for p in pieces)


@pytest.mark.parametrize("case", LAYOUTS)
def test_attack_an_ambiguous_game_takes_what_the_whole_file_needs(tmp_path, case):
    layout, index, variant, words = LAYOUTS[case]
    text = _file(layout)
    # the command line
    checked = _check(tmp_path, text)
    assert checked[index]["variant"] == variant, checked[index]
    assert words in checked[index]["variant_note"], checked[index]["variant_note"]
    # the library's readers: PdnReader, the reconstruction's records, the Board's import
    game = read_games(text)[index]
    assert game.variant.name == variant and words in game.variant_guess.sentence()
    record = read_records(text)[index]
    assert record.variant.name == variant and words in record.variant_guess.sentence()
    imported = import_record(text, index)
    assert imported.record.variant.name == variant
    assert words in imported.variant_guess.sentence()
    # the games that tell keep their own variant
    letters = layout.split()
    for i, letter in enumerate(letters):
        if letter != "A":
            assert checked[i]["variant"] == {"E": "english", "P": "pool"}[letter]


def test_each_game_is_played_once_however_long_the_file(monkeypatch):
    """One pass classifies (each untyped game tried in the variants once), then the
    ambiguous games are decided: linear in the file."""
    text = _file("A E P A E A E")
    calls = []
    real = pdn_variant.guess_variant

    def counting(raw, *args, **kwargs):
        calls.append(raw.line)
        return real(raw, *args, **kwargs)

    monkeypatch.setattr(pdn_variant, "guess_variant", counting)
    games = list(pdn_variant.settled(_raws(text)))
    assert len(games) == 7 and len(calls) == 7 and len(set(calls)) == 7
    # 3 English, 1 pool of the 4 that tell: each ambiguous game reads "3 of the 4"
    for _raw, guess in games:
        if len(guess.fitting) > 1:
            assert guess.chosen.name == "english"
            assert "(3 of the 4 games that tell" in guess.sentence()
