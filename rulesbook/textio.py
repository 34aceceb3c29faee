"""The one decoding policy for every text file the project reads (CLI and app).

Policy, in this order:

1. A byte order mark says what the file is: UTF-8 (``EF BB BF``, removed),
   UTF-16 or UTF-32 (decoded as such).
2. Otherwise the file is read as UTF-8.
3. A file that is not valid UTF-8 is read as **Windows-1252** (the code page
   that PDN files written by Windows programs such as CheckerBoard use), with
   a warning that names the file, the line and column of the first byte that
   is not UTF-8, and the code page used. The five bytes Windows-1252 leaves
   undefined are read as U+FFFD.
   Readers of the association's own data (YAML rules data, ballots, cases)
   pass ``fallback=False``: those files are written by this program as UTF-8,
   are sealed by their bytes, and a guessed code page would change a member's
   name silently, so a non-UTF-8 data file is an error with its line and column.

Every reader is bounded: :func:`read_text` reads at most ``max_bytes`` (one
byte more tells it the file is too large, so ``/dev/zero`` or a FIFO stops
there) and :func:`open_text` streams a file with the same bound. Past a
limit, :class:`InputLimitError` names the limit and where it was hit.

Names shown to people go through :func:`visible_controls`: bidi overrides and
other invisible control characters are shown as ``<U+202E>`` instead of
silently reordering a report.
"""
from __future__ import annotations

import codecs
import io
import os
import stat
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

from .errors import RulesbookError
from .plural import counted as counted  # the one place: rulesbook/plural.py

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

__all__ = [
    "shorten",
    "ordinal",
    "FALLBACK_ENCODING",
    "MAX_STREAM_BYTES",
    "DecodedText",
    "InputLimitError",
    "TextDecodeError",
    "decode_bytes",
    "open_text",
    "read_bytes",
    "read_text",
    "visible_controls",
]

#: The code page a file that is not UTF-8 is read with (see the module text).
FALLBACK_ENCODING = "cp1252"
_FALLBACK_NAME = "Windows-1252"
_CHUNK = 1 << 20
#: Most bytes read from a pipe or a device (read whole, since it cannot be
#: scanned for its encoding first).
MAX_STREAM_BYTES = 16 * 1024 * 1024
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
)


class TextDecodeError(RulesbookError):
    """A file that is not text in an accepted encoding; ``line``/``col`` (1-based)
    locate the first byte that could not be read."""

    def __init__(self, name: str, line: int, col: int, message: str) -> None:
        super().__init__(f"{name}:{line}:{col}: {message}")
        self.name = name
        self.line = line
        self.col = col
        self.message = message


class InputLimitError(RulesbookError):
    """An input past one of the documented reader limits: the message names the
    limit and where it was hit."""

    def __init__(self, message: str, limit: str = "", where: str = "") -> None:
        super().__init__(message)
        self.limit = limit
        self.where = where


@dataclass(frozen=True)
class DecodedText:
    """The text of a file and how it was read; ``warning`` is set when the
    fallback code page was used."""

    text: str
    encoding: str
    warning: str | None = None


def _where(raw: bytes, offset: int, base_line: int = 1) -> tuple[int, int]:
    line = base_line + raw.count(b"\n", 0, offset)
    col = offset - (raw.rfind(b"\n", 0, offset) + 1) + 1
    return line, col


def _bom_encoding(head: bytes) -> str | None:
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    return None


def _fallback_warning(name: str, line: int, col: int, byte: int) -> str:
    return (f"{name}: not UTF-8 (byte 0x{byte:02x} at line {line} col {col}); "
            f"read as {_FALLBACK_NAME}")


def _not_utf8(name: str, line: int, col: int, byte: int) -> TextDecodeError:
    return TextDecodeError(name, line, col, f"the file is not UTF-8 text (byte 0x{byte:02x}); "
                                            "save it as UTF-8")


def decode_bytes(raw: bytes, name: str = "<bytes>", *, fallback: bool = True) -> DecodedText:
    """Decode ``raw`` by the policy of this module (see the module text).

    Raises :class:`TextDecodeError` when it is not UTF-8 and ``fallback`` is
    False, or when a byte order mark does not match the bytes that follow."""
    encoding = _bom_encoding(raw[:4])
    if encoding is not None and encoding.startswith("utf-8"):
        raw = raw[len(codecs.BOM_UTF8):]
        encoding = None
    if encoding is not None:
        if not fallback:
            raise TextDecodeError(name, 1, 1, f"the file is not UTF-8 text (it is "
                                              f"{encoding.upper()}); save it as UTF-8")
        try:
            return DecodedText(raw.decode(encoding), encoding)
        except UnicodeDecodeError as exc:
            raise TextDecodeError(name, 1, exc.start + 1,
                                  f"the file starts with a {encoding.upper()} byte order "
                                  "mark but is not that encoding") from None
    try:
        return DecodedText(raw.decode("utf-8"), "utf-8")
    except UnicodeDecodeError as exc:
        line, col = _where(raw, exc.start)
        if not fallback:
            raise _not_utf8(name, line, col, raw[exc.start]) from None
        return DecodedText(raw.decode(FALLBACK_ENCODING, errors="replace"), FALLBACK_ENCODING,
                           _fallback_warning(name, line, col, raw[exc.start]))


def _too_large(name: str, max_bytes: int, what: str) -> InputLimitError:
    return InputLimitError(f"{name}: {what} may be at most {max_bytes:,} bytes; this one is "
                           f"larger (reading stopped at byte {max_bytes:,})",
                           limit=f"{what} size", where=f"byte {max_bytes:,}")


#: Seconds a named pipe (FIFO) is waited on for a program to write to it: with
#: no writer, opening one would wait for ever (issue 34: `pdn check FIFO` hung).
PIPE_WAIT_SECONDS = 10.0
#: Seconds a pipe or a device is read for in all: a program that writes a little
#: now and then, never closing the pipe, does not hold a command for ever.
PIPE_READ_SECONDS = 60.0


def _open_fifo(path: Path, name: str) -> BinaryIO:
    """Open a FIFO without waiting for ever: refused when no program writes to it
    within PIPE_WAIT_SECONDS; then read as any pipe (bounded, MAX_STREAM_BYTES)."""
    import select

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP)
        if not poller.poll(int(PIPE_WAIT_SECONDS * 1000)):
            raise RulesbookError(
                f"cannot read {name}: it is a named pipe (FIFO) and no program wrote to it "
                f"within {PIPE_WAIT_SECONDS:g} s; give a file, or start the program that "
                f"writes to the pipe first")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _open_binary(path: Path, name: str) -> BinaryIO:
    try:
        if hasattr(os, "O_NONBLOCK") and stat.S_ISFIFO(os.stat(path).st_mode):
            return _open_fifo(path, name)
        return open(path, "rb")  # noqa: SIM115 - closed by the callers
    except FileNotFoundError:
        raise RulesbookError(f"cannot read {name}: no such file") from None
    except IsADirectoryError:
        raise RulesbookError(f"cannot read {name}: it is a folder, not a file") from None
    except OSError as exc:
        raise RulesbookError(f"cannot read {name}: {exc.strerror or exc}") from None


def _read_stream(handle: BinaryIO, limit: int, name: str) -> bytes:
    """At most ``limit`` + 1 bytes of a pipe or a device, refused (RulesbookError)
    when nothing comes for PIPE_WAIT_SECONDS while it stays open, or when it is not
    done within PIPE_READ_SECONDS: a FIFO whose writer keeps it open blocked
    `pdn check` for as long as the writer lived (issue 34)."""
    import select
    import time

    if not hasattr(select, "poll"):  # no poll (Windows): a plain bounded read
        return handle.read(limit + 1)
    fd = handle.fileno()
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    end = time.monotonic() + PIPE_READ_SECONDS
    parts: list[bytes] = []
    total = 0
    while total <= limit:
        left = end - time.monotonic()
        if left <= 0 or not poller.poll(int(min(left, PIPE_WAIT_SECONDS) * 1000) + 1):
            waited = (f"nothing more came within {PIPE_WAIT_SECONDS:g} s" if left > 0
                      else f"it was not done within {PIPE_READ_SECONDS:g} s")
            raise RulesbookError(
                f"cannot read {name}: it is a pipe or a device that was not closed, and "
                f"{waited} (after {total:,} bytes); give a file, or close the pipe "
                f"when all is written")
        chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
    return b"".join(parts)


def read_bytes(path: str | os.PathLike[str], *, max_bytes: int, what: str = "the file",
               name: str | None = None) -> bytes:
    """The bytes of ``path``, at most ``max_bytes``: the one way a file named by a
    user is read (a FIFO or a device bounded in size and in time).

    Raises :class:`InputLimitError` for a larger input (a device or a FIFO
    that never ends included), or :class:`~rulesbook.errors.RulesbookError` when
    it cannot be read (a pipe that stays open without more to read included)."""
    path = Path(path)
    name = name or str(path)
    with _open_binary(path, name) as handle:
        try:
            if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raw = handle.read(max_bytes + 1)
            else:
                raw = _read_stream(handle, max_bytes, name)
        except OSError as exc:
            raise RulesbookError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(raw) > max_bytes:
        raise _too_large(name, max_bytes, what)
    return raw


def read_text(path: str | os.PathLike[str], *, max_bytes: int, what: str = "the file",
              fallback: bool = True, name: str | None = None) -> DecodedText:
    """The decoded text of ``path``, reading at most ``max_bytes`` bytes.

    Raises :class:`InputLimitError` for a larger input (a device or a FIFO
    that never ends included), :class:`TextDecodeError`, or
    :class:`~rulesbook.errors.RulesbookError` when it cannot be read."""
    name = name or str(path)
    raw = read_bytes(path, max_bytes=max_bytes, what=what, name=name)
    return decode_bytes(raw, name, fallback=fallback)


class _Bounded(io.RawIOBase):
    """A binary stream that raises :class:`InputLimitError` past ``max_bytes``."""

    def __init__(self, handle: BinaryIO, max_bytes: int, name: str, what: str) -> None:
        self._handle = handle
        self._left = max_bytes
        self._max = max_bytes
        self._name = name
        self._what = what

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self._handle.seekable()

    def tell(self) -> int:
        return self._handle.tell()

    def seek(self, offset: int, whence: int = 0) -> int:
        """A file read again from ``offset`` (the bound counts from the file's start)."""
        where = self._handle.seek(offset, whence)
        self._left = self._max - where
        return where

    def readinto(self, buffer: WriteableBuffer) -> int:
        if self._left < 0:
            raise _too_large(self._name, self._max, self._what)
        view = memoryview(buffer)
        want = min(len(view), self._left + 1)
        try:
            data = self._handle.read(want)
        except OSError as exc:  # a read error of the file, not of the consumer
            raise RulesbookError(f"cannot read {self._name}: {exc.strerror or exc}") from None
        if len(data) > self._left:
            self._left = -1
            raise _too_large(self._name, self._max, self._what)
        self._left -= len(data)
        view[:len(data)] = data
        return len(data)

    def close(self) -> None:
        self._handle.close()
        super().close()


def _scan_utf8(handle: BinaryIO, max_bytes: int, name: str, what: str) -> tuple[int, int, int] | None:
    """Where the first byte that is not UTF-8 is, as (line, col, byte), or None;
    reads the whole (bounded) stream in chunks without keeping it."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1  # the line on which ``tail`` starts
    dropped = 0  # bytes of that line no longer kept in ``tail``
    total = 0
    tail = b""  # the bytes since the last line break
    while True:
        chunk = handle.read(_CHUNK)
        total += len(chunk)
        if total > max_bytes:
            raise _too_large(name, max_bytes, what)
        pending = decoder.getstate()[0]
        try:
            decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as exc:
            data = tail + chunk
            offset = len(tail) - len(pending) + exc.start
            at_line, col = _where(data, offset, line)
            if at_line == line:
                col += dropped
            return at_line, col, data[offset]
        if not chunk:
            return None
        cut = chunk.rfind(b"\n")
        if cut >= 0:
            line += chunk.count(b"\n")
            tail, dropped = chunk[cut + 1:], 0
        else:
            tail += chunk
        if len(tail) > 8:
            dropped += len(tail) - 8
            tail = tail[-8:]


@contextmanager
def open_text(path: str | os.PathLike[str], *, max_bytes: int, what: str = "the file",
              fallback: bool = True, name: str | None = None,
              warnings: list[str] | None = None) -> Iterator[TextIO]:
    """A text stream over ``path`` decoded by the policy of this module, that
    raises :class:`InputLimitError` past ``max_bytes`` bytes; the fallback
    warning (if any) is appended to ``warnings``. Memory does not grow with the
    file: a regular file is scanned once for its encoding, then streamed; a
    FIFO or a device is read into memory up to the limit."""
    path = Path(path)
    name = name or str(path)
    handle = _open_binary(path, name)
    try:
        try:  # errors of the consumer (a broken pipe on stdout) are not read errors
            stream = _decoding_stream(handle, name, max_bytes, what, fallback, warnings)
        except OSError as exc:
            raise RulesbookError(f"cannot read {name}: {exc.strerror or exc}") from None
        try:
            yield stream
        finally:
            if isinstance(stream, io.TextIOWrapper):
                stream.detach()
    finally:
        handle.close()


def _decoding_stream(handle: BinaryIO, name: str, max_bytes: int, what: str, fallback: bool,
                     warnings: list[str] | None) -> TextIO:
    mode = os.fstat(handle.fileno()).st_mode
    if not stat.S_ISREG(mode):
        # a pipe or a device cannot be scanned twice: read it whole, bounded
        cap = min(max_bytes, MAX_STREAM_BYTES)
        raw = _read_stream(handle, cap, name)
        if len(raw) > cap:
            raise InputLimitError(
                f"{name}: input that is not a regular file (a pipe or a device) may be "
                f"at most {cap:,} bytes; reading stopped at byte {cap:,}",
                limit="pipe size", where=f"byte {cap:,}")
        decoded = decode_bytes(raw, name, fallback=fallback)
        if decoded.warning and warnings is not None:
            warnings.append(decoded.warning)
        return io.StringIO(decoded.text)
    head = handle.read(4)
    encoding = _bom_encoding(head)
    handle.seek(0)
    if encoding is None or encoding == "utf-8-sig":
        bad = _scan_utf8(handle, max_bytes, name, what)
        handle.seek(0)
        if bad is None:
            encoding = "utf-8-sig"
        elif not fallback:
            raise _not_utf8(name, *bad)
        else:
            encoding = FALLBACK_ENCODING
            if warnings is not None:
                warnings.append(_fallback_warning(name, *bad))
    elif not fallback:
        raise TextDecodeError(name, 1, 1, f"the file is not UTF-8 text (it is "
                                          f"{encoding.upper()}); save it as UTF-8")
    bounded = io.BufferedReader(_Bounded(handle, max_bytes, name, what), _CHUNK)
    return io.TextIOWrapper(bounded, encoding=encoding, errors="replace", newline=None)


#: Characters shown as ``<U+XXXX>`` by :func:`visible_controls`: bidi embeddings,
#: overrides and isolates, and the other invisible format/control characters.
_BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def visible_controls(text: str) -> str:
    """``text`` with bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE and its kin) and
    other invisible control characters shown as ``<U+202E>``: a name in a report
    or a ballot reads as it was typed, never reordered or hidden."""
    if text.isprintable() and not (_BIDI & set(text)):
        return text
    out = []
    for ch in text:
        if ch in _BIDI or (unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\t\n"):
            out.append(f"<U+{ord(ch):04X}>")
        else:
            out.append(ch)
    return "".join(out)


def shorten(text: str, width: int = 40) -> str:
    """``text`` cut to ``width`` characters with an ellipsis (``'[[[[…'``): how a
    message quotes what a user wrote, however long (a token of 1,000,000
    characters is never printed whole)."""
    return text if len(text) <= width else text[:width] + "…"


def ordinal(n: int) -> str:
    """How a scoresheet counts: 1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
