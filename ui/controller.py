"""The application controller: owns the Library, the edition in force and the
search index; widgets display what it emits and forward the user's requests.

The core never imports Qt; this is the one place the UI holds core state.
"""
from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal

from rulesbook import Library, LibraryError, Problem, load_library
from rulesbook.ballots import TextMismatch, text_mismatches
from rulesbook.datafolder import resolve_data_dir
from rulesbook.editions import ConsolidatedRulebook, consolidate
from rulesbook.errors import RulesbookError
from rulesbook.rulesfolder import init_folder
from rulesbook.search import SearchHit, SearchIndex, index_for


def app_rules_dir() -> Path:
    from .folder import app_rules_dir as where

    return where()


class LoadResult:
    """What a load produced: a library and its index, or the problems found."""

    def __init__(self, root: Path, library: Library | None = None,
                 index: SearchIndex | None = None, problems: list[Problem] | None = None,
                 seconds: float = 0.0, mismatches: tuple[TextMismatch, ...] = ()):
        self.root = root
        #: the texts that are not the ones a ballot or an adopted edition recorded
        self.mismatches = mismatches
        self.library = library
        self.index = index
        self.problems = problems or []
        self.seconds = seconds

    @property
    def ok(self) -> bool:
        return self.library is not None


def load_folder(path: str | Path | None) -> LoadResult:
    """Load and index a data folder; never raises for bad data."""
    start = time.perf_counter()
    root = resolve_data_dir(path)
    try:
        if not root.exists() and root == app_rules_dir().resolve():
            init_folder(root)  # first use: the user's rules folder from the seed data
        library = load_library(root)
    except LibraryError as exc:
        return LoadResult(root, problems=list(exc.problems),
                          seconds=time.perf_counter() - start)
    except RulesbookError as exc:  # the rules folder could not be created
        return LoadResult(root, problems=[Problem(str(root), 0, 0, str(exc))],
                          seconds=time.perf_counter() - start)
    except OSError as exc:
        return LoadResult(root, problems=[Problem(str(root), 0, 0, f"cannot read: {exc}")],
                          seconds=time.perf_counter() - start)
    index = index_for(library)
    mismatches = tuple(text_mismatches(library))
    return LoadResult(root, library, index, seconds=time.perf_counter() - start,
                      mismatches=mismatches)


class _LoadThread(QThread):
    finishedLoading = Signal(object)  # LoadResult

    def __init__(self, path: str | Path | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._path = path

    def run(self) -> None:  # pragma: no cover - exercised through load_async
        self.finishedLoading.emit(load_folder(self._path))


class AppController(QObject):
    """The single owner of the app's state.

    Signals:
      libraryLoaded(Library)    a data folder was loaded and indexed
      loadFailed(list)          a data folder failed validation: [Problem]
      editionChanged(str)       the edition in force changed
      refRequested(str)         someone asked to show a rule/proposal (canonical ref)
      compareRequested(str)     someone asked to compare a rule ("apca:28") or topic ("topic:ID")
      statusMessage(str)        a short message for the status bar
      rulingsRequested(RulingsRequest)  show the rulings for a dispute of a game
    """

    libraryLoaded = Signal(object)
    loadFailed = Signal(list)
    editionChanged = Signal(str)
    refRequested = Signal(str)
    topicRequested = Signal(str)
    compareRequested = Signal(str)
    workspaceRequested = Signal(str)
    statusMessage = Signal(str)
    #: a dispute to rule on (a rulesbook.rulings.RulingsRequest), e.g. from the board's
    #: record check or its draw-claim bar
    rulingsRequested = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.library: Library | None = None
        self.index: SearchIndex | None = None
        self.data_dir: Path | None = None
        self.load_seconds = 0.0
        self._edition: str | None = None
        self._consolidated: dict[str, ConsolidatedRulebook] = {}
        self._thread: _LoadThread | None = None
        self.last_failed_root: Path | None = None
        #: the texts of the folder that are not the ones voted on or adopted
        self.text_mismatches: tuple[TextMismatch, ...] = ()
        #: (ref, words) the last search opened: the Rules page marks those words
        self.highlight: tuple[str, tuple[str, ...]] = ("", ())

    # -- loading ---------------------------------------------------------
    @staticmethod
    def default_folder(path: str | Path | None) -> str | Path:
        """The folder to open: ``path``, ``$RULESBOOK_DATA``, or the user's rules folder
        where Qt says the platform keeps application data."""
        import os

        from rulesbook.datapath import ENV_VAR

        return path or os.environ.get(ENV_VAR) or app_rules_dir()

    def load(self, path: str | Path | None = None) -> LoadResult:
        """Load synchronously (tests, "Open data folder")."""
        result = load_folder(self.default_folder(path))
        self._apply(result)
        return result

    def load_async(self, path: str | Path | None = None) -> None:
        """Load and index on a worker thread; emits libraryLoaded or loadFailed."""
        if self._thread is not None and self._thread.isRunning():
            return
        self._thread = _LoadThread(self.default_folder(path), self)
        self._thread.finishedLoading.connect(self._apply)
        self._thread.start()

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.wait()

    def _apply(self, result: LoadResult) -> None:
        if self._thread is not None and not self._thread.isRunning():
            self._thread.wait()
        library = result.library
        if library is None:  # not result.ok
            self.last_failed_root = result.root
            self.loadFailed.emit(result.problems)
            return
        self.library = library
        self.index = result.index
        self.data_dir = result.root
        self.load_seconds = result.seconds
        self.text_mismatches = result.mismatches
        self._consolidated.clear()
        self._edition = library.edition().id if library.editions else None
        self.libraryLoaded.emit(library)
        if self._edition:
            self.editionChanged.emit(self._edition)

    # -- the edition in force ---------------------------------------------
    @property
    def edition_id(self) -> str | None:
        return self._edition

    def set_edition(self, edition_id: str) -> None:
        if self.library is None or edition_id == self._edition:
            return
        if edition_id not in [e.id for e in self.library.editions]:
            return
        self._edition = edition_id
        self.editionChanged.emit(edition_id)
        edition = self.library.edition(edition_id)
        self.statusMessage.emit(f"Edition in force: {edition.title}")

    def consolidated(self, edition_id: str | None = None) -> ConsolidatedRulebook | None:
        """The rulebook of an edition (the one in force by default), cached."""
        wanted = edition_id or self._edition
        if self.library is None or wanted is None:
            return None
        if wanted not in self._consolidated:
            self._consolidated[wanted] = consolidate(self.library, wanted)
        return self._consolidated[wanted]

    # -- navigation requests ---------------------------------------------
    def open_ref(self, text: str, highlight: tuple[str, ...] = ()) -> bool:
        """Show a rule or proposal; ``text`` may be "apca:28", "28", "10B".
        ``highlight``: words to mark on its page (the words a search matched)."""
        if self.library is None:
            return False
        ref = self.library.normalise_ref(text)
        if ref is None:
            self.statusMessage.emit(f"No rule {text!r}")
            return False
        self.highlight = (ref, tuple(highlight))
        self.refRequested.emit(ref)
        return True

    def open_topic(self, topic_id: str) -> None:
        if self.library is not None and topic_id in {t.id for t in self.library.topics}:
            self.topicRequested.emit(topic_id)

    def compare(self, subject: str) -> None:
        """Compare a rule ("apca:28") or a topic ("topic:thirteen-count")."""
        if self.library is None:
            return
        if not subject.startswith("topic:"):
            ref = self.library.normalise_ref(subject)
            if ref is None:
                self.statusMessage.emit(f"No rule {subject!r}")
                return
            subject = ref
        self.compareRequested.emit(subject)

    # -- search ------------------------------------------------------------
    def search(self, query: str, limit: int = 30, rulebook: str | None = None) -> list[SearchHit]:
        """Hits for ``query``, best first; ``rulebook`` keeps only that rulebook's."""
        if self.index is None:
            return []
        if rulebook is None:
            return self.index.search(query, limit)
        # ask for more and filter, so a rulebook with few hits still shows its own
        hits = [h for h in self.index.search(query, max(limit, 200)) if h.rulebook == rulebook]
        return hits[:limit]
