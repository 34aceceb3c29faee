"""One way to read a data document: :func:`load_document` reads the YAML safely
(:mod:`rulesbook.yamlio`), checks that it is a mapping of the kind expected,
validates it against the JSON Schema of that kind (:mod:`rulesbook.schema`), runs
the extra checks the caller gives, and raises one error type,
:class:`DocumentError`, whose problems each carry the file, line and column.

The library, ballots, member ballots, referee case files and the case library all
read their files through it; each turns a :class:`DocumentError` into its own
error (with its own headline) where its callers expect one."""
from __future__ import annotations

import contextlib
import difflib
import hashlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from enum import Enum
from pathlib import Path

from . import schema
from .errors import DataFileError, Problem
from .yamlio import MAX_FILE_BYTES, LoadedYaml, load_file, loads

__all__ = ["Check", "DocumentError", "DocumentStage", "load_document", "next_folder",
           "reusing_documents"]

_Key = tuple[str, "str | None", bytes]  # (name shown, kind, SHA-256 of the file's bytes)


class _Reused:
    """The documents of the folder being read and of the one read before it."""

    def __init__(self) -> None:
        self.current: dict[_Key, LoadedYaml] = {}
        self.previous: dict[_Key, LoadedYaml] = {}

    def get(self, key: _Key) -> LoadedYaml | None:
        found = self.current.get(key) or self.previous.get(key)
        if found is not None:
            self.current[key] = found
        return found


_REUSED: ContextVar[_Reused | None] = ContextVar("rulesbook_reused_documents", default=None)

#: An extra check of a schema-valid document: the problems it finds (none: clean).
Check = Callable[[LoadedYaml], Sequence[Problem]]


class DocumentStage(Enum):
    """Where reading a document stopped."""

    UNREADABLE = "unreadable"        # missing, not UTF-8, bad YAML, unsafe, too big
    NOT_A_MAPPING = "not a mapping"  # a list or a single value at the top
    WRONG_KIND = "wrong kind"        # another kind of file, or no known kind
    SCHEMA = "schema"                # fails the JSON Schema of its kind
    CHECKS = "checks"                # fails a check the caller added


class DocumentError(DataFileError):
    """A data document that cannot be used. ``problems`` (never empty) each name the
    file, line and column; ``stage`` says where reading stopped; ``kind`` is the kind
    the file declares (None when unreadable or not a mapping); ``doc`` the parsed
    document, when it could be parsed."""

    def __init__(self, stage: DocumentStage, problems: Sequence[Problem],
                 kind: str | None = None, doc: LoadedYaml | None = None) -> None:
        super().__init__(problems[0])
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.stage = stage
        self.kind = kind
        self.doc = doc
        self.args = ("\n".join(str(p) for p in self.problems),)

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


def load_document(path: str | os.PathLike[str], kind: str | None,
                  checks: Iterable[Check] = (), *, display: str | None = None,
                  text: str | None = None) -> LoadedYaml:
    """The document at ``path``, read and checked.

    ``kind``: the kind it must be (``ballot``, ``case``, ``dispute``…), or None for
    whatever known kind the file declares. ``checks`` run in order once the schema
    passes; every problem they find is reported. ``display``: the file name shown
    in problems (default: the path). ``text``: parse this text instead of reading
    the file (checking what is about to be written there).

    Raises :class:`DocumentError`."""
    name = display or str(path)
    reused = _REUSED.get()
    if reused is not None and text is None and not checks:
        key = _content_key(Path(path), name, kind)
        if key is not None:
            found = reused.get(key)
            if found is None:  # an error is not kept: it is raised again next time
                found = reused.current[key] = _read(path, kind, (), name, None)
            return found
    return _read(path, kind, checks, name, text)


@contextlib.contextmanager
def reusing_documents() -> Iterator[None]:
    """Within it, a file read again holding the same bytes under the same name as in
    this folder or the one read before (:func:`next_folder`) is the document read
    then, not parsed again (a document is never changed once read): for checking
    commit after commit of one history (a push to ``serve``, a sync naming a
    remote's first invalid commit), each the one before it with a file changed."""
    token = _REUSED.set(_Reused())
    try:
        yield
    finally:
        _REUSED.reset(token)


def next_folder() -> None:
    """Within :func:`reusing_documents`: another folder is read; the documents of the
    one before the last are let go (at most two folders' documents are kept)."""
    reused = _REUSED.get()
    if reused is not None:
        reused.previous, reused.current = reused.current, {}


def _content_key(path: Path, name: str, kind: str | None) -> _Key | None:
    """(name, kind, SHA-256 of the bytes) of a plain file within the data-file limit
    (None: anything else, read the usual way: its error says why)."""
    try:
        found = path.stat()
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_FILE_BYTES:
            return None  # a pipe would block the read: load_file refuses it
        return name, kind, hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        return None


def _read(path: str | os.PathLike[str], kind: str | None, checks: Iterable[Check],
          name: str, text: str | None) -> LoadedYaml:
    try:
        doc = loads(text, name) if text is not None else load_file(Path(path), name)
    except DataFileError as exc:
        raise DocumentError(DocumentStage.UNREADABLE, [exc.problem]) from None
    if not isinstance(doc.data, dict):
        raise DocumentError(DocumentStage.NOT_A_MAPPING, [doc.problem(
            (), "the file must be a mapping with schema_version and kind")], doc=doc)
    found = doc.data.get("kind")
    found_kind = found if isinstance(found, str) else None
    if kind is not None and found != kind:
        raise DocumentError(DocumentStage.WRONG_KIND, [doc.problem(
            ("kind",), f"kind must be {kind!r} for {name}, not {found!r}")], found_kind, doc)
    known = schema.available_kinds()
    if found_kind is None or found_kind not in known:
        guess = difflib.get_close_matches(str(found), known, n=1, cutoff=0.6)
        hint = f" (did you mean {guess[0]!r}?)" if guess else ""
        raise DocumentError(DocumentStage.WRONG_KIND, [doc.problem(
            ("kind",), f"unknown kind {found!r}{hint}; known kinds: {', '.join(known)}")],
            found_kind, doc)
    problems = schema.validate(doc, found_kind)
    if problems:
        raise DocumentError(DocumentStage.SCHEMA, problems, found_kind, doc)
    for check in checks:
        problems.extend(check(doc))
    if problems:
        raise DocumentError(DocumentStage.CHECKS, problems, found_kind, doc)
    return doc
