"""Serving a shared (bare) repository over smart HTTP with dulwich's own server, for
a committee without git hosting, and for the tests and benchmarks.

Only members with an access token get in (:mod:`.serve_auth`); every push is
checked before ``main`` moves (:mod:`.serve_policy`); ``--cert``/``--key`` serve
HTTPS. Each connection runs on a thread of its own, bounded in number (in all and
per address) and in time (headers, body rate, idle, total: :mod:`.serve_limits`),
so no slow or idle client, with a token or without, blocks another. (dulwich's
``web-daemon`` maps URL paths onto the file system; this serves exactly one
repository at ``/``.)
"""
from __future__ import annotations

import contextlib
import ssl
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from dulwich.errors import NotGitRepository
from dulwich.repo import Repo
from dulwich.server import BackendRepo, DictBackend
from dulwich.web import make_wsgi_chain

from .errors import RulesFolderError
from .pack_send import DeltaUploadPack
from .repo import BRANCH, StrPath
from .serve_auth import AccessList, require_token
from .serve_bodies import MAX_PUSH_BYTES, bounded_bodies
from .serve_limits import (
    BODY_GRACE_SECONDS,
    HEADER_SECONDS,
    IDLE_SECONDS,
    MAX_CONNECTION_SECONDS,
    MIN_BODY_RATE,
    BodyReader,
    Connection,
    Connections,
)
from .serve_policy import GuardedReceivePack

__all__ = ["BODY_GRACE_SECONDS", "HEADER_SECONDS", "IDLE_SECONDS", "MAX_CONNECTIONS",
           "MAX_CONNECTION_SECONDS", "MAX_PER_ADDRESS", "MAX_PUSH_BYTES", "MIN_BODY_RATE",
           "ServeOptions", "init_bare", "make_http_server", "open_served", "server_url", "serving"]

if TYPE_CHECKING:  # the standard library's WSGI types (wsgiref.types from Python 3.11)
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass


#: at most this many connections are served at once (see :mod:`.serve_limits`)
MAX_CONNECTIONS = 32
#: at most this many from one address (an IPv6 client: from one /64)
MAX_PER_ADDRESS = 8


@dataclass(frozen=True)
class ServeOptions:
    """How ``rulesbook serve`` runs (the command's options, and the bounds of
    :mod:`.serve_limits`)."""

    host: str = "127.0.0.1"
    port: int = 0
    public_read: bool = False  # clone and fetch without a token
    cert: str | None = None  # HTTPS: the certificate chain (PEM) and its private key
    key: str | None = None
    max_connections: int = MAX_CONNECTIONS
    max_per_address: int = MAX_PER_ADDRESS
    header_seconds: float = HEADER_SECONDS
    idle_seconds: float = IDLE_SECONDS
    min_body_rate: int = MIN_BODY_RATE
    body_grace_seconds: float = BODY_GRACE_SECONDS
    max_connection_seconds: float = MAX_CONNECTION_SECONDS


class _Handler(_Quiet):
    """One connection, on its own thread; its deadlines are kept by
    :class:`.serve_limits.Connections`."""

    server: _Server

    def __init__(self, request: Any, client_address: Any, server: _Server,
                 entry: Connection) -> None:
        self.entry = entry
        super().__init__(request, client_address, server)

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.options.idle_seconds)  # each read and write

    def handle(self) -> None:
        if isinstance(self.connection, ssl.SSLSocket):
            try:
                self.connection.do_handshake()
            except (OSError, ssl.SSLError):
                return
        with contextlib.suppress(OSError, ValueError):  # a client gone, a timeout, a cut
            super().handle()

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        self.entry.headers_done = True  # from now on, the body's rate is what counts
        self.rfile = BodyReader(self.rfile, self.entry)  # type: ignore[assignment]
        return True

    def finish(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            super().finish()


class _Server(WSGIServer):
    """wsgiref's server, each connection on a thread of its own, within the bounds
    of :class:`.serve_limits.Connections`."""

    request_queue_size = 128

    def __init__(self, address: tuple[str, int], options: ServeOptions) -> None:
        self.options = options
        self.connections = Connections(options)
        super().__init__(address, _Quiet)

    def process_request(self, request: Any, client_address: Any) -> None:
        admitted = self.connections.admit(request, str(client_address[0]))
        if isinstance(admitted, bytes):
            self.connections.refuse(request, admitted, self.shutdown_request)
            return
        thread = threading.Thread(target=self._serve, args=(request, client_address, admitted),
                                  daemon=True)
        try:
            thread.start()
        except BaseException:
            self.connections.release(admitted)
            self.shutdown_request(request)
            raise

    def _serve(self, request: Any, client_address: Any, entry: Connection) -> None:
        try:
            _Handler(request, client_address, self, entry)
        except Exception:  # noqa: BLE001 - as socketserver does: one client's failure
            self.handle_error(request, client_address)
        finally:
            self.connections.release(entry)
            self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client gone or cut: nothing to report

    def service_actions(self) -> None:
        self.connections.sweep()


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
        DictBackend(repos), handlers={b"git-receive-pack": GuardedReceivePack,
                                       b"git-upload-pack": DeltaUploadPack})
    app = _limited_body(bounded_bodies(app))
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
