"""The game a training recipe is given, and its ladder: :func:`recipe_game`.

The PPO recipes in ``baselines/`` take ``--game NAME`` with the command line's game options
(``--board-size``, ``--win-length``, ``--rule``, ``--param KEY=VALUE``: :mod:`boardgame_envs.cliargs`).
``NAME`` is a catalog game (``tictactoe``, ``connect_four``, ``gomoku`` with its size and rule, any
game added to the catalog) or, with no options, a ladder's name (``gomoku9``: 9x9 freestyle), as
``boardgame-envs rate`` takes it. :class:`RecipeGame` holds what the recipes need of it: the Game
(whose planes and actions shape the network), the keyword arguments that build its envs, and the
ladder it is rated on, or why there is none (a game without a shipped ladder is rated on one built
with ``boardgame-envs ladder build GAME``). Invariant: ``game`` is the game the envs built from
``env_kwargs`` play, and the ladder's game is that game (a ladder of another game is no ladder for it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boardgame_envs.games.catalog import GAMES, game_info
from boardgame_envs.ladder.ladders import LadderError, find_ladder, ladder_for


@dataclass(frozen=True)
class RecipeGame:
    """A recipe's game: see the module docstring."""

    name: str  # as given: a catalog game ("tictactoe") or a ladder's name ("gomoku9")
    game: Any  # the Game
    env_kwargs: dict[str, Any] = field(default_factory=dict)  # game=, board_size=, ... for the single-agent envs
    ladder: str | None = None  # the ladder it is rated on (a name rate() takes); None: see no_ladder
    no_ladder: str = ""  # why it has none, naming the command that builds one

    def ladder_or_raise(self) -> str:
        """The ladder's name; :class:`~boardgame_envs.ladder.LadderError` (one line) where the game has none."""
        if self.ladder is None:
            raise LadderError(self.no_ladder)
        return self.ladder


def recipe_game(name: str, board_size: int | None = None, win_length: int | None = None, rule: str | None = None,
                parameters: dict[str, Any] | None = None) -> RecipeGame:  # fmt: skip
    """The :class:`RecipeGame` of ``--game name`` and its options; ValueError (one line) for a name that is neither
    a catalog game nor a ladder's, or options the game does not take."""
    parameters = dict(parameters or {})
    plain = board_size is None and win_length is None and rule is None and not parameters
    if name in GAMES:
        game = game_info(name).game(board_size, win_length, rule, **parameters)
        kwargs = {"game": name, "board_size": board_size, "win_length": win_length, "rule": rule}
        if parameters:
            kwargs["parameters"] = parameters
    else:
        found = find_ladder(name) if isinstance(name, str) else None
        if found is None:
            raise ValueError(f"--game {name!r}: neither a catalog game ({', '.join(GAMES)}) nor a ladder's name "
                             "(gomoku9, or one built by boardgame-envs ladder build)")  # fmt: skip
        if not plain:
            raise ValueError(f"--game {name!r} is a ladder's name, which fixes its game ({found.describe()}); give the "
                             f"catalog game ({found.game}) to choose its size, rule or parameters")  # fmt: skip
        game, params = found.game_object(), found.params
        kwargs = {"game": found.game, **({"parameters": params} if found.board_size is None and params else params)}
    try:
        ladder = ladder_for(name, rule, board_size, parameters)
    except LadderError as exc:
        return RecipeGame(name, game, kwargs, None, str(exc))
    if ladder.game_object() != game:  # a k or a rule the ladder's game does not have (--win-length 4)
        how = "train it unrated (--rate-games 0)" if win_length is not None else (
            f"build one with `boardgame-envs ladder build {' '.join(build_argv(kwargs))}`")  # ladders are five in a row
        return RecipeGame(name, game, kwargs, None, f"no ladder for {game.describe()} (the nearest, {ladder.name}, "
                                                    f"is {ladder.describe()}); {how}")  # fmt: skip
    return RecipeGame(name, game, kwargs, ladder.name)


def build_argv(env_kwargs: dict[str, Any]) -> list[str]:
    """The arguments of ``boardgame-envs ladder build`` for the game these env arguments build."""
    argv = [env_kwargs["game"]]
    for key in ("board_size", "rule"):
        if env_kwargs.get(key) is not None:
            argv += [f"--{key.replace('_', '-')}", str(env_kwargs[key])]
    return argv + [f"--param {k}={v}" for k, v in env_kwargs.get("parameters", {}).items()]
