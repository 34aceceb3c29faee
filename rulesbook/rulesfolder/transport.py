"""Talking to a remote: fetch its ``main`` (the pack checked as it arrives) and push
to it, over any transport dulwich speaks (a path, ``file://``, ``git://``,
``http(s)://`` with a login, ``ssh://`` and ``user@host:path`` through the
system's ``ssh``)."""
from __future__ import annotations

import os
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Set
from typing import TYPE_CHECKING

from dulwich.client import GitClient, LocalGitClient, get_transport_and_path
from dulwich.config import ConfigDict
from dulwich.errors import GitProtocolError, HangupException, NotGitRepository
from dulwich.object_store import BaseObjectStore, DiskObjectStore
from dulwich.objects import Blob, Commit, ObjectID, Tree
from dulwich.refs import Ref
from dulwich.repo import Repo

from .chain_bound import add_bounded_thin_pack
from .credentials import Ask, Login, is_http, logged_in, split_login
from .errors import RulesFolderError
from .object_sizes import DAMAGED, check_source, kinds_in
from .pack_guard import PackGuard, PackRefused, check_counts
from .pack_send import PackHint, deltified, local_fetch_pack, missing_objects
from .ref_bound import bound_advertisement
from .repo import HEAD_REF
from .tree_bounds import MAX_CHANGE_BYTES, MAX_CHANGE_FILES, MAX_TREE_BYTES, MAX_TREE_FILES
from .unreachable import unreachable, unsupported_scheme

if TYPE_CHECKING:
    from dulwich.pack import UnpackedObject

#: request bodies up to this size go to an HTTP remote whole, with a Content-Length
#: (dulwich's default, 1 MiB, streams larger pushes chunked with chunks as large as
#: a pack's objects, which dulwich's own server, ``rulesbook serve``, refuses above
#: 1 MiB). A few data files at their limit (20 MiB each) fit.
HTTP_POST_BUFFER = 256 * 1024 * 1024
#: a fetched pack is kept in memory up to this size, then in a file beside the objects
SPOOL_BYTES = 32 * 1024 * 1024
TRANSPORT_ERRORS = (OSError, HangupException, GitProtocolError, NotGitRepository)


#: what a member reads when the server turned the request away, for the moment or as
#: too large (the HTTP status, as dulwich reports it, and the sentence said instead)
BUSY = {
    "503": "the server is busy with other requests just now (it answered 503, service "
           "unavailable); nothing was sent or changed: try again in a minute",
    "413": "the server refused the request as too large (it answered 413, request "
           "entity too large; its log says which bound)",
    "429": "the server already has as many connections from this computer as it takes "
           "(it answered 429, too many requests); nothing was sent or changed: let the "
           "other syncs or clones finish, then try again",
}


class RemoteMoved(Exception):
    """Someone pushed between our fetch and our push: fetch and merge again."""


def shown(url: str) -> str:
    """A remote's address as it may be printed or written into a commit message: a
    password in it (``https://user:secret@host/``) is never shown. Of an ssh address
    the user name is kept (``ssh://git@host:2222/path``: the host needs it); of an
    http(s) one the whole login goes, as a token may be given alone
    (``https://TOKEN@host/``)."""
    login = re.match(r"^([a-z][a-z0-9+.-]*://)([^/@]*)@", url, flags=re.IGNORECASE)
    if login is None:
        return url
    scheme, rest = login.group(1), url[login.end():]
    user = login.group(2).split(":", 1)[0]
    if is_http(scheme) or not user:
        return scheme + rest
    return f"{scheme}{user}@{rest}"


def reason(exc: BaseException, url: str | None = None) -> str:
    """The readable part of a transport error (urllib3's are paragraphs); given the
    remote's ``url``, a server that cannot be reached is named (``cannot reach
    HOST:PORT (connection refused)``)."""
    if isinstance(exc, NotGitRepository) and not str(exc):
        return "no git repository was found at this address"
    text = str(exc) or exc.__class__.__name__
    busy = re.search(r"unexpected http resp (\d{3})\b", text)
    if busy and busy.group(1) in BUSY:
        return BUSY[busy.group(1)]
    if "CERTIFICATE_VERIFY_FAILED" in text or "SSLCertVerificationError" in text:
        found = re.search(r"certificate verify failed: ([^(\"')]+)", text)
        detail = f" ({found.group(1).strip()})" if found else ""
        return (f"the server's certificate is not trusted{detail}; a committee's own "
                f"server's certificate is trusted with GIT_SSL_CAINFO=FILE, as git does")
    cannot = unreachable(exc, url) if url is not None else None
    if cannot is not None:
        return cannot
    if len(text) > 160:
        found = re.search(r"\[Errno -?\d+\] [^\"')(]+", text)
        text = found.group(0).strip() if found else text[:157] + "..."
    return text


def _client_config() -> ConfigDict:
    config = ConfigDict()
    config.set((b"http",), b"postBuffer", str(HTTP_POST_BUFFER).encode())
    ca = os.environ.get("GIT_SSL_CAINFO")  # as git reads it: a certificate to trust
    if ca:
        config.set((b"http",), b"sslCAInfo", ca.encode())
    return config


def _ssh_command() -> str | None:
    """``GIT_SSH_COMMAND`` (else ``GIT_SSH``), as git reads them; None: ``ssh``."""
    return os.environ.get("GIT_SSH_COMMAND") or os.environ.get("GIT_SSH") or None


#: what a host name (or an IP address, ``[::1]`` included) may be made of: never a
#: leading ``-``, which ssh or a proxy command would read as an option
#: (``ssh://-oProxyCommand=...``)
_HOST = re.compile(r"[A-Za-z0-9_:\[][A-Za-z0-9._:%\[\]-]*")


def _check_host(client: GitClient, url: str) -> None:
    """Refuse a network address whose host is not a host name, before any program
    (ssh, a proxy) is started with it."""
    host = getattr(client, "host", getattr(client, "_host", None))  # ssh, git://
    if isinstance(host, str) and not _HOST.fullmatch(host):
        raise RulesFolderError(f"cannot reach {shown(url)}: {host!r} is not a host name; "
                               f"nothing was run")


def transport(url: str, login: Login | None = None) -> tuple[GitClient, str]:
    unsupported = unsupported_scheme(url)
    if unsupported is not None:  # dulwich would take ``ftp://host`` for an ssh host
        raise RulesFolderError(f"cannot use {shown(url)}: {unsupported}")
    bare, _user, _password = split_login(url)
    target = bare if login is not None else url
    try:
        client, path = get_transport_and_path(
            target, config=_client_config(), ssh_command=_ssh_command(),
            username=login.username if login else None,
            password=login.password if login else None)
    except (ValueError, NotGitRepository) as exc:
        raise RulesFolderError(f"cannot reach {shown(url)}: {exc}") from None
    _check_host(client, url)
    return client, path


def guarded_fetch(client: GitClient, path: str, repo: Repo, where: str) -> ObjectID | None:
    """Fetch the remote's main into ``repo``, the pack checked by :class:`PackGuard` as
    it arrives (nothing is stored when it is refused); the remote's main (None: empty)."""
    if isinstance(client, LocalGitClient):
        # a folder on this computer (or a shared drive): when its main is one we have,
        # nothing is fetched. dulwich would still read every object of the source's
        # packs to find deltas worth sending (none): a no-op sync of a 3,000-commit
        # history took 2 s, growing with the history
        head = client.get_refs(path).refs.get(HEAD_REF)
        if head is None or head in repo.object_store:
            return head
    advertisement = bound_advertisement(client, where)
    guard = PackGuard(where, sha_length=repo.object_format.oid_length,
                      kind_of=kinds_in(repo.object_store), per_commit=MAX_TREE_BYTES,
                      files_per_commit=MAX_TREE_FILES,
                      per_change=MAX_CHANGE_BYTES, files_per_change=MAX_CHANGE_FILES)

    def wants(refs: Mapping[Ref, ObjectID], depth: int | None = None) -> list[ObjectID]:
        advertisement.read_all()
        sha = refs.get(HEAD_REF)
        return [sha] if sha is not None and sha not in repo.object_store else []

    objects = getattr(repo.object_store, "path", None)
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, dir=objects) as spool:
        def write(data: bytes) -> int:
            guard.feed(data)
            return spool.write(data)

        refs: Mapping[Ref, ObjectID | None]
        if isinstance(client, LocalGitClient):  # the pack with deltas (dulwich: whole)
            refs = local_fetch_pack(path, wants, repo.get_graph_walker(), write,
                                    lambda store, ids: _check_local(store, ids, where), where)
        else:
            # protocol v0: dulwich asks for "ofs-delta" only there (in v2 it does not,
            # and git then names every delta's base by id: pack_guard.MAX_REF_TARGET_BYTES)
            refs = client.fetch_pack(path, wants, repo.get_graph_walker(), write,
                                     protocol_version=0).refs
        if spool.tell():
            guard.finish()
            spool.seek(0)
            try:
                store = repo.object_store
                if isinstance(store, DiskObjectStore):  # each chain bounded as it resolves
                    add_bounded_thin_pack(store, spool.read, None, where)
                else:
                    store.add_thin_pack(spool.read, None)
            except DAMAGED as exc:  # a delta that makes more than it says, a bad checksum
                raise PackRefused(f"{where} sent a damaged pack ({reason(exc)}); nothing "
                                  f"was taken") from None
    return refs.get(HEAD_REF)


def _check_local(store: BaseObjectStore, ids: list[tuple[ObjectID, PackHint]],
                 where: str) -> None:
    """What a folder on this computer would send, checked before a byte is read: its
    commits, trees and blobs counted (:func:`.pack_guard.check_counts`), then the
    objects as stored (:func:`.object_sizes.check_source`)."""
    kinds = Counter(hint[0] if hint else None for _oid, hint in ids)
    check_counts(where, kinds[Commit.type_num], kinds[Tree.type_num],
                 kinds[Blob.type_num], MAX_TREE_FILES, MAX_CHANGE_FILES)
    check_source(store, [oid for oid, _hint in ids], where)


def fetch_main(repo: Repo, url: str, ask: Ask | None = None) -> ObjectID | None:
    """Fetch the remote's main branch; its commit id (None: the remote is empty)."""
    def attempt(login: Login | None) -> ObjectID | None:
        client, path = transport(url, login)
        return guarded_fetch(client, path, repo, shown(url))

    try:
        return logged_in(url, attempt, ask)
    except TRANSPORT_ERRORS as exc:
        raise RulesFolderError(f"cannot fetch from {shown(url)}: {reason(exc, url)}") from None


def push_main(repo: Repo, url: str, expected: ObjectID | None, new: ObjectID,
              ask: Ask | None = None) -> None:
    """Move the remote's main from ``expected`` to ``new`` (raise :class:`RemoteMoved`
    when it is no longer at ``expected``)."""
    class Moved(Exception):
        pass

    def pack_data(have: Set[ObjectID], want: Set[ObjectID], *, ofs_delta: bool = False,
                  progress: Callable[..., None] | None = None
                  ) -> tuple[int, Iterator[UnpackedObject]]:
        # each file's versions as deltas (dulwich's own sends every object whole)
        store = repo.object_store
        return deltified(store, missing_objects(store, have, want, repo.get_shallow()))

    def attempt(login: Login | None) -> dict[bytes, str | None]:
        client, path = transport(url, login)
        advertisement = bound_advertisement(client, shown(url))

        def update_refs(refs: dict[Ref, ObjectID]) -> dict[Ref, ObjectID]:
            advertisement.read_all()
            if refs.get(HEAD_REF) != expected:
                raise Moved()
            return {**refs, HEAD_REF: new}

        result = client.send_pack(path.encode(), update_refs, pack_data)
        return dict(result.ref_status or {})

    try:
        status = logged_in(url, attempt, ask).get(HEAD_REF)
    except Moved:
        raise RemoteMoved() from None
    except TRANSPORT_ERRORS as exc:
        raise RulesFolderError(f"cannot push to {shown(url)}: {reason(exc, url)}; your changes "
                               f"are kept here and the next sync sends them") from None
    if status:
        raise RulesFolderError(f"{shown(url)} refused the push: {status}")
