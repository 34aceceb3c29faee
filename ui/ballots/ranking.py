"""What the secretary types and reads about rankings: a ranking typed as option
numbers or names, and the labels of the counting methods and thresholds."""
from __future__ import annotations

import re

from rulesbook.ballots import BallotError, Question
from rulesbook.ballots.model import ABSTAIN_WORDS

__all__ = ["METHOD_LABELS", "THRESHOLD_LABELS", "parse_ranking_numbers"]

METHOD_LABELS = {"plurality": "Plurality (first choices)", "irv": "Instant runoff (IRV)",
                 "schulze": "Schulze (pairwise)", "approval": "Approval"}
THRESHOLD_LABELS = {"plurality": "most votes", "simple-majority": "more than half",
                    "two-thirds": "at least two thirds", "three-quarters": "at least three quarters"}


def parse_ranking_numbers(question: Question, text: str) -> list[str]:
    """A ranking typed as option numbers ("2 1 3", "2,1"), or as option names
    ("10A 10"); "0" or one of the core's abstention words ("-", "none", "abstain")
    abstains. Raises BallotError with a plain message."""
    text = text.strip()
    if text == "0" or text.lower() in ABSTAIN_WORDS:
        return []
    if not text:
        raise BallotError("type the options in order of preference, e.g. 2 1 3 "
                          "(or - to abstain)")
    out = []
    for token in [t for t in re.split(r"[\s,>]+", text) if t]:
        if token.isascii() and token.isdigit():
            n = int(token) if len(token) <= 4 else 0  # never int() of 5,000 digits
            if not 1 <= n <= len(question.options):
                shown = token if len(token) <= 12 else token[:12] + "…"
                raise BallotError(f"there is no option {shown}: question {question.id!r} has "
                                  f"options 1 to {len(question.options)}")
            out.append(question.options[n - 1])
        else:
            out.append(token)
    return out
