"""What ``rulesbook serve`` accepts in a push: the record stays valid and
append-only.

- one branch, ``main``: a push to any other ref (a branch, a tag) is refused;
- ``main`` is never deleted and only ever fast-forwarded (a push must contain the
  commit it replaces: the history is append-only);
- the pack is checked as it arrives (:mod:`.pack_guard`: no object over a data
  file's limit, no bomb), every new commit's file names as a clone checks them
  (:mod:`.remote_safety`), and the pushed commit with the checks of ``rulesbook
  validate`` (:mod:`.commit_check`) before the branch moves: an invalid push is
  refused with the reason, and no other member ever receives it.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

from dulwich.objects import Blob, Commit, ObjectID
from dulwich.refs import Ref
from dulwich.repo import Repo
from dulwich.server import ReceivePackHandler

from ..documents import reusing_documents
from .commit_check import commit_problems
from .errors import RulesFolderError
from .object_sizes import kinds_in
from .pack_guard import PackGuard
from .quarantine import Quarantine
from .repo import HEAD_REF, commit_files, read_object
from .tree_bounds import MAX_CHANGE_BYTES, MAX_CHANGE_FILES, MAX_TREE_BYTES, MAX_TREE_FILES

#: the longest reason sent back in a refusal (one pkt-line)
MAX_REASON = 900


class _Refused(OSError):
    """The pack was refused while it arrived (dulwich reports an OSError as the
    unpack status, and moves no ref)."""


def _guarded(read: Callable[..., bytes], guard: PackGuard) -> Callable[..., bytes]:
    def wrapped(*args: int) -> bytes:
        data = read(*args)
        try:
            guard.feed(data)
        except RulesFolderError as exc:
            raise _Refused(str(exc)) from None
        return data
    return wrapped


def _one_line(text: str) -> bytes:
    text = " ".join(text.split())
    if len(text) > MAX_REASON:
        text = text[:MAX_REASON - 3] + "..."
    return text.encode("utf-8")


class GuardedReceivePack(ReceivePackHandler):
    """dulwich's receive-pack, with the pack checked as it arrives and kept in a
    :class:`.quarantine.Quarantine` until every ref update passes :func:`refusal`;
    a push is taken whole or not at all, and a refused one leaves no object behind."""

    #: one push at a time moves main: its objects moved in, then the ref set
    _moving = threading.Lock()

    def _apply_pack(self, refs: list[tuple[ObjectID, ObjectID, Ref]]
                    ) -> Iterator[tuple[bytes, bytes]]:
        shared = self.repo
        self._reasons: dict[Ref, bytes] = {}
        with Quarantine(shared) as quarantine:  # type: ignore[arg-type]
            self.repo = quarantine.repo
            try:
                yield from self._checked(refs, quarantine)
            finally:
                self.repo = shared

    def _checked(self, refs: list[tuple[ObjectID, ObjectID, Ref]], quarantine: Quarantine
                 ) -> Iterator[tuple[bytes, bytes]]:
        # a thin push's bases: the quarantine reads the shared repository's objects
        shared = self.repo.object_store
        guard = PackGuard("the push", sha_length=self.repo.object_format.oid_length,
                          kind_of=kinds_in(shared), per_commit=MAX_TREE_BYTES,
                          files_per_commit=MAX_TREE_FILES,
                          per_change=MAX_CHANGE_BYTES, files_per_change=MAX_CHANGE_FILES)
        proto = self.proto
        original = proto.read, getattr(proto, "recv", None)
        proto.read = _guarded(proto.read, guard)
        if original[1] is not None:
            proto.recv = _guarded(original[1], guard)  # type: ignore[attr-defined]
        try:
            applying = super()._apply_pack(refs)
            unpacked = next(applying)  # the pack is in the quarantine now (or refused)
        finally:
            proto.read = original[0]
            if original[1] is not None:
                proto.recv = original[1]  # type: ignore[attr-defined]
        yield unpacked
        if unpacked[1] != b"ok":
            yield from applying
            return
        reasons = {ref: refusal(quarantine.repo, ref, old, new) for old, new, ref in refs}
        with self._moving:
            if not any(reasons.values()):
                now = self.repo.refs.as_dict()  # the repository's own refs, read again
                zero = ObjectID(b"0" * self.repo.object_format.hex_length)
                if any(now.get(ref, zero) != old for old, _new, ref in refs):
                    reasons = dict.fromkeys(reasons, (
                        "main moved while this push was checked (another member pushed "
                        "first): run `rulesbook sync`, which fetches and merges first"))
            refused = next((r for r in reasons.values() if r), None)
            for ref, reason in reasons.items():
                if reason:
                    self._reasons[ref] = _one_line(reason)
                elif refused:
                    self._reasons[ref] = _one_line(f"not updated: the rest of the push was "
                                                   f"refused ({refused})")
            if refused is None:
                quarantine.admit()
            yield from applying

    def _on_update(self, ref_name: Ref, old_sha: ObjectID, new_sha: ObjectID) -> bytes | None:
        reason = self._reasons.get(ref_name)
        if reason:
            return reason
        return super()._on_update(ref_name, old_sha, new_sha)


def _is_zero(sha: ObjectID) -> bool:
    return not sha.strip(b"0")


def refusal(repo: Repo, ref: Ref, old: ObjectID, new: ObjectID) -> str | None:
    """Why the push of ``ref`` from ``old`` to ``new`` is refused (None: accepted)."""
    if ref != HEAD_REF:
        return (f"this server keeps one branch, main; {ref.decode('utf-8', 'replace')} was "
                f"not created (push to main)")
    if _is_zero(new):
        return "main is never deleted: the rules folder's history is append-only"
    if not _is_zero(old) and not _descends(repo, new, old):
        return ("the push does not contain the commit it would replace (a non-fast-forward "
                "push rewrites history; the rules folder's history is append-only): run "
                "`rulesbook sync`, which fetches and merges first")
    checking = new
    try:
        # every commit a push adds to main must be a valid rules folder, not only its tip:
        # the history is append-only, so an invalid commit repaired by a later one would
        # stay in it for good. (The first push of a folder is checked at its tip only: its
        # older history may predate today's checks.)
        trees: set[ObjectID] = set()
        named, lines = new, commit_problems(repo, new).lines()
        walk = repo.get_walker(include=[new], exclude=None if _is_zero(old) else [old])
        with reusing_documents():  # each commit read with what changed since the last
            for entry in walk:
                checking = entry.commit.id
                if entry.commit.tree in trees:
                    continue
                trees.add(entry.commit.tree)
                commit_files(repo, entry.commit.id)
                if _is_zero(old) or entry.commit.id == new:
                    continue
                found = commit_problems(repo, entry.commit.id).lines()
                if found:  # the walk goes back in time: the oldest invalid one is named
                    named, lines = entry.commit.id, found
    except (RulesFolderError, KeyError) as exc:
        shown = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        return (f"the pushed {_commit_named(repo, checking)} was refused, so main was not "
                f"moved: {shown}")
    if not lines and not _is_zero(old):  # signed records are append-only (.record_checks)
        from .record_checks import forked_statements, shared_record_problems

        lines = shared_record_problems(commit_files(repo, old), commit_files(repo, new),
                                       lambda sha: read_object(repo, sha, Blob).as_raw_string(),
                                       forked=lambda: forked_statements(repo, [new], old))
    if lines:
        return (f"the pushed rules folder does not validate, so main was not moved "
                f"({_commit_named(repo, named)}): " + "; ".join(lines))
    return None


def _commit_named(repo: Repo, commit: ObjectID) -> str:
    """``commit 1a2b3c4d5e by Name <email>`` (without its author when it cannot be
    read: a push that names a commit it did not send)."""
    try:
        author = read_object(repo, commit, Commit).author.decode("utf-8", "replace")
    except (KeyError, RulesFolderError):
        return f"commit {commit.decode('ascii', 'replace')[:10]}"
    return f"commit {commit.decode('ascii', 'replace')[:10]} by {author}"


def _descends(repo: Repo, new: ObjectID, old: ObjectID) -> bool:
    from .ancestry import is_ancestor

    return is_ancestor(repo, old, new)
