"""Memory a received pack's delta chains cost the client as dulwich indexes it.

dulwich resolves a pack's deltas depth first (``DeltaChainIterator``), a base kept
while a delta made from it waits. A "caterpillar" pack (a chain of deltas, each node
also the base of a leaf delta sent before the next node) keeps every node of the
chain alive; a plain linear chain keeps one. Each pack is indexed the way
``transport.guarded_fetch`` stores a fetched pack (``add_thin_pack``) in a child
process, whose peak RSS is printed.

    PYTHONPATH=$PWD python bench/bench_delta_chains.py [--depth 100] [--mib 8]
"""
from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time

from dulwich.objects import Blob
from dulwich.pack import UnpackedObject, write_pack_data

from rulesbook.rulesfolder.pack_guard import PackGuard, PackRefused

MiB = 1024 * 1024


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def copy_delta(size: int, tag: bytes) -> bytes:
    """A delta making ``base[:size - len(tag)] + tag`` from a base of ``size`` bytes
    (copies and one insert: a few bytes however large the files)."""
    keep, copy = size - len(tag), b""
    assert 0 < keep and len(tag) < 0x80
    for at in range(0, keep, 0xFFFFFF):  # copies of at most 16 MiB
        copy += b"\xff" + at.to_bytes(4, "little") + min(keep - at, 0xFFFFFF).to_bytes(3, "little")
    return _varint(size) + _varint(size) + copy + bytes([len(tag)]) + tag


def pack(shape: str, depth: int, size: int) -> bytes:
    """A pack of one ``size``-byte blob and ``depth`` deltas in a chain, each making
    a ``size``-byte file; ``caterpillar``: each node of the chain also the base of a
    leaf delta, sent just before the next node (so dulwich resolves the node first
    and the leaf waits, its base held). OFS_DELTA (each base is sent first)."""
    base = random.Random(1).randbytes(size)
    sha = iter(range(1, 10**9))

    def oid() -> bytes:
        return next(sha).to_bytes(20, "big")  # names only for the writer to place bases

    first = oid()
    records = [UnpackedObject(Blob.type_num, sha=first, decomp_chunks=[base])]
    parent = first
    for i in range(depth):
        if shape == "caterpillar":
            records.append(UnpackedObject(Blob.type_num, sha=oid(), delta_base=parent,
                                          decomp_chunks=[copy_delta(size, b"leaf%08d" % i)]))
        node = oid()
        records.append(UnpackedObject(Blob.type_num, sha=node, delta_base=parent,
                                      decomp_chunks=[copy_delta(size, b"node%08d" % i)]))
        parent = node
    chunks: list[bytes] = []
    write_pack_data(chunks.append, iter(records), num_records=len(records),
                    object_format=_sha1())
    return b"".join(chunks)


def _sha1():  # type: ignore[no-untyped-def]
    from dulwich.object_format import SHA1

    return SHA1


def index(path: str) -> None:
    """In the child: store the pack at ``path`` as a fetch does; print peak RSS."""
    from dulwich.repo import Repo

    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo.init(tmp)
        start = time.perf_counter()
        with open(path, "rb") as f:
            repo.object_store.add_thin_pack(f.read, None)
        took = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"{peak} {took:.1f}")
        repo.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--mib", type=int, default=8)
    parser.add_argument("--index", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.index:
        index(args.index)
        return
    print(f"depth {args.depth}, files of {args.mib} MiB")
    for shape in ("linear", "caterpillar", "none"):
        data = pack(shape if shape != "none" else "linear",
                    args.depth if shape != "none" else 0, args.mib * MiB)
        with tempfile.NamedTemporaryFile(suffix=".pack") as f:
            f.write(data)
            f.flush()
            out = subprocess.run([sys.executable, __file__, "--index", f.name],
                                 capture_output=True, text=True, check=True).stdout.split()
        guard = PackGuard("bench")
        try:
            guard.feed(data)
            guard.finish()
            verdict = "taken"
        except PackRefused:
            verdict = "refused"
        print(f"{shape:12} pack {len(data) / MiB:6.1f} MiB  peak RSS {out[0]:>6} MiB  "
              f"indexed in {out[1]} s  chain {guard.longest_chain / MiB:,.0f} MiB: {verdict} "
              f"by PackGuard")


if __name__ == "__main__":
    main()
