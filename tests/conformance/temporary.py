"""The suite's test games in the catalog for a while, as an author adds a game: entry, env module, ids.

A test game (tests/games/) joins the catalog only while a test of it runs
(:func:`in_catalog`), so the shipped catalog never holds it. The kit's test games
(:data:`TEST_ENTRIES`) join every check that way. A *new game*
(:data:`NEW_GAMES`: a long game with passes and a ``size`` parameter) is added
for a whole pytest run instead, before the tests are collected
(:func:`add_for_the_run`, which tests/conftest.py calls when
``BOARDGAME_ENVS_TESTS_NEW_GAME`` names it), so that every test that reads the
catalog sees it exactly as it would see a game shipped in the package:
tests/test_a_new_game.py runs the every-game tests that way.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import gymnasium
from gymnasium.utils import EzPickle
from pettingzoo import aec_registry, register

from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.envs.single_agent import register_gymnasium_envs
from boardgame_envs.envs.wrappers import safety_wrap
from boardgame_envs.games.catalog import ENVS, GAMES, GameInfo, register_env
from boardgame_envs.games.parameters import Parameter
from games.dots_and_boxes import DotsAndBoxesGame
from games.keep_apart import KeepApartGame
from games.misere_game import AvoidThreeGame
from games.pass_game import PassGame

# The test games' entries: what a game author writes, with every derivable field left out.
TEST_ENTRY = GameInfo(
    name="avoid_three", summary="misère tic-tac-toe: three in a row loses (a test game)",
    factory="games.misere_game:AvoidThreeGame",
)  # fmt: skip
TEST_MODULE = "boardgame_envs.avoid_three_v0"
TEST_PETTINGZOO_ID = "boardgame_envs/avoid_three-v0"
TEST_GYMNASIUM_IDS = {"boardgame_envs/AvoidThree-v0": {}}
PASS_ENTRY = GameInfo(
    name="place_or_pass", summary="tic-tac-toe with a pass (a test game)", factory="games.pass_game:PassGame",
)  # fmt: skip
DOTS_ENTRY = GameInfo(
    name="dots_and_boxes", summary="dots and boxes (2x2 boxes): lines as actions, extra turns (a test game)",
    factory="games.dots_and_boxes:DotsAndBoxesGame",
    parameters={"rows": Parameter(2, (1, 2, 3)), "columns": Parameter(2, (1, 2, 3))},
)  # fmt: skip


@dataclass(frozen=True)
class TemporaryGame:
    """A test game: its entry, its Game class, and what its env module would register."""

    entry: GameInfo
    game_class: type
    module: str
    pettingzoo_id: str
    gymnasium_ids: dict[str, dict[str, Any]]


TEST_ENTRIES = {
    TEST_ENTRY.name: TemporaryGame(TEST_ENTRY, AvoidThreeGame, TEST_MODULE, TEST_PETTINGZOO_ID, TEST_GYMNASIUM_IDS),
    PASS_ENTRY.name: TemporaryGame(PASS_ENTRY, PassGame, "boardgame_envs.place_or_pass_v0",
                              "boardgame_envs/place_or_pass-v0", {"boardgame_envs/PlaceOrPass-v0": {}}),
    DOTS_ENTRY.name: TemporaryGame(DOTS_ENTRY, DotsAndBoxesGame, "boardgame_envs.dots_and_boxes_v0",
                                   "boardgame_envs/dots_and_boxes-v0", {"boardgame_envs/DotsAndBoxes-v0": {}}),
}  # fmt: skip


def _env_module(test: TemporaryGame = TEST_ENTRIES[TEST_ENTRY.name]) -> types.ModuleType:
    """A test game's env module, as a game author writes it (boardgame_envs/connect_four_v0.py is the model)."""
    module = types.ModuleType(test.module)

    class raw_env(GameAECEnv):  # noqa: N801 (PettingZoo's module convention)
        metadata = {**GameAECEnv.metadata, "name": test.module.rpartition(".")[2]}

        def __init__(self, render_mode: str | None = None, **parameters: Any) -> None:  # the entry's parameters
            EzPickle.__init__(self, render_mode=render_mode, **parameters)
            super().__init__(test.entry.game(**parameters), ("player_0", "player_1"), render_mode)

    def env(render_mode: str | None = None, **parameters: Any) -> Any:
        return safety_wrap(raw_env(render_mode=render_mode, **parameters))

    raw_env.__module__ = env.__module__ = module.__name__  # so that pickle finds them
    raw_env.__qualname__ = "raw_env"
    module.raw_env, module.env = raw_env, env
    return module


@contextlib.contextmanager
def in_catalog(name: str = TEST_ENTRY.name) -> Iterator[None]:
    """The test game ``name`` in the catalog, its env module imported (registering itself) and its ids registered,
    while the block runs."""
    test = TEST_ENTRIES[name] if name in TEST_ENTRIES else NEW_GAMES[name]
    module = _env_module(test)
    sys.modules[module.__name__] = module
    GAMES[name] = test.entry
    try:
        register_env(name, module.__name__, test.pettingzoo_id, test.gymnasium_ids)  # as its module does on import
        register_gymnasium_envs()
        register("aec", test.pettingzoo_id, f"{module.__name__}:env")
        yield
    finally:
        del GAMES[name]
        ENVS.pop(name, None)
        del sys.modules[module.__name__]
        for env_id in test.gymnasium_ids:
            gymnasium.registry.pop(env_id, None)
        aec_registry.pop(test.pettingzoo_id, None)


# A game the suite was not written for, added to the catalog for a whole run (add_for_the_run): games 40 to 90
# plies long, a pass that is forced where a player has no cell and illegal elsewhere, no numba kernels, and a
# declared parameter named size (as the m,n,k games' attribute is).
KEEP_APART_ENTRY = GameInfo(
    name="keep_apart", summary="keep apart: no stone beside an opponent's; no cell: pass (a test game)",
    factory="games.keep_apart:KeepApartGame", parameters={"size": Parameter(10, (4, 10))},
)  # fmt: skip
NEW_GAMES = {
    KEEP_APART_ENTRY.name: TemporaryGame(KEEP_APART_ENTRY, KeepApartGame, "boardgame_envs.keep_apart_v0",
                                         "boardgame_envs/keep_apart-v0", {"boardgame_envs/KeepApart-v0": {}}),
}  # fmt: skip
NEW_GAME_VARIABLE = "BOARDGAME_ENVS_TESTS_NEW_GAME"
_FOR_THE_RUN = contextlib.ExitStack()


def add_for_the_run(name: str) -> None:
    """Put the new game ``name`` (:data:`NEW_GAMES`) in the catalog until the process ends; ``ValueError`` in one
    line for a name that is none."""
    if name not in NEW_GAMES:
        raise ValueError(f"{NEW_GAME_VARIABLE}={name!r} names no new test game; expected one of {', '.join(NEW_GAMES)}")
    if name not in GAMES:
        _FOR_THE_RUN.enter_context(in_catalog(name))
