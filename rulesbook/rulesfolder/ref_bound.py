"""A bound on a remote's list of branches and tags (its ref advertisement, the first
thing a git server sends): dulwich reads it whole into a dict, so a server that never
stops sending ref lines took a ``clone`` to 2.5 GB in 45 s (issue #28). The folder
has one branch, ``main``: more than :data:`MAX_ADVERTISED_REFS` refs or
:data:`MAX_ADVERTISEMENT_BYTES` is refused at once, on every transport (the bytes the
client reads are counted, over HTTP as over ``git://`` and ssh, until the
advertisement has been read: :meth:`AdvertisementBound.read_all`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dulwich.client import AbstractHttpGitClient, GitClient, TraditionalGitClient

from .errors import RulesFolderError

MAX_ADVERTISEMENT_BYTES = 1024 * 1024
MAX_ADVERTISED_REFS = 10_000

Read = Callable[[int], bytes]


class AdvertisementRefused(RulesFolderError):
    """A remote listed more refs than any rules folder has: nothing was taken."""


class AdvertisementBound:
    """Counts what a remote sends (bytes and pkt-lines) until :meth:`read_all` says
    its ref advertisement is over; raises :class:`AdvertisementRefused` past a bound."""

    def __init__(self, where: str, *, max_bytes: int = MAX_ADVERTISEMENT_BYTES,
                 max_refs: int = MAX_ADVERTISED_REFS) -> None:
        self._where, self._max_bytes, self._max_refs = where, max_bytes, max_refs
        self._bytes = 0
        self._lines = 0
        self._header = b""
        self._payload = 0   # bytes of the current pkt-line still to come
        self._over = False

    def read_all(self) -> None:
        """The advertisement has been read (dulwich asks what we want): from here on
        the pack (checked by the PackGuard) is not counted."""
        self._over = True

    def wrap(self, read: Read) -> Read:
        def bounded(size: int = -1) -> bytes:
            data = read(size)
            if not self._over:
                self._count(data)
            return data
        return bounded

    def _count(self, data: bytes) -> None:
        self._bytes += len(data)
        at = 0
        while at < len(data):
            if self._payload:
                step = min(self._payload, len(data) - at)
                self._payload -= step
                at += step
                continue
            need = 4 - len(self._header)
            self._header += data[at:at + need]
            at += need
            if len(self._header) < 4:
                break
            try:
                length = int(self._header, 16)
            except ValueError:  # not a pkt-line: dulwich says so
                length = 0
            self._header = b""
            if length > 4:
                self._payload = length - 4
                self._lines += 1
        if self._bytes > self._max_bytes or self._lines > self._max_refs + 2:
            raise AdvertisementRefused(
                f"{self._where} sent a list of branches and tags of more than "
                f"{self._max_refs:,} refs or {self._max_bytes // (1024 * 1024)} MiB "
                f"(a rules folder has one branch, main); nothing was taken")


def bound_advertisement(client: GitClient, where: str) -> AdvertisementBound:
    """Count what ``client`` reads from its remote with a new bound (the stream is
    wrapped on this client, dulwich is not changed); a local client reads no
    advertisement."""
    bound = AdvertisementBound(where)
    if isinstance(client, AbstractHttpGitClient):
        request = client._http_request

        def http_request(*args: Any, **kwargs: Any) -> tuple[Any, Read]:
            response, read = request(*args, **kwargs)
            return response, bound.wrap(read)
        setattr(client, "_http_request", http_request)  # noqa: B010 (this instance's)
    elif isinstance(client, TraditionalGitClient):  # git://, ssh, a subprocess
        connect = client._connect

        def connected(*args: Any, **kwargs: Any) -> Any:
            proto, can_read, stderr = connect(*args, **kwargs)
            proto.read = bound.wrap(proto.read)
            return proto, can_read, stderr
        setattr(client, "_connect", connected)  # noqa: B010 (this instance's)
    return bound
