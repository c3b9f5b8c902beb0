"""Players of any game of the catalog: ``policy.act(state) -> action``, a legal action for the player to move.

A policy is handed a game state (:class:`boardgame_envs.games.protocol.State`), not an env; an AEC env
of this package is still accepted in its place (:func:`game_state_of`). A policy written for the old
``act(env)`` that reads ``env.unwrapped``, ``env.last()``, ``env.agent_selection`` or ``env.observe()``
gets a :class:`~boardgame_envs.games.protocol.StateIsNotEnvError` saying what to read instead
(docs/games.md, "Policies act on a state").

``RandomPolicy``, ``MCTSPolicy`` (UCT + MCTS-Solver, numba), ``AlphaBetaPolicy``
(negamax + threat search, numba), ``GreedyPolicy`` (one ply: win, block, extend),
``PerfectPolicy`` (exact, small boards), ``UCTPolicy`` (plain UCT, the classic
yardstick of AlphaZero papers) and ``GomocupEngine`` (an external Gomocup brain,
``pbrain-*``, as a subprocess; it lives in :mod:`boardgame_envs.gomocup`).
``make_policy("mcts:simulations=200", seed=0)`` builds any of them, or any
registered kind, from a spec (:mod:`boardgame_envs.policies.registry`).
"""

from boardgame_envs.policies.alphabeta import AlphaBetaPolicy
from boardgame_envs.policies.base import Forfeit, Policy, game_state_of
from boardgame_envs.policies.greedy import GreedyPolicy
from boardgame_envs.policies.mcts import MCTSPolicy
from boardgame_envs.policies.perfect import PerfectPolicy
from boardgame_envs.policies.random import RandomPolicy
from boardgame_envs.policies.registry import PolicySpecError, load_reference, make_policy, register
from boardgame_envs.policies.uct import UCTPolicy

__all__ = [
    "AlphaBetaPolicy", "Forfeit", "GomocupEngine", "GreedyPolicy", "MCTSPolicy", "PerfectPolicy", "Policy",
    "PolicySpecError", "RandomPolicy", "UCTPolicy", "game_state_of", "make_policy", "register",
]  # fmt: skip


# Names that live above this layer, by "module:attribute" string: loaded on first use, never imported from here.
_ABOVE = {"GomocupEngine": "boardgame_envs.gomocup.engine:GomocupEngine"}


def __getattr__(name: str) -> object:
    if name in _ABOVE:
        return load_reference(_ABOVE[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
