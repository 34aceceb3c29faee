"""Issue 31, Must 2: a record's variant is read per file. The English collections of
the corpus have no GameType tag; most of their games are legal in English checkers
only, a few in pool checkers too. Those few take the variant the file's other games
need (they were read as pool, the first variant tried), and the note says why; the
writer never stamps the guessed variant into the file as if the record had it.

Expectations come from the corpus README ("english-oca-2.0.pdn | 43 | English",
"english-british-computer-championship-2002.pdn | 16 | English") and from the
games themselves: a game that only English checkers makes legal."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rulesbook.draughts.pdn import read_games
from rulesbook.draughts.pdn_syntax import SyntaxReader
from rulesbook.draughts.pdn_variant import guess_variant
from rulesbook.reconstruct import read_records
from tests.datapaths import CORPUS

ENGLISH = {"english-oca-2.0.pdn": 43, "english-british-computer-championship-2002.pdn": 16}


def pdn_check(tmp_path, path) -> list[dict]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    proc = subprocess.run([sys.executable, "-m", "rulesbook", "pdn", "check", str(path),
                           "--json"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def raw_games(text: str):
    import io

    return list(SyntaxReader(io.StringIO(text)))


@pytest.mark.parametrize("name,count", ENGLISH.items())
def test_attack_games_legal_in_pool_too_are_read_as_the_files_english(tmp_path, name, count):
    path = CORPUS / name
    text = path.read_text(encoding="utf-8")
    # the games that are legal in pool checkers too, each read alone
    alone = [guess_variant(raw) for raw in raw_games(text)]
    both = [i for i, g in enumerate(alone, 1) if {v.name for v in g.fitting} >= {"pool",
                                                                                "english"}]
    only_english = [i for i, g in enumerate(alone, 1)
                    if [v.name for v in g.fitting] == ["english"]]
    assert both and only_english and len(alone) == count
    games = pdn_check(tmp_path, path)
    assert [g["variant"] for g in games] == ["english"] * count
    for number in both:
        note = games[number - 1]["variant_note"]
        assert note.startswith("No GameType tag: read as English checkers"), note
        assert "also in pool checkers; the file's other games need English checkers" in note
    # the reconstruction (rulings --from-game, Check Record) reads the file the same way
    assert {r.variant.name for r in read_records(text)} == {"english"}


def test_a_file_whose_games_do_not_tell_takes_the_default_and_says_so(tmp_path):
    text = (CORPUS / "english-oca-2.0.pdn").read_text(encoding="utf-8")
    raws = raw_games(text)
    both = next(i for i, raw in enumerate(raws) if len(guess_variant(raw).fitting) > 1)
    # a file of that one game only: nothing tells pool from English
    path = tmp_path / "one.pdn"
    path.write_text(read_games(text)[both].to_pdn(), encoding="utf-8")
    (checked,) = pdn_check(tmp_path, path)
    assert checked["variant"] == "pool"
    assert "no other game of the file tells them apart, so the app's default is taken " \
           "(pool checkers)" in checked["variant_note"]


def test_the_writer_never_stamps_a_guessed_gametype():
    text = (CORPUS / "english-oca-2.0.pdn").read_text(encoding="utf-8")
    games = read_games(text)
    guessed = [g for g in games if g.variant_guess is not None]
    assert len(guessed) == len(games)  # no game of the file has the tag
    for game in guessed[:5]:
        assert "GameType" not in game.to_pdn()
    tagged = read_games('[GameType "21"]\n1. 11-15 23-19 *')[0]
    assert '[GameType "21"]' in tagged.to_pdn()  # verbatim: the GameType the record had
    chosen = read_games('[Event "x"]\n1. 11-15 23-19 *', variant="english")[0]
    assert '[GameType "21,B,8,8,N1,0"]' in chosen.to_pdn()  # the caller chose it
    unknown = read_games('[GameType "30"]\n1. 11-15 23-19 *')[0]
    assert '[GameType "30"]' in unknown.to_pdn()  # as the record had it


@pytest.mark.parametrize("had", ["21", "23", " 21 ", "21,B,8,8,N1,0", "23,B,8,8,N1,0"])
def test_attack_the_writer_writes_the_gametype_the_record_had_verbatim(had):
    """A record's GameType "21" came back as "21,B,8,8,N1,0": the writer wrote its own
    long form instead of what the record had (Must 2: "The writer writes the GameType
    the record had, or none")."""
    game = read_games(f'[Event "x"]\n[GameType "{had}"]\n1. 11-15 23-19 *')[0]
    text = game.to_pdn()
    assert text.count("[GameType ") == 1
    assert f'[GameType "{had.strip()}"]' in text, text
    assert read_games(text)[0].variant == game.variant


def test_attack_a_tie_between_the_files_games_says_the_apps_default_decided_it(tmp_path):
    """One game of the file needs English checkers (its GameType 21), one pool checkers
    (GameType 23); a third, legal in both, has no tag. The file's games need both as
    much: the app's default decides, and the note must say so (it said "the file's
    other games need pool checkers (1 of the 2 games ...)", as if they needed pool)."""
    english = '[Event "e"]\n[GameType "21"]\n1. 11-15 23-19 *\n\n'
    pool = '[Event "p"]\n[GameType "23"]\n1. 11-15 23-19 *\n\n'
    untagged = '[Event "u"]\n1. 11-15 23-19 *\n'
    assert {v.name for v in guess_variant(raw_games(untagged)[0]).fitting} >= {"pool",
                                                                             "english"}
    path = tmp_path / "tie.pdn"
    path.write_text(english + pool + untagged, encoding="utf-8")
    games = pdn_check(tmp_path, path)
    note = games[2]["variant_note"]
    assert games[2]["variant"] == "pool", games[2]
    assert "a tie" in note and "decided by the app's default (pool checkers)" in note, note
    assert "need pool checkers and English checkers equally" in note, note
    # without a tie the note names what the file's games need, and no default
    path.write_text(english + english.replace('"e"', '"e2"') + pool + untagged,
                    encoding="utf-8")
    note = pdn_check(tmp_path, path)[3]["variant_note"]
    assert "need English checkers (2 of the 3 games" in note and "default" not in note, note
