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

from collections.abc import Sequence

from .model import Ballot
from .signing import Batch, batches


def time_problems(ballot: Ballot, closing_at: str | None = None) -> list[str]:
    """Every signature of ``ballot`` dated outside its opening and close (``closing_at``:
    the close about to be made, for a ballot not sealed yet)."""
    return [message for _place, message in time_findings(ballot, closing_at)]


def time_findings(ballot: Ballot, closing_at: str | None = None,
                  signed: Sequence[Batch] | None = None
                  ) -> list[tuple[tuple[str | int, ...], str]]:
    """:func:`time_problems`, each with where it is in the ballot's file: the first vote
    of the batch so dated, or the seal (``signed``: the ballot's batches, if made)."""
    opened = ballot.opened_at
    closed = ballot.seal.closed_at if ballot.seal is not None else closing_at
    problems: list[tuple[tuple[str | int, ...], str]] = []
    for batch in batches(ballot) if signed is None else signed:
        first = batch.first
        if opened and first.at < opened:
            problems.append((batch.place(), f"{batch.what} is dated {first.at}, before the "
                             f"ballot was opened ({opened}): a back-dated signature is "
                             f"invalid"))
        elif closed and first.at > closed:
            problems.append((batch.place(), f"{batch.what} is dated {first.at}, after the "
                             f"ballot was closed ({closed}): a signature made after the "
                             f"close is invalid"))
    if opened and ballot.seal is not None and ballot.seal.closed_at < opened:
        problems.append((("seal",), f"the seal is dated {ballot.seal.closed_at}, before the "
                         f"ballot was opened ({opened})"))
    return problems
