"""Replay of hand-made records: the first illegal move, its reason and the alternatives."""
from __future__ import annotations

import pytest

from rulesbook.draughts import Color, Position
from rulesbook.reconstruct import INCIDENTS, Reason, analyse_move, read_records, replay

# (variant, start FEN or None, record, ply, reason, legal moves that must be listed,
#  detail key -> values that must be listed)
CASES = [
    ("failure to capture", "pool", None, "11-15 22-18 8-11", 3, Reason.FAILURE_TO_CAPTURE,
     ["15x22"], ("captures", ["15x22"])),
    ("failure to capture", "english", None, "11-15 22-18 8-11", 3, Reason.FAILURE_TO_CAPTURE,
     ["15x22"], ("captures", ["15x22"])),
    ("incomplete jump", "pool", "B:W14,22:B9", "9x18", 1, Reason.INCOMPLETE_JUMP,
     ["9x25"], ("continuations", ["9x18x25"])),
    ("incomplete jump", "english", "B:W14,22:B9", "9x18", 1, Reason.INCOMPLETE_JUMP,
     ["9x25"], ("continuations", ["9x18x25"])),
    ("crowned while it had to jump on", "pool", "B:W25,26:B21", "21x30", 1,
     Reason.CROWNED_IN_PASSING, ["21x23"], ("continuations", ["21x30x23"])),
    ("jumped on after crowning", "english", "B:W25,26:B21", "21x30x23", 1,
     Reason.JUMPED_ON_AFTER_CROWNING, ["21x30"], None),
    ("man backward", "pool", None, "11-15 23-19 8-11 22-17 11-8", 5, Reason.MAN_MOVED_BACKWARD,
     ["9-13", "15-18"], None),
    ("man backward", "english", None, "11-15 23-19 8-11 22-17 11-8", 5,
     Reason.MAN_MOVED_BACKWARD, ["9-13", "15-18"], None),
    ("man captures backward in english", "english", "B:W10,32:B14", "14x7", 1,
     Reason.MAN_MOVED_BACKWARD, ["14-17", "14-18"], None),
    ("occupied square", "pool", None, "11-15 23-19 15-19", 3, Reason.OCCUPIED_SQUARE,
     ["15-18", "9-13"], None),
    ("occupied square", "english", None, "11-15 23-19 15-19", 3, Reason.OCCUPIED_SQUARE,
     ["15-18", "9-13"], None),
    ("off the diagonal", "pool", None, "11-15 23-19 10-11", 3, Reason.OFF_DIAGONAL,
     ["10-14"], None),
    ("off the diagonal", "english", None, "11-15 23-19 10-11", 3, Reason.OFF_DIAGONAL,
     ["10-14"], None),
    ("out of turn", "pool", None, "11-15 15-19", 2, Reason.OUT_OF_TURN, ["22-18"], None),
    ("out of turn", "english", None, "11-15 15-19", 2, Reason.OUT_OF_TURN, ["22-18"], None),
    ("opponent's piece", "pool", None, "11-15 24-19 19-15", 3, Reason.OPPONENT_PIECE,
     ["15x24"], None),
    ("opponent's piece", "english", None, "11-15 24-19 19-15", 3, Reason.OPPONENT_PIECE,
     ["15x24"], None),
    ("a king that was not a king", "pool", "B:W32:B1", "1-15", 1, Reason.NOT_A_KING,
     ["1-5", "1-6"], None),
    ("a king that was not a king", "english", "B:W32:B1", "1-15", 1, Reason.NOT_A_KING,
     ["1-5", "1-6"], None),
    ("a man gliding two squares", "pool", "B:W32:B1", "1-10", 1, Reason.NOT_A_KING,
     ["1-6"], None),
    ("short king going far", "english", "B:W32:BK1", "1-15", 1, Reason.TOO_FAR,
     ["1-5", "1-6"], None),
    ("capture over own piece", "pool", "B:W32:B1,6", "1x10", 1, Reason.CAPTURE_OWN_PIECE,
     ["6-10"], ("square", 6)),
    ("capture over own piece", "english", "B:W32:B1,6", "1x10", 1, Reason.CAPTURE_OWN_PIECE,
     ["6-10"], ("square", 6)),
    ("capture over an empty square", "pool", "B:W32:B1", "1x10", 1, Reason.CAPTURE_OVER_EMPTY,
     ["1-6"], None),
    ("capture over an empty square", "english", "B:W32:B1", "1x10", 1,
     Reason.CAPTURE_OVER_EMPTY, ["1-6"], None),
    ("flying king over an empty diagonal", "pool", "B:W30:BK1,9", "1x15x24", 1,
     Reason.CAPTURE_OVER_EMPTY, ["1-6"], None),
    ("piece jumped twice", "pool", "B:W18:BK14", "14x23x14", 1, Reason.JUMPED_TWICE,
     ["14x23", "14x27", "14x32"], ("square", 18)),
    ("piece jumped twice", "english", "B:W18:BK14", "14x23x14", 1, Reason.JUMPED_TWICE,
     ["14x23"], ("square", 18)),
    ("two pieces at once", "pool", "B:W18,23:BK14", "14x27", 1, Reason.JUMP_BLOCKED,
     ["14-9"], None),
    ("unreadable", "pool", None, "11-15 hello 8-11", 2, Reason.UNREADABLE, ["22-18"], None),
    ("unreadable", "english", None, "11-15 23-99", 2, Reason.UNREADABLE, ["22-18"], None),
    ("ambiguous capture", "english", "B:W6,7,14,15,32:B2", "2x18", 1, Reason.AMBIGUOUS,
     ["2x9x18", "2x11x18"], ("candidates", ["2x9x18", "2x11x18"])),
    ("empty square", "pool", None, "11-15 23-19 11-16", 3, Reason.EMPTY_SQUARE,
     ["15-18"], None),
]


@pytest.mark.parametrize(
    "variant,fen,record,ply,reason,legal,detail",
    [c[1:] for c in CASES], ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_first_illegal(variant, fen, record, ply, reason, legal, detail):
    result = replay(record, start=fen, variant=variant)
    bad = result.first_illegal
    assert bad is not None, result
    assert (bad.ply, bad.reason) == (ply, reason), bad.message
    for text in legal:
        assert text in bad.legal_moves, (text, bad.legal_moves)
    if detail is not None:
        key, value = detail
        assert bad.detail[key] == value
    assert bad.incident == INCIDENTS[reason]
    assert bad.message.startswith(f"At move {bad.move_number} {bad.side.title} played ")
    assert bad.message.endswith(".")
    assert bad.fen_before == result.positions[ply - 1].fen()
    # the replay stops there and the positions before are the legal ones
    assert len(result.positions) == ply
    assert bad.facts["ply"] == ply
    assert bad.facts["side"] == bad.side.name.lower()
    assert bad.facts["plies_ago"] == len(result.moves) - ply


def test_incident_ids():
    assert INCIDENTS[Reason.FAILURE_TO_CAPTURE] == "failure_to_capture"
    assert INCIDENTS[Reason.INCOMPLETE_JUMP] == "incomplete_jump"
    assert INCIDENTS[Reason.CROWNED_IN_PASSING] == "incomplete_jump"
    assert INCIDENTS[Reason.MAN_MOVED_BACKWARD] == "illegal_move"
    assert INCIDENTS[Reason.CAPTURE_OWN_PIECE] == "own_piece_removed"


def test_incident_ids_exist_in_rules_data():
    import yaml

    from rulesbook.datapath import bundled_data_dir
    data = yaml.safe_load((bundled_data_dir() / "incidents.yaml").read_text(encoding="utf-8"))
    known = {item["id"] for item in data["incidents"]}
    assert set(INCIDENTS.values()) <= known


def test_legal_record_replays_to_the_end():
    moves = "11-15 23-18 8-11 27-23 4-8 23-19 10x14 19x10 14x23 26x19".split()
    result = replay(" ".join(moves), variant="english")
    assert result.ok and result.first_illegal is None
    assert result.complete
    assert len(result.positions) == 11
    position = Position.start("english")
    for text in moves:
        position = position.play(text)
    assert result.final == position


def test_english_crowning_capture_is_legal():
    assert replay("21x30", start="B:W25,26:B21", variant="english").ok


def test_facts_discovered_and_repeated():
    # 8-11 ignores 15x22 and stands; later 11-16 ignores 15x22 again
    record = "11-15 22-18 8-11 23-19 11-16"
    result = replay(record, let_stand=True)
    assert [(m.ply, m.reason) for m in result.illegal] == [
        (3, Reason.FAILURE_TO_CAPTURE), (5, Reason.FAILURE_TO_CAPTURE)]
    first, second = result.illegal
    assert first.facts["plies_ago"] == 2 and second.facts["plies_ago"] == 0 and first.facts["discovered"] == "later_in_game"
    assert first.facts["repeated"] is False and second.facts["repeated"] is True
    assert first.applied and second.applied
    assert result.complete
    # the board shows 8-11 and 11-16 as played
    assert result.final.piece_at(16) is not None and result.final.piece_at(8) is None
    stop = replay(record)
    assert len(stop.illegal) == 1 and not stop.complete
    at_once = replay("11-15 22-18 8-11")
    assert at_once.first_illegal.facts["discovered"] == "at_once"
    after = replay(read_records("[Event \"x\"]\n\n1. 11-15 22-18 2. 8-11 1-0\n")[0])
    assert after.first_illegal.facts["discovered"] == "after_game"


def test_let_stand_removes_jumped_pieces_and_crowns():
    # a capture over an own piece stands: both pieces go, as the board shows
    result = replay("1x10 32-27", start="B:W32:B1,6", let_stand=True)
    assert result.complete
    board = result.positions[1]
    assert board.piece_at(1) is None and board.piece_at(6) is None
    assert board.piece_at(10) is not None and board.turn is Color.WHITE
    # an incomplete jump ending on the king row is crowned as played
    crowned = replay("21x30", start="B:W25,26:B21", let_stand=True)
    assert crowned.final.piece_at(30).king


def test_let_stand_stops_when_the_move_cannot_be_put_on_the_board():
    result = replay("11-15 23-19 15-19 22-18", let_stand=True)
    assert [m.reason for m in result.illegal] == [Reason.OCCUPIED_SQUARE]
    assert not result.illegal[0].applied
    assert not result.complete


def test_out_of_turn_as_played():
    result = replay("11-15 15-19 9-14", let_stand=True)
    assert result.illegal[0].reason is Reason.OUT_OF_TURN
    assert result.complete and result.ok is False
    assert len(result.illegal) == 1


def test_ambiguous_capture_settled_by_the_next_moves():
    # both readings of 2x18 are legal; only one lets the record go on
    start = "B:W6,7,14,15,32:B2,28"
    result = replay("2x18 15-11", start=start, variant="english")
    assert result.ok, result.first_illegal and result.first_illegal.message
    assert result.played[0].path == (2, 9, 18)
    other = replay("2x18 14-9", start=start, variant="english")
    assert other.ok and other.played[0].path == (2, 11, 18)


def test_analyse_move_legal_and_illegal():
    pos = Position.start("pool")
    assert analyse_move(pos, "11-15").move is not None
    bad = analyse_move(pos, "11-14")
    assert bad.move is None and bad.reason is Reason.OFF_DIAGONAL or bad.reason is not None


def test_move_numbers_from_a_white_start():
    result = replay("22-18 9-13 18-9", start="W:W22,32:B1,9")
    assert result.first_illegal.ply == 3
    assert result.first_illegal.move_number == 2
    assert result.first_illegal.side is Color.WHITE


def test_pdn_record_with_unreadable_text():
    text = '[Event "club"]\n[Black "A"]\n[White "B"]\n\n1. 11-15 23-19 2. 8-11 zz-q 3. 9-13 *\n'
    (record,) = read_records(text)
    assert record.texts == ["11-15", "23-19", "8-11", "zz-q", "9-13"]
    result = replay(record)
    assert result.first_illegal.reason is Reason.UNREADABLE
    assert result.first_illegal.ply == 4
    assert (result.first_illegal.line, result.first_illegal.col) == (5, 24)


def test_pdn_record_keeps_long_unreadable_text_whole():
    junk = "q" * 400
    text = f'[Event "club"]\n\n1. 11-15 23-19 2. {junk} 3. 9-13 *\n'
    (record,) = read_records(text)
    assert record.texts == ["11-15", "23-19", junk, "9-13"]
    assert replay(record).first_illegal.reason is Reason.UNREADABLE


def test_plain_text_record_with_numbers_and_comments():
    (record,) = read_records("1. 11-15 23-19 {good}\n2. 8-11, 22-17 1/2-1/2\n")
    assert record.texts == ["11-15", "23-19", "8-11", "22-17"]
    assert record.result == "1/2-1/2"
    assert record.moves[2].line == 2


def test_a_first_move_out_of_turn_is_not_called_a_second_move():
    # Black moves first in pool; White's 22-18 (c3-d4) as the very first move is
    # out of turn, but White has not "moved twice": nothing was played before it
    checked = replay(["c3-d4"], variant="pool")
    first = checked.first_illegal
    assert first is not None and first.reason is Reason.OUT_OF_TURN
    assert "twice" not in first.message
    # the scoresheet's slot is Black's; the piece moved is White's man on 22 (c3)
    assert "that is a move of White's man on 22: White moved out of turn" in first.message
    assert "(it was Black's turn)" in first.message


@pytest.mark.parametrize("moves", [
    "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20",  # a failure to capture at ply 7
    "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20 13-17 20-16",
    "11-15 23-19 8-11",  # every move legal
    "11-15 23-19 12-13 22-17",  # a move no piece can make, let stand
    "11-15 24-28 8-11",  # a move from an empty square: the replay stops there too
])
def test_a_replay_cut_at_its_first_illegal_move_is_the_replay_without_let_stand(moves):
    # Check Record cuts the board's replay (illegal moves standing) instead of
    # replaying the record again: the two must be the same Replay
    standing = replay(moves, let_stand=True)
    assert standing.stopped() == replay(moves)
    assert replay(moves).stopped() == replay(moves)


def test_a_long_record_cut_at_its_first_illegal_move():
    from rulesbook.reconstruct import import_record
    from tests.long_record import long_record

    record = import_record(long_record(400, illegal_every=37).pdn).record
    standing = replay(record.written, start=record.start, let_stand=True)
    assert len(standing.illegal) > 1
    assert standing.stopped() == replay(record.written, start=record.start)
