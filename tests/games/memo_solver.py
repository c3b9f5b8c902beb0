"""An independent oracle for the tests: exact values of tiny m,n,k games by plain memoised negamax.

It knows nothing of the package solver's cuts, windows or table, only the rules
of :mod:`boardgame_envs.games.mnk` (any rule), so the package's
:class:`~boardgame_envs.games.solver.Solver` is checked against it. Values are
from the point of view of the player to move: +1 win, 0 draw, -1 loss.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.mnk import MNKGame, MNKState

MAX_CELLS = 16  # 4x4 boards still solve in seconds; larger ones do not


class MemoSolver:
    """Memoised values of every position reachable in one small game."""

    def __init__(self, game: MNKGame) -> None:
        if game.num_actions > MAX_CELLS:
            raise ValueError(f"a {game.size}x{game.size} board is too large to solve exactly (at most {MAX_CELLS} cells)")
        self.game = game
        self._values: dict[bytes, int] = {}

    def value(self, state: MNKState) -> int:
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

    def action_values(self, state: MNKState) -> np.ndarray:
        """Value of each legal action for the player to move; ``nan`` where illegal."""
        values = np.full(self.game.num_actions, np.nan)
        for action in state.legal_actions():
            child = state.clone()
            child._place(int(action))
            values[action] = -self.value(child)
        return values

    def optimal_actions(self, state: MNKState) -> np.ndarray:
        """The legal actions that keep the game-theoretic value."""
        values = self.action_values(state)
        return np.flatnonzero(values == np.nanmax(values))
