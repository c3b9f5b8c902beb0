"""Exact game values of small m,n,k games by memoised negamax (tic-tac-toe solves in under a second).

This is the oracle that tests and baselines measure policies against: it
knows nothing of search heuristics, only the rules in :mod:`.mnk`, so a
policy that agrees with it is perfect. Values are from the point of view of
the player to move: +1 win, 0 draw, -1 loss under perfect play.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from boardgame_envs.games.mnk import GameState, MNKGame

MAX_CELLS = 16  # 4x4 boards still solve in seconds; larger ones do not


class Solver:
    """Memoised values of every position reachable in one small game."""

    def __init__(self, game: MNKGame) -> None:
        if game.num_actions > MAX_CELLS:
            raise ValueError(f"a {game.size}x{game.size} board is too large to solve exactly (at most {MAX_CELLS} cells)")
        self.game = game
        self._values: dict[bytes, int] = {}

    def value(self, state: GameState) -> int:
        """Value of ``state`` for its player to move (+1, 0, -1)."""
        if state.game != self.game:
            raise ValueError(f"this solver is for {self.game}, not {state.game}")
        key = state.board.tobytes()
        cached = self._values.get(key)
        if cached is not None:
            return cached
        if state.terminal:
            # The player to move is the one who did not make the last move.
            result = -1 if state.winner else 0
        else:
            result = -1
            for action in state.legal_actions():
                child = state.clone()
                child._place(int(action))
                result = max(result, -self.value(child))
                if result == 1:
                    break
        self._values[key] = result
        return result

    def action_values(self, state: GameState) -> np.ndarray:
        """Value of each legal action for the player to move; ``nan`` where illegal."""
        values = np.full(self.game.num_actions, np.nan)
        for action in state.legal_actions():
            child = state.clone()
            child._place(int(action))
            values[action] = -self.value(child)
        return values

    def optimal_actions(self, state: GameState) -> np.ndarray:
        """The legal actions that keep the game-theoretic value."""
        values = self.action_values(state)
        return np.flatnonzero(values == np.nanmax(values))


@lru_cache(maxsize=4)
def solver_for(game: MNKGame) -> Solver:
    """A shared solver per game, so its table is built once per process."""
    return Solver(game)
