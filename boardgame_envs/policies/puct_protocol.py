"""PUCT over the Game/State protocol: AlphaZero's search for games without the m,n,k kernels.

:class:`ProtocolForest` has :class:`~boardgame_envs.policies.puct.PUCTForest`'s
interface (``set_roots``, ``search``, ``root_visits``, ``add_root_noise``) and
its rules of search (children by ``Q + c_puct * P * sqrt(N) / (1 + n)``, an
unvisited child valued at its parent's mean for the chooser, terminal
positions scored by the game's own result), with trees of Python nodes that
hold cloned states (made when a node is first visited). A batch evaluator reads the pending leaves from
``forest.leaf_states``. :func:`make_forest` picks the numba forest for the
m,n,k family and this one for every other game.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from boardgame_envs.games.protocol import kernels_of
from boardgame_envs.policies.puct import LockstepSearch, PUCTForest


class _Node:
    __slots__ = ("state", "children", "visits", "value_sum", "prior", "expanded", "action")

    def __init__(self, state: Any, prior: float, action: int = -1) -> None:
        self.state = state  # the position after the move into this node; None until the node is first visited
        self.action = action  # the move into this node
        self.children: dict[int, _Node] = {}
        self.visits = 0.0
        self.value_sum = 0.0  # from the view of the player who moved into this node
        self.prior = prior
        self.expanded = False


class ProtocolForest(LockstepSearch):
    """One PUCT tree per game over protocol states, searched in lockstep with batched leaf evaluation."""

    def __init__(self, batch: int, game: Any, capacity: int = 0, c_puct: float = 1.5) -> None:
        if batch < 1:
            raise ValueError(f"need batch >= 1, got {batch}")
        self.game = game
        self.c_puct = float(c_puct)
        self.roots: list[_Node | None] = [None] * batch
        self.leaf_states: list[Any] = [None] * batch  # the positions awaiting an evaluation
        self._paths: list[list[_Node]] = [[] for _ in range(batch)]
        self.pending = np.zeros(batch, dtype=np.bool_)

    @property
    def batch(self) -> int:
        return len(self.roots)

    def set_root(self, b: int, state: Any) -> None:
        """Start tree ``b`` afresh at (a clone of) ``state``."""
        if state.terminal:
            raise ValueError("the game is over: there is nothing to search")
        if state.game != self.game:
            raise ValueError(f"state of {state.game} in a forest of {self.game}")
        self.roots[b] = _Node(state.clone(), 1.0)

    def set_roots(self, states: list[Any]) -> None:
        for b, state in enumerate(states):
            self.set_root(b, state)

    def select(self) -> np.ndarray:
        """Walk each tree to a leaf; the trees whose leaf needs an evaluation (terminal leaves back up at once)."""
        for b, root in enumerate(self.roots):
            node, path = root, [root]
            while node.expanded and node.children:
                parent, node = node, self._child(node)
                if node.state is None:  # positions are made when first visited: most children never are
                    node.state = parent.state.clone()
                    node.state.play(node.action)
                path.append(node)
            if node.state.terminal:
                mover = 3 - node.state.to_move  # who moved into the node
                winner = node.state.winner
                self._backup(path, 0.0 if winner == 0 else (-1.0 if winner == mover else 1.0))
                self.pending[b] = False
            else:
                self._paths[b] = path
                self.leaf_states[b] = node.state
                self.pending[b] = True
        return np.flatnonzero(self.pending)

    def _child(self, node: _Node) -> _Node:
        sqrt_n = math.sqrt(max(node.visits, 1.0))
        fpu = -node.value_sum / node.visits if node.visits > 0 else 0.0
        best, best_score = None, -math.inf
        for child in node.children.values():
            q = child.value_sum / child.visits if child.visits > 0 else fpu
            score = q + self.c_puct * child.prior * sqrt_n / (1.0 + child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    @staticmethod
    def _backup(path: list[_Node], value: float) -> None:
        """Add ``value`` (for the player to move at the leaf) up ``path``."""
        for node in reversed(path):
            value = -value
            node.visits += 1.0
            node.value_sum += value

    def expand(self, priors: np.ndarray, values: np.ndarray) -> None:
        """Expand the pending leaves with ``priors`` (batch, num_actions) and ``values`` (batch,)."""
        for b in np.flatnonzero(self.pending):
            path = self._paths[b]
            leaf = path[-1]
            legal = np.flatnonzero(leaf.state.legal_mask())
            p = np.maximum(priors[b, legal], 0.0)
            total = p.sum()
            p = p / total if total > 0 else np.full(len(legal), 1.0 / len(legal))
            for action, prior in zip(legal.tolist(), p.tolist()):
                leaf.children[action] = _Node(None, prior, action)
            leaf.expanded = True
            self._backup(path, float(values[b]))
        self.pending[:] = False

    def add_root_noise(self, rng: np.random.Generator, alpha: float, fraction: float) -> None:
        """Mix ``Dirichlet(alpha)`` noise into the priors of every expanded root."""
        for root in self.roots:
            children = list(root.children.values())
            if children:
                noise = rng.dirichlet(np.full(len(children), alpha))
                for child, eta in zip(children, noise):
                    child.prior = (1 - fraction) * child.prior + fraction * float(eta)

    def root_visits(self) -> np.ndarray:
        """Visit counts of each root's children, ``(batch, num_actions)``."""
        counts = np.zeros((self.batch, self.game.num_actions))
        for b, root in enumerate(self.roots):
            for action, child in root.children.items():
                counts[b, action] = child.visits
        return counts

    def leaf_state(self, b: int) -> Any:
        """The pending leaf of tree ``b`` (for per-position evaluators)."""
        return self.leaf_states[b]


def make_forest(batch: int, game: Any, capacity: int, c_puct: float = 1.5) -> Any:
    """The PUCT forest for ``game``: the numba one for the m,n,k family, :class:`ProtocolForest` otherwise."""
    if kernels_of(game, "mnk") is not None:
        return PUCTForest(batch, game, capacity, c_puct)
    return ProtocolForest(batch, game, capacity, c_puct)
