"""Shared fixtures: the bundled library (loaded once) and the vendored test data."""
from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from rulesbook import load_library
from rulesbook.datapath import bundled_data_dir
from tests.datapaths import CORPUS, REPO, SEEDS


@pytest.fixture(scope="session")
def library():
    return load_library()


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
