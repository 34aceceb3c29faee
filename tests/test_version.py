"""One version number (issue 32): written in pyproject.toml, read at run time, shown by
``--version`` of both programs. The expected number is read from pyproject.toml
with a TOML reader, not with the program's own reading of it."""
from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata

import pytest

import rulesbook
from rulesbook import version as version_module
from rulesbook.version import UNKNOWN, version, version_line
from tests.datapaths import REPO

tomllib = pytest.importorskip("tomllib")  # Python 3.11+


def pyproject_version() -> str:
    with (REPO / "pyproject.toml").open("rb") as fh:
        return str(tomllib.load(fh)["project"]["version"])


def test_the_running_version_is_pyprojects():
    assert version() == pyproject_version() == rulesbook.__version__
    assert version_line() == f"rulesbook {pyproject_version()}"


@pytest.mark.parametrize("program", [["-m", "rulesbook"], ["-m", "ui.app"]])
def test_both_programs_print_it(program, tmp_path):
    name = "rulesbook" if program[1] == "rulesbook" else "rulesbook-app"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, *program, "--version"], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == \
        (0, f"{name} {pyproject_version()}\n", "")


def test_version_is_listed_in_the_help():
    proc = subprocess.run([sys.executable, "-m", "rulesbook", "--help"], capture_output=True,
                          text=True, timeout=120)
    assert "--version" in proc.stdout


def _without_metadata(monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    version.cache_clear()


def test_a_checkout_without_metadata_reads_its_pyproject(monkeypatch):
    _without_metadata(monkeypatch)
    try:
        assert version() == pyproject_version()
    finally:
        version.cache_clear()


def test_another_projects_pyproject_is_not_read(monkeypatch, tmp_path):
    """Installed without metadata, beside another project's pyproject.toml (a
    site-packages someone put one into): no number rather than a wrong one."""
    (tmp_path / "rulesbook").mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\nversion = "9.9"\n')
    monkeypatch.setattr(version_module, "__file__", str(tmp_path / "rulesbook" / "version.py"))
    _without_metadata(monkeypatch)
    try:
        assert version() == UNKNOWN
    finally:
        version.cache_clear()


def test_the_frozen_app_is_told_apart(monkeypatch):
    assert not version_module.frozen()
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert version_module.frozen()
