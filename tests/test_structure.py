"""Structure checks on the source (read with ``ast``, nothing imported):

* no module-level cache keyed by ``id()`` in ``rulesbook/``: data derived from a
  ``Library`` is kept by the library itself (``Library.derived``), other caches
  key on values;
* no module of ``rulesbook/``, ``ui/``, ``tests/`` or ``bench/`` is over 600 lines.

Each check is first run on a small planted example, so that a check which can no
longer find anything fails instead of passing quietly.
"""
from __future__ import annotations

import ast
from pathlib import Path

from tests.datapaths import REPO

MAX_LINES = 600


def _is_id_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "id")


def id_keyed_globals(source: str, where: str = "<test>") -> list[str]:
    """Every use of ``id(...)`` as a key of a module-level name (``CACHE[id(x)]``,
    ``CACHE.get(id(x))``, ``id(x) in CACHE``), as readable lines."""
    tree = ast.parse(source)
    globals_: set[str] = set()
    for stmt in tree.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else \
            [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
        globals_.update(t.id for t in targets if isinstance(t, ast.Name))
    found = []
    for node in ast.walk(tree):
        hit = False
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            hit = node.value.id in globals_ and any(map(_is_id_call, ast.walk(node.slice)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            hit = (isinstance(owner, ast.Name) and owner.id in globals_
                   and any(_is_id_call(a) for a in node.args))
        elif isinstance(node, ast.Compare):
            hit = (_is_id_call(node.left) and any(
                isinstance(c, ast.Name) and c.id in globals_ for c in node.comparators))
        if hit:
            found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_id_cache_check_finds_what_is_planted():
    planted = ("_CACHES = {}\n"
               "def f(library):\n"
               "    seen = set()\n"
               "    seen.add(id(library))\n"            # a local set: not a module cache
               "    hit = _CACHES.get(id(library))\n"
               "    _CACHES[id(library)] = 1\n"
               "    return id(library) in _CACHES\n")
    assert [line.split(": ", 1)[0] for line in id_keyed_globals(planted)] == \
        ["<test>:5", "<test>:6", "<test>:7"]


def test_no_module_level_cache_keyed_by_id():
    found = []
    for path in sorted((REPO / "rulesbook").rglob("*.py")):
        found += id_keyed_globals(path.read_text(encoding="utf-8"),
                                  str(path.relative_to(REPO)))
    assert not found, "\n".join(found)


def long_modules(root: Path, folders: tuple[str, ...]) -> list[str]:
    out = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > MAX_LINES:
                out.append(f"{path.relative_to(root)}: {n} lines")
    return out


def test_the_length_check_finds_what_is_planted(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "pkg" / "short.py").write_text("x = 1\n" * MAX_LINES)
    assert long_modules(tmp_path, ("pkg",)) == [f"pkg/long.py: {MAX_LINES + 1} lines"]


def test_no_module_is_over_600_lines():
    found = long_modules(REPO, ("rulesbook", "ui", "tests", "bench"))
    assert not found, "\n".join(found)


# the arithmetic of square numbers to rows and files (issue 20: "one geometry module")
_SQUARE_ARITHMETIC = ("// 4", "% 4", "* 4 +")


def _square_arithmetic(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "geometry.py" and path.parent.name == "draughts":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if any(mark in code for mark in _SQUARE_ARITHMETIC) and "limit" not in code:
                found.append(f"{path.relative_to(root.parent)}:{number}: {line.strip()}")
    return found


def test_the_geometry_check_finds_what_is_planted(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "board.py").write_text("row = (square - 1) // 4\n", encoding="utf-8")
    assert _square_arithmetic(tmp_path / "pkg") == ["pkg/board.py:1: row = (square - 1) // 4"]


def test_square_geometry_is_written_once():
    """Rows and files of square numbers are computed only in rulesbook/draughts/geometry.py;
    the UI, the reconstruction and the rest of the engine call it."""
    found = _square_arithmetic(REPO / "rulesbook") + _square_arithmetic(REPO / "ui")
    assert not found, "\n".join(found)
