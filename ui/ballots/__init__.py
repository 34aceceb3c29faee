"""The committee's ballot in the app: open or build a ballot, record votes (typed
rankings or a member's ballot file), watch the tally under any method, close
and seal, verify, and adopt the next edition.

:class:`BallotController` owns the ballot (a frozen core :class:`Ballot`; every
change makes a new one) and whether it has unsaved votes; nothing is written
without a user action, and every write is atomic (``rulesbook.ballots``).
"""
from .chart import TallyChart
from .controller import BallotController
from .ranking import parse_ranking_numbers

__all__ = ["BallotController", "TallyChart", "parse_ranking_numbers"]
