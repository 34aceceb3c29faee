"""Two clones that add a member at once: both get the same next free letter.

``rulesbook member add`` gives the next free letter (G after A–F). When two clones
each add a different person before syncing, both files say ``id: G``. The merge
keeps both people: the one already in the shared folder (the remote's, which
reached the registry first) keeps G, and the one being merged in (this clone's,
later in the registry's order) gets the next letter free on both sides; the sync
says so. A person added on both sides under one letter with the same name is the
same person (a plain merge). The letter cannot move once this clone has signed
statements for it in the registry (a key: its statements name the letter under
their signature): the record is then left as a conflict for the member to settle.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..proposing.core import next_letter


@dataclass(frozen=True)
class Relettered:
    """A member of this clone given another letter by the merge."""

    name: str
    was: str
    now: str

    def __str__(self) -> str:
        return (f"members.yaml: {self.name} was added here as member {self.was} while the "
                f"shared folder gave {self.was} to someone else; {self.name} is now member "
                f"{self.now}")


def _members(data: Any) -> list[dict[str, Any]]:
    members = data.get("members") if isinstance(data, dict) else None
    return [m for m in members if isinstance(m, dict)] if isinstance(members, list) else []


def _signed_for(data: Any, letter: str) -> bool:
    statements = data.get("registry") if isinstance(data, dict) else None
    return isinstance(statements, list) and any(
        isinstance(s, dict) and s.get("member") == letter for s in statements)


def reletter(base: Any, ours: Any, theirs: Any) -> tuple[Any, tuple[Relettered, ...]]:
    """``ours`` with each member added here under a letter the remote added for someone
    else moved to the next free letter, and what moved."""
    if not isinstance(ours, dict):
        return ours, ()
    before = {m.get("id") for m in _members(base)}
    remote = {m.get("id"): m for m in _members(theirs) if m.get("id") not in before}
    taken = [str(m.get("id")) for m in _members(base) + _members(ours) + _members(theirs)
             if m.get("id") is not None and m.get("id") != "unknown"]
    moved: list[Relettered] = []
    members: list[Any] = []
    for member in ours.get("members", []):
        letter = str(member.get("id")) if isinstance(member, dict) else ""
        other = remote.get(letter)
        if (other is not None and letter not in before and member != other
                and str(other.get("name", "")).casefold() != str(member.get("name", "")).casefold()
                and not _signed_for(ours, letter) and not _signed_for(base, letter)):
            new = next_letter(taken)
            taken.append(new)
            moved.append(Relettered(str(member.get("name")), str(letter), new))
            member = {**member, "id": new}
        members.append(member)
    if not moved:
        return ours, ()
    return {**ours, "members": members}, tuple(moved)
