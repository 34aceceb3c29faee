"""Whether a commit's tree is a valid rules folder: the checks of ``rulesbook
validate`` (:func:`rulesbook.loading.validate_folder`: schemas, signatures, ballot
seals) and the edition chain, run on the files of a tree written to a temporary
folder. A sync runs them before it merges or pushes; ``rulesbook serve`` before it
moves its branch to a pushed commit."""
from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dulwich.objects import Blob, Commit, ObjectID
from dulwich.repo import Repo

from ..errors import LibraryError, Problem
from .object_sizes import stored_size
from .repo import commit_files, read_object
from .tree_bounds import MAX_TREE_BYTES, MAX_TREE_FILES

if TYPE_CHECKING:
    from ..library import Library


@dataclass(frozen=True)
class TreeProblems:
    """What is wrong with a tree: the folder's own problems (as ``validate`` lists
    them) and the edition chain's (only checked when the folder loads)."""

    folder: tuple[Problem, ...] = ()
    chain: tuple[Problem, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.folder or self.chain)

    def lines(self) -> list[str]:
        return [str(p) for p in self.folder + self.chain]


def tree_bound_problem(repo: Repo, files: Mapping[str, ObjectID], *,
                       max_bytes: int | None = None,
                       max_files: int | None = None) -> Problem | None:
    """What is wrong when ``files`` are too many or add up to too much, their sizes
    read from the objects' headers (nothing inflated whole); None: within bounds.
    The bounds: :data:`MAX_TREE_BYTES` and :data:`MAX_TREE_FILES` unless given."""
    max_bytes = MAX_TREE_BYTES if max_bytes is None else max_bytes
    max_files = MAX_TREE_FILES if max_files is None else max_files
    if len(files) > max_files:
        return Problem(".", 0, 0, f"the commit holds {len(files):,} files (a rules folder "
                                  f"holds at most {max_files:,}); none was written out")
    total = 0
    for path, sha in sorted(files.items()):
        size = stored_size(repo.object_store, sha)
        if size is None:  # kept elsewhere (an alternate): read as it is
            size = len(read_object(repo, sha, Blob).as_raw_string())
        total += size
        if total > max_bytes:
            return Problem(path, 0, 0, f"the commit's files add up to more than "
                                       f"{max_bytes // (1024 * 1024):,} MiB by this one (a "
                                       f"rules folder holds at most that); none was "
                                       f"written out")
    return None


def tree_problems(repo: Repo, files: Mapping[str, ObjectID]) -> TreeProblems:
    """Load the folder ``files`` describes with every check (first: that its files are
    not too many or too large to be written out, :func:`tree_bound_problem`)."""
    from ..documents import next_folder
    from ..loading import load_library, record_problems

    next_folder()  # within reusing_documents: the files unchanged since the last tree
    bound = tree_bound_problem(repo, files)
    if bound is not None:
        return TreeProblems(folder=(bound,))

    with tempfile.TemporaryDirectory(prefix="rulesbook-check-") as tmp:
        root = Path(tmp)
        for path, sha in files.items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(read_object(repo, sha, Blob).as_raw_string())
        try:
            library = load_library(root)
        except LibraryError as exc:
            return TreeProblems(folder=tuple(exc.problems))
        return TreeProblems(folder=tuple(record_problems(library)),
                            chain=tuple(edition_chain_problems(library)))


def commit_problems(repo: Repo, commit: ObjectID) -> TreeProblems:
    return tree_problems(repo, commit_files(repo, commit))


def describe_commit(repo: Repo, commit: ObjectID) -> str:
    """``1a2b3c4d5e by Name <email>: first line of the message``."""
    found = read_object(repo, commit, Commit)
    author = found.author.decode("utf-8", "replace")
    subject = found.message.decode("utf-8", "replace").strip().splitlines()
    return f"{commit.decode()[:10]} by {author}: {subject[0] if subject else '(no message)'}"


def edition_chain_problems(library: Library) -> list[Problem]:
    """Each edition's base is the one before it, and an edition adopted by a ballot
    carries that sealed ballot's seal."""
    problems = []
    ballots: dict[object, object] = {}
    for doc in library.extra.get("ballot", ()):
        seal = doc.data.get("seal") or {}
        ballots[doc.data.get("id")] = seal.get("digest")
    previous = None
    for edition in library.editions:
        if previous is not None and edition.base != previous:
            problems.append(Problem("editions.yaml", 0, 0, f"edition {edition.id!r} is based "
                                    f"on {edition.base!r}, not on the edition before it "
                                    f"({previous!r})"))
        if edition.ballot and edition.ballot in ballots:
            digest = ballots[edition.ballot]
            if edition.seal and digest and edition.seal != f"sha256:{digest}":
                problems.append(Problem("editions.yaml", 0, 0, f"edition {edition.id!r} names "
                                        f"seal {edition.seal}, but ballot {edition.ballot!r} "
                                        f"is sealed sha256:{digest}"))
        previous = edition.id
    return problems
