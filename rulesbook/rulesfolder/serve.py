"""Serving a shared (bare) repository over smart HTTP with dulwich's own server, for
a committee without git hosting, and for the tests and benchmarks.

The server has no authentication: run it on a private network or behind a proxy
that adds TLS and passwords. (dulwich's ``web-daemon`` maps URL paths onto the file
system; this serves exactly one repository at ``/``.)
"""
from __future__ import annotations

import contextlib
import tempfile
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from dulwich.errors import NotGitRepository
from dulwich.repo import Repo
from dulwich.server import BackendRepo, DictBackend
from dulwich.web import ChunkedEncodingError, _chunk_iter, make_wsgi_chain

from .errors import RulesFolderError
from .repo import BRANCH, StrPath

if TYPE_CHECKING:  # the standard library's WSGI types (wsgiref.types from Python 3.11)
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass


#: the largest request body taken (a push): several data files at their 20 MiB limit
MAX_PUSH_BYTES = 256 * 1024 * 1024
#: the largest chunk of a chunked request: dulwich's server takes 1 MiB at most, and
#: dulwich's client (before Rulesbook sent pushes whole) sends a pack's objects as
#: chunks of any size; so the body is read here, whole, and handed on with a length
MAX_CHUNK_BYTES = MAX_PUSH_BYTES


def _whole_body(app: WSGIApplication) -> WSGIApplication:
    """WSGI middleware: a ``Transfer-Encoding: chunked`` request body (a push) is read
    with dulwich's own de-chunker, under larger bounds, and passed on with a
    ``Content-Length``."""
    def wrapped(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("HTTP_TRANSFER_ENCODING", "").lower() != "chunked":
            yield from app(environ, start_response)
            return
        with tempfile.SpooledTemporaryFile(max_size=16 * 1024 * 1024) as body:
            try:
                for chunk in _chunk_iter(environ["wsgi.input"], MAX_CHUNK_BYTES,
                                         MAX_PUSH_BYTES):
                    body.write(chunk)
            except ChunkedEncodingError as exc:
                start_response("413 Request Entity Too Large",
                               [("Content-Type", "text/plain")])
                yield f"the push was refused: {exc}\n".encode()
                return
            environ["CONTENT_LENGTH"] = str(body.tell())
            body.seek(0)
            environ["wsgi.input"] = body
            del environ["HTTP_TRANSFER_ENCODING"]
            yield from app(environ, start_response)
    return wrapped


@dataclass(frozen=True)
class Served:
    url: str
    server: WSGIServer


def init_bare(path: StrPath) -> Path:
    """Create an empty shared repository (branch main) at ``path``."""
    target = Path(path)
    if target.exists() and any(target.iterdir()):
        raise RulesFolderError(f"{target} already exists and is not empty")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RulesFolderError(f"cannot create {target}: {exc.strerror}") from None
    Repo.init_bare(str(target), mkdir=False, default_branch=BRANCH).close()
    return target


def make_http_server(bare: StrPath, host: str = "127.0.0.1",
                     port: int = 0) -> tuple[WSGIServer, Repo]:
    try:
        repo = Repo(str(bare))
    except NotGitRepository:
        raise RulesFolderError(f"{bare} is not a git repository; create one with "
                               f"`rulesbook serve {bare} --create`") from None
    try:
        repos: dict[bytes, BackendRepo] = {b"/": repo}
        server = make_server(host, port, _whole_body(make_wsgi_chain(DictBackend(repos))),
                             handler_class=_Quiet)
    except OSError as exc:
        repo.close()
        raise RulesFolderError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return server, repo


@contextlib.contextmanager
def serving(bare: StrPath, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``bare`` on a background thread; yields its URL."""
    server, repo = make_http_server(bare, host, port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
        repo.close()
