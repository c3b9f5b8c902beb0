"""The conformance kit's cases, read from the catalog: a game added there is tested everywhere with no test edit.

Each catalog entry gives its default game; an entry with a choice of board and
rule also gives each of its rules on its smallest board (cheap, and every rule
seen). The suite's own test games (tests/games/misere_game.py, where the player
who ends the game loses; tests/games/pass_game.py, with a pass, an action that
is no cell; tests/games/dots_and_boxes.py, whose actions are lines and whose
players draw again after closing a box) join every check as a new game would:
while a test of one runs, it
is in the catalog with an env module of a few lines and its Gymnasium id
(:func:`in_catalog`), and out of it afterwards, so the shipped catalog never
holds it.
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

from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.envs.single_agent import register_gymnasium_envs
from boardgame_envs.envs.wrappers import safety_wrap
from boardgame_envs.games.catalog import ENVS, GAMES, GameInfo, register_env
from boardgame_envs.games.parameters import Parameter
from boardgame_envs.games.opening_rules import RULE_NAMES
from games.dots_and_boxes import DotsAndBoxesGame
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
    test = TEST_ENTRIES[name]
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


@dataclass(frozen=True)
class Case:
    """One game to test: a catalog entry's game, with the entry's arguments (board_size, rule)."""

    id: str
    entry: str
    kwargs: tuple[tuple[str, Any], ...] = ()
    temporary: bool = False  # the test game: in the catalog only while its test runs (active())

    @property
    def info(self) -> GameInfo:
        return TEST_ENTRIES[self.entry].entry if self.temporary else GAMES[self.entry]

    def game(self) -> Any:
        return self.info.game(**dict(self.kwargs))

    def active(self) -> contextlib.AbstractContextManager:
        """What a test of this case runs under: the test game put in the catalog, else nothing."""
        return in_catalog(self.entry) if self.temporary else contextlib.nullcontext()

    def env_fn(self, raw: bool = False) -> Any:
        """A ``(render_mode=None) -> AEC env`` from the entry's env module (while active, for the test game)."""
        module = importlib.import_module(self.info.module)
        return functools.partial(module.raw_env if raw else module.env, **self.info.env_kwargs(self.game()))


def catalog_cases() -> list[Case]:
    """Each entry's default game; an m,n,k entry's every rule on its smallest board; another entry's every value
    of each parameter it declares (the others at their defaults)."""
    out = []
    for name, info in GAMES.items():
        out.append(Case(name, name))
        for key, parameter in info.parameters.items():
            for value in parameter.choices:
                if value != parameter.default:
                    out.append(Case(f"{name}-{key}={value}", name, ((key, value),)))
        if not info.fixed and info.factory is None:
            for rule in info.rules:
                out.append(Case(f"{name}-{info.sizes[0]}-{rule}", name, (("board_size", info.sizes[0]), ("rule", rule))))
    return out


def opening_cases() -> list[Case]:
    """Every opening rule on each rule of an entry that takes them, on the smallest board the rule fits;
    an entry with a fixed board, under its default rule."""
    out = []
    for name, info in GAMES.items():
        if not info.opening_rules:
            continue
        if info.fixed:
            out.append(Case(f"{name}-opening", name, (("opening_rule", True),)))
            continue
        for rule in info.rules:
            for opening in RULE_NAMES:
                for size in range(info.sizes[0], info.sizes[1] + 1):
                    try:
                        info.game(size, None, rule, opening)
                    except ValueError:  # another base rule's opening, or a board too small (or even) for it
                        continue
                    out.append(Case(f"{name}-{size}-{rule}-{opening}", name,
                                    (("board_size", size), ("rule", rule), ("opening_rule", opening))))  # fmt: skip
                    break
    return out


CATALOG = catalog_cases()
DEFAULTS = [case for case in CATALOG if not case.kwargs]  # one case per entry: the costlier checks
TEST_GAMES = [Case(f"{name} (test game)", name, temporary=True) for name in TEST_ENTRIES]
ALL = CATALOG + TEST_GAMES
OPENINGS = opening_cases()


def case_fixture(request: Any) -> Iterator[Case]:
    """The body of each test file's ``case`` fixture: the case, active for the test."""
    with request.param.active():
        yield request.param
