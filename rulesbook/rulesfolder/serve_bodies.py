"""The request bodies ``rulesbook serve`` takes, bounded as they arrive (issue #28):
a push (``git-receive-pack``) may update a handful of refs — the server serves one,
``main`` — and a fetch's negotiation (``git-upload-pack``: its wants and haves) a few
MiB, counted once inflated: 32 gzip requests of 5.8 MB, each inflating to 2 GB of
``have`` lines, kept members out for 15 minutes, and one push of a million ref
commands took the server to 482 MB. A body past its bound is refused (413) as soon as
the bound is passed, before the rest is read; a malformed one (a chunked stream cut
short, gzip that is not) is a 400; either is one line on the server's log.

The body is read here (de-chunked and inflated), checked line by line and handed on
whole with a ``Content-Length``, so dulwich's handlers never inflate it themselves.
"""
from __future__ import annotations

import contextlib
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from dulwich.errors import GitProtocolError

from .serve_limits import Overdue

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: the largest push taken (inflated): several data files at their 20 MiB limit
MAX_PUSH_BYTES = 256 * 1024 * 1024
#: the most ref updates one push may hold (the server serves one ref, main)
MAX_COMMANDS = 8
#: the largest fetch negotiation taken (inflated): a have line is 50 bytes, so this
#: is 160,000 commits offered at once
MAX_NEGOTIATION_BYTES = 8 * 1024 * 1024
#: the most ``have`` lines one fetch request may hold
MAX_HAVES = 100_000
#: after a refusal, what the client still sends is read (and dropped) this long, so
#: that it reads the refusal rather than a reset connection
DRAIN_SECONDS = 5.0
_PIECE = 64 * 1024


class BodyRefused(Exception):
    """A request body the server does not take: its HTTP status and the reason."""

    def __init__(self, status: str, why: str) -> None:
        super().__init__(why)
        self.status = status
        self.why = why


def _too_large(why: str) -> BodyRefused:
    return BodyRefused("413 Request Entity Too Large", why)


def _malformed(why: str) -> BodyRefused:
    return BodyRefused("400 Bad Request", why)


def _pieces(raw: Any, environ: WSGIEnvironment) -> Iterator[bytes]:
    """The body as it arrives: de-chunked (``Transfer-Encoding: chunked``) or up to
    its ``Content-Length``."""
    if environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked":
        while True:
            line = raw.readline(1024)
            size = line.rstrip(b"\r\n").split(b";", 1)[0].strip()
            try:
                length = int(size, 16)
            except ValueError:
                raise _malformed("the chunked request body is cut short or malformed") from None
            if length < 0:
                raise _malformed("the chunked request body is malformed")
            if length == 0:
                return
            yield from _exactly(raw, length, "the chunked request body is cut short")
            raw.read(2)  # the chunk's CRLF
    try:
        left = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise _malformed("the request's Content-Length is not a number") from None
    if left < 0:
        raise _malformed("the request's Content-Length is negative")
    yield from _exactly(raw, left, "the request body is shorter than its Content-Length")


def _exactly(raw: Any, length: int, short: str) -> Iterator[bytes]:
    """``length`` bytes of ``raw``, a piece at a time; refused (``short``) when it
    ends before."""
    read = getattr(raw, "read1", raw.read)  # what has arrived: a slow body counted as it comes
    while length:
        data = read(min(length, _PIECE))
        if not data:
            raise _malformed(short)
        length -= len(data)
        yield data


def _inflated(pieces: Iterator[bytes], encoding: str) -> Iterator[bytes]:
    """The body inflated (``Content-Encoding: gzip``), a piece at a time, whatever a
    piece of gzip inflates to."""
    if encoding in ("", "identity"):
        yield from pieces
        return
    if encoding not in ("gzip", "x-gzip"):
        raise _malformed(f"the request body's encoding {encoding!r} is not one the server "
                         f"reads (gzip)")
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        for piece in pieces:
            data = piece
            while data:
                out = inflater.decompress(data, _PIECE)
                data = inflater.unconsumed_tail
                yield out
                if inflater.eof:
                    return
        yield inflater.flush()
    except zlib.error:
        raise _malformed("the request body is not valid gzip") from None
    if not inflater.eof:
        raise _malformed("the gzip request body is cut short")


class _Lines:
    """Counts the pkt-lines of a request as its bytes arrive: a push's commands (up to
    its first flush), a fetch's ``have`` lines."""

    def __init__(self, push: bool) -> None:
        self._push = push
        self._header = b""
        self._payload = b""
        self._left = 0
        self._commands_done = not push
        self.commands = 0
        self.haves = 0

    def feed(self, data: bytes) -> None:
        at = 0
        while at < len(data):
            if self._commands_done and self._push:
                return  # the pack follows: PackGuard's business
            if self._left:
                take = data[at:at + self._left]
                if len(self._payload) < 5:
                    self._payload += take[:5]
                self._left -= len(take)
                at += len(take)
                if not self._left:
                    self._line(self._payload)
                continue
            need = 4 - len(self._header)
            self._header += data[at:at + need]
            at += need
            if len(self._header) < 4:
                return
            try:
                length = int(self._header, 16)
            except ValueError:
                raise _malformed("the request body is not a list of git pkt-lines") from None
            self._header, self._payload = b"", b""
            if length < 4:  # a flush (or delimiter)
                self._commands_done = True
            else:
                self._left = length - 4
                if not self._left:
                    self._line(b"")

    def _line(self, start: bytes) -> None:
        if self._push:
            self.commands += 1
            if self.commands > MAX_COMMANDS:
                raise _too_large(f"a push may update at most {MAX_COMMANDS} refs (this "
                                 f"server serves one branch, main)")
        elif start.startswith(b"have "):
            self.haves += 1
            if self.haves > MAX_HAVES:
                raise _too_large(f"a fetch may offer at most {MAX_HAVES:,} commits "
                                 f"(have lines) in one request")


def _read_body(environ: WSGIEnvironment, push: bool) -> Any:
    """The request's body, inflated and checked, in a spooled file (at its start)."""
    bound = MAX_PUSH_BYTES if push else MAX_NEGOTIATION_BYTES
    lines = _Lines(push)
    spool = tempfile.SpooledTemporaryFile(max_size=4 * 1024 * 1024)
    try:
        pieces = _pieces(environ["wsgi.input"], environ)
        encoding = environ.get("HTTP_CONTENT_ENCODING", "").strip().lower()
        for data in _inflated(pieces, encoding):
            lines.feed(data)
            if spool.tell() + len(data) > bound:
                what = "a push" if push else "a fetch's negotiation (wants and haves)"
                raise _too_large(f"{what} may be at most {bound // (1024 * 1024)} MiB once "
                                 f"inflated")
            spool.write(data)
        if not spool.tell():
            raise _malformed("the request body is empty")
    except BaseException:
        spool.close()
        raise
    spool.seek(0)
    return spool


def _drain(raw: Any) -> None:
    """Read and drop what the client still sends, for :data:`DRAIN_SECONDS` at most."""
    deadline = time.monotonic() + DRAIN_SECONDS
    try:
        while time.monotonic() < deadline and raw.read1(_PIECE):
            pass
    except (OSError, ValueError, AttributeError):
        pass


def bounded_bodies(app: WSGIApplication) -> WSGIApplication:
    """WSGI middleware: a POST to ``git-upload-pack`` or ``git-receive-pack`` is read
    here under the bounds above (refused 413/400 with the reason, on one log line)
    and handed on inflated, with a ``Content-Length``."""
    def wrapped(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        push = path.endswith("/git-receive-pack")
        if environ.get("REQUEST_METHOD") != "POST" or not (
                push or path.endswith("/git-upload-pack")):
            yield from app(environ, start_response)
            return
        what = "push" if push else "fetch"
        raw = environ["wsgi.input"]
        reading = getattr(raw, "reading_body", None)  # serve's: its deadlines answered
        try:
            with reading() if reading is not None else contextlib.nullcontext():
                body = _read_body(environ, push)
        except Overdue as late:
            yield _refusal(environ, start_response, what, BodyRefused(
                "408 Request Timeout", f"{late}; nothing was taken (a slow link: send "
                                       f"fewer changes at a time, or try again)"))
            return
        except BodyRefused as refused:
            yield _refusal(environ, start_response, what, refused)
            _drain(environ["wsgi.input"])
            return
        started = False
        # serve's connection: its own work is not the client's time (serve_limits)
        working = getattr(raw, "server_working", None)
        on_client = getattr(raw, "waiting_on_client", contextlib.nullcontext)

        def starting(*args: Any) -> Any:
            nonlocal started
            started = True
            write = start_response(*args)

            def written(data: bytes) -> None:
                with on_client():
                    write(data)
            return written
        with body:
            environ["CONTENT_LENGTH"] = str(body.seek(0, 2))
            body.seek(0)
            environ["wsgi.input"] = body
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ.pop("HTTP_CONTENT_ENCODING", None)
            try:
                yield from _at_work(app(environ, starting), working)
            except GitProtocolError as exc:
                if isinstance(exc.__cause__, OSError):  # a write failed: the client left
                    _log(environ, what, f"the client was gone before it was answered "
                                        f"({exc.__cause__})")
                    return
                # a request git would never send. dulwich answers 200 before it reads
                # the request: then the answer ends there (empty), and the log says why
                bad = _malformed(f"the request does not follow git's protocol ({exc})")
                if not started:
                    yield _refusal(environ, start_response, what, bad)
                else:
                    _log(environ, what, bad.why)
    return wrapped


def _at_work(answer: Iterable[bytes], working: Any) -> Iterator[bytes]:
    """The app's answer, each piece made under ``working`` (the server's own work)
    and handed on outside it (written to the client: its time)."""
    pieces = iter(answer)
    try:
        while True:
            with working() if working is not None else contextlib.nullcontext():
                piece = next(pieces, None)
            if piece is None:
                return
            yield piece
    finally:
        close = getattr(answer, "close", None)
        if close is not None:
            close()


def _log(environ: WSGIEnvironment, what: str, why: str) -> None:
    """One line on the server's log (its stderr)."""
    environ["wsgi.errors"].write(f"rulesbook serve: refused a {what} from "
                                 f"{environ.get('REMOTE_ADDR', '?')}: {why}\n")
    environ["wsgi.errors"].flush()


def _refusal(environ: WSGIEnvironment, start_response: StartResponse, what: str,
             refused: BodyRefused) -> bytes:
    _log(environ, what, refused.why)
    text = f"the request was refused: {refused.why}\n".encode()
    start_response(refused.status, [("Content-Type", "text/plain; charset=utf-8"),
                                    ("Content-Length", str(len(text)))])
    return text
