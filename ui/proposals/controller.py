"""The proposal controller: every write of a member or a proposal from the app, each
one commit in the rules folder (``recorded_change``), run on a worker thread (the
check on a copy of the folder takes a moment); then the library is reloaded (also
off the GUI thread) and the new record shown. The core does the checking
(:mod:`rulesbook.proposing`)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QObject, QThread, Signal

from rulesbook import Library, Problem, Proposal
from rulesbook.ballots import SigningKey
from rulesbook.errors import RulesbookError
from rulesbook.proposing import (
    Draft,
    NewMember,
    Withdrawal,
    add_member,
    edit_proposal,
    plan_member,
    plan_proposal,
    propose,
    withdraw_proposal,
)
from rulesbook.proposing.core import check_author
from rulesbook.rulesfolder import recorded_change
from rulesbook.storage import durability_notes

if TYPE_CHECKING:
    from ..controller import AppController

T = TypeVar("T")


class _Write(QThread):
    """Runs one write; ``done(result, error)`` on the GUI thread when it ends."""

    done = Signal(object, str)

    def __init__(self, job: Callable[[], object], parent: QObject | None = None):
        super().__init__(parent)
        self._job = job

    def run(self) -> None:
        try:
            result = self._job()
        except (RulesbookError, OSError) as exc:
            self.done.emit(None, str(exc))
            return
        self.done.emit(result, "")


class ProposalController(QObject):
    """Signals:
      written(str)         a write landed and the library was reloaded: the ref shown
                           ("" for a new member)
      failed(str)          a write was refused (nothing written): why
      statusMessage(str)   a sentence for the status line
    """

    written = Signal(str)
    failed = Signal(str)
    statusMessage = Signal(str)

    def __init__(self, app: AppController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app  # the AppController: library, data folder, reload
        #: the key signed in (the Ballots workspace's key ring; MainWindow connects it):
        #: every proposal written is signed with it, and only its member's own proposals
        #: (or, for the secretary, any member's) can be written
        self.signer_of: Callable[[], SigningKey | None] = lambda: None
        self._thread: _Write | None = None
        self._after: tuple[str | None, str] | None = None

    @property
    def busy(self) -> bool:
        return self._thread is not None or self._after is not None

    def require_library(self) -> Library:
        """The library open in the app (RulesbookError when none is open)."""
        library = self.app.library
        if library is None:
            raise RulesbookError("no rules folder is open")
        return library

    @property
    def root(self) -> Path:
        return self.require_library().root

    # -- running a write ---------------------------------------------------------------
    def _start(self, job: Callable[[], T],
               shown: Callable[[T], tuple[str | None, str]]) -> bool:
        if self.busy:
            self.statusMessage.emit("Still writing the last change; try again in a moment")
            return False
        thread = _Write(job, self)
        thread.done.connect(lambda result, error: self._finished(thread, result, error, shown))
        self._thread = thread
        self.statusMessage.emit("Writing the change…")
        thread.start()
        return True

    def _finished(self, thread: _Write, result: Any, error: str,
                  shown: Callable[[Any], tuple[str | None, str]]) -> None:
        # ``result`` crossed a Qt signal (``object``): its type is the job's, which
        # _start tied to ``shown``'s parameter
        thread.wait()
        thread.deleteLater()
        self._thread = None
        if error:
            self.statusMessage.emit(f"Not written: {error}")
            self.failed.emit(error)
            return
        self._after = shown(result)
        self.app.libraryLoaded.connect(self._reloaded)
        self.app.loadFailed.connect(self._reload_failed)
        self.app.load_async(self.root)

    def _disconnect(self) -> None:
        self.app.libraryLoaded.disconnect(self._reloaded)
        self.app.loadFailed.disconnect(self._reload_failed)

    def _reloaded(self, _library: Library) -> None:
        self._disconnect()
        ref, message = self._after or (None, "")
        self._after = None
        if ref:
            self.app.open_ref(ref)
        self.statusMessage.emit(message)
        self.written.emit(ref or "")

    def _reload_failed(self, problems: list[Problem]) -> None:
        self._disconnect()
        self._after = None
        self.failed.emit(f"the change was written, but the folder no longer loads: "
                         f"{problems[0] if problems else '?'}")

    def _signer(self) -> SigningKey:
        signer = self.signer_of()
        if signer is None:
            raise RulesbookError("a proposal is signed by its author: sign in with your key "
                                 "on the Ballots workspace first (Use, Create or Import key)")
        return signer

    @staticmethod
    def _by(signer: SigningKey, author: str) -> str:
        """What the commit says of who wrote a proposal's change."""
        if signer.member == author:
            return f" (by member {author})"
        return f" (entered by secretary {signer.member} for member {author})"

    # -- the writes --------------------------------------------------------------------
    def add_member(self, name: str, letter: str | None = None) -> bool:
        planned = plan_member(self.require_library(), name, letter or None)  # the letter, checked
        root = self.root

        def job() -> NewMember:
            with durability_notes(), recorded_change(
                    root / "members.yaml", f"Member {planned.id}: {planned.name} joins the "
                    "committee"):
                return add_member(root, planned.name, planned.id)
        return self._start(job, lambda m: (None, f"Member {m.id}: {m.name} added"))

    def propose(self, *, member: str, rule: str | None, kind: str, text: str,
                title: str | None = None, concerns: Sequence[str] = (),
                topics: Sequence[str] = ()) -> bool:
        planned = plan_proposal(self.require_library(), member=member, rule=rule, kind=kind,
                                text=text, title=title, concerns=concerns,
                                topics=topics)  # the id, and every check
        what = f"{planned.kind} for {planned.rule.partition(':')[2]}" if planned.rule else \
            f"{planned.kind} {planned.title}"
        root = self.root
        signer = self._signer()
        check_author(root, planned.ref, planned.member, signer)  # refused here, at once
        entered = "" if signer.member == planned.member else self._by(signer, planned.member)

        def job() -> Draft:
            with durability_notes(), recorded_change(
                    root, f"Proposal {planned.id} by member {planned.member}: {what[:120]}"
                    f"{entered}", member=planned.member):
                return propose(root, member=member, rule=rule, kind=kind, text=text,
                               title=title, concerns=concerns, topics=topics, signer=signer)
        return self._start(job, lambda d: (d.ref, f"{d.ref} written ({d.kind} by member "
                                                  f"{d.member})"))

    def _author(self, ref: str) -> str:
        entry = self.require_library().resolve(ref)
        return entry.member if isinstance(entry, Proposal) else ""

    def edit(self, ref: str, text: str) -> bool:
        root = self.root
        signer = self._signer()
        by = self._by(signer, self._author(ref))

        def job() -> Proposal:
            with durability_notes(), recorded_change(root, f"Proposal {ref}: text edited{by}",
                                                     member=signer.member):
                return edit_proposal(root, ref, text, signer=signer)
        return self._start(job, lambda p: (p.ref, f"{p.ref}: text replaced"))

    def withdraw(self, ref: str, reason: str = "") -> bool:
        why = f" ({reason.strip()[:120]})" if reason.strip() else ""
        root = self.root
        signer = self._signer()
        by = self._by(signer, self._author(ref))

        def job() -> Withdrawal:
            with durability_notes(), recorded_change(
                    root, f"Proposal {ref}: withdrawn{why}{by}", member=signer.member):
                return withdraw_proposal(root, ref, reason, signer=signer)
        return self._start(job, lambda w: (w.ref, f"{w.ref}: withdrawn on {w.date}"))
