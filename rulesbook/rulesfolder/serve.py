"""Serving a shared (bare) repository over smart HTTP with dulwich's own server, for
a committee without git hosting, and for the tests and benchmarks.

Only members with an access token get in (:mod:`.serve_auth`); every push is
checked before ``main`` moves (:mod:`.serve_policy`); ``--cert``/``--key`` serve
HTTPS. Each connection runs on a thread of its own, bounded in number and in time
(idle or half sent), so one slow client never blocks another. (dulwich's
``web-daemon`` maps URL paths onto the file system; this serves exactly one
repository at ``/``.)
"""
from __future__ import annotations

import contextlib
import socket
import ssl
import tempfile
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import TYPE_CHECKING, Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from dulwich.errors import NotGitRepository
from dulwich.repo import Repo
from dulwich.server import BackendRepo, DictBackend
from dulwich.web import ChunkedEncodingError, _chunk_iter, make_wsgi_chain

from .errors import RulesFolderError
from .repo import BRANCH, StrPath
from .serve_auth import AccessList, require_token
from .serve_policy import GuardedReceivePack

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


#: at most this many connections are served at once; more are answered 503 at once
MAX_CONNECTIONS = 32
#: a connection that sends nothing for this long is closed (idle, or a request
#: half sent)
IDLE_SECONDS = 30.0
#: a connection is closed after this long, whatever it is doing (a request sent one
#: byte at a time never holds its thread for good)
MAX_CONNECTION_SECONDS = 900.0


@dataclass(frozen=True)
class ServeOptions:
    """How ``rulesbook serve`` runs (the command's options)."""

    host: str = "127.0.0.1"
    port: int = 0
    public_read: bool = False  # clone and fetch without a token
    cert: str | None = None  # HTTPS: the certificate chain (PEM) and its private key
    key: str | None = None
    max_connections: int = MAX_CONNECTIONS
    idle_seconds: float = IDLE_SECONDS
    max_connection_seconds: float = MAX_CONNECTION_SECONDS


class _Handler(_Quiet):
    """One connection, on its own thread, bounded in time."""

    server: _Server

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.options.idle_seconds)  # each read and write
        self._deadline = threading.Timer(self.server.options.max_connection_seconds,
                                         self._cut)
        self._deadline.daemon = True
        self._deadline.start()

    def _cut(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def handle(self) -> None:
        if isinstance(self.connection, ssl.SSLSocket):
            try:
                self.connection.do_handshake()
            except (OSError, ssl.SSLError):
                return
        with contextlib.suppress(OSError):  # a client gone, a timeout
            super().handle()

    def finish(self) -> None:
        self._deadline.cancel()
        with contextlib.suppress(OSError):
            super().finish()


class _Server(ThreadingMixIn, WSGIServer):
    """wsgiref's server, each connection on a thread of its own, at most
    ``options.max_connections`` at once."""

    daemon_threads = True
    block_on_close = False
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], options: ServeOptions) -> None:
        self.options = options
        self._slots = threading.BoundedSemaphore(options.max_connections)
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                request.settimeout(1.0)
                request.sendall(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n"
                                b"Retry-After: 5\r\n\r\n")
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


def _limited_body(app: WSGIApplication) -> WSGIApplication:
    """WSGI middleware: a request whose declared body is over :data:`MAX_PUSH_BYTES`
    is refused (413) before it is read."""
    def wrapped(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_PUSH_BYTES:
            start_response("413 Request Entity Too Large", [("Content-Type", "text/plain")])
            return [f"a request may send at most {MAX_PUSH_BYTES:,} bytes\n".encode()]
        return app(environ, start_response)
    return wrapped


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


def open_served(bare: StrPath) -> Repo:
    """The shared repository, refused unless it is a bare one: pushing into a working
    folder would move its branch but not its files (the owner's next change would
    undo what the members pushed)."""
    try:
        repo = Repo(str(bare))
    except NotGitRepository:
        raise RulesFolderError(f"{bare} is not a git repository; create one with "
                               f"`rulesbook serve {bare} --create`") from None
    if not repo.bare:
        repo.close()
        raise RulesFolderError(
            f"{bare} is a working folder, not a shared (bare) repository: serving it would "
            f"lose the members' changes. Make a bare one and share it from the folder: "
            f"`rulesbook serve {Path(bare).name}.git --create`, then in {bare} `rulesbook "
            f"sync --remote URL` (or `git clone --bare {bare} {Path(bare).name}.git`)")
    return repo


def _tls(options: ServeOptions) -> ssl.SSLContext | None:
    if not (options.cert or options.key):
        return None
    if not (options.cert and options.key):
        raise RulesFolderError("HTTPS needs both --cert FILE and --key FILE")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(options.cert, options.key)
    except (OSError, ssl.SSLError) as exc:
        raise RulesFolderError(f"cannot use the certificate {options.cert} with the key "
                               f"{options.key}: {exc}") from None
    return context


def make_http_server(bare: StrPath, host: str = "127.0.0.1", port: int = 0,
                     options: ServeOptions | None = None,
                     open_access: bool = False) -> tuple[WSGIServer, Repo]:
    """The server of ``bare``: only members with a token (:mod:`.serve_auth`), pushes
    checked (:mod:`.serve_policy`). ``open_access`` (the tests' in-process server):
    no tokens asked."""
    options = options or ServeOptions(host, port)
    tls = _tls(options)
    repo = open_served(bare)
    repos: dict[bytes, BackendRepo] = {b"/": repo}
    app: WSGIApplication = make_wsgi_chain(
        DictBackend(repos), handlers={b"git-receive-pack": GuardedReceivePack})
    app = _limited_body(_whole_body(app))
    if not open_access:
        app = require_token(app, AccessList(Path(bare)), options.public_read)
    try:
        server = _Server((options.host, options.port), options)
    except OSError as exc:
        repo.close()
        raise RulesFolderError(f"cannot listen on {options.host}:{options.port}: "
                               f"{exc.strerror}") from None
    server.set_app(app)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True,
                                        do_handshake_on_connect=False)
    return server, repo


def server_url(server: WSGIServer) -> str:
    scheme = "https" if isinstance(server.socket, ssl.SSLSocket) else "http"
    host = str(server.server_address[0])
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}:{server.server_port}/"


@contextlib.contextmanager
def serving(bare: StrPath, host: str = "127.0.0.1", port: int = 0,
            options: ServeOptions | None = None, open_access: bool = False) -> Iterator[str]:
    """Serve ``bare`` on a background thread; yields its URL. ``open_access``: no
    token asked (the tests and benchmarks that are not about access)."""
    server, repo = make_http_server(bare, host, port, options, open_access)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server_url(server)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
        repo.close()
