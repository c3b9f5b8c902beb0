"""A perfect player from the exact solvers: the yardstick for "never loses", and for accuracy on connect four.

It plays a uniformly random move among those that keep the game-theoretic
value (win, draw or loss), so a policy tested against it meets every perfect
line, not one. Small freestyle m,n,k games come from :mod:`boardgame_envs.games.solver`;
connect four from :mod:`boardgame_envs.games.connect_four_solver`, which asks
only for each column's sign (cheaper than exact scores) within ``nodes`` nodes
per move; where that budget runs out (in practice only in the first moves of a
game) it plays ``alphabeta:nodes=FALLBACK_NODES``'s move instead, and counts it
in ``fallbacks``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs.games.connect_four_solver import SolverBudgetError, shared_solver
from boardgame_envs.games.protocol import as_family
from boardgame_envs.games.solver import MAX_CELLS, solver_for
from boardgame_envs.policies.base import game_state_of

DEFAULT_NODES = 50_000_000  # connect four: about 10 s of one core of the development machine, per move at most
FALLBACK_NODES = 16_000  # the connect four ladder's top alpha-beta level


class PerfectPolicy:
    """Plays value-keeping moves, ties broken by a seeded RNG: small freestyle m,n,k games (tic-tac-toe in
    milliseconds; square boards up to ``MAX_CELLS`` points, 6x6 taking minutes) and connect four (from about
    12 moves in well under a second a move; ``nodes`` caps a move's search, past it ``alphabeta:nodes=16000``
    moves). Refuses any other game in one line (:meth:`check_game`)."""

    name = "perfect"

    def __init__(self, nodes: int = DEFAULT_NODES, seed: int | None = None) -> None:
        if isinstance(nodes, bool) or not isinstance(nodes, (int, np.integer)) or nodes < 1:
            raise ValueError(f"nodes must be a positive whole number, not {nodes!r}")
        self.nodes = int(nodes)
        self.rng = np.random.default_rng(seed)
        self.fallbacks = 0  # connect-four moves played by the fallback search
        self._fallback: Any = None

    def check_game(self, game: Any) -> None:
        """Raise ``ValueError`` now, in one line, unless an exact solver solves ``game``: connect four, or a
        freestyle m,n,k game of at most ``MAX_CELLS`` points."""
        if as_family(game, "connect_four") is not None:
            return
        describe = getattr(game, "describe", None)
        words = describe() if callable(describe) else repr(game)
        if as_family(game, "mnk") is None or game.rule != "freestyle":
            raise ValueError(f"the perfect player plays connect four and small freestyle m,n,k games (tic-tac-toe), "
                             f"not {words}")  # fmt: skip
        if game.num_actions > MAX_CELLS:
            raise ValueError(
                f"the perfect player only plays boards the exact solver can solve (at most {MAX_CELLS} points), "
                f"not {game.size}x{game.size}"
            )

    def act(self, state: Any) -> int:
        state = game_state_of(state)  # an env stands for its state
        self.check_game(state.game)
        if as_family(state.game, "connect_four") is not None:
            return self._connect_four(state)
        best = solver_for(state.game).optimal_actions(state)
        return int(best[self.rng.integers(len(best))])

    def _connect_four(self, state: Any) -> int:
        solver = shared_solver()
        solver.node_limit = self.nodes
        try:
            signs = solver.move_scores(state, exact=False)
        except SolverBudgetError:
            self.fallbacks += 1
            if self._fallback is None:
                from boardgame_envs.policies.alphabeta import AlphaBetaPolicy

                self._fallback = AlphaBetaPolicy(nodes=FALLBACK_NODES, seed=int(self.rng.integers(2**31)))
            return int(self._fallback.act(state))
        best = max(signs.values())
        keep = [c for c, v in signs.items() if v == best]
        return int(keep[self.rng.integers(len(keep))])
