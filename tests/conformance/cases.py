"""The conformance kit's cases, read from the catalog: a game added there is tested everywhere with no test edit.

Each catalog entry gives its default game; an entry with a choice of board and
rule also gives each of its rules on its smallest board (cheap, and every rule
seen). The test games of the suite (tests/games/misere_game.py, where the
player who ends the game loses) join the cases that need no catalog entry:
the envs over the protocol, the rules' own checks and the policies.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from boardgame_envs.envs.game_env import GameEnv
from boardgame_envs.envs.wrappers import safety_wrap
from boardgame_envs.games.catalog import GAMES
from games.misere_game import AvoidThreeGame


@dataclass(frozen=True)
class Case:
    """One game to test: a catalog entry's (``entry`` set) or a test game's (``entry`` None)."""

    id: str
    entry: str | None
    kwargs: tuple[tuple[str, Any], ...] = ()  # the catalog game's arguments (board_size, rule)
    factory: Any = None  # a test game's Game class

    def game(self) -> Any:
        return GAMES[self.entry].game(**dict(self.kwargs)) if self.entry else self.factory()

    def env_fn(self, raw: bool = False) -> Any:
        """A picklable ``(render_mode=None) -> AEC env``: the catalog's env module, or GameEnv over a test game."""
        if self.entry is None:
            return functools.partial(_test_game_env, self.factory, raw)
        info = GAMES[self.entry]
        module = info.env_module
        return functools.partial(module.raw_env if raw else module.env, **info.env_kwargs(self.game()))


def _test_game_env(factory: Any, raw: bool, render_mode: str | None = None) -> Any:
    env = GameEnv(factory(), ("player_0", "player_1"), render_mode)
    return env if raw else safety_wrap(env)


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
TEST_GAMES = [Case("avoid_three (test game)", None, factory=AvoidThreeGame)]
ALL = CATALOG + TEST_GAMES
