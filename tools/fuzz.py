"""Byte-level fuzzing of every reader of the project.

Each reader gets inputs made by mutating real seeds (bit flips, inserted
junk and syntax tokens, deleted, duplicated and spliced ranges). The only
exceptions allowed to escape are the project's own documented ones
(``ValueError`` subclasses defined in ``rulesbook``), whose message must be
non-empty. Anything else -- ``KeyError``, ``IndexError``, ``RecursionError``,
a hang past the per-input time limit -- is a failure.

    python tools/fuzz.py [TOTAL_INPUTS] [--seed N] [--reader NAME ...]
    python tools/fuzz.py --scaling [--reader NAME ...]

Prints the count per reader and the failures found. Mutated inputs stay under
64 KB (``MAX_INPUT``) to keep them fast; ``--scaling`` (tools/scaling.py)
checks every reader on inputs of 1x, 10x and 100x size up to the documented
limits: time and peak memory must grow at most linearly.
"""
from __future__ import annotations

import argparse
import random
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.datapaths import CORPUS  # noqa: E402 - the one place for test data paths

TIME_LIMIT = 5.0  # seconds per input
MAX_INPUT = 64 * 1024

TOKENS = [b"{", b"}", b"(", b")", b"[", b"]", b"\"", b"'", b"x", b"-", b":", b"K", b"W", b"B",
          b"1.", b"...", b"%", b";", b"\n", b"\r\n", b"\x00", b"\xff\xfe", b"32", b"0", b"99",
          b"-1", b"!!python/object/apply:os.system", b"&a", b"*a", b"<<: *a", b"!!binary",
          b"? ", b"- ", b": ", b"|-\n", b">-\n", b"#", b"\t", b"1-0", b"1/2:1/2", b"*",
          b"[FEN \"", b"[GameType \"25\"]", b"\xe2\x80\x9c", b"\xc3", b"1e999", b"null",
          b"~", b"kind: ", b"id: ", b"schema_version: 1\n"]


@dataclass
class Reader:
    name: str
    run: Callable[[bytes], object]
    seeds: list[bytes]
    count: int = 0
    rejected: int = 0  # inputs refused with a documented error
    failures: list[str] = field(default_factory=list)


class Hang(Exception):
    pass


class MissingSeeds(RuntimeError):
    """A seed file of the corpus is missing: fuzzing a one-line stand-in would test
    almost nothing, so the run stops instead."""


def _alarm(signum, frame):
    raise Hang()


def mutate(rng: random.Random, data: bytes, seeds: list[bytes]) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        choice = rng.randrange(7)
        pos = rng.randint(0, len(buf))
        if choice == 0 and buf:  # flip bits
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
        elif choice == 1:  # random bytes
            buf[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif choice == 2:  # a syntax token
            buf[pos:pos] = rng.choice(TOKENS)
        elif choice == 3 and buf:  # delete a range
            end = min(len(buf), pos + rng.randint(1, 64))
            del buf[pos:end]
        elif choice == 4 and buf:  # duplicate a range
            end = min(len(buf), pos + rng.randint(1, 64))
            buf[pos:pos] = buf[pos:end] * rng.randint(1, 4)
        elif choice == 5:  # splice another seed
            other = rng.choice(seeds)
            start = rng.randint(0, len(other))
            buf[pos:pos] = other[start:start + rng.randint(1, 200)]
        else:  # repeat a token many times (deep nesting, long lines)
            buf[pos:pos] = rng.choice(TOKENS) * rng.randint(10, 300)
    return bytes(buf[:MAX_INPUT])


def documented(exc: BaseException) -> bool:
    return (isinstance(exc, ValueError) and type(exc).__module__.startswith("rulesbook")
            and bool(str(exc).strip()))


# -- the readers -------------------------------------------------------------

def _split_games(text: str, limit: int) -> list[bytes]:
    games, current = [], []
    for line in text.splitlines(keepends=True):
        if line.startswith("[Event") and current:
            games.append("".join(current).encode("utf-8"))
            current = []
            if len(games) >= limit:
                break
        current.append(line)
    if current and len(games) < limit:
        games.append("".join(current).encode("utf-8"))
    return games


def build_readers() -> list[Reader]:
    from rulesbook import schema
    from rulesbook.datapath import bundled_data_dir
    from rulesbook.draughts import Position
    from rulesbook.draughts.pdn import iter_games
    from rulesbook.yamlio import loads_bytes

    readers: list[Reader] = []

    def fen_reader(variant):
        def run(raw: bytes):
            position = Position.from_fen(raw.decode("utf-8", "replace"), variant)
            position.fen()
            position.legal_moves()
        return run

    fen_seeds = [b"B:W21-32:B1-12", b"W:WK21:BK31,K22,K2", b"W:W21,22,K30:B1-3.", b"B:W:B",
                 b"W:Wa1,c1,Kh2:Bb8,d8", b"B:W18,19,K26:BK1,9,10"]
    for variant in ("pool", "english", "russian", "brazilian"):
        readers.append(Reader(f"fen-{variant}", fen_reader(variant), fen_seeds))

    def move_reader(raw: bytes):
        text = raw.decode("utf-8", "replace")
        for fen in ("B:W21-32:B1-12", "B:W18,19,K26:BK1,9,10,14"):
            position = Position.from_fen(fen, "pool")
            try:
                position.parse_move(text)
            except ValueError as exc:
                if not documented(exc):
                    raise
    readers.append(Reader("move-text", move_reader,
                          [b"11-15", b"9x18x27", b"14x23", b"c3-d4", b"c3:e5:c7", b"1x10",
                           b"K26x15", b"26-17"]))

    def pdn_reader(raw: bytes):
        for game in iter_games(raw.decode("utf-8", "replace"), variant="english"):
            game.mainline_moves()
            game.to_pdn()
    pdn_seeds = []
    for name in ("english-tinsley-1946-1960s.pdn", "russian-abatsiev.pdn",
                 "russian-world-championship-1998-short-notation.pdn",
                 "pool-3-kings-vs-1-theory.pdn"):
        path = CORPUS / name
        if not path.is_file():
            raise MissingSeeds(f"fuzz: corpus file not found: {path} "
                               f"(the PDN seeds come from tests/data/corpus)")
        pdn_seeds += _split_games(path.read_text(encoding="utf-8", errors="replace"), 30)
    readers.append(Reader("pdn", pdn_reader, pdn_seeds))

    data = bundled_data_dir()
    by_kind: dict[str, list[bytes]] = {}
    for path in sorted(data.rglob("*.yaml")):
        raw = path.read_bytes()
        try:
            kind = loads_bytes(raw).data.get("kind")
        except ValueError:
            continue
        # Big files are cut into a seed of their first lines: mutations stay fast.
        lines = raw.splitlines(keepends=True)
        by_kind.setdefault(kind, []).append(b"".join(lines[:120]))

    def yaml_reader(kind):
        def run(raw: bytes):
            doc = loads_bytes(raw, f"{kind}.yaml")
            schema.validate(doc, kind)
        return run

    for kind, seeds in sorted(by_kind.items()):
        if kind in schema.available_kinds():
            readers.append(Reader(f"yaml-{kind}", yaml_reader(kind), seeds))
    readers.extend(file_readers(by_kind))
    return readers


def file_readers(by_kind: dict[str, list[bytes]]) -> list[Reader]:
    """The readers of whole files the app opens: ballots, members' ballots, cases,
    dispute case files. Each goes through the same function the app calls."""
    import tempfile

    from rulesbook import load_library
    from rulesbook.ballots import load_ballot, load_member_ballot
    from rulesbook.datapath import bundled_data_dir
    from rulesbook.rulings.cases import load_case_file

    library = load_library(bundled_data_dir())
    folder = Path(tempfile.mkdtemp(prefix="rulesbook-fuzz-"))

    def via_file(loader, suffix=".yaml"):
        def run(raw: bytes):
            path = folder / f"input{suffix}"
            path.write_bytes(raw)
            loader(path)
        return run

    ballots = [p.read_bytes() for p in sorted(bundled_data_dir().rglob("ballots/*.yaml"))]
    readers = [Reader("ballot-file", via_file(load_ballot), ballots),
               Reader("case-file", via_file(lambda p: load_case_file(library, p)),
                      [p.read_bytes() for p in sorted((bundled_data_dir() / "cases")
                                                      .glob("*.yaml"))][:10])]
    member = (b"schema_version: 1\nkind: member-ballot\nballot: 2026-committee\nmember: A\n"
              b"votes:\n  - {question: '10', ranking: [apca:10B, apca:10]}\n")
    readers.append(Reader("member-ballot-file", via_file(load_member_ballot), [member]))
    from rulesbook.reconstruct.case import DisputeCase, case_to_yaml, load_case

    dispute = DisputeCase(record="11-15 23-19 8-11 22-17 15-18", event="Club night",
                          round="3", black="A. Player", white="B. Player", edition="original",
                          board="W:W17,19,21,24-32:B1-7,9-12,18", notes="Called at move 3.",
                          findings={"first_illegal": None})
    readers.append(Reader("dispute-file", via_file(load_case),
                          [case_to_yaml(dispute).encode("utf-8")]))
    return readers
    dispute = (REPO / "tests" / "reconstruct" / "data")
    seeds = [p.read_bytes() for p in sorted(dispute.glob("*.yaml"))] if dispute.is_dir() else []
    if seeds:
        readers.append(Reader("dispute-file", via_file(load_case), seeds))
    return readers


def fuzz(total: int, seed: int = 0, only: list[str] | None = None,
         out=sys.stdout) -> list[Reader]:
    readers = [r for r in build_readers() if not only or r.name in only]
    rng = random.Random(seed)
    per_reader = max(1, -(-total // len(readers)))  # round up: at least ``total`` in all
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for reader in readers:
            start = time.perf_counter()
            for i in range(per_reader):
                base = reader.seeds[i % len(reader.seeds)]
                data = base if i < len(reader.seeds) else mutate(rng, base, reader.seeds)
                signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
                try:
                    reader.run(data)
                except Hang:
                    reader.failures.append(f"hang > {TIME_LIMIT}s on input {data[:80]!r}")
                except Exception as exc:  # noqa: BLE001 - classifying is the point
                    if documented(exc):
                        reader.rejected += 1
                    else:
                        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
                        reader.failures.append(
                            f"{type(exc).__name__}: {exc} on input {data[:80]!r}\n"
                            + "".join(tb[-3:]))
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                reader.count += 1
            print(f"  {reader.name:24} {reader.count:7d} inputs  {reader.rejected:7d} refused "
                  f"with a message  {len(reader.failures):3d} failures  "
                  f"{time.perf_counter() - start:6.1f} s", file=out, flush=True)
    finally:
        signal.signal(signal.SIGALRM, old)
    return readers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("total", nargs="?", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reader", action="append")
    parser.add_argument("--scaling", action="store_true",
                        help="check that every reader's time and memory grow at most "
                             "linearly (1x, 10x, 100x inputs)")
    args = parser.parse_args()
    if args.scaling:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from scaling import scaling

        sys.exit(0 if scaling(args.reader) else 1)
    print(f"fuzzing with {args.total} generated inputs (seed {args.seed})")
    try:
        readers = fuzz(args.total, args.seed, args.reader)
    except MissingSeeds as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
    failures = [f for r in readers for f in r.failures]
    for failure in failures[:20]:
        print("FAILURE", failure)
    total = sum(r.count for r in readers)
    print(f"fuzz: {total} inputs over {len(readers)} readers, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
