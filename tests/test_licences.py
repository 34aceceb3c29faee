"""What Rulesbook ships and the licence of each (issue 32): every runtime dependency
pyproject.toml names is listed, with the licence its authors publish."""
from __future__ import annotations

import re

import pytest

from rulesbook.licences import components, python_component
from tests.datapaths import REPO

tomllib = pytest.importorskip("tomllib")

#: the licences these projects publish (their LICENSE files and project pages)
PUBLISHED = {
    "pyside6-essentials": "LGPL-3.0",
    "shiboken6": "LGPL-3.0",
    "dulwich": "Apache-2.0",
    "numpy": "BSD-3-Clause",
    "pyyaml": "MIT",
    "platformdirs": "MIT",
    "jsonschema": "MIT",
}


def key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_dependency_is_listed_with_a_licence():
    with (REPO / "pyproject.toml").open("rb") as fh:
        project = tomllib.load(fh)["project"]
    wanted = {key(re.match(r"[A-Za-z0-9._-]+", d).group(0)) for d in project["dependencies"]}
    listed = {key(c.name): c for c in components()}
    assert wanted <= set(listed), wanted - set(listed)
    assert listed["rulesbook"].licence == project["license"]
    for component in listed.values():
        assert component.licence and component.licence != "not stated", component
        assert component.version
    for name, licence in PUBLISHED.items():
        assert licence in listed[name].licence, (name, listed[name].licence)


def test_tools_of_the_tests_and_the_bundle_are_not_listed():
    """Extras are not shipped: pytest, PyInstaller, mypy are not in the list."""
    listed = {key(c.name) for c in components()}
    assert not listed & {"pytest", "pyinstaller", "mypy", "hypothesis", "ruff"}


def test_the_list_is_sorted_and_python_is_named():
    names = [key(c.name) for c in components()]
    assert names == sorted(names) and len(names) == len(set(names))
    assert python_component().licence == "PSF-2.0"
