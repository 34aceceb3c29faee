"""The record and session of the board as core values: frozen, read from PDN with
comments and variations, kept in autosaves and in case files."""
from __future__ import annotations

import dataclasses

import pytest

from rulesbook.draughts import DraughtsError, Position
from rulesbook.reconstruct import (
    BoardSession,
    GameRecord,
    RecordMove,
    SessionError,
    case_findings,
    case_from_session,
    import_record,
    load_case,
    record_case_text,
    record_pdn,
    replay,
    save_case,
    session_from_case,
    split_games,
)

#: a game with a game comment, a move comment and a variation (all to be kept)
PDN = """[Event "Ohio Open"]
[Black "A. Pecan"]
[White "J. Kacher"]
[Round "3"]
{opening: Old Faithful}
1. 11-15 {the usual} 23-19 (22-18 15x22) 2. 8-11 22-17 *
"""


def test_the_record_is_frozen_and_edits_make_new_records():
    record = GameRecord.empty("pool")
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.moves = ()  # type: ignore[misc]
    tags = {"Event": "x"}
    tagged = record.replace(tags=tags)
    tags["Event"] = "changed afterwards"
    assert tagged.tags["Event"] == "x"  # a private copy
    with pytest.raises(TypeError):
        tagged.tags["Event"] = "y"  # type: ignore[index]
    two = record.with_moves([RecordMove("11-15"), RecordMove("23-19")])
    assert record.moves == () and two.texts == ("11-15", "23-19")
    spliced = two.spliced(1, [RecordMove("22-18")])
    assert spliced.texts == ("11-15", "22-18") and two.texts == ("11-15", "23-19")
    assert two.with_comment(2, "a note").moves[1].comment == "a note"


def test_move_numbers_and_prefixes_follow_the_side_to_move():
    # pool: Black moves first, so ply 1 is "1." and ply 2 is "1…"
    record = GameRecord.empty("pool")
    assert [record.ply_prefix(p) for p in (1, 2, 3)] == ["1.", "1…", "2."]
    # set up with White to move: ply 1 is White's first move, written "1…"
    white = Position.from_fen("W:W21-32:B1-12", "pool")
    assert GameRecord.empty("pool", white).ply_prefix(1, dots="...") == "1..."
    assert GameRecord.empty("pool", white).move_number(2) == 2


def test_import_keeps_comments_variations_and_places():
    imported = import_record(PDN)
    record = imported.record
    assert record.texts == ("11-15", "23-19", "8-11", "22-17")
    assert record.comment == "opening: Old Faithful"
    assert record.moves[0].comment == "the usual"
    assert record.moves[1].variations == ("22-18 15x22",)
    assert (record.moves[0].line, record.moves[0].col) == (6, 4)  # 1-based, as in the file
    assert record.tags["Black"] == "A. Pecan" and imported.problems == ()


def test_import_of_a_plain_list_keeps_its_comments_and_variations_too():
    # the same game as PDN above, typed without tags: nothing written is lost, and
    # the variation is not a move played
    imported = import_record("{opening: Old Faithful}\n1. 11-15 {the usual} 23-19 "
                             "(22-18 15x22) 2. 8-11 22-17 ; a note\n*")
    record = imported.record
    assert record.texts == ("11-15", "23-19", "8-11", "22-17")
    assert record.comment == "opening: Old Faithful"
    assert record.moves[0].comment == "the usual"
    assert record.moves[1].variations == ("22-18 15x22",)
    assert record.moves[3].comment == "a note"
    assert (record.moves[0].line, record.moves[0].col) == (2, 4)


def test_import_a_game_that_is_not_in_the_file_is_refused():
    with pytest.raises(DraughtsError, match="has 1 games; there is no game 3"):
        import_record(PDN, 2)
    assert len(split_games(PDN + "\n" + PDN)) == 2


def test_session_round_trips_through_its_dict():
    record = import_record(PDN).record
    target = Position.from_fen("W:W21,22,24-32:B1-10,12,15", "pool", check=False)
    session = BoardSession(record, setup=Position.start("pool"), target=target,
                           notes="White claims", let_stand=True)
    back = BoardSession.from_dict(session.to_dict())
    assert back.record.texts == record.texts and back.record.tags == record.tags
    assert back.record.moves[0].comment == "the usual"
    assert back.target == target and back.notes == "White claims" and back.let_stand


@pytest.mark.parametrize("data, words", [
    ({"moves": "11-15"}, "moves must be a list"),
    ({"moves": [{"comment": "no text"}]}, "must be a text"),
    ({"tags": ["Event"]}, "tags must be a mapping"),
    ({"gap_target": 12}, "gap_target must be a FEN"),
    ({"tags": {"Event": None}}, "tags must be a mapping of texts"),
    ({"notes": ["a"]}, "notes must be a text"),
    ({"let_stand": "no"}, "let_stand must be true or false"),
    ({"moves": [{"text": "11-15", "comment": ["x"]}]}, "comment must be a text"),
    ({"variant": 23}, "variant must be a text"),
])
def test_a_damaged_session_says_what_is_wrong(data, words):
    with pytest.raises(SessionError, match=words):
        BoardSession.from_dict(data)


def test_case_file_keeps_the_session(tmp_path):
    record = import_record(PDN).record
    session = BoardSession(record, target=replay(record.written).final, notes="n")
    checked = replay(record.written)
    path = tmp_path / "case.yaml"
    save_case(case_from_session(session, case_findings(checked, None), "original"), path)
    case = load_case(path)
    assert (case.event, case.round, case.black, case.white) == \
        ("Ohio Open", "3", "A. Pecan", "J. Kacher")
    assert case.findings["summary"] == "every move is legal (4 plies)"
    back = session_from_case(case)
    assert back.record.texts == record.texts
    assert back.record.moves[0].comment == "the usual"  # kept as PDN
    assert back.record.comment == "opening: Old Faithful"
    assert back.record.moves[1].variations == ("22-18 15x22",)
    assert back.target == session.target and back.notes == "n"


def test_a_plain_record_from_a_set_up_start_keeps_its_start(tmp_path):
    start = Position.from_fen("W:W18,22-32:B1-12", "pool")
    session = BoardSession(GameRecord.empty("pool", start).with_moves([RecordMove("18-14")]))
    case = case_from_session(session)
    assert case.record == "18-14" and case.start == start.fen()
    save_case(case, tmp_path / "c.yaml")
    back = session_from_case(load_case(tmp_path / "c.yaml"))
    assert back.record.start == start and back.record.texts == ("18-14",)


def test_an_edition_id_that_cannot_be_one_is_left_out():
    session = BoardSession(GameRecord.empty())
    assert case_from_session(session, edition="a b/../c").edition == ""
    assert case_from_session(session, edition="2026-1").edition == "2026-1"


def test_a_case_file_keeps_each_move_as_the_scoresheet_wrote_it(tmp_path):
    # The Tinsley corpus writes a plain move with an x ("10x14") and a double
    # jump by its ends ("24x15x6" written "24x6" elsewhere): how a move was
    # written is evidence for a referee, so the case file keeps it; the PDN
    # export for other programs writes the standard form (PDN 3.0: "-" for a
    # plain move).
    text = ('[Event "Ohio State Ty 1946"]\n[Black "MF Tinsley"]\n[White "M Rex"]\n'
            "1. 11-15 23-18 2. 8-11 27-23 3. 4-8 23-19 4. 10x14 {as written} 19x10 *\n")
    record = import_record(text).record
    assert record.texts[6] == "10x14"
    path = tmp_path / "case.yaml"
    save_case(case_from_session(BoardSession(record)), path)
    back = session_from_case(load_case(path))
    assert back.record.texts == record.texts
    assert back.record.moves[6].comment == "as written"
    assert "4. 10-14 { as written } 4... 19x10" in record_pdn(record)


@pytest.mark.parametrize(("gametype", "variant"), [("21", "english"), ("23", "pool")])
def test_an_untyped_game_takes_the_variant_the_files_other_games_need(gametype, variant):
    """#31 Must 2: the board's import reads a record's variant per file, as the
    command line does. The second game, "1. 11-15 23-19", is legal in pool and in
    English; the file's first game names its GameType (21 English, 23 pool)."""
    text = (f'[Event "typed"]\n[GameType "{gametype}"]\n1. 9-14 22-17 *\n\n'
            '[Event "untyped"]\n1. 11-15 23-19 *\n')
    imported = import_record(text, 1)
    assert imported.record.variant.name == variant
    assert imported.untyped
    assert imported.variant_guess is not None
    title = {"english": "English checkers", "pool": "pool checkers"}[variant]
    assert imported.variant_guess.sentence().endswith(
        f"; the file's other games need {title} (1 of the 1 game that tells the variants "
        f"apart)")
    # the same record alone in its file: nothing tells, the app's default is taken
    alone = import_record('[Event "untyped"]\n1. 11-15 23-19 *\n')
    assert alone.record.variant.name == "pool"
    assert "the app's default is taken" in alone.variant_guess.sentence()
    # the guess is never stamped into the PDN written back; the user's choice is
    assert "GameType" not in record_pdn(imported.record, variant_guess=imported.variant_guess)
    assert "[GameType" in record_pdn(imported.record)


def test_the_board_import_reads_each_game_of_an_english_file_as_the_command_line():
    from rulesbook.reconstruct.record import read_records
    from tests.datapaths import CORPUS

    text = (CORPUS / "english-oca-2.0.pdn").read_text(encoding="utf-8")
    cli = [r.variant.name for r in read_records(text)]
    assert cli == ["english"] * 43  # the corpus README: 43 games, English
    assert [import_record(text, i).record.variant.name for i in range(43)] == cli


def test_a_case_file_keeps_the_gametype_the_record_had_or_none(tmp_path):
    """#31 Must 2: "The writer writes the GameType the record had, or none". A case
    file says the variant itself (``variant:``); its record text never gains a
    GameType read from the moves, and reads back in the same variant."""
    from rulesbook.reconstruct import record_case_text

    untyped = '[Event "untyped"]\n1. 11-15 23-19 *\n'
    typed = '[Event "typed"]\n[GameType "21"]\n1. 11-15 23-19 *\n'
    text = f'[Event "x"]\n[GameType "21"]\n1. 9-14 22-17 *\n\n{untyped}'
    guessed = import_record(text, 1).record
    assert guessed.variant.name == "english"  # the file's other game needs English
    assert "GameType" not in record_case_text(guessed)
    assert '[GameType "21' in record_case_text(import_record(typed).record)
    back = import_record(record_case_text(guessed), 0, guessed.variant)
    assert back.record.variant.name == "english" and back.record.texts == guessed.texts


def test_attack_the_record_is_saved_with_the_gametype_it_had_verbatim():
    """Issue 31 retest: a record with [GameType "21"] was saved (Export PDN, record_pdn)
    with [GameType "21,B,8,8,N1,0"], a GameType the record never had."""
    imported = import_record('[Event "x"]\n[GameType "21"]\n1. 11-15 23-19 2. 8-11 *')
    assert imported.record.variant.name == "english"
    for text in (record_pdn(imported.record), record_pdn(imported.record, as_written=True),
                 record_case_text(imported.record)):
        assert '[GameType "21"]' in text and "21,B" not in text, text


def test_moves_json_is_the_json_of_the_moves_of_to_dict():
    import json

    record = GameRecord.empty("pool").with_moves(
        [RecordMove("11-15", comment='"quoted", ünïcode \u202e'), RecordMove("23-19"),
         RecordMove("8-11", variations=("9-13 {a line}",))])
    assert json.loads(record.moves_json()) == record.to_dict()["moves"]
    assert record.moves_json() == json.dumps(record.to_dict()["moves"], ensure_ascii=False)
    assert GameRecord.empty("pool").moves_json() == "[]"
