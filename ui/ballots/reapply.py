"""Unsaved changes re-applied on a ballot as it is now on disk (after another
secretary saved it): each vote again with ``cast_vote``, signed votes as
recorded. All or nothing. Pure: no Qt, no file."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from rulesbook.ballots import Ballot, BallotError, Vote, add_signed_votes, cast_vote

from .keyring import KeyRing

__all__ = ["ranking_in", "reapply_changes", "vote_from_change"]


def vote_from_change(raw: Mapping[str, Any]) -> Vote:
    """The signed vote a change recorded."""
    return Vote(raw["member"], raw["question"], tuple(raw["ranking"]), raw.get("at", ""),
                raw.get("key", ""), raw.get("signature", ""), raw.get("proxy_by"))


def ranking_in(ballot: Ballot, member: str, question: str) -> tuple[str, ...] | None:
    """The ranking ``member`` gave on ``question`` in ``ballot`` (None: no vote)."""
    for vote in ballot.votes:
        if vote.member == member and vote.question == question:
            return vote.ranking
    return None


def reapply_changes(disk: Ballot, changes: Sequence[Mapping[str, Any]],
                    keys: KeyRing) -> tuple[Ballot, list[str]]:
    """``disk`` with ``changes`` applied, and notes on the votes recorded meanwhile
    that a re-applied vote replaced. Raises BallotError (nothing applied) when one
    cannot be applied."""
    ballot = disk
    notes: list[str] = []
    mine: set[tuple[str, str]] = set()
    applied: set[str] = set()
    for change in changes:
        if change["op"] == "method":
            ballot = dataclasses.replace(ballot, method=change["method"])
            continue
        key = (change["member"], change["question"])
        theirs = ranking_in(ballot, *key)
        if key not in mine and theirs is not None and list(theirs) == change["ranking"]:
            mine.add(key)  # the file already has this very vote: nothing to replace
            continue
        if key not in mine and theirs is not None:
            notes.append(f"{key[0]} on {key[1]}: the vote recorded in the file "
                         f"({' > '.join(theirs) or 'abstains'}) was replaced by yours "
                         f"and kept in the history")
        mine.add(key)
        try:
            raw = change.get("vote") or {}
            if raw.get("signature"):  # the signed votes themselves, as recorded
                if raw["signature"] in applied:
                    continue
                applied.add(raw["signature"])
                batch = [vote_from_change(c["vote"]) for c in changes
                         if (c.get("vote") or {}).get("signature") == raw["signature"]]
                ballot = add_signed_votes(ballot, batch, keys.registry(),
                                          source=change.get("source") or "app")
            else:
                signer = keys.require()
                ballot = cast_vote(
                    ballot, change["member"], change["question"], change["ranking"],
                    source=change.get("source") or "app", signer=signer,
                    proxy_by=None if signer.member == change["member"] else signer.member,
                    registry=keys.registry())
        except BallotError as exc:
            raise BallotError(f"your unsaved changes cannot be applied to the ballot as "
                              f"it is now on disk: {exc}; nothing was changed") from None
    return ballot, notes
