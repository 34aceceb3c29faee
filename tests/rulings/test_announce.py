"""Draw claims announced where the game reaches them (issue 19): the ply comes from
the rule text and the case files, and each announcement is the claim the CLI's
``rulings --from-game … --ply N`` judges at that ply (one computation of the counts)."""
from __future__ import annotations

from rulesbook.draughts import CountRules, Game, Position
from rulesbook.rulings import (
    AnnouncementLevel,
    count_rules_for,
    draw_announcements,
    draw_claims,
    get_case,
)
from rulesbook.rulings.case_record import move_tokens

#: three black kings against White's lone king, Black to move (see tests/ui/test_board_claims)
START = "B:WK32:BK1,K2,K3"
LINE = ("1-5 32-28 2-7 28-1 3-12 1-6 5-1 6-2 7-3 2-9 1-5 9-2 3-10 2-13 5-1 13-2 "
        "10-14 2-13 1-5 13-2 12-3 2-6 3-7 6-1 5-9 1-5 7-2 5-1 2-16 1-5").split()


def test_the_13_count_at_the_lone_kings_13th_move(library):
    # Rule 28: the count starts with the lone king's first move, each move counts one;
    # White (the lone king) moves second, so its 13th move is ply 26
    found = draw_announcements(library, Position.from_fen(START), LINE)
    count = [a for a in found if a.claim.incident == "thirteen_count"]
    assert [(a.ply, a.level) for a in count] == [(26, AnnouncementLevel.IN_FORCE)]
    a = count[0]
    assert (a.side, a.move_number, a.move) == ("White", 13, LINE[25])
    assert a.outcome == "draw" and a.ruling_ref == "apca:28"
    assert a.incident.incident == "thirteen_count" and a.incident.ply == 26
    # the claim announced is the CLI's at that ply, and not yet the ply before
    cli = {c.incident: c for c in draw_claims(library, Position.from_fen(START), LINE, 26)}
    assert cli["thirteen_count"].holds and cli["thirteen_count"] == a.claim
    before = {c.incident: c for c in draw_claims(library, Position.from_fen(START), LINE, 25)}
    assert not before["thirteen_count"].holds


def test_the_long_line_case_is_announced_under_24b(library):
    case = get_case(library, "lone-king-on-long-line")
    found = draw_announcements(library, Position.from_fen(case.fen), move_tokens(case.moves))
    first = found[0]
    assert first.ply == case.claim_ply and first.level is AnnouncementLevel.PROPOSALS
    drawing = sorted(f"apca:{r}" for r in first.also)
    assert drawing == sorted(r for r, o in case.expected.items()
                             if o == "draw" and r.startswith("apca:"))
    assert first.outcome == case.expected["apca:28"] == "play_on"


def test_no_announcement_in_an_ordinary_opening(library):
    start = Position.start("pool")
    assert draw_announcements(library, start, "11-15 23-19 8-11 22-17".split()) == ()


#: the long-line case's moves played on (by the engine: moves that give nothing to
#: take) until the 13-count is reached: a proposal decides it first, the edition later
ON_THE_LONG_LINE = ("22-18 28-24 18-22 3-7 22-25 24-10 25-29 12-3 29-22 10-19 22-25 3-12 "
                    "25-18 7-10 18-11 10-17 11-25 17-14 25-11 14-27 11-4 19-30 4-29 27-32 "
                    "29-11 12-3 11-20 32-23 20-11 3-17 11-4 17-7 4-15 7-20 15-29 23-9 29-8 "
                    "9-27 8-15 20-2 15-4 27-23 4-29 30-21 29-8 23-5 8-29 2-6 29-8 21-17 "
                    "8-12").split()


def test_a_walk_gone_on_from_any_ply_announces_what_a_walk_from_the_start_does(library):
    # issue #34: the Board goes on from the walk of the record before an edit (the
    # game of the plies both share, and what was announced in them)
    case = get_case(library, "lone-king-on-long-line")
    start = Position.from_fen(case.fen)
    moves = ON_THE_LONG_LINE
    assert moves[:len(move_tokens(case.moves))] == list(move_tokens(case.moves))
    whole = draw_announcements(library, start, moves)
    assert [(a.ply, a.level) for a in whole if a.claim.incident == "thirteen_count"] == [
        (11, AnnouncementLevel.PROPOSALS), (25, AnnouncementLevel.IN_FORCE)]
    rules, _sources = count_rules_for(library, None, start.variant)
    for ply in range(len(moves) + 1):
        first = Game(start, counts=rules)
        for move in moves[:ply]:
            first.push(move)
        after = Game.resumed(first.positions, first.moves,
                             [first.count_state(i) for i in range(ply + 1)], rules)
        earlier = [a for a in whole if a.ply <= ply]
        assert draw_announcements(library, start, moves, after=after, earlier=earlier) == whole
    # a game counted under other limits is not gone on from: the walk starts again
    other = Game(start, counts=CountRules())
    for move in moves[:20]:
        other.push(move)
    assert draw_announcements(library, start, moves, after=other, earlier=()) == whole
