"""Imports run one way (shared plan): games <- policies <- envs <- arena/ladder/alphazero <- ui/cli.

Each module of the package belongs to a layer; an import statement (at module
level or inside a function: both are arrows) may name only its own group or a
lower layer. An upper layer is named from below only by a "module:attribute"
string (the policy registry), which this test does not see, by design. The
bottom layer (``games``) names no upper module at all, not even by a string:
the env modules register themselves with the catalog, and upper layers keep
their own per-game settings (test_the_games_layer_names_no_upper_module).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import boardgame_envs
from boardgame_envs._compat import current_path
from boardgame_envs.games.catalog import ENVS

ROOT = Path(boardgame_envs.__file__).parent
LAYERS = {
    "_compat": -1,  # old paths and names: imports nothing of the package, names the new ones as data
    # The loading layer (bounded, code-free reading; atomic writing): imports nothing of the package, below
    # games (whose openings it reads), so that every layer reads and writes files through it.
    "safeio": -0.5,
    "games": 0,  # rules, game data, board symmetries
    "policies": 1, "render": 1,  # agents acting on states; pictures of states
    "envs": 2,  # the AEC env over any game, the wrappers, the single-agent view, make_env
    "vector": 3, "registration": 3,
    # The env modules, as they registered themselves with the catalog: a new game needs no edit here.
    **{entry.module.split(".")[1]: 3 for entry in ENVS.values()},
    "__init__": 4,  # the package: registers the envs
    "gomocup": 5, "arena": 5,
    "ladder": 6, "alphazero": 6,
    "selfplay": 6.5,  # opponent pools, Elo while training (on the ladder), trained SB3 models as specs
    "ui": 7, "bench": 7,
    "cliargs": 8, "cli": 9, "__main__": 10,
}  # fmt: skip
def group_of(path: Path) -> str:
    """The layer group of a module: its subpackage or top-level module; a subpackage's ``cli`` module is the CLI's."""
    rel = path.relative_to(ROOT)
    if rel.stem == "cli":
        return "cli"
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def imported_by_call(node: ast.AST) -> str | None:
    """The module an ``importlib.import_module(...)`` / ``__import__(...)`` call names in its source, else None.

    A literal string counts in full; an f-string counts as far as its literal start
    (``f"boardgame_envs.ladder.{name}"`` names the ladder). A name held in data (the
    registry's ``"module:attr"`` strings, the env module a game registered)
    is the sanctioned way a lower layer names an upper one, and is not seen.
    """
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if called not in ("import_module", "__import__"):
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    if isinstance(first, ast.JoinedStr) and first.values and isinstance(first.values[0], ast.Constant):
        known = str(first.values[0].value).rpartition(".")[0]
        return known if known.count(".") >= 1 else None  # "boardgame_envs.{x}" names no group: data, like a string
    return None


def imported_groups(path: Path) -> set[str]:
    groups = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + ([f"{node.module}.{a.name}" for a in node.names] if node.module == "boardgame_envs" else [])
        elif imported_by_call(node):
            names = [imported_by_call(node)]
        else:
            continue
        for name in map(current_path, names):
            parts = name.split(".")
            if parts[0] != "boardgame_envs":
                continue
            if len(parts) == 1 or parts[1] == "__version__":
                groups.add("__init__")
            else:
                target = ROOT / parts[1]
                groups.add("cli" if parts[-1] == "cli" else parts[1] if target.is_dir() or target.with_suffix(".py").exists() else "__init__")
    return groups


def test_every_module_has_a_layer():
    assert {group_of(p) for p in ROOT.rglob("*.py")} - set(LAYERS) == set()


def test_imports_run_one_way():
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        mine = group_of(path)
        for other in imported_groups(path) - {mine}:
            if LAYERS[other] > LAYERS[mine] or (LAYERS[other] == LAYERS[mine] and other != mine):
                wrong.append(f"{rel} ({mine}) imports {other}")
    assert wrong == []


def test_the_check_sees_an_upward_import(tmp_path):
    """The test can fail: a games module importing envs is caught."""
    fake = ROOT / "games" / "catalog.py"
    assert "envs" not in imported_groups(fake)
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from boardgame_envs.envs.factory import make_env\n")
    assert imported_groups(probe) == {"envs"}
    probe.write_text("from boardgame_envs.records import save\n")  # an old path: the arena, where it moved
    assert imported_groups(probe) == {"arena"}


def test_the_check_sees_an_import_by_name(tmp_path):
    """An import spelled as a call with the module's name written out is an arrow too."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import importlib\nfrom importlib import import_module\n"
        "def f(kind):\n"
        "    importlib.import_module('boardgame_envs.gomocup.engine')\n"
        "    import_module(f'boardgame_envs.arena.{kind}')\n"
        "    __import__('boardgame_envs.ladder')\n"
        "    importlib.import_module(kind)\n"  # a name held in data: not seen, by design
    )
    assert imported_groups(probe) == {"gomocup", "arena", "ladder"}


def upper_modules_named(path: Path) -> set[str]:
    """The modules above ``games`` that string constants in ``path`` name (docstrings aside): ``"boardgame_envs.X..."``
    or ``"X:attr"`` / ``"X"`` for a module X at the package root, whatever layer the string would be read in."""
    root_modules = {p.stem for p in ROOT.glob("*.py")} | {p.name for p in ROOT.iterdir() if p.is_dir()}
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}  # fmt: skip
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or id(node) in docstrings:
            continue
        for word in re.findall(r"[A-Za-z_][\w.]*(?::\w+)?", node.value):
            module = word.partition(":")[0]
            parts = module.split(".")
            group = parts[1] if parts[0] == "boardgame_envs" and len(parts) > 1 else parts[0] if ":" in word else None
            if group is None and parts[0] in root_modules - set(LAYERS) | {m for m in LAYERS if re.fullmatch(r"\w+_v\d+", m)}:
                group = parts[0]  # a bare root module's name, such as an env module's
            if group in LAYERS and LAYERS[group] > LAYERS["games"]:
                found.add(module)
    return found


def test_the_games_layer_names_no_upper_module():
    """Not even by a string: the catalog learns its env modules from their own registration."""
    named = {str(p.relative_to(ROOT)): upper_modules_named(p) for p in sorted((ROOT / "games").rglob("*.py"))}
    assert {rel: names for rel, names in named.items() if names} == {}


def test_the_string_check_can_fail(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('''"""Docstrings may point at :mod:`boardgame_envs.envs.factory`."""
GAMES = {"tictactoe": dict(module="tictactoe_v0", factory="boardgame_envs.games.mnk:MNKGame")}
ENTRY = f"boardgame_envs.{GAMES}:env"
DEFAULTS = "boardgame_envs.alphazero.config:AlphaZeroConfig"
''')
    assert upper_modules_named(probe) == {"tictactoe_v0", "boardgame_envs.alphazero.config"}
