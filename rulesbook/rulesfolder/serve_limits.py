"""The bounds ``rulesbook serve`` keeps on its connections, so that no client, a
member or not, can shut the others out by holding connections open.

- At most ``max_connections`` at once, and at most ``max_per_address`` from one
  address (an IPv6 client: from one /64, the block one household or office gets).
- A connection must send its request line and headers (and finish its TLS
  handshake) within ``header_seconds``: until then no one knows who it is, so it is
  closed then, and when every slot is taken, or every one of its address's, a new
  connection takes the place of the oldest one (of its address) still waiting for
  its headers. An attacker holding sockets open without a token, even behind the
  member's own address, therefore never keeps a member out.
- A request body (a push) must arrive at ``min_body_rate`` bytes a second on
  average once ``body_grace_seconds`` of reading have passed (only the time spent
  waiting for the body counts, not the time the server spends checking it), so a
  stalled push, even with a valid token, never holds a slot for long.
- Any connection is closed after ``max_connection_seconds`` spent waiting on its
  client (the time the server spends on its own work, checking a push or making a
  fetch's pack, does not count: a push checked for longer is answered, not cut), and
  a read or write that waits ``idle_seconds`` fails (the socket's timeout, set by the
  handler).

:meth:`Connections.sweep` applies the deadlines; the server calls it between
accepts (``service_actions``, at least twice a second).
"""
from __future__ import annotations

import contextlib
import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .serve import ServeOptions

#: a connection's request line and headers (and TLS handshake) must arrive within this
HEADER_SECONDS = 5.0
#: a read or write that waits this long fails (idle, or a request half sent)
IDLE_SECONDS = 30.0
#: a request body must arrive at this many bytes a second on average...
MIN_BODY_RATE = 4096
#: ...once this long has been spent waiting for it
BODY_GRACE_SECONDS = 10.0
#: the most one request (one a connection) may spend waiting on its client, whatever
#: it is doing: a body sent a few bytes at a time, fast enough for MIN_BODY_RATE, or
#: an answer read as slowly, never holds a slot for longer; a request still sending
#: its body is answered 408 with the reason. (The server's own work is not counted:
#: the check of a push of thousands of commits may take minutes, and the member must
#: read whether main moved.) A member's sync sends and receives a few KB; a
#: folder's whole history, sent with deltas, is tens of MB (pack_guard); 64 MiB, a
#: commit's files at their limit, takes 15 minutes at 75 KB/s (0.6 Mbit/s, slower
#: than a poor mobile link). So a slow client holds one of the 32 slots (8 of its
#: address's) for 15 minutes at most, and no honest transfer is cut.
MAX_CONNECTION_SECONDS = 900.0
#: the most refusals (503/429) being sent at once, each on a short thread of its own;
#: more are answered at once without waiting (plain HTTP: the sentence is written
#: into the socket's buffer, which always has room for it) and closed; an HTTPS one
#: beyond them is closed without a word (a TLS answer needs a handshake, which waits)
MAX_REFUSING = 64
#: the seconds a refused client is told to wait (urllib3, which dulwich uses, waits
#: them and tries again, a few times, before it reports the refusal)
RETRY_AFTER = 2
#: how long a refusal waits to be read before its connection is closed
REFUSAL_SECONDS = 1.0


def address_key(address: str) -> str:
    """What connections are counted by: the IPv4 address, or the IPv6 /64."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Connection:
    """One client connection: when it opened, whether its headers have arrived, and
    how much of its body it has sent in how long."""

    def __init__(self, sock: socket.socket, key: str, now: float) -> None:
        self.sock = sock
        self.key = key
        self.opened = now
        self.headers_done = False
        self.body_bytes = 0
        self.body_seconds = 0.0  # spent waiting in reads of the body, finished reads
        self.reading_since: float | None = None
        self.in_body = False  # serve_bodies is reading the request body
        self.cut_because: str | None = None
        self.working_since: float | None = None  # the server is at its own work
        self.worked = 0.0  # the seconds it spent at it, finished spells

    @contextlib.contextmanager
    def working(self) -> Iterator[None]:
        """The server works on the request (not waiting on the client): the time is
        not counted against ``max_connection_seconds``, and no deadline cuts it."""
        self.working_since = time.monotonic()
        try:
            yield
        finally:
            self._stop_working()

    def _stop_working(self) -> None:
        since, self.working_since = self.working_since, None
        if since is not None:
            self.worked += time.monotonic() - since

    @contextlib.contextmanager
    def waiting_on_client(self) -> Iterator[None]:
        """Within :meth:`working`: the server writes to the client (which may read
        slowly), so the time counts again."""
        was_working = self.working_since is not None
        self._stop_working()
        try:
            yield
        finally:
            if was_working:
                self.working_since = time.monotonic()

    def cut(self, because: str) -> None:
        """Close the connection under its handler's feet (its blocked read returns).
        While the request body is being read, only its reading side: the handler then
        answers why (:class:`Overdue`, a 408) before it closes."""
        self.cut_because = because
        how = socket.SHUT_RD if self.in_body else socket.SHUT_RDWR
        with contextlib.suppress(OSError):  # the plain socket's: not an SSL shutdown
            socket.socket.shutdown(self.sock, how)

    def overdue(self, now: float, options: ServeOptions) -> str | None:
        """Why the connection is past one of its deadlines (None: it is not)."""
        if self.working_since is not None:
            return None  # the server's own work: the client waits on it
        age = now - self.opened - self.worked
        if age > options.max_connection_seconds:
            return (f"it was not done within {options.max_connection_seconds:g} s, the "
                    f"most one request may spend waiting on its client")
        if not self.headers_done:
            if age > options.header_seconds:
                return f"no request headers within {options.header_seconds:g} s"
            return None
        since = self.reading_since
        reading = self.body_seconds + (now - since if since is not None else 0.0)
        late = reading - options.body_grace_seconds
        if late > 0 and self.body_bytes < options.min_body_rate * late:
            return (f"request body slower than {options.min_body_rate:,} bytes a second "
                    f"({self.body_bytes:,} bytes in {reading:.0f} s)")
        return None


class Overdue(Exception):
    """The request passed one of its deadlines while its body was read: why."""


class BodyReader:
    """The request body (``wsgi.input``), counting what arrives and how long the
    server waited for it (:meth:`Connection.overdue`)."""

    def __init__(self, raw: Any, connection: Connection) -> None:
        self._raw = raw
        self._connection = connection

    @contextlib.contextmanager
    def reading_body(self) -> Iterator[None]:
        """While the body is read (:mod:`.serve_bodies`), a connection past a deadline
        is cut on its reading side only, and :class:`Overdue` raised, so that the
        client is answered why (also when the cut came as the body's last bytes did)."""
        connection = self._connection
        connection.in_body = True
        try:
            yield
        finally:
            connection.in_body = False
        if connection.cut_because is not None:
            raise Overdue(connection.cut_because)

    def _timed(self, read: Any, size: int) -> bytes:
        connection = self._connection
        started = time.monotonic()
        connection.reading_since = started
        try:
            data: bytes = read(size)
        except OSError:
            if connection.in_body and connection.cut_because is not None:
                raise Overdue(connection.cut_because) from None
            raise
        finally:
            connection.body_seconds += time.monotonic() - started
            connection.reading_since = None
        if connection.in_body and connection.cut_because is not None:
            raise Overdue(connection.cut_because)
        connection.body_bytes += len(data)
        return data

    def read(self, size: int = -1) -> bytes:
        return self._timed(self._raw.read, size)

    def read1(self, size: int = -1) -> bytes:
        """What has arrived (at most ``size``): a slow body is counted as it comes,
        not only once a whole piece of it did."""
        return self._timed(self._raw.read1, size)

    def readline(self, size: int = -1) -> bytes:
        return self._timed(self._raw.readline, size)

    def server_working(self) -> contextlib.AbstractContextManager[None]:
        """The server's own work on the request (:meth:`Connection.working`)."""
        return self._connection.working()

    def waiting_on_client(self) -> contextlib.AbstractContextManager[None]:
        return self._connection.waiting_on_client()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


def _response(status: str, text: str, retry: bool) -> bytes:
    body = (text + "\n").encode("utf-8")
    head = (f"HTTP/1.0 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n"
            + (f"Retry-After: {RETRY_AFTER}\r\n" if retry else "") + "\r\n")
    return head.encode("ascii") + body


class Connections:
    """The open connections, admitted and released by the server."""

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self._lock = threading.Lock()
        self._open: dict[int, Connection] = {}
        self._refusing = threading.BoundedSemaphore(MAX_REFUSING)

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, sock: socket.socket, address: str) -> Connection | bytes:
        """The new connection's entry, or the response that refuses it (HTTP/1.0
        429 when its address has its share, 503 when every slot is taken by a
        request under way)."""
        key = address_key(address)
        now = time.monotonic()
        options = self.options
        with self._lock:
            mine = [c for c in self._open.values() if c.key == key]
            if len(mine) >= options.max_per_address:
                # sockets of this address that have not said who they are give their place
                # to the new one, as below: a client holding idle sockets (or a neighbour
                # behind the same NAT doing so) never keeps out a member of that address
                waiting = [c for c in mine if not c.headers_done]
                if waiting:
                    self._give_place(min(waiting, key=lambda c: c.opened))
                    mine = []  # now under its share
            if len(mine) >= options.max_per_address:
                return _response(
                    "429 Too Many Requests",
                    f"This computer already has {options.max_per_address} connections open "
                    f"to the rules folder server, as many as one address may have. Nothing "
                    f"was sent or changed: let the other syncs or clones finish, then try "
                    f"again.", retry=True)
            if len(self._open) >= options.max_connections:
                waiting = [c for c in self._open.values() if not c.headers_done]
                if not waiting:
                    return _response(
                        "503 Service Unavailable",
                        f"The rules folder server is busy: it is serving {len(self._open)} "
                        f"requests, as many as it takes at once. Nothing was sent or "
                        f"changed: try again in a minute.", retry=True)
                self._give_place(min(waiting, key=lambda c: c.opened))
            entry = Connection(sock, key, now)
            self._open[id(entry)] = entry
            return entry

    def _give_place(self, oldest: Connection) -> None:
        """Close ``oldest`` (still waiting for its headers) for a new connection."""
        del self._open[id(oldest)]
        oldest.cut("its place was given to a new connection")

    def release(self, entry: Connection) -> None:
        with self._lock:
            self._open.pop(id(entry), None)

    def sweep(self) -> None:
        """Close every connection past one of its deadlines."""
        now = time.monotonic()
        with self._lock:
            entries = list(self._open.values())
        for entry in entries:
            because = entry.overdue(now, self.options)
            if because and entry.cut_because is None:
                entry.cut(because)

    def refuse(self, sock: socket.socket, response: bytes, close: Any) -> None:
        """Send ``response`` and close ``sock`` (``close``: the server's own), on a short
        thread, reading what the client sent meanwhile so that it gets the response,
        not a reset; at most :data:`MAX_REFUSING` at once (more are answered without
        waiting, see :func:`_answer_without_waiting`, and closed)."""
        if not self._refusing.acquire(blocking=False):
            _answer_without_waiting(sock, response)
            close(sock)
            return

        def send() -> None:
            try:
                with contextlib.suppress(OSError):
                    sock.settimeout(REFUSAL_SECONDS)
                    if isinstance(sock, ssl.SSLSocket):  # an HTTPS client reads it too
                        sock.do_handshake()
                    sock.sendall(response)
                    sock.shutdown(socket.SHUT_WR)
                    deadline = time.monotonic() + REFUSAL_SECONDS
                    while time.monotonic() < deadline and sock.recv(65536):
                        pass
            finally:
                close(sock)
                self._refusing.release()

        threading.Thread(target=send, daemon=True).start()


def _answer_without_waiting(sock: socket.socket, response: bytes) -> None:
    """Write ``response`` into a plain socket's send buffer without blocking, and
    read what the client has sent so far, so that closing it sends the sentence, not
    a reset. An HTTPS socket is left as it is (its handshake would wait)."""
    if isinstance(sock, ssl.SSLSocket):
        return
    with contextlib.suppress(OSError):  # BlockingIOError: nothing more to read
        sock.setblocking(False)
        sock.send(response)  # a few hundred bytes: the buffer takes them whole
        sock.shutdown(socket.SHUT_WR)
        while sock.recv(65536):
            pass
