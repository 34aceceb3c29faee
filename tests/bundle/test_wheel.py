"""The wheel works (issue 32): `python -m build` makes an sdist and, from it, a wheel;
installed into a clean venv outside the checkout (the locked dependencies, then
the wheel), both programs run in an empty home, the seed data and the schemas
are inside, and a fresh rules folder validates.

Marked ``wheel`` (a few minutes: a venv with Qt and numba): `make test-bundle`.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from rulesbook.version import version
from tests.bundle.helpers import clean_env, run, system_path
from tests.datapaths import CORPUS, REPO

pytestmark = pytest.mark.wheel

SOURCES = ("pyproject.toml", "README.md", "rulesbook", "ui", "rules_data")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(sdist, wheel), built from a copy of the sources (the checkout is not written)."""
    work = tmp_path_factory.mktemp("build")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", ".*"))
        else:
            shutil.copy2(REPO / name, source / name)
    out = work / "dist"
    proc = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir",
                           str(out), str(source)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    sdist = out / f"rulesbook-{version()}.tar.gz"
    wheel = out / f"rulesbook-{version()}-py3-none-any.whl"
    assert sdist.is_file() and wheel.is_file(), sorted(p.name for p in out.iterdir())
    return sdist, wheel


def bin_dir(venv: Path) -> Path:
    return venv / ("Scripts" if sys.platform.startswith("win") else "bin")


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> Path:
    """A clean venv outside the checkout: the locked dependencies, then the wheel."""
    venv = tmp_path_factory.mktemp("user") / "rulesbook-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = bin_dir(venv) / "python"
    for argv in (["--require-hashes", "-r", str(REPO / "requirements.lock")],
                 ["--no-deps", str(built[1])]):
        proc = subprocess.run([str(python), "-m", "pip", "install", "--quiet", *argv],
                              capture_output=True, text=True, timeout=1200)
        assert proc.returncode == 0, proc.stderr[-3000:]
    check = subprocess.run([str(python), "-m", "pip", "check"], capture_output=True,
                           text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr  # the wheel's requirements met
    return venv


def test_the_wheel_holds_the_programs_the_seed_data_and_the_schemas(built):
    sdist, wheel = built
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        entry_points = next(zf.read(n).decode() for n in names
                            if n.endswith(".dist-info/entry_points.txt"))
    seed = {p.relative_to(REPO).as_posix() for p in (REPO / "rules_data").rglob("*")
            if p.is_file() and p.suffix in (".yaml", ".json")}
    assert seed and seed <= names, sorted(seed - names)[:5]
    assert any(n.startswith("rules_data/schema/") and n.endswith(".json") for n in names)
    assert {"ui/licences/LGPL-3.0.txt", "ui/licences/GPL-3.0.txt", "rulesbook/version.py",
            "ui/about.py", "ui/app.py", "rulesbook/cli/__init__.py"} <= names
    assert not any(n.startswith(("tests/", "bundle/")) for n in names)
    assert "rulesbook = rulesbook.cli:main" in entry_points
    assert "rulesbook-app = ui.app:main" in entry_points
    with tarfile.open(sdist) as tar:
        members = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    assert {"pyproject.toml", "rules_data/editions.yaml", "ui/licences/LGPL-3.0.txt"} <= members


def test_both_programs_run_from_a_clean_venv_and_a_fresh_folder_validates(installed, tmp_path):
    home = tmp_path / "home"
    env = clean_env(home)
    env["PATH"] = os.pathsep.join([str(bin_dir(installed)), system_path()])
    rulesbook, app_program = bin_dir(installed) / "rulesbook", bin_dir(installed) / "rulesbook-app"
    ran = run([rulesbook, "--version"], env, cwd=home)
    assert (ran.code, ran.stdout) == (0, f"rulesbook {version()}\n"), ran
    ran = run([app_program, "--version"], env, cwd=home)
    assert (ran.code, ran.stdout) == (0, f"rulesbook-app {version()}\n"), ran
    about = json.loads(run([rulesbook, "about", "--json"], env, cwd=home).stdout)
    assert Path(about["program"]).is_relative_to(installed)  # the wheel's, not the checkout's
    assert Path(about["seed_data"]).is_relative_to(installed)
    where = run([rulesbook, "where"], env, cwd=home)
    assert where.code == 0, where
    # Windows asks the shell for the folder, whatever the environment says
    assert Path(where.stdout.strip()).is_relative_to(home) or sys.platform.startswith("win")
    assert run([rulesbook, "validate"], env, cwd=home).code == 0
    fresh = home / "fresh"
    assert run([rulesbook, "init", fresh], env, cwd=home).code == 0
    validated = run([rulesbook, "--data", fresh, "validate"], env, cwd=home)
    assert validated.code == 0, validated
    out = home / "smoke"
    app = run([app_program, "--smoke-test", CORPUS / "english-tinsley-1946-1960s.pdn", out,
               "--smoke-game", "541"], env, cwd=home)
    result = json.loads((out / "smoke.json").read_text(encoding="utf-8"))
    assert app.code == 0 and result["ok"], (app, result)
    assert result["illegal"]["move"] == "32-28"
