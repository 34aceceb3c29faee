"""Shared fixtures: the bundled library (loaded once) and the vendored test data.

No test writes into the user's real home or into the checkout's ``rules_data``:
the platform data location (platformdirs and Qt's QStandardPaths both read
``$XDG_DATA_HOME``) is a temporary folder for the session and for each test, and
the session fails if any file of the bundled seed data changed.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from rulesbook import load_library
from rulesbook.datapath import bundled_data_dir

# Before anything resolves a data folder (session fixtures included).
_SESSION_HOME = tempfile.mkdtemp(prefix="rulesbook-test-home-")
os.environ["XDG_DATA_HOME"] = os.path.join(_SESSION_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_SESSION_HOME, "config")
os.environ.pop("RULESBOOK_DATA", None)
os.environ["RULESBOOK_AUTHOR"] = "Test Runner <tests@apca.invalid>"

from tests.datapaths import CORPUS, REPO, SEEDS  # noqa: E402


@pytest.fixture(autouse=True)
def private_data_home(tmp_path, monkeypatch):
    """Each test gets its own platform data location: the user's rules folder a test
    creates (``rulesbook where``, the app's first start) lives in tmp_path."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.delenv("RULESBOOK_DATA", raising=False)
    yield


def _seed_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(bundled_data_dir().rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(bundled_data_dir()).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="session", autouse=True)
def seed_data_untouched():
    """The whole suite must leave the bundled rules_data exactly as it found it."""
    before = _seed_digest()
    yield
    assert _seed_digest() == before, "a test changed the bundled rules_data"
    shutil.rmtree(_SESSION_HOME, ignore_errors=True)


@pytest.fixture(scope="session")
def library():
    return load_library(bundled_data_dir())


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A writable copy of the bundled data folder."""
    target = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), target,
                    ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    return target


@pytest.fixture(scope="session")
def seeds_dir() -> Path:
    """The source documents (vendored in tests/data/seeds)."""
    assert SEEDS.is_dir(), f"source documents missing at {SEEDS}"
    return SEEDS


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The game records (vendored in tests/data/corpus)."""
    assert CORPUS.is_dir(), f"game corpus missing at {CORPUS}"
    return CORPUS


@pytest.fixture(scope="session")
def load_tool():
    """Import a script of tools/ (``load_tool("fuzz")``) as a module."""
    def load(name: str):
        spec = importlib.util.spec_from_file_location(f"tools_{name}", REPO / "tools" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
        return module
    return load
