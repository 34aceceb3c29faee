"""The one notation module (issue 20, item 3): how a move is written, read,
written back and found in a moves text as a user types or pastes it."""
from __future__ import annotations

import ast
import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.draughts import IllegalMoveError, Move, Position
from rulesbook.draughts.notation import (
    MOVE_PATTERN,
    MovePattern,
    Notation,
    NotationError,
    TokenKind,
    full_form,
    read_move,
    read_move_pattern,
    short_form,
    tokenize,
    write_squares,
)
from rulesbook.draughts.pdn import read_game
from rulesbook.reconstruct import Reason, replay
from rulesbook.reconstruct.record import parse_moves_text
from rulesbook.rulings.case_record import move_tokens
from tests.datapaths import REPO
from tests.draughts.test_engine_properties import positions

# The board numbering, by hand (DESIGN.md, geometry.py): square 1 is the left
# dark square of the top row, the row Black starts on, squares 1-4 on rank 8
# (b8 d8 f8 h8), 5-8 on rank 7 (a7 c7 e7 g7), and so on down to 29-32 on rank 1
# (a1 c1 e1 g1). So c3 is the second square of the sixth row: 22; d4 the second
# of the fifth: 18; e5 15, g7 8, f6 11, b2 25, h2 28, b6 9, f2 27.
N, A, S = Notation.NUMERIC, Notation.ALGEBRAIC, Notation.SHORT
WRITTEN = [
    # text, start, end, via, capture, notation
    ("11-15", 11, 15, (), False, N),
    ("11x18x25", 11, 25, (18,), True, N),
    ("11 - 15", 11, 15, (), False, N),
    ("11:15", 11, 15, (), True, N),
    ("11×18", 11, 18, (), True, N),
    ("11X18", 11, 18, (), True, N),
    ("11–15", 11, 15, (), False, N),  # an en dash, as a word processor types it
    ("11−15", 11, 15, (), False, N),  # a minus sign
    (" 9x18 ", 9, 18, (), True, N),
    ("11-15!?", 11, 15, (), False, N),  # a mark after the move is not part of it
    ("1-32", 1, 32, (), False, N),  # any two squares: legality is the position's
    ("c3-d4", 22, 18, (), False, A),
    ("C3-D4", 22, 18, (), False, A),
    ("c3xe5xg7", 22, 8, (15,), True, A),
    ("c3:e5", 22, 15, (), True, A),
    ("a1-b2", 29, 25, (), False, A),
    ("h8-g7", 4, 8, (), False, A),
    ("b8-a7", 1, 5, (), False, A),
    ("g1-h2", 32, 28, (), False, A),
    ("ed4", None, 18, (), False, S),
    ("Ed4", None, 18, (), False, S),
    ("ed4:f6", None, 11, (18,), True, S),
]


@pytest.mark.parametrize("text,start,end,via,capture,notation", WRITTEN)
def test_written_forms_name_the_squares_of_the_board(text, start, end, via, capture, notation):
    got = read_move(text)
    assert (got.start, got.end, got.via, got.capture, got.notation) == \
        (start, end, via, capture, notation)
    head = () if start is None else (start,)
    assert got.squares == (*head, *via, end)


def test_the_short_form_keeps_the_file_the_piece_leaves():
    assert read_move("ed4").start_file == "e" and read_move("Ed4").start_file == "e"


def test_writing_a_move():
    # 9 (b6) jumps 14 (c5) to 18 (d4), then 23 (e3) to 27 (f2)
    move = Move((9, 18, 27), (14, 23))
    assert full_form(move) == "9x18x27" and short_form(move) == "9x27"
    assert full_form(move, algebraic=True) == "b6xd4xf2"
    assert short_form(move, algebraic=True) == "b6xf2"
    assert write_squares((22, 18), False, algebraic=True) == "c3-d4"
    assert write_squares((11, 15), False) == "11-15"
    assert move.full_text() == "9x18x27" and move.short_text() == "9x27"


@pytest.mark.parametrize("text,words", [
    ("", ["empty"]),
    ("   ", ["empty"]),
    ("-", ["no square before the dash"]),
    ("–", ["no square before the dash"]),
    ("0-33", ["unknown square 0", "1-32"]),
    ("11-33", ["unknown square 33"]),
    ("11--15", ["two separators in a row"]),
    ("11-–15", ["two separators in a row"]),
    ("11-15-", ["no square after the dash"]),
    ("11-", ["no square after the dash"]),
    ("11x", ["no square after the x"]),
    ("11:", ["no square after the colon"]),
    ("x15", ["no square before the x"]),
    ("9" * 5000 + "-15", ["longer than any move", "5,003 characters"]),
    ("11-" + "9" * 30, ["unknown square"]),
    ("11-d4", ["mixes", "11", "d4"]),
    ("c3-18", ["mixes"]),
    ("ed4-15", ["mixes"]),
    ("b3-c4", ["b3 is a light square"]),
    ("z9-c3", ["unknown square 'z9'"]),
    ("i1-a1", ["unknown square 'i1'"]),
    ("11", ["one square only", "from-to"]),
    ("11 15", ["no separator between its squares"]),
    ("hello", ["not written as a move"]),
    ("hello-world", ["not written as a move"]),
    ("(24-20)", ["variation", "not a move played"]),
    ("(", ["never closed"]),
    (")", ["closes no variation"]),
    ("{good}", ["comment"]),
    ("١١-١٥", ["unknown square"]),  # Arabic-Indic digits: not the digits of a square
    ("１１-１５", ["unknown square"]),  # full-width digits
    ("11-15" * 100, ["longer than any move"]),
])
def test_what_cannot_be_read_says_why(text, words):
    with pytest.raises(NotationError) as info:
        read_move(text)
    message = str(info.value)
    assert message.startswith(repr(info.value.shown) + " cannot be read as a move: ")
    assert len(message) < 300  # a 5,000-digit number is not repeated whole
    for word in words:
        assert word in message


def test_the_referee_reads_the_brief_example():
    with pytest.raises(NotationError) as info:
        read_move("11-")
    assert str(info.value) == "'11-' cannot be read as a move: there is no square after the dash"
    assert info.value.explanation == "there is no square after the dash"
    assert info.value.text == "11-"


def test_a_text_that_is_no_string_is_a_notation_error():
    with pytest.raises(NotationError):
        read_move(1115)  # type: ignore[arg-type]


def test_the_position_says_the_same_in_its_own_error():
    start = Position.start("pool")
    with pytest.raises(IllegalMoveError, match="^move 11-: there is no square after the dash$"):
        start.parse_move("11-")
    with pytest.raises(IllegalMoveError, match="mixes"):
        start.parse_move("11-d4")
    with pytest.raises(IllegalMoveError, match="short form"):
        start.parse_move("cd4")  # Position reads full forms; the PDN reader reads ed4


def test_written_dashes_play_in_the_position():
    start = Position.start("pool")
    assert start.parse_move("11–15") == start.parse_move("11-15")
    assert start.parse_move("11 - 15") == start.parse_move("11-15")
    # 22 (c3) to 18 (d4) is White's: play Black's 11-15 first
    after = start.play("11-15")
    assert after.parse_move("c3-d4") == after.parse_move("22-18") == after.parse_move("C3-D4")


# ----------------------------------------------------------------- round trip

@settings(max_examples=200, deadline=None)
@given(positions)
def test_every_legal_move_written_reads_back_as_itself(pos: Position) -> None:
    for move in pos.legal_moves():
        for algebraic in (False, True):
            full = full_form(move, algebraic=algebraic)
            got = read_move(full)
            assert got.squares == move.path, full
            assert got.capture == move.is_capture
            assert got.notation is (Notation.ALGEBRAIC if algebraic else Notation.NUMERIC)
            # the position's own text (start and end, or every stop when ambiguous)
            text = pos.move_text(move, algebraic=algebraic)
            assert read_move(text).squares in {move.path, (move.start, move.end)}
            assert pos.play(pos.parse_move(text)) == pos.play(move), text
            assert pos.play(pos.parse_move(full)) == pos.play(move), full


@settings(max_examples=100, deadline=None)
@given(positions, st.randoms(use_true_random=False))
def test_a_moves_text_gives_back_the_moves_written(pos: Position, rng) -> None:
    """Move numbers, comments, variations, results and commas around the moves
    of a game: the tokenizer gives back exactly the moves, in order."""
    played: list[str] = []
    parts: list[str] = []
    for ply in range(12):
        moves = pos.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        text = pos.move_text(move, algebraic=rng.random() < 0.3)
        if ply % 2 == 0:
            parts.append(rng.choice([f"{ply // 2 + 1}.", f"{ply // 2 + 1}. ", ""]))
        parts.append(text)
        played.append(text)
        parts.append(rng.choice(["", " ", ", ", " {a comment (with 1-0)} ", " (11-15 23-19) ",
                                 " ; remark ( 9-14\n", " $1 ", "\n"]))
        parts.append(" ")
        pos = pos.play(move)
    written = "".join(parts) + rng.choice(["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*", ""])
    assert [m.text for m in parse_moves_text(written)] == played
    for token in tokenize(written):
        line = written.splitlines()[token.line - 1]
        assert line[token.col - 1:].startswith(token.text.splitlines()[0])


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789-x:×–. ,{}();\n\r\u2028\x0c$!?*/abcdefghAX")),
               max_size=60))
def test_any_text_tokenizes_and_every_move_is_read_or_refused(text: str) -> None:
    for token in tokenize(text):
        line = text.splitlines()[token.line - 1]
        assert line[token.col - 1:].startswith(token.text.splitlines()[0] if token.text else "")
        if token.is_move:
            try:
                read_move(token.text)
            except NotationError as exc:
                assert exc.explanation


# ----------------------------------------------------------------- moves texts

def test_tokens_of_a_scoresheet():
    text = ("1. 11-15 (24-20 (8-11) {a ) in a comment}) 23-19 {good}\n"
            "2. 8-11, 22-17 ; to the end ( of the line\n"
            "12...9x18 11 - 15 $3 ! 1/2-1/2")
    expected = [
        (TokenKind.MOVE_NUMBER, "1.", 1),
        (TokenKind.MOVE, "11-15", 1),
        (TokenKind.VARIATION, "(24-20 (8-11) {a ) in a comment})", 1),
        (TokenKind.MOVE, "23-19", 1),
        (TokenKind.COMMENT, "{good}", 1),
        (TokenKind.MOVE_NUMBER, "2.", 2),
        (TokenKind.MOVE, "8-11", 2),
        (TokenKind.MOVE, "22-17", 2),
        (TokenKind.COMMENT, "; to the end ( of the line", 2),
        (TokenKind.MOVE_NUMBER, "12...", 3),
        (TokenKind.MOVE, "9x18", 3),
        (TokenKind.MOVE, "11 - 15", 3),
        (TokenKind.ANNOTATION, "$3", 3),
        (TokenKind.ANNOTATION, " !", 3),
        (TokenKind.RESULT, "1/2-1/2", 3),
    ]
    lines = text.splitlines()
    # each text's column is where it first stands on its line (" !": the lone mark)
    want = [(kind, word.strip(), line, lines[line - 1].index(word) + 1 + (word != word.strip()))
            for kind, word, line in expected]
    assert [(t.kind, t.text, t.line, t.col) for t in tokenize(text)] == want


def test_move_numbers_glued_to_their_move():
    assert [(t.kind, t.text) for t in tokenize("12.11-15 12...9x18 12. ...9x18")] == [
        (TokenKind.MOVE_NUMBER, "12."), (TokenKind.MOVE, "11-15"),
        (TokenKind.MOVE_NUMBER, "12..."), (TokenKind.MOVE, "9x18"),
        (TokenKind.MOVE_NUMBER, "12."), (TokenKind.MOVE_NUMBER, "..."), (TokenKind.MOVE, "9x18")]


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*", "1:0"])
def test_results_are_not_moves(result):
    assert [t.kind for t in tokenize(f"11-15 {result}")] == [TokenKind.MOVE, TokenKind.RESULT]


def test_a_variation_is_not_a_move_played():
    # it was a move of parse_moves_text before: "(24-20)" is a variation or a remark
    assert [m.text for m in parse_moves_text("11-15 (24-20) 23-19")] == ["11-15", "23-19"]
    assert move_tokens("11-15 (24-20) 23-19 (9-14 {see (x)} 22-18) 8-11") == \
        ["11-15", "23-19", "8-11"]
    assert replay("11-15 (24-20) 23-19").ok


def test_unmatched_brackets_stay_in_the_record_and_replay_says_so():
    # nothing typed is dropped: an unclosed ( is kept where it was written, and what
    # follows it is read on
    moves = parse_moves_text("11-15 (23-19 8-11")
    assert [(m.text, m.col) for m in moves] == [("11-15", 1), ("(", 7), ("23-19", 8),
                                                ("8-11", 14)]
    result = replay("11-15 (23-19 8-11")
    assert result.first_illegal.reason is Reason.UNREADABLE and result.first_illegal.ply == 2
    assert "never closed" in result.first_illegal.message
    assert [t.kind for t in tokenize("11-15 ) 23-19 } {x")] == [
        TokenKind.MOVE, TokenKind.UNMATCHED, TokenKind.MOVE, TokenKind.UNMATCHED,
        TokenKind.UNMATCHED, TokenKind.MOVE]


def test_many_unclosed_brackets_are_read_in_one_pass():
    # 100,000 of them (a pasted file gone wrong): each one a token, none lost
    text = "(" * 50_000 + "{" * 50_000
    tokens = tokenize(text)
    assert len(tokens) == 100_000 and {t.kind for t in tokens} == {TokenKind.UNMATCHED}
    deep = "(" * 50_000 + "11-15" + ")" * 50_000 + " 23-19"
    assert [t.kind for t in tokenize(deep)] == [TokenKind.VARIATION, TokenKind.MOVE]


def test_spaces_inside_a_move_but_not_between_moves():
    assert [t.text for t in tokenize("11 - 15 22 x 18")] == ["11 - 15", "22 x 18"]
    # a move written without spaces ends at the space: the lone dash is a word of its own
    assert [t.text for t in tokenize("11-15 - 23-19")] == ["11-15", "-", "23-19"]


def test_unreadable_moves_are_moves_of_the_record_for_replay_to_report():
    assert [m.text for m in parse_moves_text("11-15 hello 23-99")] == ["11-15", "hello", "23-99"]
    result = replay("11-15 23-99")
    assert result.first_illegal.reason is Reason.UNREADABLE
    assert "unknown square 99" in result.first_illegal.message


# ----------------------------------------------------------------- patterns

def test_a_move_with_squares_not_known():
    assert read_move_pattern("11-?") == MovePattern(11, None, (), False)
    assert read_move_pattern("?-15") == MovePattern(None, 15, (), False)
    assert read_move_pattern("9x?x27") == MovePattern(9, 27, (), True)
    assert read_move_pattern("9x18x*") == MovePattern(9, None, (18,), True)
    for bad, word in [("11-", "no square after"), ("11", "one square"), ("11-d4-?", "mixes"),
                      ("33-?", "unknown square 33")]:
        with pytest.raises(NotationError, match=word):
            read_move_pattern(bad)


# ----------------------------------------------------------------- PDN

def test_the_pdn_reader_reads_what_the_notation_module_reads():
    assert re.fullmatch(MOVE_PATTERN, "11-15") and re.fullmatch(MOVE_PATTERN, "c3xe5xg7")
    assert re.fullmatch(MOVE_PATTERN, "ed4") and not re.fullmatch(MOVE_PATTERN, "11 - 15")
    game = read_game(io.StringIO('[GameType "23"]\n1. 11–15 23×19 *\n'))
    assert game is not None and game.ok
    assert [m.full_text() for m in game.mainline_moves()] == ["11-15", "23-19"]


# ----------------------------------------------------------------- one place

_CLASS = re.compile(r"\[(?:\\.|[^\]\\])*\]")


def _separator_classes(source: str) -> list[str]:
    """The regular-expression character classes in the string literals of
    ``source`` that hold a move separator: an ``x`` with ``-`` or ``:``, or ``×``;
    and the ``.split("x")`` / ``.split("-")`` calls that cut a move into squares."""
    found: list[str] = []
    tree = ast.parse(source)
    prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}  # docstrings
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            for cls in _CLASS.findall(node.value):
                body = cls[1:-1]
                if "×" in body or ("x" in body and ("-" in body or ":" in body)):
                    found.append(cls)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "split" and node.args
                and isinstance(node.args[0], ast.Constant) and node.args[0].value in ("x", "-")):
            found.append(f'split("{node.args[0].value}")')
    return found


def test_the_detector_finds_the_old_readers():
    # the separators the readers compiled before this module: it must see each
    assert _separator_classes('import re\n_SEP = re.compile(r"\\s*[-x:X×]\\s*")\n')
    assert _separator_classes('_SEP = re.compile(r"[-x:]")\n')
    assert _separator_classes('_SQ = r"(?:[-xX:])"\n')
    assert _separator_classes('squares = text.split("x")\n')
    assert not _separator_classes('_EDITION = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"\n')
    assert not _separator_classes('"""[m.text for m in parse_moves_text("1. 11-15 *")]"""\n')
    assert not _separator_classes('_REF_TAIL = r"^(?P<name>.*?)[\\s.:#-]*"\n')


def test_no_module_but_the_notation_module_knows_the_separators():
    root = REPO / "rulesbook"
    offenders = {}
    for path in sorted(root.rglob("*.py")):
        if path == root / "draughts" / "notation.py":
            continue
        found = _separator_classes(path.read_text(encoding="utf-8"))
        if found:
            offenders[str(path.relative_to(REPO))] = found
    assert offenders == {}, "move separators outside rulesbook/draughts/notation.py"
