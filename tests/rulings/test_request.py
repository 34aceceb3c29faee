"""The typed request from the board to the rulings (issue 20): one builder,
:func:`rulesbook.rulings.rulings_request`, for the first illegal move of a record,
for a draw claim announced where the game reaches it, and for the claims
``rulings --from-game FILE --ply N`` judges.

Expected plies and moves come from the game text: the planted move of a record,
the lone king's 13th move under Rule 28 (see tests/rulings/test_announce)."""
from __future__ import annotations

import json

import pytest

from rulesbook.cli import main
from rulesbook.draughts import Color, Position
from rulesbook.reconstruct import RecordTags, import_record, replay
from rulesbook.rulings import (
    GameRecordError,
    IncidentSource,
    RequestOrigin,
    draw_announcements,
    draw_claims,
    get_incident,
    rulings_request,
)

# three black kings against White's lone king, Black to move, and a line of 30 plies
from tests.rulings.test_announce import LINE, START

#: Black must capture 15x22 at ply 3 (22-18 puts a man in front of 15) but plays 10-14
MISSED = ('[Event "Club night"]\n[Round "?"]\n[Date "2026.03.01"]\n[Black "Ann"]\n'
          '[White "Bob"]\n[GameType "23"]\n\n1. 11-15 22-18 2. 10-14 *\n')


def three_v_one_pdn(**tags: str) -> str:
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    return f'{head}[GameType "23"]\n[SetUp "1"]\n[FEN "{START}"]\n\n{" ".join(LINE)} *\n'


def test_the_first_illegal_move_of_a_record(library):
    record = import_record(MISSED).record
    found = replay(record.written, start=record.start, variant=record.variant).first_illegal
    request = rulings_request(library, record, found, RequestOrigin.CHECK_RECORD)
    incident = request.incident
    assert (incident.incident, incident.ply, incident.move) == ("failure_to_capture", 3,
                                                                "10-14")
    assert request.side is Color.BLACK  # Black moves first in pool: ply 3 is Black's
    assert request.origin is RequestOrigin.CHECK_RECORD and request.claim is None
    assert incident.source is IncidentSource.RECONSTRUCTION
    # only facts the incident asks about; the replay's own (ply, side...) are typed fields
    assert set(incident.facts) <= set(get_incident(library, "failure_to_capture").fact_ids)
    assert incident.facts["discovered"] == "at_once"  # the last move written: at once
    assert request.moves == ("11-15", "22-18", "10-14")
    assert request.moves_text == "11-15 22-18 10-14"
    assert request.start == Position.start("pool") and request.variant.name == "pool"
    # "?" is an unknown tag, a missing one is empty
    assert request.tags == RecordTags(event="Club night", round="", date="2026.03.01",
                                      black="Ann", white="Bob")
    assert "capture" in incident.explanation


def test_a_draw_claim_announced_where_the_game_reaches_it(library):
    record = import_record(three_v_one_pdn(Event="Club night")).record
    start = Position.from_fen(START)
    reached = [a for a in draw_announcements(library, start, LINE) if a.reached]
    claim = next(a for a in reached if a.claim.incident == "thirteen_count")
    request = rulings_request(library, record, claim, RequestOrigin.DRAW_CLAIM)
    # Rule 28: the lone king (White, moving second) counts its 13th move at ply 26
    assert request.incident.ply == 26 and request.incident.move == LINE[25]
    assert request.side is Color.WHITE and request.incident.source is IncidentSource.RECORD
    assert request.incident.facts["lone_king_moves"] == 13
    assert request.claim is claim.claim and request.claim.holds
    assert request.tags.event == "Club night" and request.fen == start.fen()


def test_the_claim_at_a_ply_is_the_one_the_board_sends(library, tmp_path, capsys):
    """``rulings --from-game FILE --ply 26`` and the board's Draw Rulings at ply 26
    judge the same facts (one computation of the counts, one builder)."""
    text = three_v_one_pdn()
    record = import_record(text).record
    start = Position.from_fen(START)
    board = next(a for a in draw_announcements(library, start, LINE)
                 if a.reached and a.claim.incident == "thirteen_count")
    sent = rulings_request(library, record, board, RequestOrigin.DRAW_CLAIM)
    at_ply = [rulings_request(library, record, c, RequestOrigin.DRAW_CLAIM, 26)
              for c in draw_claims(library, start, LINE, 26)]
    same = next(r for r in at_ply if r.incident.incident == "thirteen_count")
    assert (same.incident.ply, same.incident.move, same.side) == \
        (sent.incident.ply, sent.incident.move, sent.side)
    assert same.incident.facts == sent.incident.facts
    path = tmp_path / "game.pdn"
    path.write_text(text, encoding="utf-8")
    assert main(["rulings", "--from-game", str(path), "--ply", "26", "--json"]) == 0
    printed = {c["incident"]: c for c in json.loads(capsys.readouterr().out)}
    assert printed["thirteen_count"]["facts"] == dict(sent.incident.facts)
    assert printed["thirteen_count"]["holds"] is True


def test_a_claim_at_a_ply_outside_the_record_is_refused(library):
    record = import_record(three_v_one_pdn()).record
    claim = draw_claims(library, record.start, LINE, 4)[0]
    request = rulings_request(library, record, claim, RequestOrigin.DRAW_CLAIM, 4)
    assert request.incident.ply == 4 and request.incident.move == "28-1"  # the 4th move written
    at_start = rulings_request(library, record, claim, RequestOrigin.DRAW_CLAIM, 0)
    assert at_start.incident.move == "" and at_start.side is None
    with pytest.raises(GameRecordError, match="ply 31 is outside the game"):
        rulings_request(library, record, claim, RequestOrigin.DRAW_CLAIM, 31)
    with pytest.raises(GameRecordError, match="ply -1 is outside"):
        rulings_request(library, record, claim, RequestOrigin.DRAW_CLAIM, -1)
