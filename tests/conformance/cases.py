"""The conformance kit's cases, read from the catalog: a game added there is tested everywhere with no test edit.

Each catalog entry gives its default game; an entry with a choice of board and
rule also gives each of its rules on its smallest board (cheap, and every rule
seen). The suite's own test game (tests/games/misere_game.py, where the player
who ends the game loses) joins every check as a new game would: while a test
of it runs, it is in the catalog with an env module of a few lines and its
Gymnasium id (:func:`in_catalog`), and out of it afterwards, so the shipped
catalog never holds it.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import gymnasium
from gymnasium.utils import EzPickle
from pettingzoo import aec_registry, register

from boardgame_envs.envs.game_env import GameEnv
from boardgame_envs.envs.single_agent import register_gymnasium_envs
from boardgame_envs.envs.wrappers import safety_wrap
from boardgame_envs.games.catalog import ENVS, GAMES, GameInfo, register_env
from games.misere_game import AvoidThreeGame

# The test game's entry: what a game author writes, with every derivable field left out.
TEST_ENTRY = GameInfo(
    name="avoid_three", summary="misère tic-tac-toe: three in a row loses (a test game)",
    factory="games.misere_game:AvoidThreeGame",
)  # fmt: skip
TEST_MODULE = "boardgame_envs.avoid_three_v0"
TEST_PETTINGZOO_ID = "boardgame_envs/avoid_three-v0"
TEST_GYMNASIUM_IDS = {"boardgame_envs/AvoidThree-v0": {}}


def _env_module() -> types.ModuleType:
    """The test game's env module, as a game author writes it (boardgame_envs/connect_four_v0.py is the model)."""
    module = types.ModuleType(TEST_MODULE)

    class raw_env(GameEnv):  # noqa: N801 (PettingZoo's module convention)
        metadata = {**GameEnv.metadata, "name": TEST_MODULE.rpartition(".")[2]}

        def __init__(self, render_mode: str | None = None) -> None:
            EzPickle.__init__(self, render_mode=render_mode)
            super().__init__(AvoidThreeGame(), ("player_0", "player_1"), render_mode)

    def env(render_mode: str | None = None) -> Any:
        return safety_wrap(raw_env(render_mode=render_mode))

    raw_env.__module__ = env.__module__ = module.__name__  # so that pickle finds them
    raw_env.__qualname__ = "raw_env"
    module.raw_env, module.env = raw_env, env
    return module


@contextlib.contextmanager
def in_catalog() -> Iterator[None]:
    """The test game in the catalog, its env module imported (registering itself) and its ids registered, while the block runs."""
    module = _env_module()
    sys.modules[module.__name__] = module
    GAMES[TEST_ENTRY.name] = TEST_ENTRY
    try:
        register_env(TEST_ENTRY.name, module.__name__, TEST_PETTINGZOO_ID, TEST_GYMNASIUM_IDS)  # as its module does on import
        register_gymnasium_envs()
        register("aec", TEST_PETTINGZOO_ID, f"{module.__name__}:env")
        yield
    finally:
        del GAMES[TEST_ENTRY.name]
        ENVS.pop(TEST_ENTRY.name, None)
        del sys.modules[module.__name__]
        for env_id in TEST_GYMNASIUM_IDS:
            gymnasium.registry.pop(env_id, None)
        aec_registry.pop(TEST_PETTINGZOO_ID, None)


@dataclass(frozen=True)
class Case:
    """One game to test: a catalog entry's game, with the entry's arguments (board_size, rule)."""

    id: str
    entry: str
    kwargs: tuple[tuple[str, Any], ...] = ()
    temporary: bool = False  # the test game: in the catalog only while its test runs (active())

    @property
    def info(self) -> GameInfo:
        return TEST_ENTRY if self.temporary else GAMES[self.entry]

    def game(self) -> Any:
        return self.info.game(**dict(self.kwargs))

    def active(self) -> contextlib.AbstractContextManager:
        """What a test of this case runs under: the test game put in the catalog, else nothing."""
        return in_catalog() if self.temporary else contextlib.nullcontext()

    def env_fn(self, raw: bool = False) -> Any:
        """A ``(render_mode=None) -> AEC env`` from the entry's env module (while active, for the test game)."""
        module = importlib.import_module(self.info.module)
        return functools.partial(module.raw_env if raw else module.env, **self.info.env_kwargs(self.game()))


def catalog_cases() -> list[Case]:
    out = []
    for name, info in GAMES.items():
        out.append(Case(name, name))
        if not info.fixed:
            for rule in info.rules:
                out.append(Case(f"{name}-{info.sizes[0]}-{rule}", name, (("board_size", info.sizes[0]), ("rule", rule))))
    return out


CATALOG = catalog_cases()
DEFAULTS = [case for case in CATALOG if not case.kwargs]  # one case per entry: the costlier checks
TEST_GAMES = [Case("avoid_three (test game)", TEST_ENTRY.name, temporary=True)]
ALL = CATALOG + TEST_GAMES


def case_fixture(request: Any) -> Iterator[Case]:
    """The body of each test file's ``case`` fixture: the case, active for the test."""
    with request.param.active():
        yield request.param
