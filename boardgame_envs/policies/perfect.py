"""A perfect player from the exact solvers: the yardstick for "never loses", and for accuracy on connect four.

It plays a uniformly random move among those that keep the game-theoretic
value (win, draw or loss), so a policy tested against it meets every perfect
line, not one. Small freestyle m,n,k games come from :mod:`boardgame_envs.games.solver`;
connect four from :mod:`boardgame_envs.games.connect_four_solver`, which asks
only for each column's sign (cheaper than exact scores) within ``nodes`` nodes
per move, and in a lost position for exact scores, to play a column that loses
latest (against a fallible opponent, the one most likely to be saved); where
that budget runs out (in practice only in the first moves of a game) the
fallback plays instead, ``alphabeta:nodes=FALLBACK_NODES`` or a shipped
connect-four network (``fallback=NAME``), and the move is counted in ``fallbacks``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from boardgame_envs.games.connect_four_solver import SolverBudgetError, shared_solver
from boardgame_envs.games.protocol import as_family
from boardgame_envs.games.solver import MAX_CELLS, solver_for
from boardgame_envs.policies.base import check_budget, game_state_of

DEFAULT_NODES = 50_000_000  # connect four: about 10 s of one core of the development machine, per move at most
FALLBACK_NODES = 16_000  # the connect four ladder's top alpha-beta level
_NETWORK_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")  # "alphabeta", or a shipped network's name

#: ``build_network(name, seed)``: the policy of ``pretrained:NAME``, for ``fallback=NAME``. Set by the policy
#: registry, which names the package's networks by string: they live in layers above this one.
build_network: Callable[[str, int], Any] | None = None


class PerfectPolicy:
    """Plays value-keeping moves, ties broken by a seeded RNG: small freestyle m,n,k games (tic-tac-toe in
    milliseconds; square boards up to ``MAX_CELLS`` points, 6x6 taking minutes) and connect four (from about
    12 moves in well under a second a move; ``nodes`` caps a move's search, past it the fallback moves:
    ``alphabeta:nodes=16000``, or ``pretrained:NAME`` with ``fallback=NAME``). Refuses any other game in one
    line (:meth:`check_game`)."""

    name = "perfect"

    def __init__(self, nodes: int = DEFAULT_NODES, fallback: str = "alphabeta", seed: int | None = None) -> None:
        check_budget("nodes", nodes)
        if not isinstance(fallback, str) or not _NETWORK_NAME.fullmatch(fallback):
            raise ValueError(f"fallback must be 'alphabeta' or the name of a shipped connect-four network "
                             f"(pretrained:NAME, e.g. connect-four), not {fallback!r}")  # fmt: skip
        self.nodes = int(nodes)
        self.fallback = fallback
        self.rng = np.random.default_rng(seed)
        self.fallbacks = 0  # connect-four moves played by the fallback
        self._fallback: Any = None

    def check_game(self, game: Any) -> None:
        """Raise ``ValueError`` now, in one line, unless an exact solver solves ``game``: connect four, or a
        freestyle m,n,k game of at most ``MAX_CELLS`` points."""
        if as_family(game, "connect_four") is not None:
            if self.fallback != "alphabeta":  # the network is built now, so a wrong one is refused before play
                self._check_fallback(game)
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

    def _check_fallback(self, game: Any) -> None:
        fallback = self._fallback_policy()
        check = getattr(fallback, "check_game", None)
        if callable(check):
            check(game)
            return
        trained = getattr(fallback, "game", None)
        if trained is not None and trained != game:
            raise ValueError(f"the fallback pretrained:{self.fallback} was trained on {trained.describe()}, "
                             f"not {game.describe()}")  # fmt: skip

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
        scores = _scores_within(solver, state, exact=False)  # signs: cheaper than exact scores
        if scores is not None and max(scores.values()) < 0:
            # Lost whatever it plays: hold out longest, the most a perfect opponent must still find.
            scores = _scores_within(solver, state, exact=True)
        if scores is None:
            self.fallbacks += 1
            return int(self._fallback_policy().act(state))
        best = max(scores.values())
        keep = [c for c, v in scores.items() if v == best]
        return int(keep[self.rng.integers(len(keep))])

    def _fallback_policy(self) -> Any:
        """The player of the moves the solver cannot settle within its budget (built on first use)."""
        if self._fallback is None:
            seed = int(self.rng.integers(2**31))
            if self.fallback == "alphabeta":
                from boardgame_envs.policies.alphabeta import AlphaBetaPolicy

                self._fallback = AlphaBetaPolicy(nodes=FALLBACK_NODES, seed=seed)
            else:  # a shipped network, built by the registry's hook (the networks live above the policies)
                if build_network is None:  # pragma: no cover (the registry is imported with the package)
                    raise RuntimeError("no builder of shipped networks: import boardgame_envs.policies")
                self._fallback = build_network(self.fallback, seed)
        return self._fallback


def _scores_within(solver: Any, state: Any, exact: bool) -> dict[int, int] | None:
    """Every legal column's score (or sign) within the solver's node limit; None past it."""
    try:
        return solver.move_scores(state, exact=exact)
    except SolverBudgetError:
        return None
