"""Envs by game name: the one way the command line, the arena's callers and the ladder build them."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from boardgame_envs.games.catalog import game_info


def make_env(
    game: str, board_size: int | None = None, win_length: int | None = None, rule: str | None = None,
    raw: bool = False, render_mode: str | None = None,
) -> Any:  # fmt: skip
    """A PettingZoo AEC env of a catalog game (``"tictactoe"``, ``"gomoku"``, ``"renju"``).

    None takes the game's default (gomoku: 15x15 renju); arguments that do not apply to
    the game (a board size for tic-tac-toe) raise ``ValueError``. ``raw=True`` returns
    ``raw_env`` (illegal moves raise) instead of ``env`` (PettingZoo's wrappers).
    """
    from boardgame_envs import gomoku_v0, tictactoe_v0

    info = game_info(game)
    rules = info.game(board_size, win_length, rule)
    if info.module == "tictactoe_v0":
        return (tictactoe_v0.raw_env if raw else tictactoe_v0.env)(render_mode=render_mode)
    return (gomoku_v0.raw_env if raw else gomoku_v0.env)(rules.size, rules.win_length, rules.rule, render_mode=render_mode)


def env_fn(game: str, board_size: int | None = None, win_length: int | None = None, rule: str | None = None,
           **kwargs: Any) -> Callable[[], Any]:  # fmt: skip
    """A picklable ``() -> env`` for :func:`make_env`'s arguments (checked now, by building one env)."""
    make_env(game, board_size, win_length, rule, **kwargs)
    return functools.partial(make_env, game, board_size, win_length, rule, **kwargs)
