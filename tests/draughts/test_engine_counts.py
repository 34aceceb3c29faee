"""Game: push/pop, results, and the draw counts."""
from __future__ import annotations

import pytest

from rulesbook.draughts import Color, CountRules, DraughtsError, Game, Position

# Limits given as plain parameters: the engine has no rulebook presets (the limits
# of a rulebook come from its data, see tests/rulings/test_count_presets.py).
THIRTEEN = CountRules(three_vs_one_limit=13)


def test_game_push_pop_and_positions() -> None:
    g = Game()
    assert g.board == Position.start("pool") and g.result() is None
    m = g.push("11-15")
    assert m.full_text() == "11-15"
    g.push("22-18")
    assert len(g.positions) == 3 and len(g.moves) == 2
    assert g.move_texts() == ["11-15", "22-18"]
    assert g.pop().full_text() == "22-18"
    assert g.pop() == m
    with pytest.raises(DraughtsError, match="no move to take back"):
        g.pop()


def test_result_first_player() -> None:
    g = Game(Position.from_fen("W:W18:B14"))
    g.push("18x9")
    assert g.result() == "0-1"  # White (second player in pool) won
    r = Game(Position.from_fen("W:W18:B14", variant="russian"))
    r.push("18x9")
    assert r.result() == "1-0"  # White moves first in Russian
    e = Game(Position.from_fen("B:W18:B14", variant="english"))
    e.push("14x23")
    assert e.result() == "1-0"


def _shuffle(game: Game, a: str, b: str, c: str, d: str, times: int) -> None:
    for _ in range(times):
        game.push(a)
        game.push(b)
        game.push(c)
        game.push(d)


def test_three_kings_against_one_count() -> None:
    g = Game(Position.from_fen("W:WK1,K2,K3:BK32"), counts=THIRTEEN)
    assert g.count_state().three_vs_one_active
    _shuffle(g, "1-5", "32-28", "5-1", "28-32", 3)
    state = g.count_state()
    assert state.three_vs_one_moves == 6
    assert state.three_vs_one_limit == 13 and not state.three_vs_one_reached
    _shuffle(g, "1-5", "32-28", "5-1", "28-32", 4)
    assert g.count_state().three_vs_one_moves == 14
    assert "three_vs_one" in g.count_state().limits_reached
    assert g.count_state(2).three_vs_one_moves == 1


def test_long_line_limit() -> None:
    g = Game(Position.from_fen("W:WK1,K2,K3:BK29"),
             counts=CountRules(three_vs_one_limit=13, long_line_limit=6))
    state = g.count_state()
    assert state.long_line and state.three_vs_one_limit == 6
    g.push("1-5")
    g.push("29-25")  # still on the long line
    assert g.count_state().long_line and g.count_state().three_vs_one_moves == 1
    plain = Game(Position.from_fen("W:WK1,K2,K3:BK29"), counts=THIRTEEN)
    assert plain.count_state().three_vs_one_limit == 13


def test_strong_side_count_and_weights() -> None:
    start = Position.from_fen("W:WK30,K31:B5")
    g = Game(start, counts=CountRules(strong_side_limit=30, strong_side_extension=8))
    assert g.count_state().strong_side is Color.WHITE
    g.push("30-25")
    assert g.count_state().strong_side_moves == 1
    g.push("5-9")  # a man move resets the count
    assert g.count_state().strong_side_moves == 0
    g.push("25-30")
    assert g.count_state().strong_side_moves == 1
    assert g.count_state().strong_side_limit == 30
    assert g.count_state().strong_side_extended_limit == 38
    weighted = Game(Position.from_fen("W:WK1:B12,16"),
                    counts=CountRules(strong_side_limit=38, king_weight=2, man_weight=1))
    assert weighted.count_state().strong_side is None  # king = 2 men
    assert weighted.count_state().strong_side_limit is None
    assert Game(Position.from_fen("W:WK1:B12,16")).count_state().strong_side is Color.BLACK

def test_the_default_counts_nothing() -> None:
    """Neutral defaults: no count is on unless a rulebook's data switches it on."""
    g = Game(Position.from_fen("W:WK1,K2,K3:BK32"))
    _shuffle(g, "1-5", "32-28", "5-1", "28-32", 4)
    state = g.count_state()
    assert state.three_vs_one_active and state.three_vs_one_moves == 8
    assert state.three_vs_one_limit is None and state.strong_side_limit is None
    assert state.repetition_limit is None and state.repetitions == 5
    assert state.limits_reached == ()


def test_repetition() -> None:
    g = Game(Position.from_fen("W:WK1:BK32"), counts=CountRules(repetition_limit=3))
    assert g.count_state().repetitions == 1
    _shuffle(g, "1-5", "32-28", "5-1", "28-32", 2)
    assert g.count_state().repetitions == 3
    assert g.count_state().repetition_reached
    g.pop()
    assert g.count_state().repetitions == 2  # the ply-3 position, seen twice
    assert g.count_state(0).repetitions == 1


def test_a_resumed_game_goes_on_as_the_game_played_from_the_start() -> None:
    # issue #34: the board counts an edited record from the ply it changed, from
    # the positions and counts kept; repetitions before that ply still count
    rules = CountRules(repetition_limit=3, strong_side_limit=5)
    shuffle = ["1-6", "32-27", "6-1", "27-32"] * 3
    start = Position.from_fen("B:WK32:BK1,K2")
    whole = Game(start, counts=rules)
    for move in shuffle:
        whole.push(move)
    for ply in range(len(shuffle) + 1):
        first = Game(start, counts=rules)
        for move in shuffle[:ply]:
            first.push(move)
        game = Game.resumed(first.positions, first.moves,
                            [first.count_state(i) for i in range(ply + 1)], rules)
        assert game.ply == ply and game.board == first.board
        for move in shuffle[ply:]:
            game.push(move)
        assert [game.count_state(i) for i in range(len(shuffle) + 1)] == \
            [whole.count_state(i) for i in range(len(shuffle) + 1)]
    assert whole.count_state().repetitions == 4  # the start came back three times
    with pytest.raises(DraughtsError, match="cannot resume"):
        Game.resumed(whole.positions, whole.moves[:-1], [whole.count_state()], rules)
