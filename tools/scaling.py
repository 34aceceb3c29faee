"""The fuzzer's scaling check: every reader on inputs of 1x, 10x and 100x size
(up to the documented limits, :mod:`rulesbook.limits`), each run in a fresh
child process that reports its time and its peak memory (the growth of the
resident set over the child's own baseline). Time and memory must grow at
most linearly: from 10x to 100x, at most ``10 * SLACK`` times (a quadratic
reader grows 100 times). Memory below ``MEMORY_FLOOR`` counts as the floor
(the allocator's noise).

    python tools/fuzz.py --scaling [--reader NAME ...]

Prints one line per reader and size (wall-clock time, per MB, peak memory, and the
child's CPU time and CPU time per MB: on a shared machine the wall clock also counts
the other processes), then the ratios and a verdict.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FACTORS = (1, 10, 100)
SLACK = 3.0                       # allowed noise on top of linear growth
MEMORY_FLOOR = 8 * 1024 * 1024    # bytes: growth below this is noise
TIME_FLOOR = 0.05                 # seconds: times below this are noise
CHILD_TIMEOUT = 600


@dataclass(frozen=True)
class ScaledReader:
    """A reader and how to make its input ``k`` times the base size."""

    name: str
    make: Callable[[int], bytes]
    run: Callable[[Path], None]
    unit: str  # what the size counts


@dataclass(frozen=True)
class Measure:
    factor: int
    size: int
    seconds: float
    peak: int  # bytes of resident memory above the child's baseline
    #: the child's CPU time over the same run (user + system: what a loaded, shared
    #: machine does not lengthen as it does the wall-clock ``seconds``); None: not known
    cpu: float | None = None


# -- inputs ------------------------------------------------------------------

_GAME = '[Event "g{n}"]\n[Black "A"]\n[White "B"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n\n'


def _games(k: int) -> bytes:
    return "".join(_GAME.format(n=n) for n in range(100 * k)).encode()


def _plies(k: int) -> bytes:
    body = "1. 1-5 32-28 2. 5-1 28-32\n" * (250 * k)  # 1,000 plies per k
    return ('[FEN "B:WK32:BK1"]\n\n' + body + "*\n").encode()


def _junk_line(k: int) -> bytes:
    return b"[" * (9_000 * k) + b"\n"  # x100 stays under the line limit


def _open_tag(k: int) -> bytes:
    """'[' and a tag name with no ']' (issue 34: was quadratic, 63 s at 40k)."""
    return b"[" + b"a" * (9_000 * k) + b"\n"


def _tag_spaces(k: int) -> bytes:
    """'[a', spaces, 'x': no ']' (issue 34)."""
    return b"[a" + b" " * (9_000 * k) + b"x\n"


def _open_tag_in_variation(k: int) -> bytes:
    """Attack 3 of issue 34 (its 64 KB file took 282 s): at 10x, 90 KB."""
    return b"1. 11-15 ([a" + b" " * (9_000 * k) + b"x\n"


def _tag(k: int) -> bytes:
    return b'[Event "' + b"a" * (9_000 * k) + b'"]\n\n1. 11-15 *\n'


def _comment(k: int) -> bytes:
    return b"1. 11-15 {" + b"word " * (2_000 * k) + b"} 23-19 *\n"


def _variations(k: int) -> bytes:
    return b"1. 11-15 " + b"(23-19 (22-18) 24-20) " * (100 * k) + b"23-19 *\n"


def _moves_text(k: int) -> bytes:
    return ("1. 1-5 32-28 2. 5-1 28-32\n" * (250 * k)).encode()


def _moves_text_brackets(k: int) -> bytes:
    """A plain list of moves with variations, comments and brackets never matched
    (a pasted file gone wrong): every one a token of the notation module."""
    return ("1. 11-15 (23-19 (22-18 {a ) in it}) 24-20) 23-19 ; (\n" * (150 * k)
            + "( { ) } " * (300 * k) + "8-11\n").encode()


def _fen(k: int) -> bytes:
    return b"B:W21-32:B1-12" + b", " * (9 * k)  # at 100x: 1,814 characters


def _move(k: int) -> bytes:
    return b"11-15" + b"-15" * (10 * k)


def _yaml(k: int) -> bytes:
    lines = ["schema_version: 1", "kind: topics", "topics:"]
    lines += [f"  - {{id: t{n}, title: Topic {n}, rules: []}}" for n in range(200 * k)]
    return ("\n".join(lines) + "\n").encode()


def _ballot(k: int) -> bytes:
    from rulesbook.datapath import bundled_data_dir

    files = sorted(bundled_data_dir().rglob("ballots/*.yaml"))
    base = files[0].read_bytes() if files else b"schema_version: 1\nkind: ballot\n"
    return base + b"# padding comment line of a ballot file kept by hand\n" * (200 * k)


# YAML data files within the limits (issue #34): numbers, lists and maps that PyYAML's
# own loader made quadratic or hungry (a 1M-item list of 2 MB took 54 s and 619 MB)

def _yaml_sexagesimal(k: int) -> bytes:
    return ("schema_version: 1\nkind: topics\nx: 1" + ":00" * (1000 * k) + "\n").encode()


def _yaml_sexagesimal_tagged(k: int) -> bytes:
    return ("schema_version: 1\nkind: topics\nx: !!int 1" + ":00" * (1000 * k) + "\n").encode()


def _yaml_long_int(k: int) -> bytes:
    return ("schema_version: 1\nkind: topics\nx: " + "7" * (4400 * k) + "\n").encode()


def _yaml_flow_list(k: int) -> bytes:
    return ("schema_version: 1\nkind: topics\nx: [" + "1," * (10_000 * k) + "1]\n").encode()


def _yaml_map(k: int) -> bytes:
    keys = "".join(f"  k{n}: {n}\n" for n in range(10_000 * k))
    return ("schema_version: 1\nkind: topics\nx:\n" + keys).encode()


def _yaml_flow_map(k: int) -> bytes:
    keys = ", ".join(f"k{n}: 1" for n in range(10_000 * k))
    return ("schema_version: 1\nkind: topics\nx: {" + keys + "}\n").encode()


# -- readers (run in the child) ----------------------------------------------------

def _replay_file(path: Path) -> None:
    from rulesbook.limits import GAME_FILE, MAX_GAME_FILE_BYTES
    from rulesbook.reconstruct import iter_records, replay
    from rulesbook.textio import open_text

    with open_text(path, max_bytes=MAX_GAME_FILE_BYTES, what=GAME_FILE) as handle:
        for record in iter_records(handle):
            if record.start is not None:
                replay(record)


def _pdn_file(path: Path) -> None:
    from rulesbook.draughts.pdn import PdnReader
    from rulesbook.limits import GAME_FILE, MAX_GAME_FILE_BYTES
    from rulesbook.textio import open_text

    with open_text(path, max_bytes=MAX_GAME_FILE_BYTES, what=GAME_FILE) as handle:
        for game in PdnReader(handle):
            game.mainline_moves()


def _fen_file(path: Path) -> None:
    from rulesbook.draughts import DraughtsError, Position

    text = path.read_text(encoding="utf-8")
    for variant in ("pool", "russian"):
        try:
            Position.from_fen(text, variant).legal_moves()
        except DraughtsError:
            pass


def _move_file(path: Path) -> None:
    from rulesbook.draughts import DraughtsError, Position

    position = Position.start("pool")
    try:
        position.parse_move(path.read_text(encoding="utf-8"))
    except DraughtsError:
        pass


def _yaml_file(path: Path) -> None:
    from rulesbook.yamlio import load_file

    load_file(path)


def _yaml_refused(path: Path) -> None:
    from rulesbook.errors import DataFileError
    from rulesbook.yamlio import load_file

    try:
        load_file(path)
    except DataFileError:
        pass


def _ballot_file(path: Path) -> None:
    from rulesbook.ballots import BallotError, load_ballot

    try:
        load_ballot(path)
    except BallotError:
        pass


READERS = [
    ScaledReader("replay-games", _games, _replay_file, "games"),
    ScaledReader("replay-plies", _plies, _replay_file, "bytes"),
    ScaledReader("replay-move-list", _moves_text, _replay_file, "bytes"),
    ScaledReader("replay-move-list-brackets", _moves_text_brackets, _replay_file, "bytes"),
    ScaledReader("pdn-games", _games, _pdn_file, "bytes"),
    ScaledReader("pdn-junk-line", _junk_line, _pdn_file, "bytes"),
    ScaledReader("pdn-tag-value", _tag, _pdn_file, "bytes"),
    ScaledReader("pdn-open-tag", _open_tag, _pdn_file, "bytes"),
    ScaledReader("pdn-tag-spaces", _tag_spaces, _pdn_file, "bytes"),
    ScaledReader("pdn-open-tag-in-variation", _open_tag_in_variation, _pdn_file, "bytes"),
    ScaledReader("pdn-comment", _comment, _pdn_file, "bytes"),
    ScaledReader("pdn-variations", _variations, _pdn_file, "bytes"),
    ScaledReader("fen", _fen, _fen_file, "bytes"),
    ScaledReader("move-text", _move, _move_file, "bytes"),
    ScaledReader("yaml-data", _yaml, _yaml_file, "bytes"),
    ScaledReader("ballot-file", _ballot, _ballot_file, "bytes"),
    ScaledReader("yaml-sexagesimal", _yaml_sexagesimal, _yaml_refused, "bytes"),
    ScaledReader("yaml-sexagesimal-tagged", _yaml_sexagesimal_tagged, _yaml_refused, "bytes"),
    ScaledReader("yaml-long-int", _yaml_long_int, _yaml_refused, "bytes"),
    ScaledReader("yaml-flow-list", _yaml_flow_list, _yaml_refused, "bytes"),
    ScaledReader("yaml-map", _yaml_map, _yaml_refused, "bytes"),
    ScaledReader("yaml-flow-map", _yaml_flow_map, _yaml_refused, "bytes"),
]


def _rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


def child(name: str, path: str) -> None:
    """Run one reader on one file; print {"seconds", "peak"} as JSON."""
    sys.path.insert(0, str(REPO))
    reader = {r.name: r for r in READERS}[name]
    reader.run(Path(path).with_suffix(".warm"))  # imports and caches: not measured
    base = _rss()
    start, cpu = time.perf_counter(), time.process_time()
    reader.run(Path(path))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak": max(0, _rss() - base)}))


def measure(reader: ScaledReader, factors=FACTORS) -> list[Measure]:
    out = []
    with tempfile.TemporaryDirectory(prefix="rulesbook-scaling-") as folder:
        suffix = ".yaml" if reader.name.startswith(("yaml-", "ballot-")) else ".pdn"
        for k in factors:
            path = Path(folder) / f"input-{k}{suffix}"
            data = reader.make(k)
            path.write_bytes(data)
            path.with_suffix(".warm").write_bytes(reader.make(1))
            result = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--child", reader.name,
                 str(path)], capture_output=True, text=True, timeout=CHILD_TIMEOUT,
                env={**os.environ, "PYTHONPATH": str(REPO)})
            if result.returncode != 0:
                raise RuntimeError(f"{reader.name} x{k} failed: {result.stderr[-500:]}")
            got = json.loads(result.stdout.strip().splitlines()[-1])
            out.append(Measure(k, len(data), got["seconds"], got["peak"], got.get("cpu")))
    return out


def verdict(measures: list[Measure]) -> tuple[float, float, bool]:
    """(time ratio, memory ratio, linear?) from the two largest sizes."""
    a, b = measures[-2], measures[-1]
    grow = b.factor / a.factor
    t = max(b.seconds, TIME_FLOOR) / max(a.seconds, TIME_FLOOR)
    m = max(b.peak, MEMORY_FLOOR) / max(a.peak, MEMORY_FLOOR)
    return t, m, t <= grow * SLACK and m <= grow * SLACK


def scaling(only: list[str] | None = None, factors=FACTORS, out=sys.stdout) -> bool:
    """Run the check; True when every reader grows at most linearly."""
    ok = True
    print(f"scaling check: sizes x{', x'.join(map(str, factors))}; time and peak memory "
          f"(child process, above its baseline) must grow at most linearly "
          f"(x{SLACK:g} noise allowed)", file=out)
    for reader in READERS:
        if only and reader.name not in only:
            continue
        measures = measure(reader, factors)
        for m in measures:
            mb = max(m.size / 1e6, 1e-9)
            cpu = f"  cpu {m.cpu:8.3f} s {m.cpu / mb:8.2f} s/MB" if m.cpu is not None else ""
            print(f"  {reader.name:25} x{m.factor:<4} {m.size:>11,} bytes  {m.seconds:8.3f} s  "
                  f"{m.seconds / mb:8.2f} s/MB  {m.peak / 2**20:8.1f} MiB{cpu}", file=out,
                  flush=True)
        t, mem, linear = verdict(measures)
        ok = ok and linear
        print(f"  {reader.name:25} last step x{measures[-1].factor // measures[-2].factor}: "
              f"time x{t:.1f}, memory x{mem:.1f} -> {'linear' if linear else 'NOT LINEAR'}",
              file=out, flush=True)
    return ok


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
    else:
        sys.exit(0 if scaling(sys.argv[1:] or None) else 1)
