"""PUCT search over an evaluator ``f(state) -> (priors, value)``: MCTS without rollouts.

This is the search of AlphaZero: each leaf is scored by the evaluator
(``value`` in [-1, 1] for the player to move there, ``priors`` over the
actions, illegal ones ignored), and children are chosen by
``Q + c_puct * P * sqrt(N_parent) / (1 + N_child)``. Terminal positions use
the game's own result. ``MCTSPolicy(evaluator=f)`` runs it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boardgame_envs.games.mnk import GameState

Evaluator = Callable[[GameState], tuple[np.ndarray, float]]


class _Node:
    __slots__ = ("actions", "priors", "visits", "values", "children", "terminal_value")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.terminal_value: float | None = None


class PUCTSearch:
    """PUCT with optional Dirichlet noise at the root (for self-play exploration)."""

    def __init__(
        self,
        evaluator: Evaluator,
        c_puct: float = 1.5,
        dirichlet_alpha: float | None = None,
        dirichlet_fraction: float = 0.25,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.evaluator = evaluator
        self.c_puct = c_puct
        self.dirichlet_alpha = dirichlet_alpha
        self.dirichlet_fraction = dirichlet_fraction
        self.rng = rng if rng is not None else np.random.default_rng()

    def _expand(self, node: _Node, state: GameState) -> float:
        """Evaluate ``state`` into ``node``; returns the value for the player to move."""
        if state.terminal:
            # The player to move did not make the last move: a win for anyone is their loss.
            node.terminal_value = -1.0 if state.winner else 0.0
            return node.terminal_value
        priors, value = self.evaluator(state)
        legal = state.legal_actions()
        p = np.asarray(priors, dtype=np.float64)[legal]
        total = p.sum()
        node.actions = legal
        node.priors = p / total if total > 0 else np.full(len(legal), 1.0 / len(legal))
        node.visits = np.zeros(len(legal))
        node.values = np.zeros(len(legal))  # summed values for the player choosing the action
        return float(value)

    def run(self, state: GameState, simulations: int) -> np.ndarray:
        """Visit counts of the root's actions after ``simulations`` simulations, shape ``(n*n,)``."""
        if state.terminal:
            raise ValueError("the game is over: there is nothing to search")
        root = _Node()
        self._expand(root, state)
        if self.dirichlet_alpha is not None:
            noise = self.rng.dirichlet(np.full(len(root.actions), self.dirichlet_alpha))
            root.priors = (1 - self.dirichlet_fraction) * root.priors + self.dirichlet_fraction * noise
        for _ in range(simulations):
            node, sim = root, state.clone()
            path: list[tuple[_Node, int]] = []
            while True:
                if node.terminal_value is not None:
                    value = node.terminal_value
                    break
                q = np.divide(node.values, node.visits, out=np.zeros_like(node.values), where=node.visits > 0)
                u = self.c_puct * node.priors * np.sqrt(node.visits.sum() + 1) / (1 + node.visits)
                scores = q + u
                i = int(self.rng.choice(np.flatnonzero(scores == scores.max())))
                path.append((node, i))
                action = int(node.actions[i])
                sim._place(action)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node()
                    value = self._expand(child, sim)
                    break
                node = child
            # ``value`` is for the player to move at the leaf; flip it on the way up.
            for parent, i in reversed(path):
                value = -value
                parent.visits[i] += 1
                parent.values[i] += value
        counts = np.zeros(state.game.num_actions)
        counts[root.actions] = root.visits
        return counts
