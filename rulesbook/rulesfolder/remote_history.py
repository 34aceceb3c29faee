"""A remote that does not keep the record: one whose history was rewritten (a force
push dropped commits this folder already shared), or one that holds a commit that
does not validate. A sync refuses both and changes nothing in the folder; it names
what it found and offers ``rulesbook sync --restore-remote``, which sends this
folder's valid history back to the remote (when the remote lets the member push it:
``rulesbook serve`` never takes a push that rewrites its history)."""
from __future__ import annotations

from dulwich.objects import ObjectID
from dulwich.repo import Repo

from ..documents import reusing_documents
from .ancestry import is_ancestor
from .commit_check import commit_problems, describe_commit
from .errors import RulesFolderError, SyncInvalid

#: the most new commits a sync validates one by one (the oldest) to find the first
#: invalid one; beyond them it bisects
MAX_COMMITS_SEARCHED = 200
RESTORE = "rulesbook sync --restore-remote"


class RemoteRewritten(RulesFolderError):
    """The remote's main no longer contains commits this folder already shared."""


class RemoteInvalid(SyncInvalid):
    """The remote holds a commit that does not validate."""


def refuse_rewritten(repo: Repo, previous: ObjectID, local: ObjectID, theirs: ObjectID,
                     where: str) -> None:
    """Refuse when the remote's ``theirs`` does not contain ``previous`` (its main as
    last fetched), which this folder took into its own history."""
    if previous == theirs or not _contains(repo, local, previous):
        return  # unchanged, or a commit this folder never took (e.g. an invalid one)
    if _contains(repo, theirs, previous):
        return
    raise RemoteRewritten(
        f"sync stopped: the history on {where} was rewritten (a force push): its main no "
        f"longer contains commit {describe_commit(repo, previous)}, which this folder "
        f"already shared. Nothing was merged or pushed, and this folder is as it was. If "
        f"no one meant to replace the shared history, send this folder's back with `{RESTORE}`")


def _contains(repo: Repo, head: ObjectID, commit: ObjectID) -> bool:
    return is_ancestor(repo, commit, head)


def first_invalid(repo: Repo, local: ObjectID, theirs: ObjectID) -> ObjectID | None:
    """The oldest commit of the remote's (not in this folder) that does not validate,
    when the remote's own head does not; None when the remote's head validates. The
    oldest :data:`MAX_COMMITS_SEARCHED` are checked one by one; when all of them
    validate, the rest is bisected (the first invalid one after a valid one)."""
    if not commit_problems(repo, theirs):
        return None
    new = [entry.commit.id for entry in repo.get_walker(include=[theirs], exclude=[local],
                                                       reverse=True)]
    with reusing_documents():  # each commit read with what changed since the one before
        for commit in new[:MAX_COMMITS_SEARCHED]:
            if commit_problems(repo, commit):
                return commit
        valid, invalid = MAX_COMMITS_SEARCHED - 1, len(new) - 1  # new[-1] is theirs
        while invalid - valid > 1:
            middle = (valid + invalid) // 2
            if commit_problems(repo, new[middle]):
                invalid = middle
            else:
                valid = middle
    return new[invalid] if len(new) > MAX_COMMITS_SEARCHED else theirs


def refuse_invalid(repo: Repo, local: ObjectID, theirs: ObjectID, where: str) -> None:
    """Raise :class:`RemoteInvalid` naming the remote's invalid commit, its author
    and the failure, when the remote's head does not validate."""
    culprit = first_invalid(repo, local, theirs)
    if culprit is None:
        return
    problems = commit_problems(repo, culprit).lines()
    later = sum(1 for _ in repo.get_walker(include=[theirs], exclude=[culprit]))
    after = f" ({later} later commit(s) on the remote build on it)" if later else ""
    raise RemoteInvalid(
        f"sync stopped: {where} holds a rules folder that does not validate, so nothing was "
        f"merged or pushed and this folder is as it was. The first commit that does not "
        f"validate is {describe_commit(repo, culprit)}{after}:\n" + "\n".join(problems)
        + f"\nSend this folder's valid history back to the remote with `{RESTORE}` (it "
          f"replaces the remote's commits that this folder does not have), or ask the "
          f"commit's author to undo it")
