"""A git delta (the pack format's copy/insert instructions) from one version of a
file to the next, fast on the rules folder's files.

dulwich's ``create_delta`` (Rust) took 60-250 ms for two versions of a 300 KB
ballot: the file is hundreds of near-identical vote entries, and a vote renumbers
every entry after it (``signed: N``), so a version differs from the last at about
a thousand places. This compares the two versions as they stand aligned, 64 KB
at a time (numpy, one vectorised comparison), copies every run of at least
:data:`MIN_COPY` equal bytes and inserts the rest; where the alignment is lost
(text inserted or removed) it finds the next line of the new version in the old
one near where it was. A copy is only ever of bytes compared equal, so the delta
always rebuilds the new version exactly (the tests apply it with dulwich's
``apply_delta``).
"""
from __future__ import annotations

from collections.abc import Callable

#: runs of equal bytes shorter than this are inserted (a copy costs up to 8 bytes)
MIN_COPY = 16
#: bytes compared at once
WINDOW = 64 * 1024
#: the alignment counts as lost after this many bytes without a run to copy
LOST = 48
#: a lost alignment is looked for this far around where it was
SEARCH = 64 * 1024
_ANCHOR = 24
_CLOSE = 512  # first looked for this close (a digit more or less shifts it a byte)
_FIRST = 1024  # bytes compared first after the alignment was found again
_MAX_COPY = 0xFFFF  # a version-2 pack's copy length


def _size(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        if not n:
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


def _copy(out: bytearray, start: int, length: int) -> None:
    while length:
        step = length if length <= _MAX_COPY else _MAX_COPY
        op = 0x80
        body = bytearray()
        for bit, value in ((1, start), (2, start >> 8), (4, start >> 16), (8, start >> 24),
                           (16, step), (32, step >> 8)):
            if value & 0xFF:
                op |= bit
                body.append(value & 0xFF)
        out.append(op)
        out += body
        start += step
        length -= step


def _insert(out: bytearray, data: bytes | memoryview) -> None:
    if len(data) <= 127:
        if data:
            out.append(len(data))
            out += data
        return
    for i in range(0, len(data), 127):
        piece = data[i:i + 127]
        out.append(len(piece))
        out += piece


def _numpy_delta(base: bytes, target: bytes) -> bytes:
    import numpy as np

    bv = np.frombuffer(base, dtype=np.uint8)
    tv = np.frombuffer(target, dtype=np.uint8)
    mt = memoryview(target)
    out = bytearray(_size(len(base)) + _size(len(target)))
    n, m = len(target), len(base)
    t = b = lit = 0  # where we are in target and base; the literal pending since lit
    window = _FIRST
    while t < n:
        width = min(window, n - t, m - b)
        if width <= 0:
            break
        diff = np.flatnonzero(tv[t:t + width] != bv[b:b + width]).tolist()
        diff.append(width)  # the window's end closes the last run
        cur, lost = 0, False
        for p in diff:
            if p - cur >= MIN_COPY:  # base[b+cur:b+p] == target[t+cur:t+p]
                _insert(out, mt[lit:t + cur])
                _copy(out, b + cur, p - cur)
                lit = t + p
            elif t + p - lit > LOST:
                cur = p
                lost = True
                break
            cur = p + 1
        if not lost:
            t, b = t + width, b + width
            window = min(2 * window, WINDOW)  # aligned: compare more at once
            continue
        window = _FIRST
        t += cur  # resynchronise on the next line of target found in base near b + cur
        near = b + cur
        line = target.find(b"\n", t, t + 4096)
        t = line + 1 if line >= 0 else t + 1
        anchor = target[t:t + _ANCHOR]
        if len(anchor) < _ANCHOR:
            break
        found = -1
        for low, high in ((near - _CLOSE, near + _CLOSE), (near, near + SEARCH),
                          (near - SEARCH, near + _ANCHOR)):
            found = base.find(anchor, max(0, low), high)
            if found >= 0:
                break
        b = found if found >= 0 else near
    _insert(out, mt[lit:n])
    return bytes(out)


def _dulwich_delta(base: bytes, target: bytes) -> bytes:
    from dulwich.pack import create_delta

    return b"".join(create_delta(base, target))


_chosen: list[Callable[[bytes, bytes], bytes]] = []


def create_delta(base: bytes, target: bytes) -> bytes:
    """The delta that makes ``target`` from ``base`` (numpy, installed with numba, is
    imported at the first delta, not with the command line; without it, dulwich's)."""
    if not _chosen:
        try:
            import numpy  # noqa: F401
        except ImportError:
            _chosen.append(_dulwich_delta)
        else:
            _chosen.append(_numpy_delta)
    return _chosen[0](base, target)
