"""The fast paths of the engine agree with the full move generator.

``Position.parse_move`` resolves ``a-b`` / ``axb`` / ``axbxc`` texts on the
bitboards (a capture-existence test, a step check, a capture-path check)
without generating every legal move, and ``Position.play`` skips the move
list for a step or for the move ``parse_move`` has just found.  These tests
check, on thousands of random positions of every variant (and of custom rule
sets), that the fast answers are exactly those of the move list: the same
move, or the same refusal with the same message.  No timing is asserted.
"""
from __future__ import annotations

import random

import pytest

from rulesbook.draughts import (
    VARIANTS,
    AmbiguousMoveError,
    Color,
    DraughtsError,
    Game,
    IllegalMoveError,
    Move,
    Piece,
    Position,
    Variant,
    perft,
)
from rulesbook.draughts.movecheck import capture_path, quiet_step
from rulesbook.draughts.movegen import (
    captures,
    compile_rules,
    has_capture,
    quiet_moves,
)
from rulesbook.draughts.pdn import PdnReader, resolve_move

CUSTOM = [
    Variant.custom(base, **flags)
    for base in ("english", "pool")
    for flags in (
        {"mid_capture_crowning": "no"},
        {"mid_capture_crowning": "continues"},
        {"mid_capture_crowning": "ends", "men_capture_backward": True},
        {"capture_precedence": "most"},
        {"flying_kings": base == "english"},
    )
]
ALL_VARIANTS = list(VARIANTS.values()) + CUSTOM


def random_position(rng: random.Random, variant: Variant) -> Position:
    """Random pieces (kings often, crowded boards often), either side to move."""
    pieces: dict[int, Piece] = {}
    for square in rng.sample(range(1, 33), rng.randint(1, 24)):
        color = rng.choice((Color.BLACK, Color.WHITE))
        king = rng.random() < 0.3
        if (color is Color.BLACK and square >= 29) or (color is Color.WHITE and square <= 4):
            king = True
        pieces[square] = Piece(color, king)
    return Position(pieces, rng.choice((Color.BLACK, Color.WHITE)), variant)


def played_position(rng: random.Random, variant: Variant) -> Position:
    pos = Position.start(variant)
    for _ in range(rng.randint(0, 90)):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(rng.choice(moves))
    return pos


def positions(n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        variant = rng.choice(ALL_VARIANTS)
        maker = random_position if rng.random() < 0.5 else played_position
        yield rng, maker(rng, variant)


def fresh(pos: Position) -> Position:
    """An equal position with nothing cached (no move list, no capture flag)."""
    return Position.from_bitboards(pos.bitboards(), pos.variant)


def outcome(fn):
    try:
        return "ok", fn()
    except DraughtsError as exc:
        return type(exc).__name__, str(exc)


def reference_parse(pos: Position, squares: tuple[int, ...]) -> Move | type:
    """What a text stopping on ``squares`` means, from legal_moves() alone:
    the one move with exactly that path, else the moves from the first square
    to the last passing the inner ones in order; several readings that all
    give the same position are one move (the first)."""
    moves = pos.legal_moves()
    exact = [m for m in moves if m.path == squares]
    if len(exact) == 1:
        return exact[0]

    def passes(path: tuple[int, ...]) -> bool:
        it = iter(path[1:-1])
        return all(any(s == p for p in it) for s in squares[1:-1])

    found = [m for m in moves if m.start == squares[0] and m.end == squares[-1]
             and passes(m.path)]
    if len(found) == 1:
        return found[0]
    if found and len({pos.play(m) for m in found}) == 1:
        return found[0]
    return AmbiguousMoveError if found else IllegalMoveError


def texts_for(rng: random.Random, pos: Position) -> set[str]:
    texts = set()
    for m in pos.legal_moves():
        texts |= {m.full_text(), m.short_text(), f"{m.start}-{m.end}",
                  f"{m.start}x{m.end}", pos.move_text(m)}
        if len(m.path) > 2:
            texts.add("x".join(str(s) for s in m.path[:-1]))  # stops short
            texts.add("x".join(str(s) for s in m.path[1:]))
    for _ in range(8):  # mostly refusals: empty squares, wrong side, no such step
        a, b, c = rng.randint(1, 32), rng.randint(1, 32), rng.randint(1, 32)
        texts |= {f"{a}-{b}", f"{a}x{b}", f"{a}x{b}x{c}"}
    for square in pos.pieces():  # step and jump shapes from the pieces
        for d in rng.sample((-9, -7, -5, -4, -3, 3, 4, 5, 7, 9), 3):
            texts.add(f"{square}{rng.choice('-x')}{square + d}")
    return texts


def test_parse_move_fast_path_matches_move_list():
    checked = 0
    for rng, pos in positions(2500, seed=20240601):
        for text in sorted(texts_for(rng, pos)):
            fast = outcome(lambda text=text, pos=pos: fresh(pos).parse_move(text))
            slow = outcome(lambda text=text, pos=pos: fresh(pos)._parse_move_slow(text))
            assert fast == slow, (pos.fen(), pos.variant, text)
            try:
                squares = tuple(int(t) for t in text.replace("x", "-").split("-"))
            except ValueError:  # "3--6": a negative square, refused as unreadable
                squares = (0,)
            if all(1 <= s <= 32 for s in squares):
                ref = reference_parse(pos, squares)
                if isinstance(ref, Move):
                    assert fast == ("ok", ref), (pos.fen(), pos.variant, text)
                else:
                    assert fast[0] == ref.__name__, (pos.fen(), pos.variant, text, fast)
            if fast[0] == "ok":
                # play() after the fast parse (the remembered move) == play from the list
                a = fresh(pos)
                b = fresh(pos)
                b.legal_moves()
                assert a.play(a.parse_move(text)) == b.play(fast[1])
            checked += 1
    assert checked > 50_000


def test_play_fast_path_matches_move_list():
    for rng, pos in positions(1500, seed=7):
        moves = pos.legal_moves()
        tries = list(moves)
        for _ in range(12):  # steps that may or may not be legal, crowned or not
            a = rng.randint(1, 32)
            b = a + rng.choice((-9, -7, -5, -4, -3, 3, 4, 5, 7, 9, 11, 14, -14))
            tries.append(Move((a, b), (), rng.random() < 0.3))
        for move in tries:
            if not all(1 <= s <= 32 for s in move.path):
                continue
            fast = outcome(lambda move=move, pos=pos: fresh(pos).play(move))
            listed = fresh(pos)
            listed.legal_moves()  # play() then looks the move up in the list
            slow = outcome(lambda move=move, listed=listed: listed.play(move))
            assert fast == slow, (pos.fen(), pos.variant, move)
            assert (fast[0] == "ok") == (move in moves)


def test_bitboard_checks_match_generator():
    rng = random.Random(11)
    for _ in range(6000):
        bm = bk = wm = wk = 0
        for i in rng.sample(range(32), rng.randint(0, 24)):
            r = rng.random()
            if r < 0.35:
                bm |= 1 << i
            elif r < 0.5:
                bk |= 1 << i
            elif r < 0.85:
                wm |= 1 << i
            else:
                wk |= 1 << i
        black = rng.random() < 0.5
        rules = compile_rules(rng.choice(ALL_VARIANTS))
        men, kings, opp = (bm, bk, wm | wk) if black else (wm, wk, bm | bk)
        occ = bm | bk | wm | wk
        caps = captures(men, kings, opp, occ, black, rules)
        assert has_capture(men, kings, opp, occ, black, rules) == bool(caps)
        by_path: dict[tuple, set] = {}
        for c in caps:
            by_path.setdefault(c[0], set()).add(c)
        for path, same in by_path.items():
            found = capture_path(men, kings, opp, occ, black, rules, path)
            if found is not None:
                assert {found} == same
            else:  # left to the generator: flying kings or "most" precedence
                assert rules[1] or rules[2]
            for cut in range(2, len(path)):  # a capture stopped short is not a move
                assert capture_path(men, kings, opp, occ, black, rules, path[:cut]) is None
        quiet = set(quiet_moves(men, kings, occ, black, rules))
        for i in range(32):
            for j in range(32):
                step = quiet_step(men, kings, occ, black, rules, i, j)
                if step is not None:
                    assert step in quiet
                else:
                    assert ((i, j), (), False, 0) not in quiet
                    assert ((i, j), (), True, 0) not in quiet


# ---------------------------------------------------------------------------
# a flying king's landing squares: the same captures, the same end

SAME_END = "W:WK29:B10,11,22,24"


@pytest.mark.parametrize("variant", ["pool", "russian", "brazilian"])
def test_equivalent_landings_are_one_move(variant):
    # The king on 29 runs up the long diagonal (25, 22, 18, 15, 11, 8, 4) over
    # 22 and 11: landing on 18 or on 15 between them is the same move (same
    # start, end and captures), so it is listed once, with the square
    # immediately behind the first piece as PDN 3.0 writes it.
    pos = Position.from_fen(SAME_END, variant)
    moves = pos.legal_moves()
    run = [m for m in moves if m.captures == (22, 11) and m.end == 4]
    assert run == [Move((29, 18, 4), (22, 11))]
    for text in ("29x4", "29x15x4", "29x18x4"):
        assert pos.parse_move(text) == run[0]
        assert resolve_move(pos, text) == run[0]
    with pytest.raises(IllegalMoveError):
        pos.parse_move("29x22x4")  # 22 holds the piece taken: no stop there
    for move in moves:
        assert pos.parse_move(pos.move_text(move)) == move
    assert pos.move_text(run[0]) == "29x4"
    game = Game(pos)
    game.push("29x15x4")
    assert game.board == pos.play(run[0])
    assert perft(pos, 1) == len(moves) == len({(m.start, m.end, m.captures) for m in moves})


def test_really_ambiguous_moves_still_refused():
    """Same start and end but different results: still AmbiguousMoveError."""
    pos = Position.from_fen("W:WK11:B9,15,16,21,24")
    with pytest.raises(AmbiguousMoveError, match="11x5 is ambiguous: it could be 11x18x5 or"):
        pos.parse_move("11x5")
    refused = 0
    for _, pos in positions(4000, seed=99):
        moves = pos.legal_moves()
        for m in moves:
            same = [x for x in moves if x.start == m.start and x.end == m.end]
            if len({pos.play(x) for x in same}) > 1 and all(
                    x.path != (m.start, m.end) for x in same):
                with pytest.raises(AmbiguousMoveError, match="is ambiguous: it could be"):
                    fresh(pos).parse_move(m.short_text())
                refused += 1
    assert refused > 0


# ---------------------------------------------------------------------------
# the corpus: every move read the fast way is the move read the long way

from tests.datapaths import CORPUS  # noqa: E402


def test_corpus_fast_equals_slow():
    with open(CORPUS / "english-tinsley-1946-1960s.pdn", encoding="utf-8") as handle:
        games = list(PdnReader(handle, "english"))
    plies = 0
    for game in games:
        pos = game.start
        for node in game.mainline:
            if node.move is None:
                break
            slow = fresh(pos)._parse_move_slow(node.text)
            assert node.move == slow, (game.line, node.text)
            pos = pos.play(node.move)
            plies += 1
    assert plies > 35_000


def test_one_start_position_per_built_in_variant_and_none_for_another():
    # issue #34: a file of games is read trying each game in every variant; the start
    # positions are shared, so their legal moves are worked out once per variant
    for variant in VARIANTS.values():
        start = Position.start(variant)
        assert Position.start(variant.name) is start and start.variant is variant
        assert start == Position.from_fen(start.fen(), variant)
    # a variant of another rule set that takes a built-in name is not given its start
    named_pool = Variant.custom("english", name="pool", flying_kings=True)
    mine = Position.start(named_pool)
    assert mine.variant is named_pool and mine is not Position.start("pool")
    assert Position.start("pool").variant is VARIANTS["pool"]
    assert [m.full_text() for m in Position.start("russian").legal_moves()] == \
        [m.full_text() for m in Position.from_fen(Position.start("russian").fen(),
                                                  "russian").legal_moves()]
