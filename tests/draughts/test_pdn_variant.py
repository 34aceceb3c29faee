"""The variant of a PDN record without a GameType tag: the one in which the whole
record is legal, pool first (rulesbook.draughts.pdn_variant), as the PDN reader,
the record reader, the board's import and the CLI use it."""
from __future__ import annotations

import io
import json

import pytest

from rulesbook.cli import main
from rulesbook.draughts import Variant
from rulesbook.draughts.pdn import iter_games
from rulesbook.draughts.pdn_syntax import SyntaxReader
from rulesbook.draughts.pdn_variant import guess_variant
from rulesbook.reconstruct import import_record, read_records, replay, split_games
from tests.datapaths import CORPUS

TINSLEY = CORPUS / "english-tinsley-1946-1960s.pdn"
THREE_KINGS = CORPUS / "pool-3-kings-vs-1-theory.pdn"


def raw_game(text: str):
    raw = SyntaxReader(io.StringIO(text)).read()
    assert raw is not None
    return raw


def first_game() -> str:
    return split_games(TINSLEY.read_text(encoding="utf-8"))[0].text


def pydraughts_plays_all(text: str, variant: str) -> bool:
    """True when pydraughts (a peer program) plays every move of the game."""
    import draughts
    from draughts.PDN import PDNReader

    (game,) = PDNReader(pdn_text=text).games
    board = draughts.Board(variant)
    try:
        for move in game.moves:
            board.push(draughts.Move(board, pdn_move=move))
    except Exception:  # noqa: BLE001 - pydraughts raises several kinds
        return False
    return True


def test_an_english_game_without_gametype_is_read_as_english():
    text = first_game()
    assert "GameType" not in text
    assert pydraughts_plays_all(text, "english")  # the peer: every move legal in English
    (game,) = iter_games(text)
    assert game.variant.name == "english" and game.ok
    guess = game.variant_guess
    assert guess is not None and [v.name for v in guess.fitting] == ["english"]
    # game 1 ends "28. 17x10 24x15x6": 56 plies
    assert guess.sentence() == ("No GameType tag: read as English checkers — the only "
                                "variant in which all 56 moves are legal")
    # in pool it stops where replay (another module) finds the first illegal move
    pool = guess.fit(Variant.named("pool"))
    assert pool is not None and not pool.whole
    (record,) = read_records(text, "pool")
    first = replay(record).first_illegal
    assert first is not None and first.ply == pool.legal + 1


def test_the_same_english_game_with_its_gametype_removed():
    # a tagged English game (GameType 21 added) reads as English; without the tag, the same
    text = first_game()
    tagged = text.replace('[Result', '[GameType "21"]\n[Result', 1)
    (with_tag,) = iter_games(tagged)
    assert with_tag.variant.name == "english" and with_tag.variant_guess is None
    (without,) = iter_games(text)
    assert [m for m in without.mainline_moves()] == [m for m in with_tag.mainline_moves()]


def test_a_pool_game_without_gametype_is_read_as_pool():
    text = THREE_KINGS.read_text(encoding="utf-8")
    stripped = "\n".join(line for line in text.splitlines() if "GameType" not in line)
    (tagged,) = iter_games(text)
    assert tagged.variant.name == "pool" and tagged.ok and tagged.variant_guess is None
    (game,) = iter_games(stripped)
    assert game.variant.name == "pool" and game.ok
    guess = game.variant_guess
    assert guess is not None and guess.chosen.name == "pool"
    # 1... 21-14 is a king's move of two squares: English kings do not fly
    english = guess.fit(Variant.named("english"))
    assert english is not None and english.legal == 0 and not english.whole
    assert "english" not in [v.name for v in guess.fitting]


def test_an_ambiguous_short_record_takes_pool_and_names_the_others():
    text = '[Event "Club night"]\n1. 11-15 23-19 *\n'
    guess = guess_variant(raw_game(text))
    # Black moves first in pool and English; in Russian and Brazilian White does,
    # so 11-15 (a black man's move) cannot be the first move there
    assert [v.name for v in guess.fitting] == ["pool", "english"]
    assert guess.chosen.name == "pool"
    assert guess.sentence() == ("No GameType tag: read as pool checkers — all 2 moves are "
                                "legal in it, and also in English checkers: the app's "
                                "default is taken (the first that fits)")


def test_no_variant_fits_the_one_that_goes_furthest_is_taken():
    # 11-15 23-19 then 15-19?? onto an occupied square: illegal everywhere
    text = '[Event "x"]\n1. 11-15 23-19 2. 15-19 *\n'
    guess = guess_variant(raw_game(text))
    assert guess.fitting == ()
    assert guess.chosen.name == "pool"
    assert "no variant makes every move legal" in guess.sentence()
    assert "(2 of 3 moves legal)" in guess.sentence()


def test_a_russian_record_without_gametype_is_read_as_russian():
    text = (CORPUS / "russian-uppercase-squares-test.pdn").read_text(encoding="utf-8")
    games = list(iter_games(text))
    assert games and games[0].variant.name == "russian"


def test_a_variant_given_by_the_caller_wins_and_nothing_is_guessed():
    (game,) = iter_games(first_game(), "pool")
    assert game.variant.name == "pool" and game.variant_guess is None and game.errors
    imported = import_record(first_game(), 0, "russian")
    assert imported.record.variant.name == "russian" and imported.variant_guess is None
    assert imported.untyped
    # a plain list of moves has no tags to tell: it is read as pool
    assert import_record("11-15 23-19").record.variant.name == "pool"


def test_an_unknown_gametype_is_a_problem_and_the_variant_is_guessed():
    text = '[GameType "30"]\n1. 11-15 23-19 2. 9-14 *\n'
    (game,) = iter_games(text)
    assert game.variant.name == "pool" and game.variant_guess is not None
    assert any("unsupported PDN game type 30" in e.message and e.message.endswith("read as pool")
               for e in game.errors)
    assert game.variant_guess.sentence().startswith("Unknown GameType '30': read as pool")


@pytest.mark.parametrize("variant, expected", [(None, "english"), ("pool", "pool")])
def test_pdn_check_json_names_the_variant(tmp_path, capsys, variant, expected):
    path = tmp_path / "game.pdn"
    path.write_text(first_game(), encoding="utf-8")
    argv = ["pdn", "check", str(path), "--json"] + (["--variant", variant] if variant else [])
    code = main(argv)
    out = json.loads(capsys.readouterr().out)
    assert out[0]["variant"] == expected
    if variant is None:
        assert code == 0 and out[0]["errors"] == []
        assert out[0]["variant_note"].startswith("No GameType tag: read as English checkers")
    else:
        assert code == 1 and out[0]["variant_note"] is None


def test_replay_says_how_the_variant_was_read(tmp_path, capsys):
    path = tmp_path / "game.pdn"
    path.write_text(first_game(), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "No GameType tag: read as English checkers" in out and "every move is legal" in out
