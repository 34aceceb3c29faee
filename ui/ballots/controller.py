"""The ballot controller: the open ballot, its file, unsaved changes, the tally.

Signals:
  ballotChanged(object)        the ballot (a core Ballot) changed, or another was opened
  dirtyChanged(bool)           there are (no longer) unsaved votes
  tallyChanged(object)         tuple[QuestionResult] under the method being previewed
  verified(object)             a core Verification of the file on disk
  adopted(str)                 a new edition was written to editions.yaml
  recoveryFound(object)        a Recovery (unsaved votes of an earlier session) may be restored
  recoveryNotice(str)          a recovery was refused or kept aside (a plain sentence), or ""
  statusMessage(str)

Unsaved changes are kept in a recovery file (``recovery.py``) on every change;
the ballot file itself is only written on the user's action. The SHA-256 of the
bytes the ballot was read from (``base_digest``) tells whether the file changed
on disk since: a save over a changed file raises :class:`BallotConflict`.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from rulesbook.ballots import (
    CLOSERS,
    METHODS,
    Ballot,
    BallotError,
    Verification,
    Vote,
    adopt_ballot,
    build_ballot,
    cast_vote,
    close_ballot,
    dump_ballot,
    import_member_votes,
    load_ballot,
    load_member_ballot,
    open_ballot,
    receipt_code,
    tally,
    verify_file,
)
from rulesbook.rulesfolder import RulesFolderError, recorded_change
from rulesbook.storage import SaveError, atomic_write_text, durability_notes, file_lock

from ..autosave import bytes_digest, file_digest, in_use_notice
from .keyring import KeyRing
from .ranking import parse_ranking_numbers
from .reapply import ranking_in, reapply_changes
from .recovery import (
    Recovery,
    all_recoveries,
    describe_changes,
    find_recovery,
    recovery_path,
    set_recovery_aside,
    write_recovery,
)


class BallotConflict(BallotError):
    """The ballot file changed on disk since it was read: saving would overwrite
    someone else's work. Resolve with ``reload_and_reapply()`` or ``overwrite``."""

    def __init__(self, path: Path, changes: list[dict]):
        self.path = path
        super().__init__(
            f"{path.name} changed on disk since it was opened (another secretary saved it, "
            f"or a member's ballot was imported); your unsaved changes: "
            f"{describe_changes(changes)}")


def _read_ballot(path: Path) -> tuple[Ballot, str | None]:
    """The ballot in ``path`` and the SHA-256 of exactly the bytes it was read from."""
    for _ in range(5):
        before = file_digest(path)
        ballot = load_ballot(path)
        if file_digest(path) == before:
            return ballot, before
    raise BallotError(f"{path} keeps changing while it is read; try again")


class BallotController(QObject):
    ballotChanged = Signal(object)
    dirtyChanged = Signal(bool)
    tallyChanged = Signal(object)
    verified = Signal(object)
    adopted = Signal(str)
    recoveryFound = Signal(object)
    recoveryNotice = Signal(str)
    statusMessage = Signal(str)

    def __init__(self, app=None, parent: QObject | None = None):
        super().__init__(parent)
        self.app = app  # the AppController (library, reload after adoption)
        self.ballot: Ballot | None = None
        self.path: Path | None = None
        self.dirty = False
        self.preview_method: str | None = None  # None: the ballot's own method
        self.results: tuple = ()
        self.verification: Verification | None = None
        #: sha256 of the bytes of ``path`` the ballot was read from or last saved as
        #: (None: no file yet)
        self.base_digest: str | None = None
        #: the unsaved changes, in order: {"op": "vote", member, question, ranking,
        #: source} or {"op": "method", method}
        self.changes: list[dict] = []
        self.autosave_enabled = True
        self.last_autosave_error = ""
        #: the recovery of an earlier session offered for the user's decision
        self.pending: Recovery | None = None
        self._owns_recovery = False  # only this session's recovery file is ever deleted
        #: the user's signing key: every vote entered here is signed with it (the
        #: member's own vote, or a proxy vote of the chair or secretary)
        self.keys = KeyRing(lambda: getattr(self.library, "root", None), self)
        self.last_receipt = ""

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
        """Read a ballot file (raises BallotError listing every problem), then look
        for unsaved changes an earlier session left for it (:meth:`check_recovery`)."""
        path = Path(path)
        ballot, digest = _read_ballot(path)
        self._forget_session()
        self.base_digest = digest
        self._set(ballot, path, dirty=False)
        self.verification = None
        self.statusMessage.emit(f"Opened ballot {ballot.id} ({ballot.status})")
        self.check_recovery()
        return ballot

    def new_from_library(self, ballot_id: str, path: str | Path, **options) -> Ballot:
        """Build an open ballot for the edition in force; not written until saved. Its
        settings are signed with the key in use when it is the chair's or the
        secretary's; else it is an unsigned draft (:meth:`sign_settings`)."""
        if self.library is None:
            raise BallotError("no library is loaded")
        signer = self.keys.signer
        registry = self.keys.registry()
        if signer is not None and registry.role_at(signer.member) not in CLOSERS:
            signer = None
        ballot = build_ballot(self.library, ballot_id, signer=signer, registry=registry,
                              **options)
        self._forget_session()
        self.base_digest = file_digest(path)
        self._set(ballot, Path(path), dirty=True)
        self.verification = None
        return ballot

    def sign_settings(self) -> Ballot:
        """Sign the open ballot's settings (it has no vote yet) with the key in use, the
        chair's or the secretary's: the ballot then takes votes."""
        if self.ballot is None or self.library is None:
            raise BallotError("no ballot is open")
        ballot = open_ballot(self.library, self.ballot, self.keys.require(), None,
                             self.keys.registry())
        self._set(ballot)
        from rulesbook.ballots.roll import quorum_note

        note = quorum_note(ballot.roll, ballot.quorum, self.keys.registry())
        self.statusMessage.emit(f"Settings of ballot {ballot.id} signed by "
                                f"{ballot.opened.by if ballot.opened else '?'}"
                                + (f"; {note}" if note else ""))
        return ballot

    def _forget_session(self) -> None:
        """Another ballot replaces this one (its unsaved changes were saved or discarded)."""
        self.changes = []
        self._owns_recovery = False
        self._set_pending(None)

    def _set(self, ballot: Ballot, path: Path | None = None, dirty: bool = True) -> None:
        self.ballot = ballot
        if path is not None:
            self.path = path
        if dirty != self.dirty:
            self.dirty = dirty
            self.dirtyChanged.emit(dirty)
        if dirty:
            self.autosave()
        self.ballotChanged.emit(ballot)
        self.recount()

    # -- recovery of unsaved changes -------------------------------------------------
    @property
    def recovery_file(self) -> Path | None:
        return recovery_path(self.path) if self.path is not None else None

    def autosave(self) -> bool:
        """Write the unsaved ballot and its changes to the recovery file (atomic); never
        raises. A recovery of an earlier session still waiting for the user's decision
        is kept aside first, never overwritten."""
        if not self.autosave_enabled or self.ballot is None or self.path is None:
            return False
        pending = self.pending
        if pending is not None and pending.file == self.recovery_file:
            aside = set_recovery_aside(pending)
            if aside is None:  # never overwrite it: this change stays in memory only
                self.statusMessage.emit(f"Autosave of the unsaved votes failed: the earlier "
                                        f"unsaved changes in {pending.file} could not be "
                                        f"moved aside")
                return False
            self._set_pending(None)
            self.recoveryNotice.emit(
                f"The unsaved changes of {pending.saved_at or 'an earlier session'} "
                f"({pending.summary}) were not restored; they are kept at {aside}.")
        try:
            write_recovery(self.path, dump_ballot(self.ballot), self.ballot.id,
                           self.base_digest, self.changes)
        except (OSError, SaveError) as exc:
            if str(exc) != self.last_autosave_error:
                self.last_autosave_error = str(exc)
                self.statusMessage.emit(f"Autosave of the unsaved votes failed: {exc}")
            return False
        self.last_autosave_error = ""
        self._owns_recovery = True
        return True

    def discard_recovery_file(self) -> None:
        """Delete the recovery file this session wrote or restored (never another's)."""
        if self._owns_recovery and self.recovery_file is not None:
            try:
                self.recovery_file.unlink()
            except OSError:
                pass
        self._owns_recovery = False

    def discard_changes(self) -> None:
        """The user discards the unsaved changes: their recovery file goes too."""
        self.discard_recovery_file()
        self.changes = []

    def _set_pending(self, recovery: Recovery | None) -> None:
        if recovery is None and self.pending is None:
            return
        self.pending = recovery
        self.recoveryFound.emit(recovery)  # None: nothing is offered any more

    def check_recovery(self) -> Recovery | None:
        """Offer the unsaved changes an earlier session left: this ballot's, or else the
        newest other one (a new ballot never saved, another file). A recovery made on
        a version of the file that is no longer on disk is refused and kept aside."""
        if self.dirty:
            return None
        busy: list[Recovery] = []
        own = find_recovery(self.path, busy) if self.path is not None else None
        candidates = [own] if own is not None else all_recoveries(busy)
        for other in busy:  # never hidden silently
            self.recoveryNotice.emit(in_use_notice(
                other.file, f"Unsaved changes to ballot {other.ballot_id} ({other.summary})"))
        for recovery in candidates:
            if recovery.is_stale():
                self._refuse(recovery)
                continue
            self._set_pending(recovery)
            return recovery
        return None

    def _refuse(self, recovery: Recovery) -> None:
        aside = set_recovery_aside(recovery)
        now = "no longer exists" if not recovery.path.exists() else "has changed"
        self.recoveryNotice.emit(
            f"Unsaved changes to ballot {recovery.ballot_id} from "
            f"{recovery.saved_at or 'an earlier session'} ({recovery.summary}) were NOT "
            f"restored: the ballot file {recovery.path} {now} since they were made (another "
            f"secretary saved it, or a member's ballot was imported), and restoring them "
            f"would undo that. They are kept at {aside or recovery.file}.")
        if self.pending is recovery:
            self.pending = None

    def restore_recovery(self) -> bool:
        """Restore the offered recovery (unsaved again, as it was); False when refused."""
        recovery = self.pending
        if recovery is None:
            return False
        self.pending = None
        if recovery.is_stale():
            self._refuse(recovery)
            return False
        try:
            ballot = recovery.ballot()
        except BallotError as exc:
            aside = set_recovery_aside(recovery)
            self.recoveryNotice.emit(f"The unsaved changes could not be restored ({exc}); "
                                     f"the recovery file is kept at {aside or recovery.file}.")
            return False
        self.verification = None
        self.base_digest = recovery.base_digest
        self.changes = list(recovery.changes)
        self._owns_recovery = True
        self._set(ballot, recovery.path, dirty=True)
        self.statusMessage.emit(f"Restored the unsaved changes of {recovery.saved_at}: "
                                f"{recovery.summary} (not saved yet)")
        return True

    def discard_recovery(self) -> None:
        """The user does not want the offered recovery: delete it."""
        recovery = self.pending
        self.pending = None
        if recovery is not None:
            try:
                recovery.file.unlink()
            except OSError:
                pass
            self.statusMessage.emit("Discarded the unsaved changes of the earlier session")

    # -- voting ------------------------------------------------------------------------
    def cast(self, member: str, question: str, ranking) -> Ballot:
        """Record a vote (a list of options or numbers text); raises BallotError."""
        if self.ballot is None:
            raise BallotError("no ballot is open")
        if isinstance(ranking, str):
            ranking = parse_ranking_numbers(self.ballot.find_question(question), ranking)
        signer = self.keys.require()
        proxy = None if signer.member == member else signer.member
        ballot = cast_vote(self.ballot, member, question, ranking, source="app",
                           signer=signer, proxy_by=proxy, registry=self.keys.registry())
        q = ballot.find_question(question)
        vote = self._recorded(ballot, member, q.id)
        self.changes.append({"op": "vote", "member": member, "question": q.id,
                             "ranking": list(vote.ranking), "source": "app",
                             "vote": vote.to_dict()})
        self.last_receipt = receipt_code(vote.signature)
        self._set(ballot)
        self.statusMessage.emit(f"Vote of {member} on {q.id} recorded"
                                + (f" by proxy ({proxy})" if proxy else "")
                                + f"; receipt {self.last_receipt}")
        return ballot

    def _recorded(self, ballot: Ballot, member: str, question: str) -> Vote:
        """The vote just recorded for ``member`` on ``question``."""
        vote = self.vote_in(ballot, member, question)
        if vote is None:
            raise BallotError(f"the vote of {member} on {question} was not recorded")
        return vote

    def import_member_file(self, path: str | Path) -> Ballot:
        """Merge a member's ballot file: all of it or (BallotError) nothing."""
        if self.ballot is None:
            raise BallotError("no ballot is open")
        doc = load_member_ballot(path)
        ballot = import_member_votes(self.ballot, doc, self.keys.registry())
        member = doc.data["member"]
        for raw in doc.data.get("votes", ()):
            qid = ballot.find_question(raw["question"]).id
            vote = self._recorded(ballot, member, qid)
            self.changes.append({"op": "vote", "member": member, "question": qid,
                                 "ranking": list(vote.ranking),
                                 "source": f"import {Path(path).name}",
                                 "vote": vote.to_dict()})
        self._set(ballot)
        n = len(doc.data.get("votes", ()))
        self.statusMessage.emit(f"Imported {n} vote(s) of member {doc.data['member']} "
                                f"from {Path(path).name} (not saved yet)")
        return ballot

    def export_member_file(self, path: str | Path) -> str:
        """Write the key holder's own votes, signed, as a member's ballot (what
        `ballot export` writes); returns the receipt code."""
        from rulesbook.ballots import dump_member_ballot, export_member_ballot
        from rulesbook.ballots.registry import now_utc

        if self.ballot is None:
            raise BallotError("no ballot is open")
        signer = self.keys.require()
        doc, receipt = export_member_ballot(self.ballot, signer.member, signer, now_utc())
        try:
            atomic_write_text(path, dump_member_ballot(doc))
        except SaveError as exc:
            raise BallotError(str(exc)) from None
        self.last_receipt = receipt
        self.statusMessage.emit(f"Exported {len(doc['votes'])} vote(s) of {signer.member}, "
                                f"signed, to {Path(path).name}; receipt {receipt}")
        return receipt

    def ranking_of(self, member: str, question: str) -> tuple[str, ...] | None:
        if self.ballot is None:
            return None
        return self.ranking_in(self.ballot, member, question)

    @staticmethod
    def vote_in(ballot: Ballot, member: str, question: str) -> Vote | None:
        for vote in ballot.votes:
            if vote.member == member and vote.question == question:
                return vote
        return None

    #: the ranking a member gave on a question in a ballot (None: no vote)
    ranking_in = staticmethod(ranking_in)

    # -- method and tally ------------------------------------------------------------
    def set_preview_method(self, method: str | None) -> None:
        """Count with ``method`` to see what it would elect (the file is unchanged)."""
        if method is not None and method not in METHODS:
            raise BallotError(f"unknown method {method!r}")
        self.preview_method = method
        self.recount()

    def choose_method(self, method: str) -> None:
        """Record ``method`` as the counting method of an unsigned draft (an unsaved
        change); refused once the settings are signed (issue 27)."""
        if self.ballot is None or method == self.ballot.method:
            return
        if not self.ballot.is_open:
            raise BallotError("the ballot is closed: its method cannot change")
        if method not in METHODS:
            raise BallotError(f"unknown method {method!r}")
        if self.ballot.opened is not None:
            raise BallotError(f"the counting method is one of the settings "
                              f"{self.ballot.opened.by} signed when the ballot was opened: it "
                              f"cannot change now (Count with… shows another method's result "
                              f"without changing the ballot)")
        self.preview_method = None
        self.changes.append({"op": "method", "method": method})
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
    def changed_on_disk(self) -> bool:
        """The ballot file is not the one the ballot was read from (or last saved as)."""
        return self.path is not None and file_digest(self.path) != self.base_digest

    def _write(self, target: Path, ballot: Ballot, overwrite: bool) -> Path:
        """Write ``ballot`` to its own file, refusing (BallotConflict) to overwrite a file
        that changed on disk unless ``overwrite``; the version overwritten then stays
        as ``NAME~``."""
        same = self.path is not None and target.resolve() == self.path.resolve()
        text = dump_ballot(ballot)
        votes = [c for c in self.changes if c.get("op") == "vote"]
        voters = {c["member"] for c in votes}
        if ballot.seal is not None and (self.ballot is None or self.ballot.seal is None):
            message = f"Close ballot {ballot.id}: results stored and sealed"
        elif self.changes:
            message = f"Ballot {ballot.id}: {describe_changes(self.changes)}"
        else:
            message = f"Ballot {ballot.id}: saved to {target.name}"
        try:
            # one commit in the rules folder; no other writer between the check and the write
            with recorded_change(target, message,
                                 member=next(iter(voters)) if len(voters) == 1 else None), \
                    file_lock(target):
                changed = same and self.changed_on_disk()
                if changed and not overwrite:
                    raise BallotConflict(target, self.changes)
                backup = changed and target.exists()
                with durability_notes() as notes:
                    written = atomic_write_text(target, text, backup=backup)
        except RulesFolderError as exc:
            raise SaveError(str(exc)) from None
        for note in notes:  # written, but the folder could not be flushed: say so
            self.statusMessage.emit(note)
        self.discard_recovery_file()
        self.path = written
        self.base_digest = bytes_digest(text.encode("utf-8"))
        self.changes = []
        if backup:
            self.statusMessage.emit(f"Overwrote the changed file; the version on disk was "
                                    f"kept as {written.name}~")
        return written

    def save(self, path: str | Path | None = None, overwrite: bool = False) -> Path:
        """Write the ballot (atomic). Raises BallotConflict when its file changed on
        disk since it was read, unless ``overwrite``."""
        if self.ballot is None:
            raise BallotError("no ballot is open")
        target = Path(path) if path is not None else self.path
        if target is None:
            raise BallotError("choose where to save the ballot")
        written = self._write(target, self.ballot, overwrite)
        if self.dirty:
            self.dirty = False
            self.dirtyChanged.emit(False)
        self.statusMessage.emit(f"Saved ballot {self.ballot.id} to {written}")
        return written

    def reload_and_reapply(self) -> list[str]:
        """Read the ballot file again and re-apply the unsaved changes on it, each vote
        with ``cast_vote`` (so a vote recorded meanwhile goes to the history). All or
        nothing: BallotError and nothing changes when one cannot be applied. Returns
        notes on the votes recorded meanwhile that a re-applied vote replaced. The
        result is unsaved."""
        if self.path is None or self.ballot is None:
            raise BallotError("no ballot file")
        disk, digest = _read_ballot(self.path)
        if not disk.is_open:
            raise BallotError(f"the ballot {disk.id} was closed and sealed on disk since you "
                              f"opened it: your unsaved changes ({describe_changes(self.changes)})"
                              f" cannot be applied to it; they stay in this window and in the "
                              f"recovery file {self.recovery_file}")
        ballot, notes = reapply_changes(disk, self.changes, self.keys)
        self.base_digest = digest
        self.verification = None
        self._set(ballot, dirty=True)
        self.statusMessage.emit(f"Re-applied your unsaved changes ({describe_changes(self.changes)})"
                                f" to the ballot as it is on disk now (not saved yet)")
        return notes

    def close_and_seal(self, overwrite: bool = False) -> Ballot:
        """Close the ballot (votes counted with its method), seal it and save it
        (BallotConflict when the file changed on disk, unless ``overwrite``)."""
        if self.ballot is None:
            raise BallotError("no ballot is open")
        if self.path is None:
            raise BallotError("choose where to save the ballot")
        library = self.library  # the texts voted on, when the ballot is in its folder
        if library is not None and not self.path.resolve().is_relative_to(
                Path(library.root).resolve()):
            library = None
        closed = close_ballot(self.ballot, self.keys.require(), self.keys.registry(),
                              library=library)
        self._write(self.path, closed, overwrite)
        self.preview_method = None
        self._set(closed, dirty=False)
        self.statusMessage.emit(f"Ballot {closed.id} closed and sealed: "
                                f"sha256 {closed.seal.digest[:16] if closed.seal else '?'}…")
        return closed

    def verify(self) -> Verification:
        """Verify the file on disk (what others will read), not the copy in memory."""
        if self.path is None:
            raise BallotError("no ballot file")
        verification = verify_file(self.path, self.keys.registry())
        self.verification = verification
        self.verified.emit(verification)
        return verification

    def check_receipt(self, code: str):
        """Is the vote of receipt ``code`` in the sealed ballot on disk, unchanged?"""
        from rulesbook.ballots import check_receipt, load_ballot

        if self.path is None:
            raise BallotError("no ballot file")
        return check_receipt(load_ballot(self.path), code)

    def adopt(self, edition_id: str, title: str | None = None, date: str | None = None) -> str:
        """Write the next edition from the sealed file on disk, then reload the data folder."""
        library = self.library
        if library is None or self.path is None:
            raise BallotError("no ballot or no library")
        if self.dirty:
            raise BallotError("the ballot has unsaved changes")
        verification = self.verify()
        if not verification.ok:  # the banner lists every failure
            raise BallotError("the ballot does not verify, it cannot be adopted: "
                              + "; ".join(verification.failures))
        ballot = load_ballot(self.path)
        signer = self.keys.require()  # the adopter signs the edition record
        try:
            with recorded_change(library.root / "editions.yaml",
                                 f"Adopt ballot {ballot.id} as edition {edition_id}"):
                adopt_ballot(library, ballot, edition_id, signer=signer, title=title,
                             date=date)
        except (SaveError, RulesFolderError) as exc:
            raise BallotError(str(exc)) from None
        self.adopted.emit(edition_id)
        self.statusMessage.emit(f"Edition {edition_id} written to editions.yaml")
        self.app.load(library.root)
        return edition_id
