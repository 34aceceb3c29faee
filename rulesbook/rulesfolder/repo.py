"""A rules folder is a git repository, handled with dulwich (pure Python: no ``git``
program is needed, and it works the same on Windows, macOS and Linux).

This module holds the git plumbing every other part uses: finding and opening a
folder, reading the files of a commit, building trees and commits, the commit
identity, and writing a commit's files into the working folder crash-safely.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from dulwich.objects import Blob, Commit, ObjectID, ShaFile, Tree, parse_tree
from dulwich.refs import Ref
from dulwich.repo import Repo

from ..storage import atomic_write_bytes
from .errors import NotARulesFolder, RulesFolderError
from .remote_safety import UnsafePath, check_collisions, check_names, shown_name
from .trailer import with_version_trailer
from .where import MARKER as MARKER
from .where import StrPath as StrPath
from .where import find_rules_folder as find_rules_folder
from .where import is_rules_folder as is_rules_folder

if TYPE_CHECKING:
    from .journal import Journal, JournalEntry

BRANCH = b"main"
HEAD_REF = Ref(b"refs/heads/main")
HEAD = Ref(b"HEAD")
JOURNAL = "rulesbook-checkout"  # in .git: a checkout being written (finished on next open)
GITIGNORE = (b"# Written by rulesbook: lock files, backups and temporary files stay out.\n"
             b".*.lock\n*~\n.*.tmp\n__pycache__/\n")
FILE_MODE = 0o100644

_Object = TypeVar("_Object", Commit, Tree, Blob)


@dataclass(frozen=True)
class Identity:
    """Who a commit is by: ``Name <email>``."""

    name: str
    email: str

    def __bytes__(self) -> bytes:
        name = self.name.replace("<", "").replace(">", "").replace("\n", " ").strip()
        email = self.email.replace("<", "").replace(">", "").replace("\n", "").strip()
        return f"{name or 'Rulesbook user'} <{email}>".encode()

    @classmethod
    def parse(cls, text: str) -> Identity:
        """``"Name <email>"`` (the email may be omitted)."""
        text = text.strip()
        if "<" in text and text.endswith(">"):
            name, _, email = text[:-1].partition("<")
            return cls(name.strip(), email.strip())
        return cls(text, "")


def user_identity(repo: Repo) -> Identity:
    """The user's configured name: ``$RULESBOOK_AUTHOR`` ("Name <email>"), else git's
    ``user.name``/``user.email`` (the folder's config, then the user's), else the login."""
    configured = os.environ.get("RULESBOOK_AUTHOR")
    if configured:
        return Identity.parse(configured)
    from dulwich.repo import get_user_identity

    return Identity.parse(get_user_identity(repo.get_config_stack()).decode("utf-8", "replace"))


# -- finding and opening ---------------------------------------------------------

def open_repo(root: StrPath) -> Repo:
    """Open a rules folder, finishing a checkout a killed process left half done."""
    root = Path(root)
    if not is_rules_folder(root):
        raise NotARulesFolder(f"{root} is not a rules folder (a git repository with "
                              f"{MARKER}); create one with `rulesbook init DIR`")
    from .journal import needs_recovery

    if needs_recovery(root):  # a killed writer's change: completed or rolled back
        with folder_lock(root):
            pass
    repo = Repo(str(root))
    if (Path(repo.controldir()) / JOURNAL).exists():
        with folder_lock(root):
            finish_checkout(repo)
    return repo


@contextlib.contextmanager
def folder_lock(root: StrPath) -> Iterator[Journal]:
    """One writer at a time in a rules folder (the lock file lives in ``.git``); what
    a killed writer left is finished first (:mod:`.journal`)."""
    from .journal import folder_lock as journaled_lock

    with journaled_lock(root, finish_change) as journal:
        yield journal


# -- reading commits -------------------------------------------------------------

def head_id(repo: Repo) -> ObjectID | None:
    try:
        return repo.refs[HEAD]
    except KeyError:
        return None


def read_object(repo: Repo, object_id: ObjectID, kind: type[_Object]) -> _Object:
    """The stored object ``object_id``, refused unless it is a ``kind`` (a commit,
    tree or blob), as a commit received from elsewhere may claim anything."""
    found: ShaFile = repo[object_id]
    if not isinstance(found, kind):
        raise RulesFolderError(f"git object {object_id.decode('ascii', 'replace')[:12]} is a "
                               f"{found.type_name.decode()}, not a {kind.type_name.decode()}: "
                               f"the commit that names it is damaged (made by hand, or "
                               f"received from a remote)")
    return found


def tree_files(repo: Repo, tree_id: ObjectID | None, prefix: str = "") -> dict[str, ObjectID]:
    """``{path: blob id}`` of every file of a tree (paths with ``/``), refused
    (:class:`UnsafePath`) when a name is, every such name of the tree named."""
    names: list[tuple[bytes, str]] = []
    out = _tree_files(repo, tree_id, prefix, names)
    check_names(names)
    return out


def _tree_files(repo: Repo, tree_id: ObjectID | None, prefix: str,
                names: list[tuple[bytes, str]]) -> dict[str, ObjectID]:
    """:func:`tree_files` with every name seen appended to ``names`` (checked there)."""
    out: dict[str, ObjectID] = {}
    if tree_id is None:
        return out
    tree = read_object(repo, tree_id, Tree)
    _refuse_a_name_twice(tree, prefix)
    for entry in tree.items():
        names.append((entry.path, prefix))
        # the name itself when it is UTF-8; else escaped, and the tree refused
        name = entry.path.decode("utf-8", "backslashreplace")
        if stat.S_ISDIR(entry.mode):
            out.update(_tree_files(repo, entry.sha, f"{prefix}{name}/", names))
        elif stat.S_ISREG(entry.mode):
            out[prefix + name] = entry.sha
        else:
            raise RulesFolderError(f"a commit holds {prefix}{name} as a link or a submodule; "
                                   f"a rules folder holds plain files only; it was not taken")
    return out


def _refuse_a_name_twice(tree: Tree, prefix: str) -> None:
    """A tree listing one name twice (git fsck: duplicateEntries) is refused: dulwich
    reads a tree into a dict and keeps one entry, git checks out the other, so the
    file validated here would not be the file a member's git writes."""
    names = [name for name, _mode, _sha in parse_tree(tree.as_raw_string(), len(tree.id) // 2)]
    if len(names) == len(set(names)):
        return
    twice = next(name for name in names if names.count(name) > 1)
    raise UnsafePath(f"a commit lists {prefix}{shown_name(twice)} twice in one folder (git "
                     f"would write one, this program read the other); it was not taken")


def commit_files(repo: Repo, commit_id: ObjectID | None) -> dict[str, ObjectID]:
    """``{path: blob id}`` of a commit, refused (:class:`UnsafePath`) when a name
    could write outside the folder or into ``.git`` on some platform."""
    if not commit_id:
        return {}
    files = tree_files(repo, read_object(repo, commit_id, Commit).tree)
    check_collisions(files)
    return files


def blob_id(data: bytes) -> ObjectID:
    return Blob.from_string(data).id


def is_tracked_path(rel: str) -> bool:
    """Files the folder versions: everything but hidden files (locks, temporary files,
    .git) and ``NAME~`` backups; ``.gitignore`` is versioned."""
    parts = rel.split("/")
    if rel == ".gitignore":
        return True
    return not any(p.startswith(".") or p == "__pycache__" for p in parts) \
        and not rel.endswith("~")


DATA_SUFFIXES = (".yaml", ".yml")


def is_data_path(rel: str) -> bool:
    """The rules folder's own data files: the YAML files the library loads (every
    ``*.yaml``/``*.yml`` outside hidden folders), which a hand edit may change. Other
    files a member keeps in the folder (notes, downloads) are never shared by a sync."""
    return is_tracked_path(rel) and rel != ".gitignore" and rel.endswith(DATA_SUFFIXES)


def worktree_files(root: Path) -> dict[str, Path]:
    """``{path: file}`` of every versioned file in the working folder."""
    out: dict[str, Path] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "__pycache__"]
        for name in filenames:
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            if is_tracked_path(rel):
                out[rel] = Path(dirpath) / name
    return out


def worktree_state(root: Path) -> dict[str, ObjectID]:
    """``{path: blob id}`` of the working folder's versioned files as they are now."""
    return {rel: blob_id(path.read_bytes()) for rel, path in worktree_files(root).items()}


# -- writing commits -------------------------------------------------------------

class _Folder(dict[str, "_Folder | ObjectID"]):
    """One folder of a tree being built: ``{name: sub-folder or blob id}``."""


def build_tree(repo: Repo, files: Mapping[str, ObjectID]) -> ObjectID:
    """Store the tree of ``{path: blob id}`` (blobs already stored) and return its id."""
    root = _Folder()
    for path, sha in files.items():
        node = root
        *dirs, name = path.split("/")
        for d in dirs:
            sub = node.setdefault(d, _Folder())
            if not isinstance(sub, _Folder):
                raise RulesFolderError(f"{path} cannot be stored: {d} is a file, not a folder")
            node = sub
        node[name] = sha

    def store(node: _Folder) -> ObjectID:
        tree = Tree()
        for name, value in node.items():
            if isinstance(value, _Folder):
                tree.add(name.encode("utf-8"), stat.S_IFDIR, store(value))
            else:
                tree.add(name.encode("utf-8"), FILE_MODE, value)
        repo.object_store.add_object(tree)
        return tree.id

    return store(root)


def make_commit(repo: Repo, tree: ObjectID, parents: list[ObjectID], message: str,
                author: Identity, committer: Identity | None = None) -> ObjectID:
    commit = Commit()
    commit.tree = tree
    commit.parents = parents
    commit.author = bytes(author)
    commit.committer = bytes(committer or author)
    commit.commit_time = commit.author_time = int(time.time())
    commit.commit_timezone = commit.author_timezone = 0
    commit.encoding = b"UTF-8"
    # which program wrote it (rulesbook.rulesfolder.trailer)
    commit.message = (with_version_trailer(message) + "\n").encode("utf-8")
    repo.object_store.add_object(commit)
    return commit.id


def set_head(repo: Repo, new: ObjectID, old: ObjectID | None) -> None:
    """Move the branch from ``old`` to ``new``; refuse when someone else moved it."""
    ref = _branch_ref(repo)
    if not repo.refs.set_if_equals(ref, old, new):
        raise RulesFolderError("the rules folder changed while this operation ran "
                               "(another program wrote to it); try again")


def _branch_ref(repo: Repo) -> Ref:
    try:
        chain, _ = repo.refs.follow(HEAD)
        return chain[-1]
    except (KeyError, IndexError):
        return HEAD_REF


def stage(repo: Repo, paths: list[str]) -> None:
    """Bring the index in line with the working folder for ``paths`` (so that ``git
    status`` elsewhere shows a clean folder)."""
    if paths:
        repo.get_worktree().stage(sorted(paths))


# -- writing a commit's files into the working folder, crash-safely ---------------------

def checkout(repo: Repo, old: ObjectID | None, new: ObjectID) -> None:
    """Make the working folder show commit ``new`` (it showed ``old``) and move the
    branch there. A journal in ``.git`` lists the target first; a process killed in
    the middle leaves it, and the next open of the folder finishes the job."""
    journal = Path(repo.controldir()) / JOURNAL
    atomic_write_bytes(journal, b"%s %s\n" % (old or b"-", new))
    finish_checkout(repo)


def finish_checkout(repo: Repo) -> None:
    journal = Path(repo.controldir()) / JOURNAL
    old_text, new_text = journal.read_bytes().split()
    old = None if old_text == b"-" else ObjectID(old_text)
    new = ObjectID(new_text)
    root = Path(repo.path)
    before = commit_files(repo, old)
    after = commit_files(repo, new)
    changed = []
    for path, sha in after.items():
        target = root / path
        if target.is_file() and blob_id(target.read_bytes()) == sha:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(target, read_object(repo, sha, Blob).as_raw_string())
        changed.append(path)
    for path in set(before) - set(after):
        with contextlib.suppress(FileNotFoundError):
            (root / path).unlink()
        changed.append(path)
    if head_id(repo) != new:
        repo.refs[_branch_ref(repo)] = new
    stage(repo, changed)
    journal.unlink()


# -- creating a folder -------------------------------------------------------------

SEED_SKIPPED = ("__pycache__", "__init__.py", ".*", "*~", "schema")


def new_folder_target(target: StrPath) -> Path:
    """``target`` resolved, refused unless it is missing or an empty folder."""
    target = Path(target).expanduser().resolve()
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise RulesFolderError(f"{target} already exists and is not empty; choose a new folder")
    return target


def staging_beside(target: Path) -> Path:
    """A private staging folder next to ``target``, where a new rules folder is
    built before it is renamed into place (so it appears whole or not at all)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp",
                                     dir=target.parent))
    except OSError as exc:
        raise RulesFolderError(f"cannot create the rules folder {target}: "
                               f"{exc.strerror or exc}") from None


def copy_data(src: Path, target: Path) -> None:
    """Copy a data folder's files (not its permissions: a read-only seed, as a
    system-wide install is, gives a folder the user can write, as the umask allows)."""
    import fnmatch

    def skipped(name: str) -> bool:
        return any(fnmatch.fnmatch(name, pattern) for pattern in SEED_SKIPPED)

    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if not skipped(d))
        here = target / Path(dirpath).relative_to(src)
        here.mkdir(parents=True, exist_ok=True)
        for name in filenames:
            if not skipped(name):
                shutil.copyfile(Path(dirpath) / name, here / name)


def init_folder(target: StrPath, source: StrPath | None = None,
                identity: Identity | None = None) -> ObjectID:
    """Create a rules folder at ``target`` from the data folder ``source`` (the bundled
    seed by default) with a first commit. The folder appears whole or not at all."""
    from ..datapath import bundled_data_dir
    from ..loading import load_library

    target = new_folder_target(target)
    src = Path(source).expanduser().resolve() if source else bundled_data_dir()
    load_library(src)  # refuse to start from a folder that does not validate
    staging = staging_beside(target)
    try:
        work = staging / "folder"
        copy_data(src, work)
        (work / ".gitignore").write_bytes(GITIGNORE)
        repo = Repo.init(str(work), default_branch=BRANCH)
        files = worktree_files(work)
        state: dict[str, ObjectID] = {}
        for rel, path in files.items():
            blob = Blob.from_string(path.read_bytes())
            repo.object_store.add_object(blob)
            state[rel] = blob.id
        who = identity or user_identity(repo)
        name = "the bundled seed data" if source is None else src.name
        commit = make_commit(repo, build_tree(repo, state), [],
                             f"Create the rules folder from {name}", who)
        repo.refs[HEAD_REF] = commit
        stage(repo, list(state))
        repo.close()
        if target.exists():
            target.rmdir()
        os.replace(work, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return commit


def finish_change(root: Path, entry: JournalEntry) -> str:
    """Complete or roll back the change of a killed writer whose journal is ``entry``
    (:mod:`.journal`), saying which."""
    repo = Repo(str(root))
    try:
        head = head_id(repo)
        here = head.decode() if head else None
        if entry.commit is not None and ObjectID(entry.commit.encode()) in repo.object_store:
            commit = ObjectID(entry.commit.encode())
            read_object(repo, commit, Commit)
            if here == entry.head:
                repo.refs.set_if_equals(_branch_ref(repo), head, commit)
                moved = head_id(repo)
                here = moved.decode() if moved else None
            if here == entry.commit:
                stage(repo, list(entry.files))
                from .journal import COMPLETED

                return COMPLETED
        if entry.before is None:
            return "it had changed nothing"
        if here != entry.head:
            return "the branch had moved since, so its files were left as they are"
        now = worktree_files(root)
        for rel, file in now.items():
            if rel not in entry.before:
                with contextlib.suppress(FileNotFoundError):
                    file.unlink()
        restored = 0
        for rel, sha in entry.before.items():
            target = root / rel
            data = read_object(repo, ObjectID(sha.encode()), Blob).as_raw_string()
            if not target.is_file() or target.read_bytes() != data:
                target.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_bytes(target, data)
                restored += 1
        removed = len(set(now) - set(entry.before))
        if not restored and not removed:
            return "it had changed nothing yet"
        return (f"its change was rolled back ({restored + removed} file(s) put back as "
                f"they were); run it again")
    finally:
        repo.close()
