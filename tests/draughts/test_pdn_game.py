"""PdnGame: variants, FEN set-ups, move resolution, errors, strict mode, writer, CLI."""
from __future__ import annotations

import io
import json

import pytest

from rulesbook.cli import main as cli_main
from rulesbook.draughts import (
    AmbiguousMoveError,
    Color,
    DraughtsError,
    IllegalMoveError,
    Position,
    Variant,
    pdn,
)
from rulesbook.draughts.pdn import (
    PdnError,
    PdnGame,
    PdnParseError,
    iter_games,
    read_game,
    read_games,
    resolve_move,
    write_game,
)
from rulesbook.limits import MAX_PLIES


def one(text, **kw):
    games = read_games(text, **kw)
    assert len(games) == 1
    return games[0]


def test_english_game_replays():
    g = one("1. 11-15 23-19 2. 8-11 22-17 1-0", variant="english")
    assert g.variant.name == "english" and g.errors == []
    assert [m.full_text() for m in g.mainline_moves()] == ["11-15", "23-19", "8-11", "22-17"]
    assert len(g.positions()) == 5
    assert g.winner() is Color.BLACK
    assert g.headers is g.tags


def test_default_variant_is_pool_and_gametype_wins():
    assert one("1. 11-15 *").variant.name == "pool"
    assert one('[GameType "21"]\n1. 11-15 *', variant="russian").variant.name == "english"
    assert one('[GameType "23,B,8,8,N1,0"]\n1. 11-15 *').variant.name == "pool"
    g = one('[GameType "25"]\n1. c3-d4 f6-g5 *')
    assert g.variant.name == "russian" and g.errors == []


def test_unknown_gametype_reported():
    g = one('[GameType "99"]\n1. 11-15 *', variant="english")
    assert g.variant.name == "english"
    assert [(e.line, e.col) for e in g.errors] == [(1, 1)]


def test_winner_by_variant():
    assert one("1. 11-15 0-1", variant="pool").winner() is Color.WHITE
    assert one('[GameType "25"]\n1. c3-d4 1-0').winner() is Color.WHITE
    assert one('[GameType "25"]\n1. c3-d4 0:1').winner() is Color.BLACK
    assert one("1. 11-15 1/2-1/2").winner() is None


def test_fen_setup_with_trailing_dot_and_second_player_to_move():
    g = one('[Setup "1"]\n[FEN "W:WK21:BK31,K22,K2."]\n1... 21-14 2. 31-24 *')
    assert g.errors == []
    assert g.start.turn is Color.WHITE
    assert [m.full_text() for m in g.mainline_moves()] == ["21-14", "31-24"]


def test_bad_fen_reported_moves_kept_as_text():
    g = one('[FEN "X:nonsense"]\n1. 11-15 *')
    assert [(e.line, e.col) for e in g.errors] == [(1, 1)]
    assert "bad FEN" in g.errors[0].message
    assert g.mainline[0].move is None and g.mainline[0].text == "11-15"


def test_illegal_move_stops_resolution():
    g = one("1. 11-15 23-19\n2. 8-12 22-17 3. 9-13 *", variant="english")
    assert [(e.line, e.col) for e in g.errors] == [(2, 4)]
    assert g.errors[0].message.startswith("move 8-12 is illegal: ")
    assert [n.move is not None for n in g.mainline] == [True, True, False, False, False]
    assert [n.text for n in g.mainline][2:] == ["8-12", "22-17", "9-13"]


def test_illegal_move_in_variation():
    g = one("1. 11-15 (1. 11-20) 23-19 *", variant="english")
    assert [(e.line, e.col) for e in g.errors] == [(1, 14)]
    assert "(in a variation)" in g.errors[0].message
    assert len(g.mainline_moves()) == 2


def test_algebraic_and_short_moves():
    g = one('[GameType "25"]\n1. c3-d4 f6-g5 2. bc3 gh4 *')
    assert g.errors == [], g.errors
    assert [n.move.full_text() for n in g.mainline] == ["22-18", "11-16", "25-22", "16-20"]


def test_short_move_ambiguity_is_an_error():
    # two white men can go to d4 (c3 and e3): no later move tells them apart
    g = one('[GameType "25"]\n1. dd4 *')
    assert "illegal" in g.errors[0].message
    g = one('[GameType "25"]\n[FEN "W:Wc3,e3:Bh8"]\n1. xd4 *')
    assert g.errors  # unreadable
    g = one('[GameType "25"]\n[FEN "W:Wa3,c3:Bh8"]\n1. ab4 *')
    assert g.errors == []
    g = one('[GameType "25"]\n[FEN "W:WKa1,Ka3:Bh8"]\n1. ab2 *')
    assert [(e.line, e.col) for e in g.errors] == [(3, 4)]
    assert "ambiguous" in g.errors[0].message


def test_short_move_ambiguity_resolved_by_following_moves():
    # a1-b2 or a3-b2; only a3-b2 lets "ba3" follow (a3 must be empty)
    g = one('[GameType "25"]\n[FEN "W:WKa1,Ka3:Bd8"]\n1. ab2 dc7 2. ba3 *')
    assert g.errors == [], g.errors
    assert g.mainline[0].move.full_text() == "21-25"  # a3-b2


def test_strict_mode_raises_first_error():
    text = "1. 11-15 23-19 2. 8-12 *\n"
    with pytest.raises(PdnParseError) as info:
        read_games(text, variant="english", strict=True)
    assert (info.value.line, info.value.col) == (1, 19)
    assert isinstance(info.value, DraughtsError)
    with pytest.raises(PdnParseError):
        read_games("1. 11-15 {", strict=True)
    assert read_games("1. 11-15 *", strict=True)[0].errors == []


def test_read_game_streams_and_keeps_line_numbers():
    handle = io.StringIO("1. 11-15 *\n\n1. 9-14 *\n\n1. 12-16 x *\n")
    games = []
    while (g := read_game(handle, variant="english")) is not None:
        games.append(g)
    assert len(games) == 3
    assert [(e.line, e.col) for e in games[2].errors] == [(5, 10)]


def test_iter_games_accepts_text_and_handle():
    text = "1. 11-15 *\n1. 9-14 *\n"
    assert len(list(iter_games(text))) == 2
    assert len(list(iter_games(io.StringIO(text)))) == 2


def test_error_is_frozen():
    e = PdnError(1, 2, "x")
    with pytest.raises(AttributeError):
        e.line = 3  # type: ignore[misc]
    assert str(e) == "line 1 col 2: x"


@pytest.mark.parametrize("plies", [
    20_000, pytest.param(MAX_PLIES, marks=pytest.mark.slow)])
def test_many_plies_linear(plies):
    # a king shuffle in pool, read and replayed: the longest game the reader takes
    # (MAX_PLIES) is read whole (its speed is measured in bench/bench_pdn.py)
    moves = " ".join(["1-5 32-28 5-1 28-32"] * (plies // 4))
    text = '[FEN "B:WK32:BK1"]\n' + moves + " *"
    g = one(text)
    assert g.errors == [] and len(g.mainline) == plies


@pytest.mark.slow
def test_a_game_over_the_ply_limit_keeps_the_limit_and_says_so():
    moves = " ".join(["1-5 32-28 5-1 28-32"] * (MAX_PLIES // 4 + 1))
    g = one('[FEN "B:WK32:BK1"]\n' + moves + " *")
    assert len(g.mainline) == MAX_PLIES
    assert [e.message for e in g.errors] == [
        f"more than {MAX_PLIES:,} moves in one game: the rest are skipped"]


# -- writer ---------------------------------------------------------------

def test_writer_tags_numbers_captures_and_width():
    g = one('[Event "E"]\n[Black "A"]\n[Result "1-0"]\n1. 11-15 23-19 2. 8-11 22-17 '
            "3. 9-13 { a comment that is long enough to need wrapping across lines when "
            "written out again } 17-14? (3... 24-20 $14) 4. 10x17 1-0", variant="english")
    assert g.errors == [], g.errors
    text = write_game(g)
    assert text.startswith('[Event "E"]\n[Black "A"]\n[Result "1-0"]\n[GameType "21,B,8,8,N1,0"]')
    assert "FEN" not in text
    assert "10x17" in text and "(3... 24-20 $14)" in text and "17-14?" in text
    assert all(len(line) <= 80 for line in text.splitlines())
    back = one(text)
    assert back.variant.name == "english" and back.errors == []
    assert [m.full_text() for m in back.mainline_moves()] == \
        [m.full_text() for m in g.mainline_moves()]
    assert back.mainline[4].comment == g.mainline[4].comment
    assert back.mainline[5].nags == [2]
    assert g.to_pdn() == text


def test_writer_fen_and_second_player_start():
    g = one('[FEN "W:WK21:BK31,K22,K2."]\n1... 21-14 2. 31-24 *')
    text = g.to_pdn()
    assert '[SetUp "1"]' in text and "[FEN " in text and "1... 21-14 2. 31-24 *" in text
    assert [m.full_text() for m in one(text).mainline_moves()] == ["21-14", "31-24"]


def test_writer_russian_algebraic():
    g = one('[GameType "25"]\n1. cd4 fg5 2. bc3 *')
    text = g.to_pdn()
    assert "1. c3-d4 f6-g5 2. b2-c3 *" in text
    assert '[GameType "25"]' in text  # the GameType the record had, verbatim


def test_from_moves():
    g = PdnGame.from_moves(["11-15", "23-19"], "english", result="0-1")
    assert g.winner() is Color.WHITE
    assert "1. 11-15 23-19 0-1" in g.to_pdn()
    assert g.start == Position.start(Variant.named("english"))


# -- CLI ------------------------------------------------------------------

def test_cli_check_ok_and_errors(tmp_path, capsys):
    good = tmp_path / "good.pdn"
    good.write_text("1. 11-15 23-19 *\n")
    assert cli_main(["pdn", "check", str(good), "--variant", "english"]) == 0
    assert capsys.readouterr().out.strip() == "1 games, 0 with errors"
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Black "Tinsley"]\n[White "X"]\n1. 11-15 23-19\n2. 23-27 *\n'
                   "1. 9-14 *\n")
    assert cli_main(["pdn", "check", str(bad), "--variant", "english"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1 (Tinsley - X): line 4 col 4: move 23-27 is illegal: ")
    assert out[-1] == "2 games, 1 with errors"
    assert cli_main(["pdn", "check", str(bad), "--variant", "english", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data[0]["game"] == 1 and data[0]["plies"] == 2 and data[0]["result"] == "*"
    assert data[0]["tags"] == {"Black": "Tinsley", "White": "X"}
    assert data[0]["errors"][0]["line"] == 4 and data[0]["errors"][0]["col"] == 4
    assert data[1]["errors"] == []


def test_cli_unreadable_file(tmp_path, capsys):
    assert cli_main(["pdn", "check", str(tmp_path / "missing.pdn")]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "Traceback" not in err
    assert cli_main(["pdn", "check", str(tmp_path)]) == 2
    assert cli_main(["pdn", "check", str(tmp_path / "x"), "--variant", "chess"]) == 2


def test_resolve_move_is_public_and_lists_the_candidates():
    assert {"resolve_move", "disambiguate", "LOOKAHEAD"} <= set(pdn.__all__)
    pos = Position.from_fen("B:W6,7,14,15,32:B2", "english")
    with pytest.raises(AmbiguousMoveError) as info:
        resolve_move(pos, "2x18")
    candidates = info.value.candidates
    assert len(candidates) == 2 and all(m in pos.legal_moves() for m in candidates)
    assert info.value.move == "2x18"
    assert str(info.value) == info.value.explanation == \
        "it matches 2 legal moves: " + ", ".join(m.full_text() for m in candidates)
    # the reading after which the next move can be played: White's 7-2 needs
    # 7 still there (2x9x18 took 6 and 14), 6-1 needs 6 (2x11x18 took 7 and 15)
    via9, via11 = sorted(candidates, key=lambda m: m.path)
    assert pdn.disambiguate(pos, candidates, ["7-2"]) == via9
    assert pdn.disambiguate(pos, candidates, iter(["6-1"])) == via11
    assert pdn.disambiguate(pos, [], ["1-5"]) is None
    assert pdn.disambiguate(pos, candidates, []) is None  # nothing tells them apart
    with pytest.raises(IllegalMoveError) as info:
        resolve_move(Position.start("english"), "ad4")
    assert info.value.move == "ad4"
