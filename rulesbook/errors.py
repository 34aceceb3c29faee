"""Exceptions and problem reports of the rulebook core.

Every error a user can cause is a ``ValueError`` subclass whose message
names the place (file, line, column) and says what is wrong in plain words.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, order=True)
class Problem:
    """One problem found in a data file, reported as ``file:line:col: message``."""

    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}: {self.message}"
        return f"{self.file}: {self.message}"

    def to_dict(self) -> dict[str, str | int]:
        return {"file": self.file, "line": self.line, "col": self.col, "message": self.message}


class RulesbookError(ValueError):
    """Base of the rulebook core's own errors."""


class DataFileError(RulesbookError):
    """A single data file cannot be read (bad encoding, bad YAML, unsafe tag, too big)."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


class LibraryError(RulesbookError):
    """A data folder failed validation; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem], documents: Mapping[str, Sequence[Any]] | None
                 = None):
        self.problems = sorted(problems)
        #: the schema-valid documents read, by kind (:class:`rulesbook.yamlio.LoadedYaml`),
        #: when every file was read: ``validate``'s further checks use them, not a new read
        self.documents = documents
        from .plural import counted

        head = f"{counted(len(self.problems), 'problem')} in the rules data"
        super().__init__(head + ":\n" + "\n".join(str(p) for p in self.problems))


class UnknownReferenceError(RulesbookError, LookupError):
    """A rule reference (``apca:28``, ``10B``) names nothing in the library."""
