"""Who can vote on a ballot: the roll's members who hold a confirmed key.

A vote counts only when it is signed with the member's confirmed key (or entered
by the chair or secretary as a proxy), so the default quorum is a majority of the
roll's members who hold one: a roll of A–F of whom three have a confirmed key has
a quorum of two, not four. A roll where nobody holds a key yet (a new folder) keeps
a majority of the whole roll: no vote can be signed before keys exist, and the
quorum should not fall to one meanwhile.
"""
from __future__ import annotations

from collections.abc import Sequence

from .registry import Registry


def keyed_members(roll: Sequence[str], registry: Registry) -> tuple[str, ...]:
    """The members of ``roll`` who hold a confirmed, unrevoked key."""
    return tuple(m for m in roll if registry.key_of(m) is not None)


def default_quorum(roll: Sequence[str], registry: Registry) -> int:
    """A majority of the roll's members who hold a confirmed key (see the module)."""
    voters = keyed_members(roll, registry) or tuple(roll)
    return len(voters) // 2 + 1 if voters else 0


def quorum_note(roll: Sequence[str], quorum: int, registry: Registry) -> str | None:
    """What to say when a ballot about to be signed has a quorum other than the default
    at signing time (a draft written before its members' keys were confirmed, or a
    quorum chosen by hand); None when it is the default."""
    default = default_quorum(roll, registry)
    if quorum == default:
        return None
    voters = keyed_members(roll, registry)
    who = (f"the {len(voters)} member(s) of the roll who hold a confirmed key "
           f"({', '.join(voters)})" if voters else
           f"the roll's {len(roll)} member(s) (none holds a confirmed key)")
    return (f"quorum {quorum} is not the default at signing time: a majority of {who} "
            f"is {default}")
