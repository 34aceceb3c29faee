"""Issue 31 retest, finding 1 (Must 2): the variant of a game that no variant makes
legal. An English collection (the corpus README: "english-oca-2.0.pdn | 43 | English",
no GameType tag) with game 1's capture ``4. 15x22`` replaced by the quiet ``4. 4-8``:
the first six moves are the game's own, the seventh misses the capture the record
wrote, so no variant makes all seven legal, and pool checkers goes as far as English
checkers. It was read as pool ("it goes furthest") and ruled by APCA rule 10, the file's
42 English games ignored. A game illegal in every variant takes, among the variants
that go furthest, the one the file's other games need, then the app's default; the
note says so. The Standard Laws govern English checkers (their title, the seed text)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from tests.datapaths import CORPUS, SEEDS

OCA = CORPUS / "english-oca-2.0.pdn"
ORIGINAL = "1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x18"
#: the corpus's game 1, cut at its first capture, a quiet move written instead
PLANTED = "1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 4-8 *"


def rulesbook(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    env.pop("RULESBOOK_DATA", None)
    return subprocess.run([sys.executable, "-m", "rulesbook", *args], capture_output=True,
                          text=True, env=env, timeout=300)


def planted_file(tmp_path, head: str = "") -> str:
    text = OCA.read_text(encoding="utf-8")
    first, sep, rest = text.partition("\n\n")
    assert ORIGINAL in first and "GameType" not in text
    first = first.replace('[Result "0-1"]', '[Result "*"]')
    first = first[:first.index("1. 11-15")] + PLANTED + "\n"
    path = tmp_path / "planted.pdn"
    path.write_text(head + first + sep + rest, encoding="utf-8")
    return str(path)


def test_sources_the_standard_laws_are_the_laws_of_english_checkers():
    laws = (SEEDS / "standard-laws-of-checkers.txt").read_text(encoding="utf-8")
    apca = (SEEDS / "apca-proposed-rules-with-amendments.txt").read_text(encoding="utf-8")
    assert "Pool Checkers" in apca and "Pool" not in laws


def test_attack_a_game_illegal_in_every_variant_takes_the_files_english(tmp_path):
    path = planted_file(tmp_path)
    proc = rulesbook(tmp_path, "rulings", "--from-game", path, "--game", "1")
    assert proc.returncode == 0, proc.stderr
    note = proc.stderr.strip().splitlines()[-1]
    assert note.startswith(f"{path}: game 1: No GameType tag: read as English checkers"), note
    # truthfully: both go six moves of seven; not "it goes furthest"
    assert "goes furthest" not in note, note
    assert "English checkers and pool checkers go equally far (6 of 7 moves legal)" in note
    told = re.search(r"the file's other games need English checkers \((\d+) of the (\d+) "
                     r"games that tell the variants apart\)", note)
    assert told and told[1] == told[2] and int(told[1]) > 30, note  # the file is English
    assert "An English checkers game: the Standard Laws and the ACF guide govern it" \
        in proc.stdout, proc.stdout
    assert "apca:10" not in proc.stdout.split("\n\n")[1], proc.stdout
    proc = rulesbook(tmp_path, "rulings", "--from-game", path, "--game", "1", "--json")
    rulings = json.loads(proc.stdout)
    assert rulings and {r["variant"] for r in rulings} == {"english"}
    assert rulings[0]["ref"].startswith("standard-laws:"), rulings[0]
    # every game of the file at once: the planted game reported as English
    proc = rulesbook(tmp_path, "rulings", "--from-game", path, "--json")
    games = json.loads(proc.stdout)
    assert [(g["game"], g["variant"]) for g in games] == [(1, "english")], games


def test_attack_a_lone_illegal_game_takes_the_default_and_says_they_tie(tmp_path):
    path = tmp_path / "alone.pdn"
    path.write_text(f'[Event "x"]\n\n{PLANTED}\n', encoding="utf-8")
    proc = rulesbook(tmp_path, "rulings", "--from-game", str(path))
    note = proc.stderr.strip().splitlines()[-1]
    assert "read as pool checkers" in note, note
    assert "pool checkers and English checkers go equally far (6 of 7 moves legal)" in note
    assert "the app's default is taken" in note and "goes furthest" not in note, note



def test_attack_a_draw_claim_says_why_the_record_is_read_in_its_variant(tmp_path):
    """Finding 2: ``--game N --ply P`` printed no variant note, and its JSON had none."""
    path = planted_file(tmp_path)
    proc = rulesbook(tmp_path, "rulings", "--from-game", path, "--game", "1", "--ply", "6")
    assert proc.returncode == 1, proc.stderr  # the record's illegal 7th move is an error
    assert f"{path}: game 1: No GameType tag: read as English checkers" in proc.stderr
    assert "the file's other games need English checkers" in proc.stderr, proc.stderr
    proc = rulesbook(tmp_path, "rulings", "--from-game", path, "--game", "1", "--ply", "6",
                     "--json")
    claims = json.loads(proc.stdout)
    assert claims and all({"incident", "holds", "rulings"} <= set(c) for c in claims)
    notes = {c["variant_note"] for c in claims}
    assert len(notes) == 1 and notes.pop().startswith("No GameType tag: read as English "
                                                      "checkers"), claims
    # a record whose GameType tag names its variant: nothing guessed, the note null
    tagged = tmp_path / "tagged.pdn"
    tagged.write_text(f'[GameType "21"]\n\n{PLANTED}\n', encoding="utf-8")
    proc = rulesbook(tmp_path, "rulings", "--from-game", str(tagged), "--ply", "6", "--json")
    assert {c["variant_note"] for c in json.loads(proc.stdout)} == {None}
    assert "No GameType tag" not in proc.stderr


def test_attack_every_game_of_a_file_in_json_carries_its_variant_note(tmp_path):
    path = planted_file(tmp_path)
    games = json.loads(rulesbook(tmp_path, "rulings", "--from-game", path, "--json").stdout)
    (game,) = games
    assert {"game", "title", "variant", "rulebooks", "record_errors", "ply", "move",
            "explanation", "rulings"} <= set(game)
    assert game["variant_note"].startswith("No GameType tag: read as English checkers")
