"""No import circle inside the package: the modules form a graph without cycles.

A circle works only by the order modules happen to load in (or by an import
tucked inside a function), and it hides which of two modules is the lower one.
Every import statement counts, at module level or inside a function: both are
arrows. ``from P import name`` is an arrow to the submodule ``P.name`` when
there is one, else to ``P`` itself (its ``__init__``); a module's own parent
packages, which Python imports before it anyway, are not arrows. An import of
an old module path (boardgame_envs/_compat.py) is an arrow to where it moved.
"""

from __future__ import annotations

import ast
from pathlib import Path

import boardgame_envs
from boardgame_envs._compat import current_path

ROOT = Path(boardgame_envs.__file__).parent


def module_names(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name -> file, for every module of the package (a package by its ``__init__``)."""
    out = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def arrows(source: str, modules: dict[str, Path]) -> set[str]:
    """The package modules an import statement in ``source`` names (deepest known module of each name)."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                full = current_path(f"{node.module}.{a.name}")
                names.append(full if full in modules else node.module)
    out = set()
    for name in map(current_path, names):
        while name and name not in modules:
            name = name.rpartition(".")[0]
        if name:
            out.add(name)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, and modules importing themselves (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
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
            if len(component) > 1 or v in graph.get(v, ()):
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle():
    modules = module_names()
    graph = {name: arrows(path.read_text(), modules) - {name} for name, path in modules.items()}
    assert cycles(graph) == []


def test_the_check_sees_a_circle(tmp_path):
    """The test can fail: two modules naming each other, one of them inside a function, are caught."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from pkg.a import A\n")
    (pkg / "a.py").write_text("from pkg.b import helper\nA = 1\n")
    (pkg / "b.py").write_text("def helper():\n    from pkg import a\n    return a.A\n")
    (pkg / "c.py").write_text("import pkg.b\n")  # an arrow into the circle, not part of it
    modules = module_names(pkg)
    assert set(modules) == {"pkg", "pkg.a", "pkg.b", "pkg.c"}
    graph = {name: arrows(path.read_text(), modules) - {name} for name, path in modules.items()}
    assert graph["pkg.b"] == {"pkg.a"} and graph["pkg.c"] == {"pkg.b"}
    assert cycles(graph) == [["pkg.a", "pkg.b"]]
    # Importing a sibling through the package is an arrow to the sibling, not to the package's __init__.
    assert arrows("from pkg import b\n", modules) == {"pkg.b"}
    assert arrows("from pkg import A\n", modules) == {"pkg"}


def test_an_old_path_is_followed_to_its_new_module():
    modules = module_names()
    assert arrows("from boardgame_envs import openings\n", modules) == {"boardgame_envs.games.opening_positions"}
    assert arrows("from boardgame_envs.records import save\n", modules) == {"boardgame_envs.arena.records"}
