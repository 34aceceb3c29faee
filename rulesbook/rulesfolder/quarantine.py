"""A push's objects kept apart until the push is accepted, as git's receive
quarantine keeps them (``GIT_QUARANTINE_PATH``): the pack is written into a
folder of its own inside the repository's ``objects`` (which it reads through,
as an alternate, for the objects the push builds on), checked there, and moved
into the repository only when ``main`` is about to move to it. A push that is
refused, or that breaks off, leaves nothing behind.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from types import TracebackType

from dulwich.repo import Repo

from .chain_bound import BoundedStore

PREFIX = "rulesbook-incoming-"


class Quarantine:
    """``with Quarantine(repo) as q``: ``q.repo`` is a view of the repository whose
    new objects go into the quarantine folder (its refs are the repository's own);
    :meth:`admit` moves them in; leaving the block removes whatever is left."""

    def __init__(self, shared: Repo) -> None:
        objects = Path(shared.object_store.path)
        self.objects = objects
        self.folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=objects))
        (self.folder / "pack").mkdir()
        (self.folder / "info").mkdir()
        # a pushed pack's chains of deltas bounded as dulwich resolves them
        self.store = BoundedStore(str(self.folder), object_format=shared.object_format,
                                  alternates=[str(objects)])
        self.repo = Repo(shared.path)
        self.repo.object_store.close()
        self.repo.object_store = self.store

    def admit(self) -> None:
        """Move the quarantined packs (and any loose object) into the repository: each
        pack's data first, its index last, as a reader only takes a pack with both."""
        self.store.close()
        packs = self.folder / "pack"
        target = self.objects / "pack"
        for name in sorted(os.listdir(packs), key=lambda n: n.endswith(".idx")):
            if (target / name).exists():
                continue  # the repository already has this pack
            os.replace(packs / name, target / name)
        for sub in self.folder.iterdir():
            if len(sub.name) == 2 and sub.is_dir():  # loose objects: objects/XX/...
                (self.objects / sub.name).mkdir(exist_ok=True)
                for loose in sub.iterdir():
                    if not (self.objects / sub.name / loose.name).exists():
                        os.replace(loose, self.objects / sub.name / loose.name)

    def close(self) -> None:
        self.store.close()
        self.repo.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Quarantine:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        with contextlib.suppress(OSError):
            self.close()


def drop_stale(repo: Repo) -> None:
    """Remove the quarantines a killed command left in ``repo``'s objects; only while
    no other command can be using one (a sync holds the folder's lock)."""
    objects = Path(repo.object_store.path)
    for folder in objects.glob(PREFIX + "*"):
        if folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)
