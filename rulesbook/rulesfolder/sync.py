"""Sharing a rules folder: clone, sync (fetch, merge, validate, push) and the
ahead/behind status, over any transport dulwich speaks (a path, file://, git://,
http(s)://, ssh://).

A sync never pushes a folder that does not validate: the merge is written to a
temporary copy, loaded with the full validation (ballot seals included) and the
edition chain is checked; only then is the merge committed, shown in the folder
and pushed. A conflict or an invalid merge stops the sync with nothing changed.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Set
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from dulwich.client import GitClient, get_transport_and_path
from dulwich.config import ConfigDict
from dulwich.errors import GitProtocolError, HangupException, NotGitRepository
from dulwich.graph import find_merge_base
from dulwich.objects import Blob, ObjectID
from dulwich.refs import Ref
from dulwich.repo import Repo

from ..errors import LibraryError, Problem
from .errors import (
    DroppedJson,
    DroppedRecord,
    Resolution,
    RulesFolderError,
    SealedMeanwhile,
    SyncConflict,
    SyncInvalid,
)
from .merge import merge_trees
from .repo import (
    BRANCH,
    HEAD_REF,
    MARKER,
    StrPath,
    build_tree,
    checkout,
    commit_files,
    folder_lock,
    head_id,
    is_data_path,
    make_commit,
    new_folder_target,
    open_repo,
    read_object,
    set_head,
    stage,
    staging_beside,
    user_identity,
    worktree_state,
)

if TYPE_CHECKING:
    from dulwich.pack import UnpackedObject

    from ..library import Library

Progress = Callable[[str], None]
DEFAULT_REMOTE = "origin"


class SyncJson(TypedDict):
    """``rulesbook sync --json``."""

    remote: str
    fetched: int
    merged: bool
    fast_forward: bool
    pushed: int
    committed_edits: list[str]
    head: str
    up_to_date: bool
    not_shared: list[str]
    dropped: list[DroppedJson]
    relettered: list[str]


class StatusJson(TypedDict):
    """:meth:`FolderStatus.to_dict`: where the folder stands against its remote."""

    remote: str | None
    ahead: int
    behind: int
    pending: list[str]


@dataclass(frozen=True)
class SyncResult:
    """What a sync did."""

    remote: str  # the URL
    fetched: int  # commits received
    merged: bool  # a merge commit was made
    fast_forward: bool
    pushed: int  # commits sent
    committed_edits: tuple[str, ...]  # data files edited by hand, committed first
    head: str
    not_shared: tuple[str, ...] = ()  # other files changed in the folder, left alone
    dropped: tuple[DroppedRecord, ...] = ()  # conflicting records settled by --take
    #: members added here given another letter by the merge (the remote had theirs)
    relettered: tuple[str, ...] = ()

    @property
    def up_to_date(self) -> bool:
        return not (self.fetched or self.merged or self.pushed or self.committed_edits)

    def to_dict(self) -> SyncJson:
        return {"remote": self.remote, "fetched": self.fetched, "merged": self.merged,
                "fast_forward": self.fast_forward, "pushed": self.pushed,
                "committed_edits": list(self.committed_edits), "head": self.head,
                "up_to_date": self.up_to_date, "not_shared": list(self.not_shared),
                "dropped": [d.to_dict() for d in self.dropped],
                "relettered": list(self.relettered)}


@dataclass(frozen=True)
class FolderStatus:
    """Where the folder stands against its remote as last fetched (no network)."""

    remote: str | None
    ahead: int
    behind: int
    pending: tuple[str, ...]  # data files edited by hand, not committed (a sync commits them)

    def to_dict(self) -> StatusJson:
        return {"remote": self.remote, "ahead": self.ahead, "behind": self.behind,
                "pending": list(self.pending)}


def _remote_url(repo: Repo, remote: str | None) -> tuple[str, str]:
    """(name to record the remote's branch under, URL)."""
    config = repo.get_config()
    name = remote or DEFAULT_REMOTE
    with contextlib.suppress(KeyError):
        return name, config.get((b"remote", name.encode()), b"url").decode()
    if remote is None:
        raise RulesFolderError("this rules folder has no remote to sync with; give one with "
                               "`rulesbook sync --remote URL` (it is remembered as origin)")
    origin = None
    with contextlib.suppress(KeyError):
        origin = config.get((b"remote", DEFAULT_REMOTE.encode()), b"url").decode()
    if origin is None or origin == remote:
        return DEFAULT_REMOTE, remote  # the URL becomes (or is) origin
    return remote, remote  # another URL, tracked apart


def _remember_origin(repo: Repo, url: str) -> None:
    config = repo.get_config()
    with contextlib.suppress(KeyError):
        config.get((b"remote", b"origin"), b"url")
        return
    config.set((b"remote", b"origin"), b"url", url.encode())
    config.set((b"remote", b"origin"), b"fetch", b"+refs/heads/*:refs/remotes/origin/*")
    config.write_to_path()


def _tracking_ref(name: str) -> Ref:
    safe = name if name.replace("-", "").replace("_", "").isalnum() else "sync"
    return Ref(f"refs/remotes/{safe}/{BRANCH.decode()}".encode())


def _count(repo: Repo, include: ObjectID | None, exclude: ObjectID | None) -> int:
    if include is None:
        return 0
    walker = repo.get_walker(include=[include], exclude=[exclude] if exclude else None)
    return len(list(walker))


#: request bodies up to this size go to an HTTP remote whole, with a Content-Length
#: (dulwich's default, 1 MiB, streams larger pushes chunked with chunks as large as
#: a pack's objects, which dulwich's own server, ``rulesbook serve``, refuses above
#: 1 MiB). A few data files at their limit (20 MiB each) fit.
HTTP_POST_BUFFER = 256 * 1024 * 1024


def _client_config() -> ConfigDict:
    config = ConfigDict()
    config.set((b"http",), b"postBuffer", str(HTTP_POST_BUFFER).encode())
    return config


def _transport(url: str) -> tuple[GitClient, str]:
    try:
        return get_transport_and_path(url, config=_client_config())
    except (ValueError, NotGitRepository) as exc:
        raise RulesFolderError(f"cannot reach {shown(url)}: {exc}") from None


def _fetch(repo: Repo, url: str, progress: Progress) -> ObjectID | None:
    """Fetch the remote's main branch; its commit id (None: the remote is empty)."""
    client, path = _transport(url)
    progress(f"Fetching from {shown(url)}")
    try:
        result = client.fetch(path, repo)
    except (OSError, HangupException, GitProtocolError, NotGitRepository) as exc:
        raise RulesFolderError(f"cannot fetch from {shown(url)}: {_reason(exc)}") from None
    refs = result.refs
    return refs.get(HEAD_REF)


def _push(repo: Repo, url: str, expected: ObjectID | None, new: ObjectID,
          progress: Progress) -> None:
    client, path = _transport(url)
    progress(f"Pushing to {shown(url)}")

    class Moved(Exception):
        pass

    def update_refs(refs: dict[Ref, ObjectID]) -> dict[Ref, ObjectID]:
        if refs.get(HEAD_REF) != expected:
            raise Moved()
        return {**refs, HEAD_REF: new}

    def pack_data(have: Set[ObjectID], want: Set[ObjectID], *, ofs_delta: bool = False,
                  progress: Callable[..., None] | None = None
                  ) -> tuple[int, Iterator[UnpackedObject]]:
        return repo.generate_pack_data(set(have), set(want), progress=progress,
                                       ofs_delta=ofs_delta)

    try:
        result = client.send_pack(path.encode(), update_refs, pack_data)
    except Moved:
        raise _RemoteMoved() from None
    except (OSError, HangupException, GitProtocolError, NotGitRepository) as exc:
        raise RulesFolderError(f"cannot push to {shown(url)}: {_reason(exc)}; your changes "
                               f"are kept here and the next sync sends them") from None
    status = (result.ref_status or {}).get(HEAD_REF)
    if status:
        raise RulesFolderError(f"{shown(url)} refused the push: {status}")


def shown(url: str) -> str:
    """A remote's address as it may be printed or written into a commit message: a
    password in it (``https://user:secret@host/``) is never shown."""
    return re.sub(r"^([a-z][a-z0-9+.-]*://)[^/@]*@", r"\1", url, flags=re.IGNORECASE)


def _reason(exc: BaseException) -> str:
    """The readable part of a transport error (urllib3's are paragraphs)."""
    if isinstance(exc, NotGitRepository) and not str(exc):
        return "no git repository was found at this address"
    text = str(exc) or exc.__class__.__name__
    if len(text) > 160:
        found = re.search(r"\[Errno -?\d+\] [^\"')(]+", text)
        text = found.group(0).strip() if found else text[:157] + "..."
    return text


class _RemoteMoved(Exception):
    """Someone pushed between our fetch and our push: fetch and merge again."""


_MERGED = ("sync stopped: the merged rules folder would not be valid, so nothing was "
           "merged or pushed")


def _validate_tree(repo: Repo, files: Mapping[str, ObjectID], stopped: str = _MERGED) -> None:
    """Load the folder a tree describes, fully validated; raise SyncInvalid (its
    message starting with ``stopped``)."""
    from ..loading import load_library

    with tempfile.TemporaryDirectory(prefix="rulesbook-merge-") as tmp:
        root = Path(tmp)
        for path, sha in files.items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(read_object(repo, sha, Blob).as_raw_string())
        try:
            library = load_library(root)
        except LibraryError as exc:
            raise SyncInvalid(f"{stopped}:\n"
                              + "\n".join(str(p) for p in exc.problems)) from None
        problems = edition_chain_problems(library)
        if problems:
            raise SyncInvalid("sync stopped: the merged editions do not form a chain, so "
                              "nothing was merged or pushed:\n"
                              + "\n".join(str(p) for p in problems))


_UNPUSHED = ("sync stopped: this rules folder would not be valid as the shared one, so "
             "nothing was pushed")


def _refuse_lost_records(repo: Repo, shared: Mapping[str, ObjectID],
                         new: Mapping[str, ObjectID], stopped: str = _MERGED) -> None:
    """SyncInvalid when ``new`` loses or contradicts a signed record of ``shared``
    (:mod:`.record_checks`)."""
    from .record_checks import shared_record_problems

    problems = shared_record_problems(
        shared, new, lambda sha: read_object(repo, sha, Blob).as_raw_string())
    if problems:
        raise SyncInvalid(f"{stopped}:\n" + "\n".join(problems))


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


@dataclass(frozen=True)
class PendingEdits:
    """What a sync did with the files changed by hand before it ran."""

    committed: tuple[str, ...]  # data files, committed as "Edit by hand"
    not_shared: tuple[str, ...]  # any other file: left alone, never committed


def pending_files(repo: Repo) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(data files changed by hand, other files changed or added) against the head."""
    root = Path(repo.path)
    committed = commit_files(repo, head_id(repo))
    now = worktree_state(root)
    changed = sorted(p for p in set(committed) | set(now) if committed.get(p) != now.get(p))
    return (tuple(p for p in changed if is_data_path(p)),
            tuple(p for p in changed if not is_data_path(p)))


def commit_pending(repo: Repo, progress: Progress) -> tuple[str, ...]:
    """The data files edited by hand, committed (see :func:`commit_hand_edits`)."""
    return commit_hand_edits(repo, progress).committed


def commit_hand_edits(repo: Repo, progress: Progress) -> PendingEdits:
    """Commit the data files edited by hand (a new member, a corrected text) when the
    folder validates; refuse otherwise. Any other file (a member's notes, a download)
    is left alone and named as not shared."""
    from ..loading import load_library

    root = Path(repo.path)
    head = head_id(repo)
    data, others = pending_files(repo)
    if others:
        progress(f"Not shared (not rules data): {', '.join(others)}")
    if not data:
        return PendingEdits((), others)
    try:
        load_library(root)
    except LibraryError as exc:
        raise RulesFolderError(
            f"the rules folder has edits that were never committed ({', '.join(data)}) "
            f"and it does not validate, so nothing was synced:\n"
            + "\n".join(str(p) for p in exc.problems)) from None
    progress(f"Committing edits made by hand: {', '.join(data)}")
    files = commit_files(repo, head)
    for path in data:
        if (root / path).is_file():
            blob = Blob.from_string((root / path).read_bytes())
            repo.object_store.add_object(blob)
            files[path] = blob.id
        else:
            files.pop(path, None)
    user = user_identity(repo)
    commit = make_commit(repo, build_tree(repo, files), [head] if head else [],
                         "Edit by hand: " + ", ".join(data), user)
    set_head(repo, commit, head)
    stage(repo, list(data))
    return PendingEdits(data, others)


def _refuse_working_folder(url: str) -> None:
    """Pushing into someone's working folder would move their branch under their
    files; a shared repository is a bare one."""
    if "://" in url or not (Path(url).expanduser() / ".git").exists():
        return
    raise RulesFolderError(f"{shown(url)} is a member's working rules folder, not a shared "
                           f"repository: share through a bare repository (`rulesbook serve "
                           f"DIR --create`, any git hosting, or `git init --bare`)")


def sync(root: StrPath, remote: str | None = None,
         progress: Progress | None = None, take: Resolution | None = None) -> SyncResult:
    """Fetch the remote's branch, merge it record by record, validate, push.
    ``take``: the side to keep of conflicting records (``--take``)."""
    progress = progress or (lambda _message: None)
    repo = open_repo(root)
    try:
        with folder_lock(root):
            name, url = _remote_url(repo, remote)
            _refuse_working_folder(url)
            edits = commit_hand_edits(repo, progress)
            for _attempt in range(5):
                try:
                    return _sync_once(repo, name, url, edits, progress, take)
                except _RemoteMoved:
                    progress("The remote changed meanwhile; fetching again")
            raise RulesFolderError(f"{shown(url)} kept changing during the sync; try again")
    finally:
        repo.close()


def _sync_once(repo: Repo, name: str, url: str, edits: PendingEdits,
               progress: Progress, take: Resolution | None = None) -> SyncResult:
    local = head_id(repo)
    if local is None:  # a folder made by hand (`git init`) whose files never validated
        raise RulesFolderError("this rules folder has no commit yet, so there is nothing to "
                               "sync; create rules folders with `rulesbook init DIR`")
    theirs = _fetch(repo, url, progress)
    tracking = _tracking_ref(name)
    if theirs is not None:
        repo.refs[tracking] = theirs
    fetched = merged = fast_forward = False
    received = 0
    dropped: tuple[DroppedRecord, ...] = ()
    relettered: tuple[str, ...] = ()
    new = local
    if theirs is not None and theirs != local:
        bases = find_merge_base(repo, [local, theirs])
        base = bases[0] if bases else None
        if base == theirs:
            pass  # we are ahead
        elif base == local:
            progress("Fast-forwarding")
            received = _count(repo, theirs, local)
            _validate_tree(repo, commit_files(repo, theirs))
            _refuse_lost_records(repo, commit_files(repo, local), commit_files(repo, theirs))
            checkout(repo, local, theirs)
            new, fast_forward, fetched = theirs, True, True
        else:
            progress("Merging")
            received = _count(repo, theirs, local)
            files, dropped, relettered = _merge(repo, base, local, theirs, name, take)
            progress("Validating the merged folder")
            _validate_tree(repo, files)
            _refuse_lost_records(repo, commit_files(repo, base), files)
            user = user_identity(repo)
            message = f"Sync: merge {received} change(s) from {shown(url)}"
            if dropped:
                message += "\n\nConflicts settled with --take:\n" + "\n".join(
                    f"- {d}" for d in dropped)
            if relettered:
                message += "\n\nMembers given another letter:\n" + "\n".join(
                    f"- {note}" for note in relettered)
            new = make_commit(repo, build_tree(repo, files), [local, theirs], message, user)
            checkout(repo, local, new)
            merged = fetched = True
    pushed = 0
    if new != theirs:
        if not (merged or fast_forward):  # what is pushed is validated like what is merged
            _validate_tree(repo, commit_files(repo, new), _UNPUSHED)
            if theirs is not None:
                _refuse_lost_records(repo, commit_files(repo, theirs), commit_files(repo, new),
                                     _UNPUSHED)
        pushed = _count(repo, new, theirs)
        _push(repo, url, theirs, new, progress)
        repo.refs[tracking] = new
    if name == DEFAULT_REMOTE:
        _remember_origin(repo, url)
    progress("Up to date" if not (fetched or pushed or edits.committed) else "Synced")
    return SyncResult(shown(url), received if fetched else 0, merged, fast_forward, pushed,
                      edits.committed, new.decode(), edits.not_shared, dropped, relettered)


def _merge(repo: Repo, base: ObjectID | None, ours: ObjectID, theirs: ObjectID, name: str,
           take: Resolution | None = None
           ) -> tuple[dict[str, ObjectID], tuple[DroppedRecord, ...], tuple[str, ...]]:
    result, merged = merge_trees(commit_files(repo, base), commit_files(repo, ours),
                                 commit_files(repo, theirs),
                                 lambda sha: read_object(repo, sha, Blob).as_raw_string(), take)
    conflicts = [c for m in merged for c in m.conflicts]
    if conflicts:
        raise SyncConflict(conflicts, _tracking_ref(name).decode().removeprefix("refs/remotes/"))
    late = [c for m in merged for c in m.after_seal]
    if late:
        raise SealedMeanwhile(
            "sync stopped: the merged rules folder would not be valid, so nothing was merged "
            "or pushed: a ballot was sealed on one side while votes were made on the other:\n"
            + "\n".join(f"{c.file}: {c.record}: here {c.ours}; remote {c.theirs} — {c.note}"
                        for c in late)
            + f"\nKeep the sealed ballot with `rulesbook sync --take theirs '{late[0].record}'` "
              f"(or `--take mine` when this folder sealed it); the vote made after the seal "
              f"is dropped", late)
    for item in merged:
        if item.data is not None:
            blob = Blob.from_string(item.data)
            repo.object_store.add_object(blob)
            result[item.path] = blob.id
    return (result, tuple(d for m in merged for d in m.dropped),
            tuple(note for m in merged for note in m.relettered))


def fetch_status(root: StrPath, remote: str | None = None,
                 progress: Progress | None = None) -> FolderStatus:
    """Fetch the remote's branch (nothing is merged or changed in the folder) and tell
    how far ahead and behind the folder is."""
    repo = open_repo(root)
    try:
        with folder_lock(root):
            name, url = _remote_url(repo, remote)
            theirs = _fetch(repo, url, progress or (lambda _message: None))
            if theirs is not None:
                repo.refs[_tracking_ref(name)] = theirs
    finally:
        repo.close()
    return folder_status(root, remote)


def folder_status(root: StrPath, remote: str | None = None) -> FolderStatus:
    """Ahead/behind against the remote's branch as last fetched, and pending edits."""
    repo = open_repo(root)
    try:
        local = head_id(repo)
        pending, _others = pending_files(repo)  # what a sync would commit
        try:
            name, url = _remote_url(repo, remote)
        except RulesFolderError:  # no remote yet
            return FolderStatus(None, 0, 0, pending)
        theirs: ObjectID | None = None
        with contextlib.suppress(KeyError):
            theirs = repo.refs[_tracking_ref(name)]
        if theirs is None:
            return FolderStatus(shown(url), _count(repo, local, None), 0, pending)
        return FolderStatus(shown(url), _count(repo, local, theirs), _count(repo, theirs, local),
                            pending)
    finally:
        repo.close()


def clone(url: str, target: StrPath, progress: Progress | None = None) -> Path:
    """Clone a shared rules folder into ``target`` (which must not exist or be empty);
    it appears whole and validated, or not at all."""
    progress = progress or (lambda _message: None)
    target = new_folder_target(target)
    staging = staging_beside(target)
    try:
        work = staging / "folder"
        work.mkdir()
        repo = Repo.init(str(work), default_branch=BRANCH)
        try:
            theirs = _fetch(repo, url, progress)
            if theirs is None:
                raise RulesFolderError(
                    f"{shown(url)} has no rules folder yet: the secretary creates one with "
                    f"`rulesbook init DIR` and shares it with `rulesbook sync --remote {shown(url)}`")
            files = commit_files(repo, theirs)
            if MARKER not in files:
                raise RulesFolderError(
                    f"{shown(url)} is a git repository but not a rules folder (it has no "
                    f"{MARKER} at its top); nothing was cloned")
            _validate_tree(repo, files, f"{shown(url)} holds a rules folder that does not "
                                        f"validate, so nothing was cloned")
            repo.refs[_tracking_ref(DEFAULT_REMOTE)] = theirs
            checkout(repo, None, theirs)
            _remember_origin(repo, url)
        finally:
            repo.close()
        if target.exists():
            target.rmdir()
        os.replace(work, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    progress(f"Cloned {shown(url)} into {target}")
    return target
