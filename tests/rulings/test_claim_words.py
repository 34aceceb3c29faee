"""Issue 31, Must 6: draw counts in the referee's terms. APCA rule 28 counts the lone
king's moves to thirteen ("COUNTS THIRTEEN"); the Standard Laws count "within forty of
his own moves". A count is said as "13 of 13 moves", and the moves played after it
was reached are said as such, never "14 move(s) of 13"."""
from __future__ import annotations

from rulesbook.draughts import Position
from rulesbook.rulings import draw_claims
from tests.datapaths import SEEDS

THREE_V_ONE = "B:WK32:BK1,K2,K3"
#: pool kings fly: the lone king (White, moving second) makes its 13th move at ply 26
POOL = ("1-5 32-28 2-7 28-1 3-12 1-6 5-1 6-2 7-3 2-9 1-5 9-2 3-10 2-13 5-1 13-2 "
        "10-14 2-13 1-5 13-2 12-3 2-6 3-7 6-1 5-9 1-5 7-2 5-1 2-16 1-5").split()
#: English kings move one square: Black (stronger, moving first) shuttles 1-5-1
ENGLISH = " ".join(("1-5 32-28" if i % 2 == 0 else "5-1 28-32") for i in range(42)).split()


def test_sources_give_the_counts():
    apca = (SEEDS / "apca-proposed-rules-with-amendments.txt").read_text(encoding="utf-8")
    laws = (SEEDS / "standard-laws-of-checkers.txt").read_text(encoding="utf-8")
    assert "THIRTEEN" in apca and "forty of his own moves" in " ".join(laws.split())


def explanation(library, line, ply, incident, variant=None):
    start = Position.from_fen(THREE_V_ONE, variant or "pool")
    claims = {c.incident: c for c in draw_claims(library, start, line, ply, variant=variant)}
    return claims[incident].explanation


def test_the_13_count_in_the_referees_words(library):
    assert explanation(library, POOL, 10, "thirteen_count") == \
        "The lone king has made 5 of 13 moves."
    assert explanation(library, POOL, 26, "thirteen_count") == \
        "The lone king has made 13 of 13 moves."
    past = explanation(library, POOL, 28, "thirteen_count")
    assert past == ("The lone king has made 13 of 13 moves, and 1 more move since the "
                    "count was reached at its 13th move."), past
    assert "move(s)" not in explanation(library, POOL, 30, "thirteen_count")
    assert "14 of 13" not in past and "14" not in past


def test_the_forty_moves_of_the_stronger_side_in_the_referees_words(library):
    at = explanation(library, ENGLISH, 80, "strong_side_count", "english")
    assert at.startswith("Black is stronger and has made 40 of 40 moves "), at
    past = explanation(library, ENGLISH, 84, "strong_side_count", "english")
    assert past.startswith("Black is stronger and has made 40 of 40 moves "), past
    assert past.endswith(", and 2 more moves since the count was reached at its 40th move.")
    assert "move(s)" not in past and "42" not in past
