"""Gap filling: hide plies of random legal games and ask for them back."""
from __future__ import annotations

import random
import threading

import pytest

from rulesbook.draughts import DraughtsError, Position
from rulesbook.draughts.movegen import apply, compile_rules, legal_raw_moves
from rulesbook.reconstruct.gap import (
    CancelToken,
    Known,
    Status,
    diverge_points,
    fill_gap,
    parse_known,
)
from rulesbook.reconstruct.gap.bounds import Target
from rulesbook.reconstruct.gap.retro import frontier


def random_gap(rng: random.Random, variant: str, hidden: int):
    """(earlier position, board, the hidden moves) from a random legal game."""
    while True:
        position = Position.start(variant)
        before = rng.randrange(4, 24)
        earlier, moves = None, []
        for ply in range(before + hidden):
            legal = position.legal_moves()
            if not legal:
                break
            if ply == before:
                earlier = position
            move = rng.choice(legal)
            if ply >= before:
                moves.append(move)
            position = position.play(move)
        else:
            return earlier, position, tuple(moves)


def replays_to(start: Position, moves, target: Position) -> bool:
    position = start
    for move in moves:
        position = position.play(move)
    return position == target


@pytest.mark.parametrize("variant", ["pool", "english"])
@pytest.mark.parametrize("hidden", [1, 2, 4, 6])
def test_true_sequence_is_found(variant, hidden):
    rng = random.Random(1000 * hidden + len(variant))
    for _ in range(6):
        earlier, board, truth = random_gap(rng, variant, hidden)
        result = fill_gap(earlier, board, plies=hidden)
        assert truth in result.sequences, result.explanation
        assert result.status in ("unique", "several")
        assert result.status == ("unique" if len(result.sequences) == 1 else "several")
        for seq in result.sequences:
            assert len(seq) == hidden
            assert replays_to(earlier, seq, board)
        for seq, texts in zip(result.sequences, result.texts, strict=True):
            position = earlier
            for move, text in zip(seq, texts, strict=True):
                assert position.parse_move(text) == move
                position = position.play(move)


@pytest.mark.parametrize("variant", ["pool", "english"])
def test_bounded_gap_finds_the_truth(variant):
    rng = random.Random(7)
    for _ in range(4):
        earlier, board, truth = random_gap(rng, variant, 4)
        result = fill_gap(earlier, board, max_plies=5)
        assert truth in result.sequences
        assert all(replays_to(earlier, s, board) for s in result.sequences)
        assert 4 in result.plies and 5 not in result.plies  # parity


def test_constraints_narrow_the_answer():
    rng = random.Random(3)
    for _ in range(8):
        earlier, board, truth = random_gap(rng, "pool", 6)
        known = [Known(2, truth[1].start, truth[1].end), Known(5, start=truth[4].start)]
        result = fill_gap(earlier, board, plies=6, known=known)
        assert truth in result.sequences
        for seq in result.sequences:
            assert seq[1].start == truth[1].start and seq[1].end == truth[1].end
            assert seq[4].start == truth[4].start


def test_parse_known():
    assert parse_known("14:22x15") == Known(14, 22, 15, (), "22x15")
    assert parse_known("3:11-?").start == 11 and parse_known("3:11-?").end is None
    assert parse_known("3:?-15").end == 15
    assert parse_known("2:9x18x27").via == (18,)
    start = Position.start("pool")
    assert parse_known("12B:11-?", start).ply == 23
    assert parse_known("12W:11-?", start).ply == 24
    with pytest.raises(DraughtsError):
        parse_known("x:11-15")
    with pytest.raises(DraughtsError):
        parse_known("3:11")


def test_impossible_names_the_pieces():
    start = Position.start("pool")
    extra = Position.from_fen("B:W21-32:B1-10,12,15,16", "pool", check=False)
    result = fill_gap(start, extra, max_plies=4)
    assert result.status == "impossible"
    assert any("13 black pieces" in p or "black pieces" in p for p in result.unaccounted)
    assert "impossible" in result.explanation
    # a man that went backward cannot be accounted for
    board = Position.from_fen("W:W21-32:B1-11,13", "pool")
    r2 = fill_gap(Position.start("pool").play("12-16"), board.with_turn(board.turn), plies=2)
    assert r2.status == "impossible"
    # wrong parity: the side to move says the count is odd
    r3 = fill_gap(start, Position.start("pool"), plies=1)
    assert r3.status == "impossible"


def test_several_sequences_and_divergence():
    start = Position.start("pool")
    board = start.play("9-13").play("21-17").play("12-16").play("24-20")
    result = fill_gap(start, board, plies=4)
    assert result.status == "several"
    assert set(result.texts) == {("9-13", "21-17", "12-16", "24-20"),
                                 ("9-13", "24-20", "12-16", "21-17"),
                                 ("12-16", "21-17", "9-13", "24-20"),
                                 ("12-16", "24-20", "9-13", "21-17")}
    assert result.diverge_at == (1, 2)
    assert result.to_dict()["status"] == "several"


def test_zero_plies():
    start = Position.start("english")
    assert fill_gap(start, start, plies=0).status == "unique"


def test_diverge_points():
    assert diverge_points([("a", "b", "c"), ("a", "b", "d"), ("a", "x", "c")]) == (2, 3)
    assert diverge_points([("a",)]) == ()


def test_frontier_matches_brute_force():
    """Every position one ply before the board is found by un-moving it."""
    rng = random.Random(11)
    for variant in ("pool", "english"):
        rules = compile_rules(Position.start(variant).variant)
        for _ in range(15):
            earlier, board, truth = random_gap(rng, variant, 1)
            t = Target(*board.bitboards())
            room = earlier.count(board.turn) - board.count(board.turn)
            table = frontier(t, earlier.variant, rules, room)
            key = earlier.bitboards()
            assert key in table
            bm, bk, wm, wk, black = key
            hits = [m for m in legal_raw_moves(bm, bk, wm, wk, black, rules)
                    if apply(bm, bk, wm, wk, black, m) == (t.bm, t.bk, t.wm, t.wk)]
            assert sorted(table[key]) == sorted(hits)


def test_progress_and_cancel():
    rng = random.Random(5)
    earlier, board, truth = random_gap(rng, "pool", 6)
    seen = []
    result = fill_gap(earlier, board, plies=6,
                      progress=lambda f, n: seen.append((f, n)) or True)
    assert truth in result.sequences
    assert result.status in (Status.UNIQUE, Status.SEVERAL) and not result.cancelled
    # progress was reported, as fractions of the search that only grow, with
    # the number of positions searched so far
    assert seen, "progress was never reported"
    fractions = [f for f, _ in seen]
    nodes = [n for _, n in seen]
    assert all(0.0 <= f <= 1.0 for f in fractions)
    assert fractions == sorted(fractions) and nodes == sorted(nodes)
    assert all(n <= result.nodes for n in nodes)

    token = CancelToken()
    token.cancel()
    stopped = fill_gap(Position.start("pool"), Position.start("pool"), plies=12,
                       cancel=token)
    assert stopped.cancelled and stopped.status is Status.CANCELLED
    assert stopped.sequences == () and stopped.unaccounted == ()
    assert "cancelled" in stopped.explanation and "impossible" not in stopped.explanation
    event = threading.Event()
    event.set()
    by_event = fill_gap(Position.start("pool"), Position.start("pool"), plies=12, cancel=event)
    assert by_event.cancelled and by_event.status is Status.CANCELLED
    calls = []
    refused = fill_gap(Position.start("pool"), Position.start("pool"), plies=12,
                       progress=lambda f, n: calls.append(n) is not None)
    assert calls and refused.cancelled and refused.status is Status.CANCELLED


def test_status_counts_what_exists_not_what_is_listed():
    # issue 20: from the start, 9-14, 10-15, 11-15 for Black and 23-19, 24-19 for
    # White with the exchanges 19x10 ... in some order: the five orders of the
    # same moves listed by --limit 10; --limit 1 must not say "exactly one".
    board = "B:W17,20,21,22,25,26,28,29,30,31,32:B1,2,3,4,5,6,7,8,12"
    full = fill_gap("start", board, plies=8, limit=10)
    assert full.status is Status.SEVERAL and not full.truncated
    assert len(full.sequences) == len(set(full.sequences)) >= 2
    for limit in range(1, len(full.sequences)):
        cut = fill_gap("start", board, plies=8, limit=limit)
        assert cut.status is Status.SEVERAL and cut.truncated
        assert cut.sequences == full.sequences[:limit]
        # every sequence counted, not only "more than the limit" (issue 30)
        assert cut.count == len(full.sequences)
        assert cut.explanation.startswith(f"{len(full.sequences)} sequences lead to the board")
        assert "exactly one" not in cut.explanation
    exact = fill_gap("start", board, plies=8, limit=len(full.sequences))
    assert exact.sequences == full.sequences and not exact.truncated


def test_limit_cuts_the_list_not_the_count():
    # a quiet king shuffle has a great many sequences; a small limit lists
    # few of them, and every one is still counted (issue 30: the count does
    # not stop at the limit; it is searched through transpositions anyway)
    start = Position.from_fen("W:WK29,K32:BK1,K4", "pool")
    big = fill_gap(start, start, plies=6, limit=100000)
    small = fill_gap(start, start, plies=6, limit=3)
    assert len(big.sequences) > 3 and small.truncated and len(small.sequences) == 3
    assert small.sequences == big.sequences[:3]
    assert small.count == big.count == len(big.sequences)


def test_bad_arguments():
    start = Position.start("pool")
    with pytest.raises(DraughtsError):
        fill_gap(start, start)
    with pytest.raises(DraughtsError):
        fill_gap(start, start, plies=-1)
    with pytest.raises(DraughtsError, match="1 or more"):
        fill_gap(start, start, plies=2, limit=0)


@pytest.mark.slow
def test_longer_gaps():
    rng = random.Random(99)
    for variant in ("pool", "english"):
        for _ in range(3):
            earlier, board, truth = random_gap(rng, variant, 8)
            result = fill_gap(earlier, board, plies=8)
            assert truth in result.sequences


def test_parse_known_reads_the_move_with_the_notation_module():
    # a separator with no square after it is an error, as in any move text (it was
    # read as "not known" before): "?" says a square is not known
    with pytest.raises(DraughtsError, match="no square after the dash"):
        parse_known("3:11-")
    with pytest.raises(DraughtsError, match="mixes"):
        parse_known("3:11-d4")
    assert parse_known("3:11–?").start == 11  # an en dash, as a word processor types it
    assert parse_known("3:c3-?").start == 22  # c3: the 2nd square of the 6th row
