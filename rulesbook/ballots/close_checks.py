"""What a close checks against the rules folder, beyond the ballot file itself.

The votes sign the digests of the texts of their questions (:mod:`.texts`), and the
seal covers the results the count gives. A ballot is sealed only for what the
committee voted on:

* every option's text is still the one the ballot was opened with: a text changed
  after the votes (by hand, or by a merge) is named with its question, the digests
  recorded and now, and how to see the change (``rulesbook history REF``);
* the count adopts no withdrawn proposal: a proposal withdrawn while on the ballot
  is named with its question and its withdrawal, and nothing is sealed (``proposal
  withdraw`` is refused once an open ballot with votes includes the proposal; a
  withdrawal that reached the folder another way, by a merge or by hand, is caught
  here).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..model import Proposal
from .texts import ballot_mismatches

if TYPE_CHECKING:
    from ..library import Library
    from .model import Ballot
    from .tally import QuestionResult


def text_changes(library: Library, ballot: Ballot) -> list[str]:
    """The options of ``ballot`` whose text is no longer the one its votes signed."""
    return [m.message for m in ballot_mismatches(library, ballot)]


def withdrawn_adoptions(library: Library, results: Iterable[QuestionResult]) -> list[str]:
    """The questions whose count adopts a proposal that has been withdrawn."""
    out: list[str] = []
    for result in results:
        entry = library.index.get(result.adopted) if result.adopted else None
        if not isinstance(entry, Proposal) or entry.withdrawn is None:
            continue
        why = f" ({entry.withdrawn.reason})" if entry.withdrawn.reason else ""
        out.append(f"question {result.question!r}: the count adopts {entry.ref}, which was "
                   f"withdrawn on {entry.withdrawn.date}{why}: a withdrawn proposal is "
                   f"never adopted; put the question to a new ballot without it "
                   f"(`rulesbook ballot new`)")
    return out
