"""Envs by game name, from the catalog: the command line, the single-agent view, the arena's callers and the ladder build them here."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from boardgame_envs.games.catalog import CatalogError, game_info


def make_env(
    game: str, board_size: int | None = None, win_length: int | None = None, rule: str | None = None,
    raw: bool = False, render_mode: str | None = None, opening_rule: Any = None, **parameters: Any,
) -> Any:  # fmt: skip
    """A PettingZoo AEC env of a catalog game (``"tictactoe"``, ``"gomoku"``, ``"renju"``, ``"connect_four"``).

    None takes the game's default (gomoku: 15x15 renju); arguments that do not apply to
    the game (a board size for tic-tac-toe) raise ``ValueError``. ``raw=True`` returns
    ``raw_env`` (illegal moves raise) instead of ``env`` (PettingZoo's wrappers).
    ``opening_rule`` (gomoku and renju: ``"soosorv8"``, ``"taraguchi10"``, ``"rif"``,
    ``"swap2"``, or True for the rule's default) plays the game under that opening rule.
    ``parameters``: a game's declared parameters (``rows=3``; its catalog entry lists them).
    An env module that builds another game than the one asked for raises ``CatalogError``.
    """
    info = game_info(game)
    wanted = info.game(board_size, win_length, rule, opening_rule, **parameters)
    module = info.env_module
    env = (module.raw_env if raw else module.env)(render_mode=render_mode, **info.env_kwargs(wanted))
    if info.factory is not None and env.unwrapped.game != wanted:  # (an m,n,k env module builds from its size)
        raise CatalogError(f"{info.module} built {env.unwrapped.game.describe()} for {game}, not {wanted.describe()}: "
                           "an env module that serves several catalog entries builds the one its game= names "
                           "(docs/games.md, \"Sizes and variants\")")  # fmt: skip
    return env


def env_fn(game: str, board_size: int | None = None, win_length: int | None = None, rule: str | None = None,
           **kwargs: Any) -> Callable[[], Any]:  # fmt: skip
    """A picklable ``() -> env`` for :func:`make_env`'s arguments (checked now, by building one env)."""
    make_env(game, board_size, win_length, rule, **kwargs)
    return functools.partial(make_env, game, board_size, win_length, rule, **kwargs)

