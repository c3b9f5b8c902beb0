"""Old module paths (boardgame_envs/_compat.py): each imports, warns naming its new path, and gives the same objects.

Also here: the package root holds only its public face (the env modules the
catalog names, the package and the command line), and CHANGELOG.md tells what
moved and when the old paths go.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import sys
import warnings
from pathlib import Path

import pytest

import boardgame_envs
from boardgame_envs._compat import MOVED, RENAMED, current_path, message, renamed_message
from boardgame_envs.games.catalog import ENVS

ROOT = Path(boardgame_envs.__file__).parent
CHANGELOG = ROOT.parent / "CHANGELOG.md"

# Names each old path was used for, written out so that a table naming the wrong new module fails.
USED = {
    "boardgame_envs.play": ("play_terminal", "usage"),
    "boardgame_envs.gui": ("PlayWindow", "play_window", "BUTTONS"),
    "boardgame_envs.replay": ("replay_terminal", "frame", "KEYS"),
    "boardgame_envs.records": ("GameRecord", "save", "load"),
    "boardgame_envs.sprt": ("SPRT",),
    "boardgame_envs.arena_backends": ("Workers", "run_tasks"),
    "boardgame_envs.pbrain": ("Brain", "serve", "move_time", "write_launcher", "MOVES_TO_GO"),
    "boardgame_envs.policies.gomocup": ("GomocupEngine", "EngineError", "EngineFault", "MAX_TAKEBACK"),
    "boardgame_envs.policies.gomocup_protocol": ("legal_order", "parse_point", "ProtocolError"),
    "boardgame_envs.policies.engine_process": ("EngineProcess", "EngineTimeout"),
    "boardgame_envs.sb3": ("SB3VecEnv", "BoardCNN"),
    "boardgame_envs.openings": ("Opening", "load", "resolve", "as_opening", "NAMES"),
    "boardgame_envs.symmetry": ("transform", "transform_action", "NUM_SYMMETRIES", "random_permutations"),
}


def public_names(module: object) -> list[str]:
    return list(getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")])


def fresh_import(old: str, monkeypatch: pytest.MonkeyPatch) -> object:
    """Import ``old`` as if for the first time (the warning fires on the first import only)."""
    monkeypatch.delitem(sys.modules, old, raising=False)
    return importlib.import_module(old)


def test_the_table_names_every_old_path_once_and_nothing_else():
    assert set(USED) == set(MOVED)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_path_warns_naming_the_new_one_and_gives_the_same_objects(old, monkeypatch):
    moved = MOVED[old]
    with pytest.warns(DeprecationWarning, match=re.escape(f"{old} is deprecated: import {moved.new} instead")):
        alias = fresh_import(old, monkeypatch)
    new = importlib.import_module(moved.new)
    for name in USED[old]:
        assert getattr(alias, name) is getattr(new if hasattr(new, name) else importlib.import_module(moved.also[0]), name)
    for name in public_names(new):
        assert getattr(alias, name) is getattr(new, name)
    star: dict[str, object] = {}
    exec(f"from {old} import *", star)  # noqa: S102
    assert {name: star[name] for name in public_names(new)} == {name: getattr(new, name) for name in public_names(new)}


def test_the_warning_names_the_importing_line(monkeypatch):
    monkeypatch.delitem(sys.modules, "boardgame_envs.sprt", raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import boardgame_envs.sprt  # noqa: F401
    assert [(w.category, w.filename, w.message.args[0]) for w in caught] == [
        (DeprecationWarning, __file__, message("boardgame_envs.sprt"))
    ]
    assert "0.3.0" in message("boardgame_envs.sprt")


def test_an_unknown_path_is_still_an_import_error():
    with pytest.raises(ModuleNotFoundError, match="boardgame_envs.no_such_module"):
        importlib.import_module("boardgame_envs.no_such_module")


@pytest.mark.parametrize("old", sorted(MOVED))
def test_no_file_is_left_at_an_old_path_and_the_new_one_is_real(old):
    rel = Path(*old.split(".")[1:])
    assert not (ROOT / rel).with_suffix(".py").exists() and not (ROOT / rel).is_dir()
    moved = MOVED[old]
    assert moved.new not in MOVED and importlib.util.find_spec(moved.new) is not None
    assert all(importlib.util.find_spec(name) is not None for name in moved.also)
    version = tuple(int(x) for x in moved.drops_in.split("."))
    assert version > tuple(int(x) for x in boardgame_envs.__version__.split("."))


def test_the_changelog_says_what_moved_and_when_the_old_path_goes():
    text = CHANGELOG.read_text()
    for old, moved in MOVED.items():
        rows = [line for line in text.splitlines() if f"`{old}`" in line]
        assert rows, f"CHANGELOG.md does not mention {old}"
        assert any(f"`{moved.new}`" in row and moved.drops_in in row for row in rows), rows


# The root's public face: the package, the env modules the catalog names, the command line,
# the Gymnasium/PettingZoo registration and this table of old paths.
FIXED = {"__init__", "__main__", "cli", "cliargs", "registration", "_compat"}
# Modules at the root that are not its public face yet (none: the SB3 adapter lives in vector/, the
# progress bars in arena/).
NOT_YET_HOUSED: set[str] = set()
ENV_MODULES = {entry.module.split(".")[1] for entry in ENVS.values()}  # as they registered themselves with the catalog


def test_the_root_holds_only_the_public_face():
    allowed = FIXED | ENV_MODULES | NOT_YET_HOUSED
    assert {p.stem for p in ROOT.glob("*.py")} - allowed == set()


def test_the_root_check_can_fail():
    """A stub written back at the root would be caught: its name is in no allowed set."""
    allowed = FIXED | ENV_MODULES | NOT_YET_HOUSED
    assert not {old.split(".")[1] for old in MOVED if old.count(".") == 1} & allowed


# Package modules that still import an old path (none: the package imports only current paths).
OWED: set[str] = set()


def old_paths_imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        else:
            continue
        found |= {name for name in names if current_path(name) != name}
    return found


def test_the_package_imports_no_old_path_of_its_own():
    importing = {str(p.relative_to(ROOT)): old_paths_imported(p) for p in ROOT.rglob("*.py")}
    assert {rel for rel, olds in importing.items() if olds} == OWED
    assert old_paths_imported(Path(__file__)) == {"boardgame_envs.sprt"}  # the check sees one (this file's own)


# Renamed names in modules that stay: old "module:name" -> the new one's, by hand, so a table naming the
# wrong object fails.
RENAMED_TO = {
    "boardgame_envs.games.mnk:GameState": "boardgame_envs.games.mnk:MNKState",
    "boardgame_envs.games.catalog:alphazero_defaults": "boardgame_envs.alphazero.defaults:shape_defaults",
    "boardgame_envs.games.protocol:kernels_of": "boardgame_envs.games.protocol:as_family",
    "boardgame_envs.envs.board_env:BoardEnv": "boardgame_envs.envs.board_env:MNKAECEnv",
    "boardgame_envs.envs.game_env:GameEnv": "boardgame_envs.envs.game_env:GameAECEnv",
    "boardgame_envs.envs.single_agent:BoardGameEnv": "boardgame_envs.envs.single_agent:SingleAgentEnv",
    "boardgame_envs.vector.gym_env:BoardGameVectorEnv": "boardgame_envs.vector.gym_env:SingleAgentVectorEnv",
    "boardgame_envs.arena.matches:round_robin": "boardgame_envs.arena.tournament:round_robin",
    "boardgame_envs.arena.matches:round_robin_table": "boardgame_envs.arena.tournament:round_robin_table",
    "boardgame_envs.arena.matches:pair_results": "boardgame_envs.arena.tournament:pair_results",
}


def test_the_renamed_table_names_every_old_name_once_and_nothing_else():
    assert {old: renamed.new for old, renamed in RENAMED.items()} == RENAMED_TO


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_an_old_name_warns_naming_the_new_one_and_gives_the_same_object(old):
    old_module, _, old_name = old.partition(":")
    new_module, _, new_name = RENAMED[old].new.partition(":")
    new = getattr(importlib.import_module(new_module), new_name)
    says = f"{old_module}.{old_name} is deprecated: use {new_module}.{new_name} instead (the old name goes in "
    with pytest.warns(DeprecationWarning, match=re.escape(says + RENAMED[old].drops_in)):
        assert getattr(importlib.import_module(old_module), old_name) is new
    star: dict[str, object] = {}
    with pytest.warns(DeprecationWarning, match=re.escape(says)):
        exec(f"from {old_module} import {old_name}", star)  # noqa: S102
    assert star[old_name] is new


def test_an_old_name_warns_at_the_line_that_uses_it():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from boardgame_envs.games.mnk import GameState  # noqa: F401
    assert [(w.category, w.filename, w.message.args[0]) for w in caught] == [
        (DeprecationWarning, __file__, renamed_message("boardgame_envs.games.mnk:GameState"))
    ]


def test_a_name_never_there_is_still_an_attribute_error():
    from boardgame_envs.games import mnk

    with pytest.raises(AttributeError, match="module 'boardgame_envs.games.mnk' has no attribute 'NoSuchState'"):
        mnk.NoSuchState  # noqa: B018


def test_the_changelog_says_what_was_renamed_and_when_the_old_name_goes():
    text = CHANGELOG.read_text()
    for old, renamed in RENAMED.items():
        old_module, _, old_name = old.partition(":")
        new_module, _, new_name = renamed.new.partition(":")
        rows = [line for line in text.splitlines() if f"`{old_module}.{old_name}`" in line]
        assert any(f"`{new_module}.{new_name}`" in row and renamed.drops_in in row for row in rows), old
