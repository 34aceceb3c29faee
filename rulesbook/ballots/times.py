"""When a ballot's signatures may be dated: bounded by facts the ballot holds.

A signer's clock is not evidence, so a vote's ``at`` is checked against what the
record itself says: it may not be dated before the ballot was opened
(``opened.at``, the time the chair or secretary signed its settings at
``ballot new``/``ballot sign``: signed, so it cannot be moved) nor after its seal's closing time, and
a seal is never dated before the opening. The key's own bounds (not before its
registration, not at or after its revocation) are :meth:`Registry.key_problem`'s.
An unsigned draft takes no vote, so it needs no bound.
"""
from __future__ import annotations

from .model import Ballot
from .signing import batches


def time_problems(ballot: Ballot, closing_at: str | None = None) -> list[str]:
    """Every signature of ``ballot`` dated outside its opening and close (``closing_at``:
    the close about to be made, for a ballot not sealed yet)."""
    opened = ballot.opened_at
    closed = ballot.seal.closed_at if ballot.seal is not None else closing_at
    problems: list[str] = []
    for batch in batches(ballot):
        first = batch.first
        if opened and first.at < opened:
            problems.append(f"{batch.what} is dated {first.at}, before the ballot was "
                            f"opened ({opened}): a back-dated signature is invalid")
        elif closed and first.at > closed:
            problems.append(f"{batch.what} is dated {first.at}, after the ballot was closed "
                            f"({closed}): a signature made after the close is invalid")
    if opened and ballot.seal is not None and ballot.seal.closed_at < opened:
        problems.append(f"the seal is dated {ballot.seal.closed_at}, before the ballot was "
                        f"opened ({opened})")
    return problems
