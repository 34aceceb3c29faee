"""Issue 31, Must 1: each rulebook declares the variants it governs, and a game is
ruled by the rulebooks of its variant.

The expectations come from the words of the sources (tests/data/seeds): the APCA
rules are "for the Game of American Pool Checkers"; the Standard Laws' Law 10 ("If
either player, makes a false or improper move, he shall instantly forfeit the game
to his opponent") governs an English game; APCA Rule 10 ("... A PROPER OR LEGAL
MOVE IS MADE") a pool game. The attack goes through the real command
(``python -m rulesbook``) on a real record: the second game of the FMJD test
collection (Hay - Wyllie, Alwick 1842), GameType 21, with a quiet move planted at
ply 19 where the record captures."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rulesbook.draughts.pdn import read_games
from rulesbook.rulings import suggest
from rulesbook.rulings.governing import governance
from rulesbook.rulings.quotes import normalise
from rulesbook.rulings.vocabulary import outcome_words
from tests.datapaths import CORPUS, SEEDS

OCA = CORPUS / "english-oca-2.0.pdn"
#: ply 19 of Hay - Wyllie: the record plays 9x18 (the only legal move); 6-10 is a
#: quiet move of Black's man on 6 to the empty square 10
PLANTED_PLY, PLANTED = 19, "6-10"
SENTENCE = ("An English checkers game: the Standard Laws and the ACF guide govern it; "
            "the APCA edition in force is for pool checkers.")
SL10 = "If either player, makes a false or improper move, he shall instantly forfeit the game"
APCA10 = "A PROPER OR LEGAL MOVE IS MADE"


def planted_record(gametype: str | None) -> str:
    game = read_games(OCA.read_text(encoding="utf-8"), variant="english")[1]
    assert game.mainline[PLANTED_PLY - 1].text == "9x18"
    moves = [n.text for n in game.mainline[:PLANTED_PLY - 1]] + [PLANTED]
    tags = [f'[{k} "{v}"]' for k, v in game.tags.items() if k != "Result"]
    if gametype is not None:
        tags.append(f'[GameType "{gametype}"]')
    return "\n".join(tags) + "\n\n" + " ".join(moves) + " *\n"


def rulesbook(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    env.pop("RULESBOOK_DATA", None)
    return subprocess.run([sys.executable, "-m", "rulesbook", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_each_rulebook_declares_its_variants_in_the_words_of_its_source(library):
    seeds = {"apca": "apca-proposed-rules-with-amendments.txt",
             "spanish-pool": "spanish-pool-checkers-rules.txt",
             "standard-laws": "standard-laws-of-checkers.txt",
             "acf-guide": "acf-tournament-director-guide.txt"}
    want = {"apca": ("pool",), "spanish-pool": ("pool",), "standard-laws": ("english",),
            "acf-guide": ("english",)}
    for book_id, seed in seeds.items():
        book = library.rulebook(book_id)
        assert book.variants == want[book_id], book_id
        source = normalise((SEEDS / seed).read_text(encoding="utf-8"))
        assert normalise(book.variants_quote) in source, book_id
    assert "Pool Checkers" in library.rulebook("apca").variants_quote
    assert governance(library, "english").rulebooks == ("standard-laws", "acf-guide")
    assert governance(library, "pool").rulebooks == ("apca", "spanish-pool")
    assert governance(library, "english").sentence == SENTENCE


def test_attack_an_english_game_is_not_ruled_by_apca_rule_10(tmp_path):
    record = tmp_path / "english.pdn"
    record.write_text(planted_record("21"), encoding="utf-8")
    proc = rulesbook(tmp_path, "rulings", "--from-game", str(record))
    assert proc.returncode == 0, proc.stderr
    assert SENTENCE in proc.stdout
    # the Standard Laws' Law 10 decides, first: a forfeit
    first = proc.stdout.split("\n\nstandard-laws:10: ")
    assert len(first) == 2 and first[1].startswith(outcome_words("forfeit")), proc.stdout
    assert "\napca:10:" not in proc.stdout
    assert normalise(SL10) in normalise(proc.stdout)

    proc = rulesbook(tmp_path, "rulings", "--from-game", str(record), "--json")
    assert proc.returncode == 0, proc.stderr
    rulings = json.loads(proc.stdout)
    assert rulings[0]["ref"] == "standard-laws:10" and rulings[0]["outcome"] == "forfeit"
    assert {r["rulebook"] for r in rulings} <= {"standard-laws", "acf-guide"}
    assert all(r["variant"] == "english" for r in rulings)
    assert all(r["rulebooks"] == ["standard-laws", "acf-guide"] for r in rulings)


def test_the_same_record_as_a_pool_game_keeps_the_edition_in_force(tmp_path):
    record = tmp_path / "pool.pdn"
    record.write_text(planted_record("23"), encoding="utf-8")
    proc = rulesbook(tmp_path, "rulings", "--from-game", str(record), "--json")
    assert proc.returncode == 0, proc.stderr
    rulings = json.loads(proc.stdout)
    assert rulings[0]["ref"] == "apca:10" and rulings[0]["outcome"] == "retract_and_replay"
    assert normalise(APCA10) in normalise(rulings[0]["text"])
    assert rulings[0]["variant"] == "pool" and rulings[0]["rulebooks"] == ["apca",
                                                                            "spanish-pool"]


def test_the_variant_can_be_named_and_a_bad_one_is_one_readable_error(tmp_path):
    proc = rulesbook(tmp_path, "rulings", "failure_to_capture", "--variant", "english",
                     "--fact", "discovered=at_once", "--fact", "repeated=no")
    assert proc.returncode == 0, proc.stderr
    assert SENTENCE in proc.stdout
    assert f"standard-laws:10: {outcome_words('forfeit')}" in proc.stdout
    proc = rulesbook(tmp_path, "rulings", "failure_to_capture", "--variant", "chess")
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_a_variant_no_rulebook_governs_gets_guidance_only(library):
    result = suggest(library, "failure_to_capture", {"discovered": "at_once",
                                                     "repeated": False}, variant="russian")
    assert result.rulebooks == () and not result.binding
    assert "no rulebook of the library governs it" in result.governance.sentence


@pytest.mark.parametrize("variant", [None, "pool"])
def test_a_pool_game_is_ruled_as_before(library, variant):
    facts = {"discovered": "at_once", "repeated": False, "reconstructible": True}
    result = suggest(library, "failure_to_capture", facts, variant=variant)
    assert result.binding and result.best.ref == "apca:10"
    assert result.governance.edition_governs


def test_draw_claims_of_an_english_game_count_by_the_standard_laws(library):
    # Standard Laws 12: "within forty of his own moves"; the 13-count is APCA Rule 28's
    # ("THIS RULE IS USED ONLY WHEN THERE ARE FOUR PIECES ON THE BOARD, AND ALL PIECES ARE
    # KINGS"), a pool rule: an English game of three kings against one has no 13-count
    from rulesbook.draughts import Position
    from rulesbook.rulings import draw_claims

    start = Position.from_fen("B:WK32:BK1,K2,K3", "english")
    thirteen, strong, _ = draw_claims(library, start, [], 0)
    assert strong.limit == 40 and strong.ref == "standard-laws:12"
    assert thirteen.limit is None and not thirteen.applicable
    assert strong.suggestions.governance.rulebooks == ("standard-laws", "acf-guide")
    pool = draw_claims(library, Position.from_fen("B:WK32:BK1,K2,K3"), [], 0)
    assert pool[0].limit == 13 and pool[0].ref == "apca:28" and pool[1].limit == 30


def test_the_counts_of_an_english_game_come_from_the_standard_laws(library):
    """An English game is counted by Law 12: "within forty of his own moves"; the
    APCA counts (rule 27's "WITHIN THIRTY MOVES", rule 28's 13-count) are for pool."""
    from rulesbook.rulings import count_rules_for, counts_source

    laws = normalise((SEEDS / "standard-laws-of-checkers.txt").read_text(encoding="utf-8"))
    assert normalise("within forty of his own moves") in laws
    rules, sources = count_rules_for(library, None, "english")
    assert rules.strong_side_limit == 40 and rules.strong_side_extension == 0
    assert rules.three_vs_one_limit is None and rules.long_line_limit is None
    assert set(sources.values()) == {"standard-laws:12"}
    assert counts_source(library, None, "english") == f"Standard Laws 12 (Drawn Games). {SENTENCE}"
    pool = counts_source(library, None, "pool")
    assert pool.startswith("APCA proposed rules 27 ") and "28 (The 13-count)" in pool
    assert pool.endswith(", in the edition in force")
