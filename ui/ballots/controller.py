"""The ballot controller: the open ballot, its file, unsaved changes, the tally.

Signals:
  ballotChanged(object)        the ballot (a core Ballot) changed, or another was opened
  dirtyChanged(bool)           there are (no longer) unsaved votes
  tallyChanged(object)         tuple[QuestionResult] under the method being previewed
  verified(object)             a core Verification of the file on disk
  adopted(str)                 a new edition was written to editions.yaml
  statusMessage(str)
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from rulesbook.ballots import (
    METHODS,
    Ballot,
    BallotError,
    Question,
    adopt_ballot,
    build_ballot,
    cast_vote,
    close_ballot,
    import_member_votes,
    load_ballot,
    load_member_ballot,
    save_ballot,
    tally,
    verify_file,
)
from rulesbook.storage import SaveError

METHOD_LABELS = {"plurality": "Plurality (first choices)", "irv": "Instant runoff (IRV)",
                 "schulze": "Schulze (pairwise)", "approval": "Approval"}
THRESHOLD_LABELS = {"plurality": "most votes", "simple-majority": "more than half",
                    "two-thirds": "at least two thirds", "three-quarters": "at least three quarters"}


def parse_ranking_numbers(question: Question, text: str) -> list[str]:
    """A ranking typed as option numbers ("2 1 3", "2,1"), or as option names
    ("10A 10"); "-" or "0" abstains. Raises BallotError with a plain message."""
    text = text.strip()
    if text in ("-", "0", "abstain"):
        return []
    if not text:
        raise BallotError("type the options in order of preference, e.g. 2 1 3 "
                          "(or - to abstain)")
    out = []
    for token in [t for t in re.split(r"[\s,>]+", text) if t]:
        if token.isdigit():
            n = int(token)
            if not 1 <= n <= len(question.options):
                raise BallotError(f"there is no option {n}: question {question.id!r} has "
                                  f"options 1 to {len(question.options)}")
            out.append(question.options[n - 1])
        else:
            out.append(token)
    return out


class BallotController(QObject):
    ballotChanged = Signal(object)
    dirtyChanged = Signal(bool)
    tallyChanged = Signal(object)
    verified = Signal(object)
    adopted = Signal(str)
    statusMessage = Signal(str)

    def __init__(self, app=None, parent: QObject | None = None):
        super().__init__(parent)
        self.app = app  # the AppController (library, reload after adoption)
        self.ballot: Ballot | None = None
        self.path: Path | None = None
        self.dirty = False
        self.preview_method: str | None = None  # None: the ballot's own method
        self.results: tuple = ()
        self.verification = None

    # -- opening ------------------------------------------------------------------
    @property
    def library(self):
        return getattr(self.app, "library", None)

    def library_ballots(self) -> list[Path]:
        """The ballot files of the data folder."""
        library = self.library
        if library is None:
            return []
        return [Path(library.root) / d.file for d in library.extra.get("ballot", ())]

    def open(self, path: str | Path) -> Ballot:
        """Read a ballot file (raises BallotError listing every problem)."""
        ballot = load_ballot(path)
        self._set(ballot, Path(path), dirty=False)
        self.verification = None
        self.statusMessage.emit(f"Opened ballot {ballot.id} ({ballot.status})")
        return ballot

    def new_from_library(self, ballot_id: str, path: str | Path, **options) -> Ballot:
        """Build an open ballot for the edition in force; not written until saved."""
        if self.library is None:
            raise BallotError("no library is loaded")
        ballot = build_ballot(self.library, ballot_id, **options)
        self._set(ballot, Path(path), dirty=True)
        self.verification = None
        return ballot

    def _set(self, ballot: Ballot, path: Path | None = None, dirty: bool = True) -> None:
        self.ballot = ballot
        if path is not None:
            self.path = path
        if dirty != self.dirty:
            self.dirty = dirty
            self.dirtyChanged.emit(dirty)
        self.ballotChanged.emit(ballot)
        self.recount()

    # -- voting ------------------------------------------------------------------------
    def cast(self, member: str, question: str, ranking) -> Ballot:
        """Record a vote (a list of options or numbers text); raises BallotError."""
        if self.ballot is None:
            raise BallotError("no ballot is open")
        if isinstance(ranking, str):
            ranking = parse_ranking_numbers(self.ballot.find_question(question), ranking)
        ballot = cast_vote(self.ballot, member, question, ranking, source="app")
        self._set(ballot)
        return ballot

    def import_member_file(self, path: str | Path) -> Ballot:
        """Merge a member's ballot file: all of it or (BallotError) nothing."""
        if self.ballot is None:
            raise BallotError("no ballot is open")
        doc = load_member_ballot(path)
        ballot = import_member_votes(self.ballot, doc)
        self._set(ballot)
        n = len(doc.data.get("votes", ()))
        self.statusMessage.emit(f"Imported {n} vote(s) of member {doc.data['member']} "
                                f"from {Path(path).name} (not saved yet)")
        return ballot

    def ranking_of(self, member: str, question: str) -> tuple[str, ...] | None:
        if self.ballot is None:
            return None
        for vote in self.ballot.votes:
            if vote.member == member and vote.question == question:
                return vote.ranking
        return None

    # -- method and tally ------------------------------------------------------------
    def set_preview_method(self, method: str | None) -> None:
        """Count with ``method`` to see what it would elect (the file is unchanged)."""
        if method is not None and method not in METHODS:
            raise BallotError(f"unknown method {method!r}")
        self.preview_method = method
        self.recount()

    def choose_method(self, method: str) -> None:
        """Record ``method`` as the ballot's counting method (an unsaved change)."""
        if self.ballot is None or method == self.ballot.method:
            return
        if not self.ballot.is_open:
            raise BallotError("the ballot is closed: its method cannot change")
        if method not in METHODS:
            raise BallotError(f"unknown method {method!r}")
        self.preview_method = None
        self._set(dataclasses.replace(self.ballot, method=method))

    @property
    def method(self) -> str | None:
        if self.ballot is None:
            return None
        return self.preview_method or self.ballot.method

    def recount(self) -> tuple:
        self.results = tally(self.ballot, self.method) if self.ballot is not None else ()
        self.tallyChanged.emit(self.results)
        return self.results

    # -- writing (only on the user's action) -------------------------------------------
    def save(self, path: str | Path | None = None) -> Path:
        if self.ballot is None:
            raise BallotError("no ballot is open")
        target = Path(path) if path is not None else self.path
        if target is None:
            raise BallotError("choose where to save the ballot")
        written = save_ballot(target, self.ballot)
        self.path = written
        if self.dirty:
            self.dirty = False
            self.dirtyChanged.emit(False)
        self.statusMessage.emit(f"Saved ballot {self.ballot.id} to {written}")
        return written

    def close_and_seal(self) -> Ballot:
        """Close the ballot (votes counted with its method), seal it and save it."""
        if self.ballot is None:
            raise BallotError("no ballot is open")
        closed = close_ballot(self.ballot)
        save_ballot(self.path, closed)
        self.preview_method = None
        self._set(closed, dirty=False)
        self.statusMessage.emit(f"Ballot {closed.id} closed and sealed: "
                                f"sha256 {closed.seal.digest[:16]}…")
        return closed

    def verify(self):
        """Verify the file on disk (what others will read), not the copy in memory."""
        if self.path is None:
            raise BallotError("no ballot file")
        self.verification = verify_file(self.path)
        self.verified.emit(self.verification)
        return self.verification

    def adopt(self, edition_id: str, title: str | None = None) -> str:
        """Write the next edition from the sealed file on disk, then reload the data folder."""
        library = self.library
        if library is None or self.path is None:
            raise BallotError("no ballot or no library")
        if self.dirty:
            raise BallotError("the ballot has unsaved changes")
        ballot = load_ballot(self.path)
        try:
            adopt_ballot(library, ballot, edition_id, title=title)
        except SaveError as exc:
            raise BallotError(str(exc)) from None
        self.adopted.emit(edition_id)
        self.statusMessage.emit(f"Edition {edition_id} written to editions.yaml")
        self.app.load(library.root)
        return edition_id
