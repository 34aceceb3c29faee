"""Who may use ``rulesbook serve``: one access token per member, kept hashed.

``rulesbook serve DIR --add-member L`` makes a random token for member ``L`` and
prints it once; the server keeps only its SHA-256 (a token is 256 random bits, so
a plain hash cannot be guessed back) in :data:`ACCESS_FILE` inside the repository
folder, readable by its owner only. Clients send it as HTTP basic auth
(``http://L:TOKEN@host:port/``): every request without a valid one is answered
401, but reading (clone, fetch) when the server runs with ``--public-read``.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..storage import atomic_write_bytes
from .errors import RulesFolderError

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: beside the repository's own files, never served (dulwich serves git's files only)
ACCESS_FILE = "rulesbook-access.json"
MEMBER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
REALM = "Rulesbook rules folder"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class NewToken:
    member: str
    token: str
    replaced: bool = False  # the member had a token: it no longer works

    def to_dict(self) -> dict[str, str | bool]:
        return {"member": self.member, "token": self.token, "replaced": self.replaced}


class AccessList:
    """The members who may use a served repository, and their tokens' hashes."""

    def __init__(self, repository: Path) -> None:
        self.path = Path(repository) / ACCESS_FILE
        self._mtime = -1.0
        self._digests: dict[str, str] = {}

    def _load(self) -> dict[str, dict[str, str]]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise RulesFolderError(f"{self.path} cannot be read ({exc}); remove it and give "
                                   f"every member a new token with --add-member") from None
        members = raw.get("members") if isinstance(raw, dict) else None
        return members if isinstance(members, dict) else {}

    def _save(self, members: dict[str, dict[str, str]]) -> None:
        text = json.dumps({"members": members}, indent=2, sort_keys=True) + "\n"
        atomic_write_bytes(self.path, text.encode("utf-8"), private=True)

    def members(self) -> list[str]:
        return sorted(self._load())

    def add(self, member: str) -> NewToken:
        if not MEMBER_NAME.match(member):
            raise RulesFolderError(f"a member's login is letters, digits, '.', '-' or '_' "
                                   f"(at most 64), not {member!r}")
        members = self._load()
        replaced = member in members
        token = secrets.token_urlsafe(32)
        members[member] = {"sha256": _digest(token),
                           "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        self._save(members)
        return NewToken(member, token, replaced)

    def revoke(self, member: str) -> None:
        members = self._load()
        if member not in members:
            known = ", ".join(sorted(members)) or "none"
            raise RulesFolderError(f"{member!r} has no token on this server (members: {known})")
        del members[member]
        self._save(members)

    def allows(self, member: str, token: str) -> bool:
        """Whether ``token`` is ``member``'s (re-read when the file changed, so that a
        revoked token stops working without restarting the server)."""
        try:
            mtime = self.path.stat().st_mtime
        except FileNotFoundError:
            mtime = 0.0
        if mtime != self._mtime:
            self._digests = {m: str(v.get("sha256", "")) for m, v in self._load().items()}
            self._mtime = mtime
        expected = self._digests.get(member)
        return expected is not None and hmac.compare_digest(expected, _digest(token))


def _credentials(environ: WSGIEnvironment) -> tuple[str, str] | None:
    header = environ.get("HTTP_AUTHORIZATION", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        user, sep, password = base64.b64decode(value.strip(), validate=True) \
            .decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return (user, password) if sep else None


def is_read(environ: WSGIEnvironment) -> bool:
    """A clone or fetch (upload-pack), not a push (receive-pack)."""
    path = environ.get("PATH_INFO", "")
    query = environ.get("QUERY_STRING", "")
    if path.endswith("/git-receive-pack") or "service=git-receive-pack" in query:
        return False
    return environ.get("REQUEST_METHOD", "GET") in ("GET", "HEAD") or \
        path.endswith("/git-upload-pack")


def _refuse(start_response: StartResponse, status: str, text: str,
            headers: Iterable[tuple[str, str]] = ()) -> list[bytes]:
    body = (text + "\n").encode("utf-8")
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Length", str(len(body))), *headers])
    return [body]


def require_token(app: WSGIApplication, access: AccessList,
                  public_read: bool = False) -> WSGIApplication:
    """WSGI middleware: 401 unless the request carries a member's valid token (reads
    pass without one when ``public_read``). ``REMOTE_USER`` names the member."""
    def wrapped(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        given = _credentials(environ)
        if given is not None and access.allows(*given):
            environ["REMOTE_USER"] = given[0]
            return app(environ, start_response)
        if public_read and is_read(environ):
            return app(environ, start_response)
        return _refuse(start_response, "401 Unauthorized",
                       "this rules folder asks for a member's login and access token",
                       [("WWW-Authenticate", f'Basic realm="{REALM}", charset="UTF-8"')])
    return wrapped
