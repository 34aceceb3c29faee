"""The loader's check of proposals: each one its author's (:mod:`.signature`).

:func:`folder_problems` (run by :func:`rulesbook.loading.validate_folder`, by sync,
clone and serve; the folder still loads, see :func:`rulesbook.loading.record_problems`): every proposal
of every rulebook either carries a signature that verifies (by its author, or by
the secretary acting for them, with a key valid at the signature's time), or is a
proposal of the source document exactly as it was transcribed. Anything else makes
``validate`` (and so ``sync``, which validates what it merges and pushes) report it,
naming the proposal and its member.
"""
from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..ballots.registry import Registry, registry_from_doc
from ..errors import Problem
from ..yamlio import LoadedYaml
from .signature import proposal_problem

if TYPE_CHECKING:
    pass

#: where a proposal is in its rulebook file (keys and list positions)
Where = tuple[str | int, ...]


def proposal_records(data: Mapping[str, Any]
                     ) -> Iterator[tuple[str, str | None, dict[str, Any], Where]]:
    """(rulebook, rule ref or None, record, where) for every proposal of a rulebook's data."""
    book = str(data.get("id"))
    for i, record in enumerate(data.get("preamble") or ()):
        if isinstance(record, dict):
            yield book, None, record, ("preamble", i)
    for i, rule in enumerate(data.get("rules") or ()):
        if not isinstance(rule, dict):
            continue
        for k, record in enumerate(rule.get("proposals") or ()):
            if isinstance(record, dict):
                yield book, f"{book}:{rule.get('id')}", record, ("rules", i, "proposals", k)


def folder_problems(root: str | os.PathLike[str]) -> list[Problem]:
    """:func:`check_records` on the rulebooks and members of the folder ``root``,
    read again with their lines: a proposal that is not its author's is reported by
    ``validate`` (and refused by ``sync`` and ``serve``) but does not stop the folder
    loading, so the app still opens it and the referee sees what is wrong."""
    from pathlib import Path

    from ..errors import RulesbookError
    from ..yamlio import load_file

    folder = Path(root)
    try:
        rulebooks = [load_file(p, p.relative_to(folder).as_posix())
                     for p in sorted(folder.rglob("rulebook.yaml"))
                     if not any(part.startswith(".") for part in p.relative_to(folder).parts)]
        members = folder / "members.yaml"
        docs = {"rulebook": rulebooks,
                "members": [load_file(members, "members.yaml")] if members.is_file() else []}
        return check_records(docs)
    except RulesbookError:  # an unreadable or malformed file: the loader reports it
        return []


def check_records(docs: Mapping[str, Sequence[LoadedYaml]]) -> list[Problem]:
    """Every proposal of ``docs``' rulebooks that is not its author's."""
    members = docs.get("members", [])
    registry = registry_from_doc(members[0]) if members else Registry()
    problems: list[Problem] = []
    for doc in docs.get("rulebook", []):
        for book, rule, record, where in proposal_records(doc.data):
            why = proposal_problem(book, rule, record, registry)
            if why:
                problems.append(doc.problem(where + ("id",), why))
    return problems
