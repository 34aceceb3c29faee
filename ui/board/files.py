"""The board session and files: records imported (PDN or a move list), the
autosave (written at every change, recovered after a crash) and the referee's
case file (:mod:`rulesbook.reconstruct.case`).
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from rulesbook.draughts import DraughtsError, Variant
from rulesbook.draughts.pdn_variant import VariantGuess, variant_title
from rulesbook.errors import RulesbookError
from rulesbook.reconstruct import (
    BoardSession,
    GameChunk,
    GameRecord,
    ImportedRecord,
    Replay,
    case_findings,
    case_from_session,
    checked_case_text,
    import_record,
    load_case,
    session_from_case,
    split_games,
)
from rulesbook.reconstruct.record import looks_like_pdn
from rulesbook.rulesfolder import recorded_change
from rulesbook.storage import atomic_write_text, durability_notes
from rulesbook.textio import shorten, visible_controls

from ..autosave import AutosaveSlot, in_use_notice
from .mode import BoardMode
from .reading import (
    LONG_PLIES,
    READ_IN_WORKER_CHARS,
    Prepared,
    Progress,
    ReadRecord,
    RecordReader,
    Say,
    game_size,
    prepare,
)
from .setup import TOOLS

if TYPE_CHECKING:
    from .controller import BoardController

__all__ = ["SessionFiles", "SESSION_VERSION"]

#: the version of the autosave's JSON (files of another version are ignored)
SESSION_VERSION = 1
#: case files larger than this are read, replayed and counted off the GUI thread
#: (a case of about 300 plies)
CASE_IN_WORKER_BYTES = 12_000
#: what makes an autosave or a case file unreadable (said as the error says it)
_BAD_AUTOSAVE = (DraughtsError, KeyError, TypeError, ValueError)
_BAD_CASE = (RulesbookError, DraughtsError, OSError, ValueError)
#: what makes a case unsavable (a check that fails, a folder that refuses the file)
_BAD_SAVE = (RulesbookError, DraughtsError, OSError)
#: how often the progress over the move list is said again while a step of a
#: reader that does not say how far it is takes long (its time so far), in ms
PROGRESS_BEAT_MS = 400
#: records of more plies than this are saved by Save Case off the GUI thread (the
#: case file's text of 60,000 plies took 0.4 s to write out and check)
SAVE_IN_WORKER_PLIES = LONG_PLIES


class SessionFiles(QObject):
    """Autosave, recovery and case files of one board.

    Signals:
      statusMessage(str)   a sentence for the status line
      imported(object)     an :class:`~ui.board.variantnote.ImportedGame`: a record
                           was imported (what, from which text, how its variant was read)
      readFinished(bool)   a record read off the GUI thread is shown (True) or was
                           refused or not read (False)
      saveFinished(bool)   a Save Case worked out off the GUI thread is written (True)
                           or could not be (False)
      progressChanged(str) how far the reader of a long record is (:attr:`progress`)
    """

    statusMessage = Signal(str)
    imported = Signal(object)
    readFinished = Signal(bool)
    saveFinished = Signal(bool)
    progressChanged = Signal(str)

    def __init__(self, board: BoardController, autosave_path: Path):
        super().__init__(board)
        self._board = board
        self._slot = AutosaveSlot(autosave_path, SESSION_VERSION)
        self.enabled = True
        #: when the restored autosave was written (its own ``saved_at``, shown as
        #: written, cut short), "" until :meth:`recover` restores one
        self.recovered_at = ""
        #: asked before an import replaces unsaved work, with what would replace it;
        #: False keeps everything as it is (the workspace asks Save / Discard / Cancel)
        self.may_replace: Callable[[str], bool] = lambda _what: True
        #: the record last imported, as the core read it (None before any import)
        self.last_import: ImportedRecord | None = None
        #: the reader of a long record until it is shown (:meth:`load_text`)
        self.reading: RecordReader | None = None
        #: what the reader last said ("Reading x.pdn: replayed 12,000 of 60,000 plies
        #: (20%)…", shown over the move list too), "" when none reads
        self.progress = ""
        #: the worker of a long record's Save Case until the file is written
        #: (:meth:`save_case_soon`), and the text it worked out
        self.saving: RecordReader | None = None
        self._save_outcome: list[tuple[bool, str]] = []
        self._save_finish: Callable[[object, bool], None] = lambda _result, _ok: None
        #: the reading of a long autosave held until the count limits are known
        #: (:meth:`hold_recovery`), None when not held
        self._held: list[Callable[[], None]] | None = None

    @property
    def autosave_path(self) -> Path:
        return self._slot.path

    def to_session(self) -> dict[str, Any]:
        """The autosave's JSON: the core session and where the user is in it."""
        board = self._board
        data = board.session.to_dict()
        data.update({
            "version": SESSION_VERSION,
            "pid": os.getpid(),
            "ply": board.ply,
            "saved_at": time.strftime("%Y-%m-%d %H:%M:%S"),
            "dirty": board.dirty,
            "case_path": str(board.case_path) if board.case_path else None,
            "mode": board.mode.value if board.mode is not BoardMode.CHECK else "play",
            "tool": board.setup.tool,
            "origin": board.origin,
        })
        return data

    def load_session(self, data: Mapping[str, Any]) -> None:
        """Restore :meth:`to_session` (raises SessionError or a DraughtsError)."""
        session = BoardSession.from_dict(data)
        tool = data.get("tool")
        if tool in TOOLS:
            self._board.setup.set_tool(str(tool))
        path = data.get("case_path")
        ply = data.get("ply", 0)
        self._board.restore(session, ply if isinstance(ply, int) else 0,
                            str(data.get("mode", "play")), bool(data.get("dirty", True)),
                            Path(path) if isinstance(path, str) and path else None,
                            origin=_origin(data, session))

    def autosave(self) -> bool:
        """Write the session to the autosave file at once (atomic); never raises."""
        if not self.enabled:
            return False
        data = self.to_session()
        del data["moves"]  # encoded once per move (a long record's autosave, every edit)
        error = self._slot.write(data, {"moves": self._board.record.moves_json()})
        if error:
            self.statusMessage.emit(f"Autosave failed: {error}")
        return not self._slot.last_error

    def recoverable(self) -> dict[str, Any] | None:
        """The newest autosaved session of a run that ended with unsaved changes."""
        return self._slot.recoverable(
            in_use=lambda file: self.statusMessage.emit(in_use_notice(file,
                                                                      "Unsaved board work")))

    def recover(self) -> bool:
        """Load the autosave of a previous run (if it had unsaved changes)."""
        data = self.recoverable()
        if data is None:
            return False
        moves = data.get("moves")
        if isinstance(moves, list) and len(moves) > LONG_PLIES:
            # a long record: restored off the GUI thread (:attr:`reading` until shown)
            self._recovering(data)
            return True
        try:
            self.load_session(data)
        except (DraughtsError, KeyError, TypeError, ValueError) as exc:
            self._not_recovered(str(exc))
            return False
        self._recovered(data)
        return True

    def hold_recovery(self) -> None:
        """A long autosave recovered from now on is read when :meth:`release_recovery`
        is called: the app starts before its library is loaded, and the record read
        under the limits of no library was counted again on the GUI thread when the
        library came (a second for 60,000 plies)."""
        self._held = []

    def release_recovery(self) -> None:
        """Read the autosave held by :meth:`hold_recovery` (if any) now."""
        held, self._held = self._held or [], None
        for start in held:
            start()

    def _not_recovered(self, why: str) -> None:
        self.statusMessage.emit(f"The autosave could not be restored: {why}")

    def _recovered(self, data: Mapping[str, Any]) -> None:
        self._slot.owned = True
        saved = data.get("saved_at")
        self.recovered_at = (visible_controls(shorten(saved, 30))
                             if isinstance(saved, str) else "")
        self.statusMessage.emit(f"Restored unsaved work from {self.recovered_at or 'the last run'}")

    def _recovering(self, data: Mapping[str, Any]) -> None:
        saved = data.get("saved_at")
        # said at once (the banner), as when restored on the GUI thread
        self.recovered_at = (visible_controls(shorten(saved, 30))
                             if isinstance(saved, str) else "")
        if self._held is not None:
            self._held.append(lambda: self._read_autosave(data))
        else:
            self._read_autosave(data)

    def _read_autosave(self, data: Mapping[str, Any]) -> None:
        counts = self._board.counts
        rules, library, edition = counts.rules_of(), counts.library, counts.edition_id

        def job(say: Say) -> tuple[BoardSession, Prepared]:
            say("reading the autosave")
            session = BoardSession.from_dict(data)
            return session, prepare(session.record, rules, library, edition, say)

        def done(read: tuple[BoardSession, Prepared]) -> None:
            session, prepared = read
            self._seed(prepared, edition)
            tool = data.get("tool")
            if tool in TOOLS:
                self._board.setup.set_tool(str(tool))
            path, ply = data.get("case_path"), data.get("ply", 0)
            self._board.restore(session, ply if isinstance(ply, int) else 0,
                                str(data.get("mode", "play")), bool(data.get("dirty", True)),
                                Path(path) if isinstance(path, str) and path else None,
                                origin=_origin(data, session), prepared=prepared.replay)
            self._recovered(data)
            self.readFinished.emit(True)

        def failed(why: str) -> None:
            self._not_recovered(why)
            self.readFinished.emit(False)

        self._start_reader(RecordReader(job, self, _BAD_AUTOSAVE),
                           "the unsaved work of the last run", done, failed)

    def discard_autosave(self) -> None:
        """Delete the autosave this session wrote or restored (never another's)."""
        self._slot.discard()

    @staticmethod
    def games_in(text: str) -> list[GameChunk]:
        """The games of a PDN text (titles for the chooser), without resolving moves."""
        return split_games(text)

    def load_text(self, text: str, index: int = 0, variant: str | Variant | None = None,
                  source: str = "", guess: bool = False, note: str = "") -> bool:
        """Import a record: PDN (game ``index`` of the file) or a plain move list.
        Games without a GameType tag are read as ``variant`` (the one chosen);
        with ``guess`` a PDN game without one is read in the variant in which the
        whole record is legal (the core's choice, announced). A long text is read
        off the GUI thread (:mod:`ui.board.reading`): True then says the reading
        began, :attr:`reading` is the reader until the record is shown (or
        refused, on the status line). ``note``: added to the status line's report."""
        board = self._board
        chosen: Variant | None = Variant.named(variant) if variant is not None \
            else board.variant
        if guess and looks_like_pdn(text):
            chosen = None  # the core reads an untyped PDN game in the variant that fits
        # unsaved work asked about first (not after a read of seconds); Cancel leaves
        # everything as it was, a record being read too
        if not self.may_replace(source or "the imported record"):
            self._kept()
            return False
        asked = board.session
        # a record still being read is not shown: its reader (a child of this object)
        # ends on its own, its result ignored
        self.reading = None
        if game_size(text, index) > READ_IN_WORKER_CHARS:
            return self._read_in_worker(text, index, chosen, source, note, asked)
        try:
            imported = import_record(text, index, chosen)
        except DraughtsError as exc:
            self._cannot_import(source, str(exc))
            return False
        return self._show(text, index, source, note, imported, None, asked)

    def _cannot_import(self, source: str, why: str) -> None:
        self.statusMessage.emit(f"Cannot import{' ' + source if source else ''}: {why}")

    def _read_in_worker(self, text: str, index: int, chosen: Variant | None, source: str,
                        note: str, asked: BoardSession) -> bool:
        counts = self._board.counts
        edition = counts.edition_id
        reader = RecordReader.of_text(text, index, chosen, counts.rules_of(), counts.library,
                                      edition, self)

        def done(read: ReadRecord) -> None:
            self._seed(read.prepared, edition)
            self.readFinished.emit(self._show(text, index, source, note, read.imported,
                                              read.replay, asked))

        def failed(why: str) -> None:
            self._cannot_import(source, why)
            self.readFinished.emit(False)

        self._start_reader(reader, source or "the record", done, failed)
        return True

    def _start_reader(self, reader: RecordReader, what: str, done: Callable[[Any], None],
                      failed: Callable[[str], None]) -> None:
        """Start ``reader``, its steps on the status line; ``done`` or ``failed`` is
        called on the GUI thread unless another record was asked for since."""
        started, said = time.monotonic(), [""]

        def show(text: str) -> None:
            self.progress = f"Reading {what}: {text}…"
            self.progressChanged.emit(self.progress)

        def stage(step: str) -> None:
            if reader is not self.reading:
                return
            if not isinstance(step, Progress):  # a step: said on the status line too
                self.statusMessage.emit(f"Reading {what}: {step}…")
            said[0] = step
            show(step)

        def beat() -> None:  # what was said last, and the time so far (the claims' step)
            if reader is self.reading and said[0]:
                show(f"{said[0]}, {time.monotonic() - started:.1f} s")

        beats = QTimer(self)
        beats.setInterval(PROGRESS_BEAT_MS)
        beats.timeout.connect(beat)
        reader.finished.connect(beats.deleteLater)

        def finish(result: object, ok: bool) -> None:
            beats.stop()
            if reader is not self.reading:
                return  # another record was asked for since
            self.reading, self.progress = None, ""
            if ok:
                done(result)
            else:
                failed(str(result))

        reader.stage.connect(stage)
        reader.failed.connect(lambda why: finish(why, False))
        reader.done.connect(lambda result: finish(result, True))
        reader.finished.connect(reader.deleteLater)
        self.reading = reader
        reader.start()
        beats.start()

    def _seed(self, prepared: Prepared, edition: str | None) -> None:
        """The counts (under their limits) and the claims worked out by a reader (the
        claims when the edition is still the one in force)."""
        counts = self._board.counts
        claims = prepared.announcements if counts.edition_id == edition else None
        counts.seed(prepared.replay, prepared.states, claims, prepared.rules)

    def shutdown(self) -> None:
        """The window is closing: finish a save under way, wait for the readers."""
        self._finish_saving()
        self.reading = None
        for reader in self.findChildren(RecordReader):
            reader.wait(10000)

    def _show(self, text: str, index: int, source: str, note: str, imported: ImportedRecord,
              prepared: Replay | None, asked: BoardSession) -> bool:
        """Show the record read; ``asked``: the board's session when unsaved work was
        asked about (edited since, while a long record was read: asked again)."""
        from .variantnote import ImportedGame

        board = self._board
        if board.session is not asked and not self.may_replace(source or "the imported record"):
            self._kept()
            return False
        board.case_path = None
        board.editing.new_record(imported.record, fresh=True, prepared=prepared, origin="opened")
        problems = "; ".join(imported.problems)
        guessed = imported.variant_guess
        self.statusMessage.emit(
            f"Imported {source or 'the record'}: {len(board.moves)} plies "
            f"({variant_title(board.variant)})" + (f" — {guessed.sentence()}" if guessed else "")
            + (f" — problems: {problems}" if problems else "") + (f" — {note}" if note else ""))
        self.last_import = imported
        self.imported.emit(ImportedGame(text, index, source, imported))
        return True

    def variant_guess(self, record: GameRecord) -> VariantGuess | None:
        """How the variant of ``record`` was guessed, when it is the record last
        imported from PDN without a GameType tag and is still read in the guessed
        variant (its moves may have been edited since); None when the record's
        variant is its GameType's or the user's choice (a Read as, the toolbar, New)."""
        imported = self.last_import
        if imported is None or imported.variant_guess is None:
            return None
        guess = imported.variant_guess
        if record.variant != guess.chosen or "GameType" in record.tags \
                or dict(record.tags) != dict(imported.record.tags):
            return None
        return guess

    def save_case(self, path: str | Path) -> Path | None:
        """Save the case file (the core's dispute case format) atomically; the core
        checks the document before it writes; in a rules folder the save is one commit.
        Done before it returns (closing or replacing the record waits for it); the
        Save Case action saves a long record with :meth:`save_case_soon`."""
        if self.saving is not None:
            self._finish_saving()  # the save under way first, then this one
        text = self._case_text(Path(path))
        try:
            checked = text()
        except _BAD_SAVE as exc:
            self._cannot_save(exc)
            return None
        return self._write_case(Path(path), checked, self._board.session)

    def save_case_soon(self, path: str | Path) -> bool:
        """Save the case file as :meth:`save_case` does, a long record's text worked
        out and checked off the GUI thread (:attr:`saving` until written: the file
        is then written on the GUI thread, the same bytes). True when it was saved,
        or for a long record when the save began; a save asked for while one is under
        way waits for it."""
        board = self._board
        if len(board.moves) <= SAVE_IN_WORKER_PLIES:
            return self.save_case(path) is not None
        if self.saving is not None:
            self._finish_saving()
        target, session = Path(path), board.session
        text = self._case_text(target)
        #: what the worker ended with (ok, the text or why not): for a save finished
        #: before its signal arrives (:meth:`_finish_saving`)
        outcome: list[tuple[bool, str]] = []

        def job(say: Say) -> str:
            say("writing the case file")
            try:
                outcome.append((True, text()))
            except _BAD_SAVE as exc:
                outcome.append((False, str(exc)))
                raise
            return outcome[0][1]

        saver = RecordReader(job, self, _BAD_SAVE)
        saver.what_failed = "the case could not be saved"

        def finish(result: object, ok: bool) -> None:
            if saver is not self.saving:
                return  # written already (:meth:`_finish_saving`)
            self.saving = None
            written = ok and self._write_case(target, str(result), session) is not None
            if not ok:
                self.statusMessage.emit(f"Cannot save the case: {result}")
            self.saveFinished.emit(written)

        saver.stage.connect(lambda step: self.statusMessage.emit(
            f"Saving the case {target.name}: {step}…") if saver is self.saving else None)
        saver.failed.connect(lambda why: finish(why, False))
        saver.done.connect(lambda result: finish(result, True))
        saver.finished.connect(saver.deleteLater)
        self.saving, self._save_finish = saver, finish
        self._save_outcome = outcome
        saver.start()
        return True

    def _finish_saving(self) -> None:
        """Wait for the save under way and write its file now (a later save, or the
        window closing, must not overtake it nor lose it)."""
        saver = self.saving
        if saver is None:
            return
        saver.wait()
        ok, result = (self._save_outcome or [(False, "the case could not be saved")])[0]
        self._save_finish(result, ok)

    def _case_text(self, path: Path) -> Callable[[], str]:
        """The work of a save of the board as it is now: the checked text of its case
        file (the board's replay taken over: a long record is not replayed again)."""
        board = self._board
        session, previous = board.session, board.replay
        findings = case_findings(board.check.result, board.gap.result)
        edition = board.counts.edition_id or ""
        return lambda: checked_case_text(
            case_from_session(session, findings, edition, previous=previous), path)

    def _cannot_save(self, exc: BaseException) -> None:
        self.statusMessage.emit(f"Cannot save the case: {exc}")

    def _write_case(self, path: Path, text: str, session: BoardSession) -> Path | None:
        """Write the checked ``text`` of ``session``'s case file (one commit in a rules
        folder); the board is saved unless it was changed since ``session``."""
        board = self._board
        try:
            with durability_notes() as notes, \
                    recorded_change(path, f"Case file: {path.name}"):
                written = Path(atomic_write_text(path, text, backup=True))
        except _BAD_SAVE as exc:
            self._cannot_save(exc)
            return None
        since = ""
        if board.session is session:
            board.case_path = written
            board.mark_saved()
        else:  # edited (or replaced) while a long record's case was worked out
            since = " (the board was changed since: its changes are not saved)"
        self.autosave()
        # written, but the folder could not be flushed: the note says the data is saved
        self.statusMessage.emit(notes[0] if notes else f"Saved the case to {written}{since}")
        return written

    def open_case(self, path: str | Path) -> bool:
        """Open a dispute case file (the current record can be had back with Undo).
        A large one is read, replayed and counted off the GUI thread: True then says
        the reading began, :attr:`reading` is the reader until the case is shown.
        Unsaved work is asked about before the file is read (:attr:`may_replace`):
        saved first, into this very file perhaps, the case shown is the one saved."""
        if not self.may_replace(f"the case {Path(path).name}"):
            self._kept()
            return False
        asked = self._board.session
        self.reading = None
        try:
            large = Path(path).stat().st_size > CASE_IN_WORKER_BYTES
        except OSError:
            large = False  # said by load_case
        if large:
            return self._read_case(Path(path), asked)
        try:
            session = session_from_case(load_case(Path(path)))
        except (RulesbookError, DraughtsError, OSError, ValueError) as exc:
            self.statusMessage.emit(f"Cannot open the case: {exc}")
            return False
        return self._show_case(path, session, asked)

    def _kept(self) -> None:
        self.statusMessage.emit("Nothing was replaced: the board keeps its unsaved work")

    def _read_case(self, path: Path, asked: BoardSession) -> bool:
        counts = self._board.counts
        rules, library, edition = counts.rules_of(), counts.library, counts.edition_id

        def job(say: Say) -> tuple[BoardSession, Prepared]:
            say("reading the case file")
            session = session_from_case(load_case(path))
            # the case's record is shown from the start in play mode, illegal moves
            # not let stand: the board's replay is the same either way
            return session, prepare(session.record, rules, library, edition, say)

        def done(read: tuple[BoardSession, Prepared]) -> None:
            session, prepared = read
            self._seed(prepared, edition)
            self.readFinished.emit(self._show_case(path, session, asked, prepared.replay))

        def failed(why: str) -> None:
            self.statusMessage.emit(f"Cannot open the case: {why}")
            self.readFinished.emit(False)

        self._start_reader(RecordReader(job, self, _BAD_CASE), f"the case {path.name}", done, failed)
        return True

    def _show_case(self, path: str | Path, session: BoardSession, asked: BoardSession,
                   prepared: Replay | None = None) -> bool:
        """Show the case read; ``asked``: the board's session when unsaved work was
        asked about (edited since, while a long case was read: asked again)."""
        board = self._board
        if board.session is not asked and not self.may_replace(f"the case {Path(path).name}"):
            self._kept()
            return False
        board.case_path = Path(path)  # before the autosave of the new record
        enabled, self.enabled = self.enabled, False  # one autosave, once it is saved
        try:
            board.commit(board.session.replace(record=session.record, target=session.target,
                                               notes=session.notes, let_stand=False),
                         0, to_play=True, origin="opened", prepared=prepared)
        finally:
            self.enabled = enabled
        board.mark_saved()
        self.autosave()
        self.statusMessage.emit(f"Opened the case {path}: {len(board.moves)} plies")
        return True


def _origin(data: Mapping[str, Any], session: BoardSession) -> str:
    """Where the autosaved record came from (an autosave written before it said:
    a record with tags was opened, one without typed)."""
    origin = data.get("origin")
    if origin in ("opened", "setup", "new"):
        return str(origin)
    return "opened" if session.record.tags else "new"
