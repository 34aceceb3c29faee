"""The layering, checked on the source with ``ast`` (nothing is imported):

* the UI uses only the core's public names: no ``from rulesbook… import _x``,
  no ``import rulesbook._x``, no ``module._x`` on a core module it imported;
* no UI module reaches into another object's private names (``x._y`` with ``x``
  not ``self``): workspaces and panels talk to controllers through their API;
* ``rulesbook/`` has no import cycle (imports made at run time, at module level
  or inside functions; those under ``if TYPE_CHECKING:`` are for the checker only);
* ``rulesbook/`` loads none of its own modules by name (``importlib.import_module``,
  ``__import__``): every dependency is an import statement the graph sees.

Each check is first run on a small planted example, so that a check which can
no longer find anything fails instead of passing quietly.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.datapaths import REPO

CORE = "rulesbook"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(module: str | None, level: int, here: str, is_package: bool) -> str:
    """The absolute name of ``from <level dots><module> import``, seen from ``here``."""
    if level == 0:
        return module or ""
    base = here.split(".")
    if not is_package:
        base = base[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:`` (imports for the checker only)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else \
                test.attr if isinstance(test, ast.Attribute) else ""
            if name == "TYPE_CHECKING":
                for sub in node.body:
                    out.update(id(n) for n in ast.walk(sub))
    return out


# --------------------------------------------------------------------------- private names

def _private_attributes(tree: ast.AST, imported: set[str], where: str) -> list[str]:
    """Every ``name._private`` (or ``name.sub._private``) in ``tree`` whose ``name``
    is one of ``imported``, the names an import bound, as readable lines."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in imported:
                found.append(f"{where}:{node.lineno}: uses the private name {node.attr} "
                             f"of {ast.unparse(node.value)}")
    return found


def private_uses(source: str, where: str = "<test>") -> list[str]:
    """Every use of a private core name in ``source`` (a UI module), as readable lines."""
    tree = ast.parse(source)
    found = []
    core_aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                (node.module == CORE or node.module.startswith(CORE + ".")):
            if any(_private(part) for part in node.module.split(".")):
                found.append(f"{where}:{node.lineno}: imports the private module {node.module}")
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{where}:{node.lineno}: imports the private name "
                                 f"{alias.name} from {node.module}")
                else:
                    core_aliases.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == CORE or alias.name.startswith(CORE + "."):
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append(f"{where}:{node.lineno}: imports the private module "
                                     f"{alias.name}")
                    core_aliases.add(alias.asname or alias.name.split(".")[0])
    return found + _private_attributes(tree, core_aliases, where)


def test_the_private_name_check_finds_what_is_planted():
    planted = ("from rulesbook.reconstruct.replay import _squares, replay\n"
               "import rulesbook.draughts.position as position\n"
               "from rulesbook import reconstruct\n"
               "from rulesbook.draughts._fast import x\n"
               "position._is_subsequence((1,), (1, 2))\n"
               "reconstruct.replay._squares('9-13')\n"
               "self._private_of_the_ui = 1\n")
    found = private_uses(planted)
    assert len(found) == 4, found
    assert any("_squares from rulesbook.reconstruct.replay" in f for f in found)
    assert any("_is_subsequence" in f for f in found)
    assert any("reconstruct.replay" in f and "_squares" in f for f in found)
    assert any("private module rulesbook.draughts._fast" in f for f in found)


def problems_in_ui(check: Callable[[str, str], list[str]]) -> list[str]:
    """``check(source, where)`` over every module of ``ui/``."""
    problems = []
    for path in sorted((REPO / "ui").rglob("*.py")):
        problems += check(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    return problems


def test_the_ui_imports_no_private_core_name():
    problems = problems_in_ui(private_uses)
    assert not problems, "\n".join(problems)


def foreign_private_uses(source: str, where: str = "<test>") -> list[str]:
    """Every ``x._name`` in ``source`` where ``x`` is not ``self`` or ``cls``: a UI
    module reaching into another object's private state (a workspace calling
    ``board_controller._set_dirty``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            found.append((node.lineno, f"{where}:{node.lineno}: {ast.unparse(node)}"))
    return [text for _line, text in sorted(found)]


def test_the_foreign_private_check_finds_what_is_planted():
    planted = ("self._mine = 1\n"
               "self.board_controller._set_dirty(False)\n"
               "self._bc.undo()\n"
               "other._state\n")
    assert foreign_private_uses(planted) == ["<test>:2: self.board_controller._set_dirty",
                                             "<test>:4: other._state"]


def test_no_ui_module_uses_another_objects_private_names():
    problems = problems_in_ui(foreign_private_uses)
    assert not problems, "\n".join(problems)


def module_private_uses(source: str, where: str = "<test>") -> list[str]:
    """Every private name one module of the project takes from another: ``from
    .report import _CSS`` (relative or not), or ``yamltext._plain(...)`` on a
    module (or any name) of the project bound by an import.  (Other libraries'
    private names are not looked at: the one used, dulwich.web's chunked-body
    reader, is pinned by the lock and exercised by the sync tests.)"""
    tree = ast.parse(source)
    found = []
    imported: set[str] = set()

    def ours(module: str) -> bool:
        return module.split(".")[0] in (CORE, "ui")

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if not (node.level or ours(node.module or "")):
                continue  # another library's names are its own business
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{where}:{node.lineno}: imports the private name "
                                 f"{alias.name} from {'.' * node.level}{node.module or ''}")
                else:
                    imported.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if ours(alias.name):
                    imported.add(alias.asname or alias.name.split(".")[0])
    return found + _private_attributes(tree, imported, where)


def test_the_module_private_check_finds_what_is_planted():
    planted = ("from .report import _QT_CSS, qt_html\n"
               "from rulesbook.proposing import yamltext as yt\n"
               "import rulesbook.draughts.position\n"
               "yt._plain('x')\n"
               "rulesbook.draughts.position._cache\n"
               "self._mine\n"
               "qt_html._private\n"
               "import argparse\n"
               "argparse._SubParsersAction\n")
    found = module_private_uses(planted)
    assert len(found) == 4, found
    assert any("_QT_CSS from .report" in f for f in found)
    assert any("_plain of yt" in f for f in found)
    assert any("_cache of rulesbook.draughts.position" in f for f in found)
    assert any("_private of qt_html" in f for f in found)


def test_no_module_takes_another_modules_private_names():
    # the core and the UI alike: a private name is its module's own
    problems = []
    for package in (CORE, "ui"):
        for path in sorted((REPO / package).rglob("*.py")):
            problems += module_private_uses(path.read_text(encoding="utf-8"),
                                            str(path.relative_to(REPO)))
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- import cycles

def import_graph(root: Path, package: str = CORE) -> dict[str, set[str]]:
    """``module -> the modules of ``package`` it imports at run time``."""
    files = {_module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {name: set() for name in files}

    def resolve(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_nodes(tree)
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node.module, node.level, name, is_package)
                # ``from pkg import sub`` imports the submodule; ``from mod import x`` mod
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base
                           for a in node.names]
            for target in targets:
                if target == package or target.startswith(package + "."):
                    module = resolve(target)
                    if module is not None and module != name:
                        graph[name].add(module)
    return graph


def cycles(graph: dict[str, set[str]]) -> Iterator[list[str]]:
    """One cycle per strongly connected component with more than one module
    (Tarjan's algorithm), each as a path that ends where it starts."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    for component in components:
        members = set(component)
        start = min(component)
        path, seen = [start], {start}
        while True:  # walk inside the component until a module repeats
            nxt = min(w for w in graph[path[-1]] if w in members)
            if nxt in seen:
                yield path[path.index(nxt):] + [nxt]
                break
            path.append(nxt)
            seen.add(nxt)


def test_the_cycle_check_finds_what_is_planted(tmp_path):
    pkg = tmp_path / "rulesbook"
    (pkg / "a").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a" / "__init__.py").write_text("from .one import x\n")
    (pkg / "a" / "one.py").write_text("def f():\n    from rulesbook.a.two import y\n")
    (pkg / "a" / "two.py").write_text("from typing import TYPE_CHECKING\n"
                                      "from . import one\n"
                                      "if TYPE_CHECKING:\n    from rulesbook import three\n")
    (pkg / "three.py").write_text("import rulesbook.a.two\n")
    graph = import_graph(tmp_path)
    assert graph["rulesbook.a.one"] == {"rulesbook.a.two"}  # a lazy import counts
    assert graph["rulesbook.a.two"] == {"rulesbook.a.one"}  # TYPE_CHECKING does not
    assert list(cycles(graph)) == [["rulesbook.a.one", "rulesbook.a.two", "rulesbook.a.one"]]


def test_rulesbook_has_no_import_cycle():
    found = [" -> ".join(c) for c in cycles(import_graph(REPO))]
    assert not found, "import cycles:\n" + "\n".join(found)


# --------------------------------------------------------------------------- import strings

def import_strings(source: str, where: str = "<test>") -> list[str]:
    """Every module of the project loaded by name in ``source``: a call of
    ``importlib.import_module`` (however imported) or ``__import__`` whose name is
    not a constant naming another package. Such an import hides a dependency from
    the import graph above (the loader once reached the rulings and the ballots so)."""
    tree = ast.parse(source)
    module_names = {"importlib"}  # names bound to the importlib module
    function_names = {"__import__"}  # names bound to importlib.import_module or __import__
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "importlib":
                    module_names.add(alias.asname or alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module == "importlib" and node.level == 0:
            for alias in node.names:
                if alias.name in ("import_module", "__import__"):
                    function_names.add(alias.asname or alias.name)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        dynamic = (isinstance(func, ast.Name) and func.id in function_names) or (
            isinstance(func, ast.Attribute) and func.attr in ("import_module", "__import__")
            and isinstance(func.value, ast.Name) and func.value.id in module_names)
        if not dynamic:
            continue
        name = node.args[0] if node.args else None
        if isinstance(name, ast.Constant) and isinstance(name.value, str) and not (
                name.value.startswith(".") or name.value == CORE
                or name.value.startswith(CORE + ".")):
            continue  # another package, by its fixed name
        found.append((node.lineno, f"{where}:{node.lineno}: loads a module by name: "
                                   f"{ast.unparse(node)}"))
    return [text for _line, text in sorted(found)]


def test_the_import_string_check_finds_what_is_planted():
    planted = ("import importlib\n"
               "import importlib as il\n"
               "from importlib import import_module as load\n"
               "from importlib import resources\n"
               "for name in ('rulesbook.rulings.checks',):\n"
               "    importlib.import_module(name)\n"
               "il.import_module(f'rulesbook.{name}')\n"
               "load('.checks', 'rulesbook.ballots')\n"
               "__import__('rulesbook.refnames')\n"
               "importlib.import_module('rulesbook.refnames')\n"
               "importlib.import_module('yaml')\n"
               "resources.files('rulesbook')\n")
    found = import_strings(planted)
    assert [f.split(":")[1] for f in found] == ["6", "7", "8", "9", "10"], found


def test_rulesbook_loads_no_module_of_its_own_by_name():
    problems = []
    for path in sorted((REPO / CORE).rglob("*.py")):
        problems += import_strings(path.read_text(encoding="utf-8"),
                                   str(path.relative_to(REPO)))
    assert not problems, "\n".join(problems)
