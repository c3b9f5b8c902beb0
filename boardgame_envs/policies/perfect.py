"""A perfect player for small games, from the exact solver: the yardstick for "never loses".

It plays a uniformly random move among those that keep the game-theoretic
value, so a policy tested against it meets every perfect line, not one.
"""

from __future__ import annotations

import numpy as np

from typing import Any

from boardgame_envs.games.protocol import as_family
from boardgame_envs.games.solver import MAX_CELLS, solver_for
from boardgame_envs.policies.base import game_state_of


class PerfectPolicy:
    """Plays value-optimal moves of a small freestyle m,n,k game (tic-tac-toe in milliseconds; square boards
    up to ``MAX_CELLS`` points, 6x6 taking minutes), ties broken by a seeded RNG; refuses any other game in one line
    (:meth:`check_game`)."""

    name = "perfect"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def check_game(self, game: Any) -> None:
        """Raise ``ValueError`` now, in one line, unless the exact solver solves ``game``: a freestyle m,n,k game
        of at most ``MAX_CELLS`` points."""
        describe = getattr(game, "describe", None)
        words = describe() if callable(describe) else repr(game)
        if as_family(game, "mnk") is None or game.rule != "freestyle":
            raise ValueError(f"the perfect player plays small freestyle m,n,k games (tic-tac-toe), not {words}")
        if game.num_actions > MAX_CELLS:
            raise ValueError(
                f"the perfect player only plays boards the exact solver can solve (at most {MAX_CELLS} points), "
                f"not {game.size}x{game.size}"
            )

    def act(self, state: Any) -> int:
        state = game_state_of(state)  # an env stands for its state
        self.check_game(state.game)
        best = solver_for(state.game).optimal_actions(state)
        return int(best[self.rng.integers(len(best))])
