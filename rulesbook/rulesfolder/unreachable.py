"""What a member reads when a remote's address cannot be used: a kind of address
no transport speaks (``ftp://``, which dulwich took for an ssh host named ``ftp``),
and a server that cannot be reached (a refused connection, an unknown host name, no
answer), said as ``cannot reach HOST:PORT (connection refused)`` instead of the
library's text (urllib3's "Max retries exceeded with url ...")."""
from __future__ import annotations

import errno
import re
import socket
from urllib.parse import urlsplit

#: the kinds of address a rules folder is shared through (``file://`` too: a path)
SCHEMES = ("http", "https", "git", "ssh", "git+ssh", "ssh+git", "file")
SUPPORTED = ("http://, https://, git://, ssh:// (or user@host:path, through the "
             "system's ssh), or the path of a folder on this computer or a shared drive")
_DEFAULT_PORTS = {"http": 80, "https": 443, "git": 9418, "ssh": 22, "git+ssh": 22,
                  "ssh+git": 22}


def unsupported_scheme(url: str) -> str | None:
    """Why ``url`` cannot be used (None: its kind is one a transport speaks)."""
    found = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*)://", url)
    if found is None or found.group(1).lower() in SCHEMES:
        return None
    return (f"addresses starting {found.group(1)}:// are not supported; a rules folder is "
            f"shared through {SUPPORTED}")


def _where(url: str) -> str:
    """HOST:PORT of ``url`` (the scheme's own port when it names none)."""
    if "://" not in url:  # user@host:path
        return url.split("@", 1)[-1].split(":", 1)[0]
    parts = urlsplit(url)
    host = parts.hostname or url
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    port = port or _DEFAULT_PORTS.get(parts.scheme.lower())
    return f"{host}:{port}" if port else host


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and what it was raised from (urllib3's reason included)."""
    seen: list[BaseException] = []
    todo: list[BaseException | None] = [exc]
    while todo:
        item = todo.pop()
        if item is None or any(item is s for s in seen) or len(seen) > 20:
            continue
        seen.append(item)
        reason = getattr(item, "reason", None)
        todo += [item.__cause__, item.__context__,
                 reason if isinstance(reason, BaseException) else None]
    return seen


_REFUSED = "connection refused: no server answers on that port"
_UNKNOWN = "no computer of that name was found: check the address, or the network"
_SILENT = "no answer in time: the server is down or the network blocks it"
_CUT = "the server closed the connection"
_NO_ROUTE = "the network cannot reach it: check this computer's connection"
_WORDS = (  # what the library's text says, and the sentence said instead
    (("connection refused",), _REFUSED),
    (("name or service not known", "nodename nor servname", "temporary failure in name "
      "resolution", "failed to resolve", "no address associated", "getaddrinfo failed",
      "name resolution"), _UNKNOWN),
    (("timed out", "timeout"), _SILENT),
    (("connection reset", "connection aborted", "remote end closed", "broken pipe"), _CUT),
    (("network is unreachable", "no route to host"), _NO_ROUTE),
)
_ERRNOS = {errno.ECONNREFUSED: _REFUSED, errno.ETIMEDOUT: _SILENT, errno.ECONNRESET: _CUT,
           errno.ENETUNREACH: _NO_ROUTE, errno.EHOSTUNREACH: _NO_ROUTE}


def unreachable(exc: BaseException, url: str) -> str | None:
    """``cannot reach HOST:PORT (why)`` when ``exc`` says the server could not be
    reached; None when it says something else."""
    why = None
    for item in _chain(exc):
        if isinstance(item, socket.gaierror):
            why = _UNKNOWN
        elif isinstance(item, (TimeoutError, socket.timeout)):
            why = _SILENT
        elif isinstance(item, OSError) and item.errno in _ERRNOS:
            why = _ERRNOS[item.errno]
        if why:
            break
    if why is None:
        text = " ".join(str(item) for item in _chain(exc)).lower()
        if "max retries exceeded" not in text and not isinstance(exc, OSError):
            return None
        why = next((said for words, said in _WORDS if any(w in text for w in words)), None)
        if why is None:
            return None
    return f"cannot reach {_where(url)} ({why})"
