"""Run the test suite against the newest dependency versions pyproject.toml allows.

``make test`` installs the hash-pinned lock, so it tests what users get today.
This script builds a throwaway venv, lets pip resolve the newest allowed
release of every dependency, runs the same suite there, and — when it fails —
names each package whose version differs from the lock, so that a broken new
release (like PySide6 6.12.0 on Python 3.11) is seen before users install it.

Usage: ``python tools/test_newest.py [pytest args…]`` (``make test-newest``).
Exit status: pytest's, or 2 when the venv cannot be built.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_LOCK = ROOT / "requirements-test.lock"
_PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;\\]+)(?:\s*;\s*([^\\]+?))?\s*\\?$")


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked_versions(lock: Path = TEST_LOCK) -> dict[str, str]:
    """The pins of the lock that apply to this interpreter (markers evaluated)."""
    from packaging.markers import Marker  # available wherever pip is

    pins: dict[str, str] = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        m = _PIN.match(line.strip())
        if not m:
            continue
        name, version, marker = m.groups()
        if marker and not Marker(marker).evaluate():
            continue
        pins[_normalise(name)] = version
    return pins


def installed_versions(python: Path) -> dict[str, str]:
    out = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"],
                         capture_output=True, text=True, check=True).stdout
    versions = {}
    for line in out.splitlines():
        if "==" in line:
            name, version = line.split("==", 1)
            versions[_normalise(name)] = version.strip()
    return versions


def moved_packages(locked: dict[str, str], newest: dict[str, str]) -> list[str]:
    lines = []
    for name in sorted(set(locked) | set(newest)):
        if name in ("rulesbook", "pip", "setuptools", "wheel"):
            continue
        old, new = locked.get(name), newest.get(name)
        if old != new:
            lines.append(f"  {name}: locked {old or '(not in lock)'} -> newest {new or '(gone)'}")
    return lines


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="rulesbook-newest-") as tmp:
        env_dir = Path(tmp) / "venv"
        venv.EnvBuilder(with_pip=True).create(env_dir)
        python = env_dir / "bin" / "python"
        steps = [
            [str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
            # editable, as `make test` installs it, so the tests import the same way
            [str(python), "-m", "pip", "install", "--quiet", "--upgrade", "-e", f"{ROOT}[test]"],
        ]
        for step in steps:
            if subprocess.run(step).returncode != 0:
                print("test-newest: could not install the newest allowed versions", file=sys.stderr)
                return 2
        newest = installed_versions(python)
        # The same code and tests as `make test`: only the dependencies differ.
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        result = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                 *argv], cwd=ROOT, env=env)
        moved = moved_packages(locked_versions(), newest)
        if result.returncode != 0:
            print("\ntest-newest: the suite FAILS on the newest versions pyproject.toml allows.",
                  file=sys.stderr)
            print("Packages that moved since the lock:" if moved else
                  "No package moved since the lock (the failure is not a new release).",
                  file=sys.stderr)
            for line in moved:
                print(line, file=sys.stderr)
            print("Exclude the broken release in pyproject.toml, or fix the code, then `make lock`.",
                  file=sys.stderr)
        else:
            print("test-newest: passed on the newest allowed versions"
                  + (":\n" + "\n".join(moved) if moved else " (same as the lock)."))
        return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
