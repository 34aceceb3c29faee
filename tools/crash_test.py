"""Crash test of the atomic-save helper.

A child process saves real data files in a loop, alternating between two
versions of each (both valid), and is killed with SIGKILL at a random
moment. After every kill each file must be byte for byte the old or the new
version and must load without error. Prints the number of trials and of
corrupted files (which must be 0).

    python tools/crash_test.py [TRIALS]
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CHILD = r"""
import sys
from pathlib import Path
from rulesbook.storage import atomic_write_bytes


def direct_write(path, data, backup=False):  # the naive way, for the self-check
    with open(path, "wb") as handle:
        for i in range(0, len(data), 512):
            handle.write(data[i:i + 512])
            handle.flush()


write = direct_write if sys.argv[2] == "direct" else atomic_write_bytes
folder = Path(sys.argv[1])
versions = {}
for name in sys.argv[3:]:
    versions[name] = [(folder / f"{name}.v0").read_bytes(), (folder / f"{name}.v1").read_bytes()]
print("ready", flush=True)
i = 0
while True:
    for name, (a, b) in versions.items():
        write(folder / name, a if i % 2 else b, backup=True)
    i += 1
"""


def _variants(path: Path) -> tuple[bytes, bytes]:
    """Two valid versions of a data file: as shipped, and with an extra comment block."""
    original = path.read_bytes()
    padded = original + b"\n# saved again\n" + b"# padding line to change the size\n" * 200
    return original, padded


def run(trials: int = 200, seed: int = 1, writer: str = "atomic") -> tuple[int, int, list[str]]:
    """``writer`` is "atomic" (the product) or "direct" (a naive save, which must fail)."""
    from rulesbook.yamlio import loads

    rng = random.Random(seed)
    data = REPO / "rules_data"
    sources = [data / "topics.yaml", data / "members.yaml", data / "apca" / "rulebook.yaml"]
    corrupted = 0
    messages: list[str] = []
    loaded: set[bytes] = set()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        names = []
        allowed: dict[str, tuple[bytes, bytes]] = {}
        for src in sources:
            name = src.parent.name + "-" + src.name if src.parent != data else src.name
            v0, v1 = _variants(src)
            (folder / f"{name}.v0").write_bytes(v0)
            (folder / f"{name}.v1").write_bytes(v1)
            (folder / name).write_bytes(v0)
            allowed[name] = (v0, v1)
            names.append(name)
        env = dict(os.environ, PYTHONPATH=str(REPO))
        for trial in range(trials):
            child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder), writer, *names],
                                     stdout=subprocess.PIPE, env=env)
            assert child.stdout is not None
            child.stdout.readline()  # "ready": the loop is about to start
            time.sleep(rng.uniform(0.0, 0.05))
            child.send_signal(signal.SIGKILL)
            child.wait()
            child.stdout.close()
            for name in names:
                content = (folder / name).read_bytes()
                ok = content in allowed[name]
                if not ok:
                    messages.append(f"trial {trial}: {name} is neither version "
                                    f"({len(content)} bytes)")
                elif content not in loaded:  # each version is parsed once
                    try:
                        loads(content.decode("utf-8"), name)
                        loaded.add(content)
                    except ValueError as exc:
                        ok = False
                        messages.append(f"trial {trial}: {name} does not load: {exc}")
                corrupted += not ok
            for leftover in folder.glob(".*.tmp"):  # a killed save leaves its temp file
                leftover.unlink()
        shutil.rmtree(folder, ignore_errors=True)
    return trials, corrupted, messages


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    start = time.perf_counter()
    done, corrupted, messages = run(trials)
    for message in messages:
        print(message)
    print(f"crash test: {done} trials (SIGKILL at random moments while saving 3 files), "
          f"{corrupted} corrupted files, {time.perf_counter() - start:.1f} s")
    sys.exit(1 if corrupted else 0)


if __name__ == "__main__":
    main()
