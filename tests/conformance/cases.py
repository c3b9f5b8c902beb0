"""The conformance kit's cases, read from the catalog: a game added there is tested everywhere with no test edit.

Each catalog entry gives its default game; an entry with a choice of board and
rule also gives each of its rules on its smallest board (cheap, and every rule
seen). The suite's own test games (tests/games/misere_game.py, where the player
who ends the game loses; tests/games/pass_game.py, with a pass, an action that
is no cell; tests/games/dots_and_boxes.py, whose actions are lines and whose
players draw again after closing a box) join every check as a new game would:
while a test of one runs, it
is in the catalog with an env module of a few lines and its Gymnasium id
(:func:`in_catalog`, tests/conformance/temporary.py), and out of it afterwards,
so the shipped catalog never holds it.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from boardgame_envs.games.catalog import GAMES, GameInfo
from boardgame_envs.games.opening_rules import RULE_NAMES
from conformance.temporary import (  # noqa: F401  (the test games' entries, read through this module too)
    DOTS_ENTRY, NEW_GAMES, PASS_ENTRY, TEST_ENTRIES, TEST_ENTRY, TEST_GYMNASIUM_IDS, TEST_MODULE, TEST_PETTINGZOO_ID,
    TemporaryGame, in_catalog,
)  # fmt: skip


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
