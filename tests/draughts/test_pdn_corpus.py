"""Every game of the shared corpus is read; the defective records are reported precisely."""
from __future__ import annotations

from rulesbook.draughts.pdn import PdnReader
from tests.datapaths import CORPUS  # noqa: E402


def read(name, variant=None):
    with open(CORPUS / name, encoding="utf-8") as handle:
        return list(PdnReader(handle, variant))


def problems(games):
    return {n: [(e.line, e.col, e.message) for e in g.errors]
            for n, g in enumerate(games, 1) if g.errors}


def test_tinsley():
    games = read("english-tinsley-1946-1960s.pdn", "english")
    assert len(games) == 724
    found = problems(games)
    assert sorted(found) == [541, 623, 693]
    # a missing move: 62. 32-28 but the king stands on 28 (Petal 1981, game 18)
    assert found[541] == [(5588, 5, "move 32-28 is illegal: 32 is empty")]
    # comments written without braces, glued to the last move
    assert found[623] == [(6434, 74,
                           "unreadable text 'Redoversteppedthetimecontrolonthismove.'")]
    assert found[693] == [(7170, 22,
                           "unreadable text 'Whiteoversteppedthetimecontrolonthismove.'")]
    # the moves before the glued comment are still read and replayed
    assert games[622].mainline[-1].text == "8-11" and games[622].mainline[-1].move
    assert games[622].result == "0-1"
    for n, g in enumerate(games, 1):
        if n not in found:
            assert len(g.mainline_moves()) == len(g.mainline) > 0
            assert g.variant.name == "english"
    assert sum(len(g.mainline) for g in games) == 36112


def test_pool_three_kings():
    (game,) = read("pool-3-kings-vs-1-theory.pdn")
    assert game.errors == []
    assert game.variant.name == "pool" and game.tags["Setup"] == "1"
    assert len(game.mainline) == 25 == int(game.tags["PlyCount"])
    first = game.mainline[1]
    assert first.text == "31-24" and len(first.variations) == 1
    nested = first.variations[0][11].variations[0]
    assert nested[0].text == "3-21" and "Gonyaev" in nested[0].comment
    assert game.result == "*"


def test_abatsiev():
    games = read("russian-abatsiev.pdn", "russian")
    assert len(games) == 198
    found = problems(games)
    assert sorted(found) == [1, 36, 142]
    assert found[1] == [(1, 1, "comment before the tags (kept as the game's opening comment)")]
    assert games[0].comment.startswith("200 games of Nikolay Abatsiev")
    assert len(games[0].mainline_moves()) == len(games[0].mainline) == 83
    # two empty placeholders: "1. - - 2. - - ..."
    assert found[36] == [(599, 4, "move missing: placeholder '-' instead of a move")]
    assert found[142] == [(2351, 4, "move missing: placeholder '-' instead of a move")]
    assert games[35].tags["Black"] == "Lebedev Ju." and games[35].result == "1/2-1/2"
    # h6xc1 with two landing squares on the way that capture the same pieces: one move
    assert games[130].errors == []


def test_world_championship_short_notation():
    games = read("russian-world-championship-1998-short-notation.pdn")
    assert len(games) == 460
    assert all(g.variant.name == "russian" for g in games)
    found = problems(games)
    # nine [Round "11.x] tags lack the closing quote; the value is still read
    assert sorted(found) == [313, 314, 315, 317, 318, 319, 321, 322, 323]
    assert found[313] == [(4239, 1, "malformed tag '[Round \"11.1]': the value must be in "
                                    "double quotes (read as '11.1')")]
    assert games[312].tags["Round"] == "11.1"
    for g in games:
        assert len(g.mainline_moves()) == len(g.mainline) > 0
    assert games[0].result == "1/2-1/2" and games[1].result == "0-1"
    # hg7 (game 2) has two readings, h8-g7 and h6-g7: the moves that follow decide
    assert games[1].errors == []


def test_british_computer_championship_comments_in_parentheses():
    # the comments are written in ( ), some with result-like text ("Score 1-0 to
    # Nemesis"): 16 games (the file's README), no phantom game, every move legal
    games = read("english-british-computer-championship-2002.pdn", "english")
    assert len(games) == 16
    assert [g.tags["Comment"].rsplit("bham", 1)[1] for g in games] == \
        [f"{n:02d}.xml" for n in range(1, 17)]
    for g in games:
        assert len(g.mainline_moves()) == len(g.mainline) > 0
        # the only defects: ( ) comments, and no result after the moves
        kinds = {e.message.split(":")[0].split(" (")[0] for e in g.errors}
        assert kinds <= {"comment written in parentheses", "the game has no result"}
    first = games[0]
    note = next(e for e in first.errors if e.message.startswith("comment written"))
    assert (note.line, note.col) == (9, 18)  # '9-13 22-18 11-16 (Roberto's ...'
    assert first.mainline[2].text == "11-16"
    assert first.mainline[2].comment == "Roberto's first choice, the Wilderness 1."
    assert "Score 1-0 to Nemesis" in first.mainline[-1].comment


def test_uppercase_squares():
    games = read("russian-uppercase-squares-test.pdn", "russian")
    assert len(games) == 3
    second = games[1]
    assert not [e for e in second.errors if "unreadable" in e.message]
    assert second.mainline[0].text == "E3-D4"
    assert len(second.mainline_moves()) == len(second.mainline) > 20
