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
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from dulwich.objects import Blob, ObjectID
from dulwich.refs import Ref
from dulwich.repo import Repo

from ..errors import LibraryError
from .ancestry import merge_bases
from .commit_check import commit_problems, tree_bound_problem, tree_problems
from .credentials import Ask, without_password
from .errors import (
    DroppedRecord,
    Resolution,
    RulesFolderError,
    SealedMeanwhile,
    SyncConflict,
    SyncInvalid,
)
from .merge import merge_trees
from .quarantine import Quarantine, drop_stale
from .remote_history import refuse_invalid, refuse_rewritten
from .repo import (
    BRANCH,
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
from .sync_result import FolderStatus, SyncResult
from .transport import RemoteMoved, fetch_main, push_main, shown

Progress = Callable[[str], None]
DEFAULT_REMOTE = "origin"


def _configured_url(repo: Repo, name: str) -> str | None:
    with contextlib.suppress(KeyError):
        return repo.get_config().get((b"remote", name.encode()), b"url").decode()
    return None


def _remote_url(repo: Repo, remote: str | None) -> tuple[str, str]:
    """(name to record the remote's branch under, URL). A URL given with ``--remote``
    becomes the folder's origin (:func:`_remember_origin`, once the sync worked)."""
    name = remote or DEFAULT_REMOTE
    configured = _configured_url(repo, name)
    if configured is not None:
        return name, configured
    if remote is None:
        raise RulesFolderError("this rules folder has no remote to sync with; give one with "
                               "`rulesbook sync --remote URL` (it is remembered as origin)")
    return DEFAULT_REMOTE, remote


def origin_url(root: StrPath) -> str | None:
    """The folder's origin as it may be shown (never with a password)."""
    repo = Repo(str(root))
    try:
        url = _configured_url(repo, DEFAULT_REMOTE)
    finally:
        repo.close()
    return shown(url) if url else None


class OriginChange(NamedTuple):
    """What remembering a URL as the folder's origin changed."""

    set: bool  # the URL is the origin now, and was not before
    previous: str | None  # the origin it replaced, as shown (None: there was none)


_UNCHANGED = OriginChange(False, None)


def _remember_origin(repo: Repo, url: str) -> OriginChange:
    """Make ``url`` (without its password) the folder's origin."""
    stored = without_password(url)
    before = _configured_url(repo, DEFAULT_REMOTE)
    if before == stored:
        return _UNCHANGED
    config = repo.get_config()
    config.set((b"remote", b"origin"), b"url", stored.encode())
    config.set((b"remote", b"origin"), b"fetch", b"+refs/heads/*:refs/remotes/origin/*")
    config.write_to_path()
    return OriginChange(True, shown(before) if before is not None else None)


def _tracking_ref(name: str) -> Ref:
    safe = name if name.replace("-", "").replace("_", "").isalnum() else "sync"
    return Ref(f"refs/remotes/{safe}/{BRANCH.decode()}".encode())


def _count(repo: Repo, include: ObjectID | None, exclude: ObjectID | None) -> int:
    if include is None:
        return 0
    walker = repo.get_walker(include=[include], exclude=[exclude] if exclude else None)
    return len(list(walker))


_MERGED = ("sync stopped: the merged rules folder would not be valid, so nothing was "
           "merged or pushed")


def _validate_tree(repo: Repo, files: Mapping[str, ObjectID], stopped: str = _MERGED) -> None:
    """Load the folder a tree describes, fully validated; raise SyncInvalid (its
    message starting with ``stopped``)."""
    problems = tree_problems(repo, files)
    if problems.folder:
        raise SyncInvalid(f"{stopped}:\n" + "\n".join(problems.lines()))
    if problems.chain:
        raise SyncInvalid("sync stopped: the merged editions do not form a chain, so "
                          "nothing was merged or pushed:\n" + "\n".join(problems.lines()))


_UNPUSHED = ("sync stopped: this rules folder would not be valid as the shared one, so "
             "nothing was pushed")


def _refuse_lost_records(repo: Repo, shared: ObjectID | None,
                         new: Mapping[str, ObjectID], heads: list[ObjectID],
                         stopped: str = _MERGED, *, votes_only: bool = False) -> None:
    """SyncInvalid when ``new`` (the files of ``heads``, or of their merge) loses or
    contradicts a signed record of commit ``shared`` (:mod:`.record_checks`;
    ``votes_only``: see there)."""
    from .record_checks import forked_statements, roles_dated_back_in, shared_record_problems

    problems = shared_record_problems(
        commit_files(repo, shared), new,
        lambda sha: read_object(repo, sha, Blob).as_raw_string(), votes_only=votes_only,
        forked=lambda: forked_statements(repo, heads, shared))
    problems += [p for p in roles_dated_back_in(repo, heads, shared) if p not in problems]
    if problems:
        raise SyncInvalid(f"{stopped}:\n" + "\n".join(problems))



def _refuse_dated_back_roles(repo: Repo, theirs: ObjectID, url: str) -> None:
    """A clone takes no history in which a commit put roles before a role statement
    its parent already held (:func:`.record_checks.roles_dated_back_in`)."""
    from .record_checks import roles_dated_back_in

    problems = roles_dated_back_in(repo, [theirs], None)
    if problems:
        raise SyncInvalid(f"{shown(url)} holds a history in which the members' roles "
                          f"were rewritten, so nothing was cloned:\n" + "\n".join(problems))


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
         progress: Progress | None = None, take: Resolution | None = None,
         ask: Ask | None = None, restore_remote: bool = False) -> SyncResult:
    """Fetch the remote's branch, merge it record by record, validate, push.
    ``take``: the side to keep of conflicting records (``--take``); ``ask``: asks the
    user for a login when the server wants one; ``restore_remote``: replace the
    remote's main with this folder's (``--restore-remote``)."""
    progress = progress or (lambda _message: None)
    repo = open_repo(root)
    try:
        with folder_lock(root):
            drop_stale(repo)  # what a killed sync had fetched and not settled
            name, url = _remote_url(repo, remote)
            _refuse_working_folder(url)
            edits = commit_hand_edits(repo, progress)
            if restore_remote:
                return _restore(repo, name, url, edits, progress, ask)
            for _attempt in range(5):
                try:
                    return _sync_once(repo, name, url, edits, progress, take, ask)
                except RemoteMoved:
                    progress("The remote changed meanwhile; fetching again")
            raise RulesFolderError(f"{shown(url)} kept changing during the sync; try again")
    finally:
        repo.close()


def _fetch(repo: Repo, url: str, progress: Progress, ask: Ask | None) -> ObjectID | None:
    progress(f"Fetching from {shown(url)}")
    return fetch_main(repo, url, ask)


def _push(repo: Repo, url: str, expected: ObjectID | None, new: ObjectID,
          progress: Progress, ask: Ask | None) -> None:
    progress(f"Pushing to {shown(url)}")
    push_main(repo, url, expected, new, ask)


def _previous(repo: Repo, name: str, url: str) -> ObjectID | None:
    """The remote's main as last fetched, when ``url`` is the remote it came from."""
    if _configured_url(repo, name) not in (url, without_password(url)):
        return None
    with contextlib.suppress(KeyError):
        return repo.refs[_tracking_ref(name)]
    return None


def _restore(repo: Repo, name: str, url: str, edits: PendingEdits, progress: Progress,
             ask: Ask | None) -> SyncResult:
    """``--restore-remote``: push this folder's (valid) main over the remote's."""
    local = head_id(repo)
    if local is None:
        raise RulesFolderError("this rules folder has no commit yet, so there is nothing to "
                               "send")
    # the remote's history is only looked at: it is replaced, so never kept here
    with Quarantine(repo) as incoming:
        theirs = _fetch(incoming.repo, url, progress, ask)
        if theirs == local:
            raise RulesFolderError(f"{shown(url)} already holds this folder's history; "
                                   f"nothing to restore")
        problems = commit_problems(repo, local)
        if problems:  # a folder changed by hand with git: never sent over the remote's
            raise RulesFolderError("this folder's own history does not validate, so it was "
                                   "not sent:\n" + "\n".join(problems.lines()))
        dropped = _count(incoming.repo, theirs, local)
        pushed = _count(incoming.repo, local, theirs)
        progress(f"Restoring {shown(url)} to this folder's history"
                 + (f" ({dropped} commit(s) of the remote's are replaced)" if dropped else ""))
        try:
            _push(repo, url, theirs, local, progress, ask)
        except RemoteMoved:
            raise RulesFolderError(f"{shown(url)} changed during the restore; run `rulesbook "
                                   f"sync` to see what it holds now") from None
    repo.refs[_tracking_ref(name)] = local
    origin = _remember_origin(repo, url) if name == DEFAULT_REMOTE else _UNCHANGED
    return SyncResult(shown(url), 0, False, False, pushed, edits.committed,
                      local.decode(), edits.not_shared, previous_origin=origin.previous,
                      origin_set=origin.set, replaced=dropped)


class _Settled(NamedTuple):
    """What a sync settled on before anything in the folder moves."""

    new: ObjectID  # the folder's main from now on
    received: int
    merged: bool
    fast_forward: bool
    dropped: tuple[DroppedRecord, ...]
    relettered: tuple[str, ...]


def _is_its_remote(repo: Repo, name: str, url: str) -> bool:
    return _configured_url(repo, name) in (url, without_password(url))


def _sync_once(repo: Repo, name: str, url: str, edits: PendingEdits,
               progress: Progress, take: Resolution | None = None,
               ask: Ask | None = None) -> SyncResult:
    local = head_id(repo)
    if local is None:  # a folder made by hand (`git init`) whose files never validated
        raise RulesFolderError("this rules folder has no commit yet, so there is nothing to "
                               "sync; create rules folders with `rulesbook init DIR`")
    previous = _previous(repo, name, url)
    tracking = _tracking_ref(name)
    # what is fetched (and merged) stays apart until the sync is settled: a refused
    # sync keeps neither the remote's objects nor its remote-tracking branch
    with Quarantine(repo) as incoming:
        theirs = _fetch(incoming.repo, url, progress, ask)
        try:
            settled = _settle(incoming.repo, name, url, local, previous, theirs, progress,
                              take)
        except SyncConflict as exc:
            if not _is_its_remote(repo, name, url):  # another remote: nothing kept
                raise SyncConflict(list(exc.records), exc.remote_ref,
                                   kept_as=None) from None
            incoming.admit()  # the folder's own remote's version, kept to look at
            assert theirs is not None
            repo.refs[tracking] = theirs
            raise
        incoming.admit()
    new = settled.new
    if theirs is not None:
        repo.refs[tracking] = theirs
    if new != local:
        checkout(repo, local, new)
    pushed = 0
    if new != theirs:
        pushed = _count(repo, new, theirs)
        _push(repo, url, theirs, new, progress, ask)
        repo.refs[tracking] = new
    # said once, by whoever shows the result (the CLI: "origin is now URL (it was OLD)")
    origin = _remember_origin(repo, url) if name == DEFAULT_REMOTE else _UNCHANGED
    fetched = settled.merged or settled.fast_forward
    progress("Up to date" if not (fetched or pushed or edits.committed) else "Synced")
    return SyncResult(shown(url), settled.received if fetched else 0, settled.merged,
                      settled.fast_forward, pushed, edits.committed, new.decode(),
                      edits.not_shared, settled.dropped, relettered=settled.relettered,
                      previous_origin=origin.previous, origin_set=origin.set)


def _settle(repo: Repo, name: str, url: str, local: ObjectID, previous: ObjectID | None,
            theirs: ObjectID | None, progress: Progress, take: Resolution | None
            ) -> _Settled:
    """Check what was fetched and make the merge (nothing in the folder moves yet):
    raises what refuses the sync."""
    if theirs is not None and previous is not None:
        refuse_rewritten(repo, previous, local, theirs, shown(url))
    if theirs is not None and theirs != local and MARKER not in commit_files(repo, theirs):
        raise RulesFolderError(f"sync stopped: {shown(url)} is a git repository but not a "
                               f"rules folder (its main has no {MARKER} at its top); nothing "
                               f"was merged or pushed")
    merged = fast_forward = False
    received = 0
    dropped: tuple[DroppedRecord, ...] = ()
    relettered: tuple[str, ...] = ()
    new = local
    if theirs is not None and theirs != local:
        bases = merge_bases(repo, local, theirs)
        if not bases:
            raise RulesFolderError(
                f"sync stopped: {shown(url)} holds a rules folder with no commit in common "
                f"with this one (another folder made by 'rulesbook init', not a copy of "
                f"this one); nothing was merged or pushed. To work on it, get it with "
                f"'rulesbook clone {shown(url)} FOLDER'")
        base = bases[0]
        if base == theirs:
            pass  # we are ahead
        elif base == local:
            progress("Fast-forwarding")
            received = _count(repo, theirs, local)
            _validate_theirs(repo, commit_files(repo, theirs), local, theirs, url)
            _refuse_lost_records(repo, local, commit_files(repo, theirs), [theirs])
            new, fast_forward = theirs, True
        else:
            progress("Merging")
            received = _count(repo, theirs, local)
            if tree_bound_problem(repo, commit_files(repo, theirs)) is not None:
                refuse_invalid(repo, local, theirs, shown(url))  # never merged, read whole
            files, dropped, relettered = _merge(repo, base, local, theirs, name, take)
            progress("Validating the merged folder")
            _validate_theirs(repo, files, local, theirs, url)
            _refuse_lost_records(repo, base, files, [local, theirs])
            # the remote's votes too: a `--take mine` keeps them in the history
            _refuse_lost_records(repo, theirs, files, [local, theirs], votes_only=True)
            user = user_identity(repo)
            message = f"Sync: merge {received} change(s) from {shown(url)}"
            if dropped:
                message += "\n\nConflicts settled with --take:\n" + "\n".join(
                    f"- {d}" for d in dropped)
            if relettered:
                message += "\n\nMembers given another letter:\n" + "\n".join(
                    f"- {note}" for note in relettered)
            new = make_commit(repo, build_tree(repo, files), [local, theirs], message, user)
            merged = True
    if new != theirs and not (merged or fast_forward):
        # what is pushed is validated like what is merged
        _validate_tree(repo, commit_files(repo, new), _UNPUSHED)
        if theirs is not None:
            _refuse_lost_records(repo, theirs, commit_files(repo, new), [new], _UNPUSHED)
    return _Settled(new, received, merged, fast_forward, dropped, relettered)


def _validate_theirs(repo: Repo, files: Mapping[str, ObjectID], local: ObjectID,
                     theirs: ObjectID, url: str) -> None:
    """:func:`_validate_tree`; when it fails because the remote's own head does not
    validate, the message names the remote's first invalid commit instead."""
    try:
        _validate_tree(repo, files)
    except SyncInvalid:
        refuse_invalid(repo, local, theirs, shown(url))
        raise


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
                 progress: Progress | None = None, ask: Ask | None = None) -> FolderStatus:
    """Fetch the remote's branch (nothing is merged or changed in the folder) and tell
    how far ahead and behind the folder is."""
    repo = open_repo(root)
    try:
        with folder_lock(root):
            name, url = _remote_url(repo, remote)
            theirs = _fetch(repo, url, progress or (lambda _message: None), ask)
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


def clone(url: str, target: StrPath, progress: Progress | None = None,
          ask: Ask | None = None) -> Path:
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
            theirs = _fetch(repo, url, progress, ask)
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
            _refuse_dated_back_roles(repo, theirs, url)
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
