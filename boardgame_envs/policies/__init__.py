"""Opponents that act through the env API: ``policy.act(env) -> action``.

``RandomPolicy``, ``MCTSPolicy`` (UCT + MCTS-Solver, numba), ``AlphaBetaPolicy``
(negamax + threat search, numba), and ``PerfectPolicy`` (exact, small boards).
"""

from boardgame_envs.policies.alphabeta import AlphaBetaPolicy
from boardgame_envs.policies.base import Policy, game_state_of
from boardgame_envs.policies.mcts import MCTSPolicy
from boardgame_envs.policies.perfect import PerfectPolicy
from boardgame_envs.policies.random import RandomPolicy

__all__ = ["AlphaBetaPolicy", "MCTSPolicy", "PerfectPolicy", "Policy", "RandomPolicy", "game_state_of"]
