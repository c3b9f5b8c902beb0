"""Old module paths, kept importable for a while: one table and one import hook, instead of stub files.

:data:`MOVED` maps each old dotted path to where its contents live now and the
release that drops the old path (CHANGELOG.md says the same). The package's
``__init__`` installs :class:`MovedModuleFinder` first thing, so
``import boardgame_envs.play`` or ``from boardgame_envs.records import GameRecord``
keeps working: the old name becomes a small alias module whose names are the new
module's own objects (``boardgame_envs.records.GameRecord is
boardgame_envs.arena.records.GameRecord``), and its first import warns with a
``DeprecationWarning`` naming the new path, attributed to the line that imported it.

Renamed names inside a module that stays (``GameState`` -> ``MNKState``) are in
:data:`RENAMED`; the module keeps the old name through a module ``__getattr__``
made by :func:`renamed_attributes`, which warns the same way and gives the new
object itself.

This module imports nothing of the package: the new paths are data, imported by
name when an old path is first asked for, so the table may name any layer (and
every layer, the bottom one included, may import this module).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Moved:
    """Where an old module's contents live now, and the version without the old path."""

    new: str  # the module to import instead
    drops_in: str  # the first release in which the old path no longer imports
    also: tuple[str, ...] = ()  # further modules whose names the old one re-exported (after ``new``)


DROPS_IN = "0.3.0"

MOVED: dict[str, Moved] = {
    # Moved into packages by concern (0.1.0): the root keeps only the public face.
    "boardgame_envs.play": Moved("boardgame_envs.ui.terminal", DROPS_IN),
    "boardgame_envs.gui": Moved("boardgame_envs.ui.gui", DROPS_IN),
    "boardgame_envs.replay": Moved("boardgame_envs.ui.replay", DROPS_IN),
    "boardgame_envs.records": Moved("boardgame_envs.arena.records", DROPS_IN),
    "boardgame_envs.sprt": Moved("boardgame_envs.arena.sprt", DROPS_IN),
    "boardgame_envs.arena_backends": Moved("boardgame_envs.arena.backends", DROPS_IN),
    "boardgame_envs.pbrain": Moved("boardgame_envs.gomocup.brain", DROPS_IN, also=("boardgame_envs.gomocup.launcher",)),
    "boardgame_envs.policies.gomocup": Moved("boardgame_envs.gomocup.engine", DROPS_IN),
    "boardgame_envs.policies.gomocup_protocol": Moved("boardgame_envs.gomocup.protocol", DROPS_IN),
    "boardgame_envs.policies.engine_process": Moved("boardgame_envs.gomocup.process", DROPS_IN),
    "boardgame_envs.sb3": Moved("boardgame_envs.vector.sb3", DROPS_IN),
    # Lower-layer modules that sat at the root, now with the rules they serve.
    "boardgame_envs.openings": Moved("boardgame_envs.games.opening_positions", DROPS_IN),
    "boardgame_envs.symmetry": Moved("boardgame_envs.games.symmetry", DROPS_IN),
}


@dataclass(frozen=True)
class Renamed:
    """Where a renamed module attribute lives now (``"module:attribute"``), and the version without the old name."""

    new: str
    drops_in: str


# "old module:old name" -> the new "module:name". The new module may sit in any layer: it is imported by name.
RENAMED: dict[str, Renamed] = {
    # The m,n,k state is one State of the protocol, not "the" game state.
    "boardgame_envs.games.mnk:GameState": Renamed("boardgame_envs.games.mnk:MNKState", DROPS_IN),
    # AlphaZero's per-game settings left the catalog (the bottom layer) for the trainer's own package.
    "boardgame_envs.games.catalog:alphazero_defaults": Renamed("boardgame_envs.alphazero.defaults:shape_defaults", DROPS_IN),
    # It returns the game (as a member of the family, or None), not kernels.
    "boardgame_envs.games.protocol:kernels_of": Renamed("boardgame_envs.games.protocol:as_family", DROPS_IN),
    # Three layers had near-synonym names (BoardEnv, GameEnv, BoardGameEnv): each name now says what it is.
    "boardgame_envs.envs.board_env:BoardEnv": Renamed("boardgame_envs.envs.board_env:MNKAECEnv", DROPS_IN),
    "boardgame_envs.envs.game_env:GameEnv": Renamed("boardgame_envs.envs.game_env:GameAECEnv", DROPS_IN),
    "boardgame_envs.envs.single_agent:BoardGameEnv": Renamed("boardgame_envs.envs.single_agent:SingleAgentEnv", DROPS_IN),
    "boardgame_envs.vector.gym_env:BoardGameVectorEnv": Renamed("boardgame_envs.vector.gym_env:SingleAgentVectorEnv", DROPS_IN),
    # The round robin left the match module for a room of its own (boardgame_envs.arena still exports both).
    "boardgame_envs.arena.matches:round_robin": Renamed("boardgame_envs.arena.tournament:round_robin", DROPS_IN),
    "boardgame_envs.arena.matches:round_robin_table": Renamed("boardgame_envs.arena.tournament:round_robin_table", DROPS_IN),
    "boardgame_envs.arena.matches:pair_results": Renamed("boardgame_envs.arena.tournament:pair_results", DROPS_IN),
}


def renamed_message(old: str) -> str:
    """The deprecation warning for the renamed ``"module:name"`` ``old``."""
    renamed = RENAMED[old]
    old_module, _, old_name = old.partition(":")
    new_module, _, new_name = renamed.new.partition(":")
    return (f"{old_module}.{old_name} is deprecated: use {new_module}.{new_name} instead "
            f"(the old name goes in {renamed.drops_in})")  # fmt: skip


def renamed_attributes(module: str) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``module`` that answers its old names in :data:`RENAMED` with the new objects.

    Each use warns (``DeprecationWarning``, attributed to the line that used
    the old name); a name that was never there raises ``AttributeError`` as usual.
    """

    def __getattr__(name: str) -> object:
        old = f"{module}:{name}"
        if old not in RENAMED:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(renamed_message(old), DeprecationWarning, stacklevel=2)
        new_module, _, new_name = RENAMED[old].new.partition(":")
        return getattr(importlib.import_module(new_module), new_name)

    return __getattr__


def current_path(name: str) -> str:
    """``name`` with an old module path at its start replaced by the new one (``boardgame_envs.records.save`` ->
    ``boardgame_envs.arena.records.save``); any other name as it is. The layer and cycle tests read imports so."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        old = ".".join(parts[:i])
        if old in MOVED:
            return ".".join([MOVED[old].new, *parts[i:]])
    return name


def message(old: str) -> str:
    """The deprecation warning for ``old``: what to import instead, and when the old path goes."""
    moved = MOVED[old]
    return f"{old} is deprecated: import {moved.new} instead (the old path goes in {moved.drops_in})"


class AliasLoader(importlib.abc.Loader):
    """Fills the module of an old path with the names of its new module(s), and warns once, on first import."""

    def exec_module(self, module: ModuleType) -> None:
        moved = MOVED[module.__name__]
        # stacklevel 2: warnings skips the import machinery's frames, so this names the importing line.
        warnings.warn(message(module.__name__), DeprecationWarning, stacklevel=2)
        sources = [importlib.import_module(name) for name in (*moved.also[::-1], moved.new)]
        public: list[str] = []
        for source in sources:  # the new module last, so its names win
            names = getattr(source, "__all__", None) or [n for n in vars(source) if not n.startswith("_")]
            module.__dict__.update({name: getattr(source, name) for name in names})
            public += [name for name in names if name not in public]
        module.__all__ = public
        module.__doc__ = f"Deprecated alias of :mod:`{moved.new}` ({message(module.__name__)})."
        target = sources[-1]

        def __getattr__(name: str) -> object:  # names the new module gains later, or keeps private
            return getattr(target, name)

        module.__getattr__ = __getattr__  # type: ignore[method-assign]


class MovedModuleFinder(importlib.abc.MetaPathFinder):
    """Answers only for the old paths in :data:`MOVED`; every other import goes on to the usual finders."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, AliasLoader())


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once), so an old path never reaches a stale file."""
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedModuleFinder())
