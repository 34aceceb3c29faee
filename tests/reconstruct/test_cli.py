"""``rulesbook replay`` and ``rulesbook reconstruct``: the stable contracts."""
from __future__ import annotations

import json

from rulesbook.cli import main

PDN = """[Event "Club"]
[Black "A"]
[White "B"]
[Result "*"]

1. 11-15 23-19 2. 8-11 22-17 3. 11-8 *

[Event "Club"]
[Black "C"]
[White "D"]
[Result "*"]

1. 11-15 23-19 *
"""


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_json_contract(tmp_path, capsys):
    path = tmp_path / "games.pdn"
    path.write_text(PDN, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 1, err
    games = json.loads(out)
    assert [set(g) for g in games] == [{"game", "tags", "plies", "first_illegal", "illegal",
                                         "final_fen", "result"}] * 2
    first = games[0]["first_illegal"]
    assert set(first) == {"ply", "move_number", "side", "move", "reason", "incident",
                          "message", "legal_moves", "fen_before"}
    assert (first["ply"], first["side"], first["move"], first["reason"], first["incident"]) == \
        (5, "black", "11-8", "man_moved_backward", "illegal_move")
    assert games[0]["plies"] == 5 and games[0]["tags"]["Black"] == "A"
    assert games[1]["first_illegal"] is None and games[1]["illegal"] == []
    code, out, _ = run(capsys, "replay", str(path), "--json", "--game", "2")
    assert code == 0 and json.loads(out)[0]["game"] == 2


def test_replay_text_file_and_let_stand(tmp_path, capsys):
    path = tmp_path / "moves.txt"
    path.write_text("11-15 22-18 8-11 23-19 11-16\n", encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path), "--let-stand", "--json")
    (game,) = json.loads(out)
    assert code == 1 and [i["ply"] for i in game["illegal"]] == [3, 5]
    assert game["first_illegal"]["legal_moves"] == ["15x22"]
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 1 and "Black had to capture: 15x22" in out
    path.write_text("11-15 23-19\n", encoding="utf-8")
    assert run(capsys, "replay", str(path))[0] == 0


def test_replay_errors(tmp_path, capsys):
    code, out, err = run(capsys, "replay", str(tmp_path / "nope.pdn"))
    assert code == 2 and "cannot read" in err and "Traceback" not in err
    path = tmp_path / "empty.txt"
    path.write_text("\n", encoding="utf-8")
    assert run(capsys, "replay", str(path))[0] == 2
    path.write_text("11-15\n", encoding="utf-8")
    assert run(capsys, "replay", str(path), "--variant", "chess")[0] == 2
    assert run(capsys, "replay", str(path), "--game", "3")[0] == 2
    bad = tmp_path / "bad.pdn"
    bad.write_text('[FEN "B:W99:B1"]\n\n1. 1-5 *\n', encoding="utf-8")
    code, out, err = run(capsys, "replay", str(bad), "--json")
    assert code == 1 and "FEN" in err


def test_reconstruct_contract(capsys):
    code, out, _ = run(capsys, "reconstruct", "--from", "start", "--to",
                       "W:W21-32:B1-10,12,15", "--max-plies", "3", "--json")
    assert code == 0
    assert json.loads(out) == {"status": "unique", "sequences": [["11-15"]], "diverge_at": [],
                               "explanation": json.loads(out)["explanation"],
                               "more_exist": False, "complete": True,
                               # issue 30: the one sequence counted, its move certain
                               "count": 1, "count_at_least": 1,
                               "certain": [{"ply": 1, "move": "11-15", "side": "black",
                                            "move_number": 1}],
                               "question": None, "questions": [],
                               "tree": {"ply": 1, "moves": ["11-15"], "count": 1,
                                        "children": []}}
    code, out, _ = run(capsys, "reconstruct", "--from", "start", "--to",
                       "B:W17,20,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,13,16", "--plies", "4",
                       "--known", "1:9-?", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "several"
    assert all(seq[0] == "9-13" for seq in data["sequences"]) and data["diverge_at"] == [2]
    code, out, _ = run(capsys, "reconstruct", "--from", "start", "--to",
                       "B:W21-32:B1-12", "--plies", "2", "--json")
    assert code == 1 and json.loads(out)["status"] == "impossible"


def test_reconstruct_errors(capsys):
    code, _, err = run(capsys, "reconstruct", "--from", "bad", "--to", "B:W21:B1",
                       "--plies", "2")
    assert code == 2 and "FEN" in err and "Traceback" not in err
    code, _, err = run(capsys, "reconstruct", "--from", "start", "--to", "B:W21-32:B1-13",
                       "--plies", "2")
    assert code == 2 and "13 black" in err
    code, _, err = run(capsys, "reconstruct", "--from", "start", "--to", "B:W21:B1",
                       "--plies", "2", "--known", "zz")
    assert code == 2 and "PLY:MOVE" in err


def test_reconstruct_a_straight_king_run_is_unique(capsys):
    # issue 21: the only ply is 29 taking 25 and 15 and landing on 11
    code, out, _ = run(capsys, "reconstruct", "--variant", "russian", "--from",
                       "W:WK29:B25,15,1", "--to", "B:WK11:B1", "--plies", "1", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["status"] == "unique"
    assert result["sequences"] == [["29x11"]]


def test_reconstruct_limit_does_not_hide_the_other_sequences(capsys):
    # issue 20: five sequences exist; --limit 1 lists one and says there are more
    board = "B:W17,20,21,22,25,26,28,29,30,31,32:B1,2,3,4,5,6,7,8,12"
    code, out, _ = run(capsys, "reconstruct", "--from", "start", "--to", board,
                       "--plies", "8", "--limit", "1", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["status"] == "several" and len(result["sequences"]) == 1
    assert result["count"] == 5 and "5 sequences" in result["explanation"]
    code, out, _ = run(capsys, "reconstruct", "--from", "start", "--to", board,
                       "--plies", "8", "--limit", "1")
    assert code == 0 and "exactly one" not in out and "5 sequences" in out


def test_reconstruct_json_says_when_more_sequences_exist(capsys):
    # issue 20: the issue counts five sequences for this board, so --limit 1 and
    # --limit 4 leave some out (more_exist) and --limit 5 keeps them all
    board = "B:W17,20,21,22,25,26,28,29,30,31,32:B1,2,3,4,5,6,7,8,12"
    for limit, kept, more in ((1, 1, True), (4, 4, True), (5, 5, False), (6, 5, False)):
        code, out, _ = run(capsys, "reconstruct", "--from", "start", "--to", board,
                           "--plies", "8", "--limit", str(limit), "--json")
        result = json.loads(out)
        assert code == 0, limit
        assert result["more_exist"] is more, limit
        assert len(result["sequences"]) == kept, limit
        assert result["status"] == "several"


def test_reconstruct_refuses_a_gap_too_long_to_search(capsys):
    code, out, err = run(capsys, "reconstruct", "--from", "start", "--to", "B:W21-32:B1-12",
                         "--plies", "5000")
    assert code == 2 and out == ""
    # the argument's own range check (200 plies at most) answers first, in one line
    assert err.count("\n") == 1 and "--plies" in err and "give 0 to 200" in err
    assert "Traceback" not in err


#: pool: plies 7 (9-13: Black had to capture 10x19) and 8 (24-20: White had to
#: capture) are illegal; plies 1-6 are legal
ILLEGAL_AT_THE_END = "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20"


def legal_prefix_fen(moves: str, plies: int) -> str:
    """The position after the first ``plies`` moves, played by the engine."""
    from rulesbook.draughts import Position

    position = Position.start("pool")
    for text in moves.split()[:plies]:
        position = position.play(position.parse_move(text))
    return position.fen()


def test_the_final_position_follows_the_last_legal_move(tmp_path, capsys):
    """Issue 33 Must 5: ``final position`` is the position after the last legal move
    replayed, with --let-stand too (not after the illegal moves standing as played),
    and the text says which ply it follows."""
    path = tmp_path / "moves.txt"
    path.write_text(ILLEGAL_AT_THE_END + "\n", encoding="utf-8")
    expected = legal_prefix_fen(ILLEGAL_AT_THE_END, 6)
    for let_stand in ((), ("--let-stand",)):
        code, out, _ = run(capsys, "replay", str(path), "--variant", "pool", "--json",
                           *let_stand)
        (game,) = json.loads(out)
        assert code == 1 and game["final_fen"] == expected, let_stand
        code, out, _ = run(capsys, "replay", str(path), "--variant", "pool", *let_stand)
        final = next(line for line in out.splitlines() if "final position" in line)
        assert final.endswith(f": {expected}")
        assert "(after ply 6, 3... 19-15, the last legal move" in final
    # with --let-stand the position after every move (the illegal ones as played) too
    assert "illegal ones standing as played (ply 8)" in out
    code, out, _ = run(capsys, "replay", str(path), "--variant", "pool")
    assert "the replay stopped at ply 7" in out


def test_a_legal_record_ends_after_its_last_move(tmp_path, capsys):
    moves = " ".join(ILLEGAL_AT_THE_END.split()[:6])
    path = tmp_path / "moves.txt"
    path.write_text(moves + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path), "--variant", "pool")
    assert code == 0
    assert f"final position (after ply 6, 3... 19-15, the last move): " \
           f"{legal_prefix_fen(moves, 6)}" in out
