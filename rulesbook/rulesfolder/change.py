"""Every change is one commit: the one transaction every writing command and the
app's saves go through.

>>> with recorded_change(ballot_path, "Vote: A on question 10", author=member_a):
...     vote_file(ballot_path, "A", "10", "10B")

On entry the folder is locked and its versioned files are read; on a clean exit the
files the block changed become one commit (message and author as given, committer
the configured user) and nothing else is swept in; on an exception, or when the
block calls :meth:`Change.abort`, every file it changed is put back and no commit
is made. A path that is not in a rules folder is written as before, without a
commit; a path in the bundled seed data is refused.
"""
from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from dulwich.objects import Blob, ObjectID
from dulwich.repo import Repo

from ..datapath import is_bundled
from ..errors import DataFileError
from ..storage import atomic_write_bytes
from ..yamlio import load_file
from .errors import SeedReadOnlyError
from .journal import Journal, JournalEntry
from .repo import (
    Identity,
    StrPath,
    build_tree,
    commit_files,
    find_rules_folder,
    folder_lock,
    head_id,
    make_commit,
    open_repo,
    set_head,
    stage,
    user_identity,
    worktree_files,
)


@dataclass
class Change:
    """The change in progress: where it is recorded and, once done, its commit."""

    root: Path | None
    message: str
    author: Identity | None = None
    commit: str | None = None  # hex id once committed (None: nothing changed / no folder)
    files: tuple[str, ...] = ()
    aborted: bool = False
    _nested: bool = field(default=False, repr=False)

    def abort(self) -> None:
        """Undo what the block wrote; no commit is made."""
        self.aborted = True


_ACTIVE: contextvars.ContextVar[Change | None] = contextvars.ContextVar(
    "rulesbook_change", default=None)


def refuse_seed(path: StrPath) -> None:
    if is_bundled(path):
        raise SeedReadOnlyError(
            f"{path} is in the bundled seed data of the installed program, which is never "
            f"changed; work in your rules folder instead (`rulesbook where` shows it)")


def member_identity(root: Path, member_id: str, fallback: Identity) -> Identity:
    """The commit author for a member's own change: the member's name from members.yaml
    (the configured e-mail address, as members have none on file)."""
    try:
        data = load_file(root / "members.yaml").data
        for member in data.get("members", ()):
            if member.get("id") == member_id:
                name = member.get("full_name") or member.get("name") or member_id
                return Identity(f"{name} (member {member_id})", fallback.email)
    except (DataFileError, AttributeError, TypeError):
        pass  # a members file that does not read: the member's id is still named
    return Identity(f"member {member_id}", fallback.email)


@contextlib.contextmanager
def recorded_change(where: StrPath, message: str, *,
                    author: Identity | str | None = None,
                    member: str | None = None) -> Iterator[Change]:
    """Record what the block writes in ``where`` (a file or folder) as one commit.
    ``member``: the change is that committee member's (the author is their name)."""
    refuse_seed(where)
    outer = _ACTIVE.get()
    root = find_rules_folder(Path(where) if Path(where).exists() else Path(where).parent)
    if outer is not None and (root is None or outer.root == root):
        yield Change(outer.root, message, _nested=True)  # part of the enclosing change
        return
    if root is None:
        yield Change(None, message)
        return
    repo = open_repo(root)
    try:
        with folder_lock(root) as journal:
            change = Change(root, message)
            head = head_id(repo)
            before = {rel: path.read_bytes() for rel, path in worktree_files(root).items()}
            _journal_before(repo, journal, message, head, before)
            token = _ACTIVE.set(change)
            try:
                yield change
            except BaseException:
                _restore(root, before)
                raise
            finally:
                _ACTIVE.reset(token)
            if change.aborted:
                _restore(root, before)
                return
            after = {rel: path.read_bytes() for rel, path in worktree_files(root).items()}
            changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
            if not changed:
                return
            try:
                user = user_identity(repo)
                if isinstance(author, str):
                    who = Identity.parse(author)
                elif author is not None:
                    who = author
                elif member is not None:
                    who = member_identity(root, member, user)
                else:
                    who = user
                files = commit_files(repo, head)
                for rel in changed:
                    if rel in after:
                        blob = Blob.from_string(after[rel])
                        repo.object_store.add_object(blob)
                        files[rel] = blob.id
                    else:
                        files.pop(rel, None)
                commit = make_commit(repo, build_tree(repo, files),
                                     [head] if head else [], message, who, user)
                journal.committing(commit.decode(), tuple(changed))
                set_head(repo, commit, head)
            except BaseException:
                _restore(root, before)
                raise
            stage(repo, changed)
            journal.done()
            change.commit = commit.decode()
            change.files = tuple(changed)
            change.author = who
    finally:
        repo.close()


def _journal_before(repo: Repo, journal: Journal, message: str, head: ObjectID | None,
                    before: dict[str, bytes]) -> None:
    """Write ahead what the folder holds before the change (the files' blobs stored
    first), so that a kill during the change is rolled back by the next command."""
    committed = set(commit_files(repo, head).values())
    ids: dict[str, str] = {}
    for rel, data in before.items():
        blob = Blob.from_string(data)
        if blob.id not in committed:  # a file edited by hand since the last commit
            repo.object_store.add_object(blob)
        ids[rel] = blob.id.decode()
    journal.began(message, head.decode() if head else None, ids)


def made_by_the_same_command(where: StrPath, command: str) -> JournalEntry | None:
    """The last change made whole in the rules folder of ``where``, when it was made
    by ``command`` (the same command line) and nothing was committed since: that
    command, run again, has nothing left to do (a retry after a kill that came once
    its change was made)."""
    root = find_rules_folder(where)
    if root is None:
        return None
    from .journal import last_done

    entry = last_done(root)
    if entry is None or entry.command != command or entry.commit is None:
        return None
    repo = open_repo(root)
    try:
        head = head_id(repo)
    finally:
        repo.close()
    return entry if head is not None and head.decode() == entry.commit else None


def active_change() -> Change | None:
    """The change the current code runs inside, if any."""
    return _ACTIVE.get()


def _restore(root: Path, before: dict[str, bytes]) -> None:
    """Put every versioned file back as it was at the start of the change."""
    now = worktree_files(root)
    for rel, path in now.items():
        if rel not in before:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        elif path.read_bytes() != before[rel]:
            atomic_write_bytes(path, before[rel])
    for rel, data in before.items():
        if rel not in now:
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(target, data)
