"""PUCT search over an evaluator: the MCTS of AlphaZero, for many games at once.

Each leaf is scored by an evaluator (``priors`` over the actions, ``value``
in [-1, 1] for the player to move there) instead of a rollout, and children
are chosen by ``Q + c_puct * P * sqrt(N_parent) / (1 + N_child)``, an
unvisited child's ``Q`` being its parent's mean value for the chooser. Terminal
positions use the game's own result.

:class:`PUCTForest` holds one tree per game in flat numba arrays and runs the
trees in lockstep: :meth:`PUCTForest.select` walks every tree to a leaf,
the caller evaluates all the leaves in **one** batch (one network call), and
:meth:`PUCTForest.expand` adds their children and backs the values up. That
is what makes self-play fast: the network sees a batch of hundreds of
positions instead of one. :class:`PUCTSearch` is the one-tree case over a
per-position evaluator ``f(state) -> (priors, value)``, which
``MCTSPolicy(evaluator=f)`` runs.

Invariant: a tree's nodes ``[0, size)`` are valid; node 0 is the root; the
children of a node are contiguous; ``W`` of a node is summed from the view of
the player who moved into it, so a parent picks the child with the best
``W / N``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import BLACK, EMPTY, makes_win, opponent
from boardgame_envs.games.mnk import GameState
from boardgame_envs.games.renju import forbidden_mask_flat
from boardgame_envs.policies.kernels import R_K, R_N, R_RENJU, exact_win, rules_of

Evaluator = Callable[[GameState], tuple[np.ndarray, float]]
BatchEvaluator = Callable[["PUCTForest", np.ndarray], tuple[np.ndarray, np.ndarray]]

# Columns of the integer and float node tables.
PARENT, MOVE, FIRST, COUNT, OUTCOME = range(5)
VISITS, VALUE_SUM, PRIOR = range(3)
# OUTCOME of a node, for the player who moved into it.
OPEN, WON, DRAWN = 0, 1, 2


@cached_kernel()
def _select(rules, c_puct, roots, root_color, root_last, tree_i, tree_f,
            leaf_node, leaf_board, leaf_color, leaf_last, leaf_legal, leaf_forbidden, pending):  # fmt: skip
    """Walk every tree from its root to a leaf; finish terminal leaves at once.

    For each tree ``b`` that reaches an unexpanded, non-terminal node, fills
    ``leaf_*[b]`` (board, colour to move, last move, legal actions, black's
    forbidden points) and sets ``pending[b]``: that leaf awaits an evaluation.
    """
    n = rules[R_N]
    renju = rules[R_RENJU] != 0
    for b in range(roots.shape[0]):
        board = leaf_board[b]
        board[:] = roots[b]
        color = root_color[b]
        last = root_last[b]
        node = 0
        while tree_i[b, node, COUNT] > 0 and tree_i[b, node, OUTCOME] == OPEN:
            first = tree_i[b, node, FIRST]
            sqrt_n = np.sqrt(max(tree_f[b, node, VISITS], 1.0))
            # An unvisited child starts at the parent's mean value for the chooser (not 0): with a value head
            # sure of a loss, 0 would send the search to every unvisited move instead of the prior's best.
            fpu = -tree_f[b, node, VALUE_SUM] / tree_f[b, node, VISITS] if tree_f[b, node, VISITS] > 0 else 0.0
            best = first
            best_score = -1e300
            for ch in range(first, first + tree_i[b, node, COUNT]):
                visits = tree_f[b, ch, VISITS]
                q = tree_f[b, ch, VALUE_SUM] / visits if visits > 0 else fpu
                score = q + c_puct * tree_f[b, ch, PRIOR] * sqrt_n / (1.0 + visits)
                if score > best_score:
                    best_score = score
                    best = ch
            node = best
            last = tree_i[b, node, MOVE]
            board[last] = color
            color = opponent(color)
        leaf_node[b] = node
        pending[b] = False
        outcome = tree_i[b, node, OUTCOME]
        if outcome == OPEN and tree_i[b, node, COUNT] == 0:
            # A new leaf: its legal moves decide whether it needs the evaluator.
            forbidden = leaf_forbidden[b]
            if renju:
                forbidden_mask_flat(board, n, forbidden)
            else:
                forbidden[:] = False
            count = 0
            for a in range(n * n):
                legal = board[a] == EMPTY and not (color == BLACK and forbidden[a])
                leaf_legal[b, a] = legal
                count += legal
            if count == 0:
                tree_i[b, node, OUTCOME] = DRAWN  # full board, or black with only forbidden points
                outcome = DRAWN
            else:
                leaf_color[b] = color
                leaf_last[b] = last
                pending[b] = True
        if outcome != OPEN:
            # The player to move at a won node has lost; a drawn one scores 0.
            _backup(tree_i[b], tree_f[b], node, -1.0 if outcome == WON else 0.0)


@cached_kernel()
def _backup(nodes_i, nodes_f, node, value):
    """Add ``value`` (for the player to move at ``node``) up the path to the root."""
    while node >= 0:
        value = -value
        nodes_f[node, VISITS] += 1.0
        nodes_f[node, VALUE_SUM] += value
        node = nodes_i[node, PARENT]


@cached_kernel()
def _expand(rules, tree_i, tree_f, sizes, leaf_node, leaf_board, leaf_color, leaf_legal, pending, priors, values):
    """Give each pending leaf its children (priors renormalised over legal moves) and back its value up."""
    n = rules[R_N]
    capacity = tree_i.shape[1]
    for b in range(leaf_node.shape[0]):
        if not pending[b]:
            continue
        node = leaf_node[b]
        color = leaf_color[b]
        board = leaf_board[b]
        exact = exact_win(rules, color)
        stones = 0
        total = 0.0
        count = 0
        for a in range(n * n):
            if board[a] != EMPTY:
                stones += 1
            if leaf_legal[b, a]:
                count += 1
                total += max(priors[b, a], 0.0)
        first = sizes[b]
        if first + count <= capacity:  # a full tree keeps the leaf as a leaf, value still counted
            child = first
            for a in range(n * n):
                if not leaf_legal[b, a]:
                    continue
                tree_i[b, child, PARENT] = node
                tree_i[b, child, MOVE] = a
                tree_i[b, child, FIRST] = -1
                tree_i[b, child, COUNT] = 0
                board[a] = color
                if makes_win(board, n, a, color, rules[R_K], exact):
                    tree_i[b, child, OUTCOME] = WON
                elif stones + 1 == n * n:
                    tree_i[b, child, OUTCOME] = DRAWN
                else:
                    tree_i[b, child, OUTCOME] = OPEN
                board[a] = EMPTY
                tree_f[b, child, VISITS] = 0.0
                tree_f[b, child, VALUE_SUM] = 0.0
                tree_f[b, child, PRIOR] = max(priors[b, a], 0.0) / total if total > 0 else 1.0 / count
                child += 1
            tree_i[b, node, FIRST] = first
            tree_i[b, node, COUNT] = count
            sizes[b] = child
        _backup(tree_i[b], tree_f[b], node, values[b])


class LockstepSearch:
    """The simulation loop of a forest of PUCT trees, searched in lockstep: :class:`PUCTForest` and
    :class:`~boardgame_envs.policies.puct_protocol.ProtocolForest` share it. A forest supplies
    ``select()``, ``expand(priors, values)``, ``add_root_noise(rng, alpha, fraction)``, ``batch`` and ``game``."""

    def search(
        self,
        simulations: int,
        evaluate: BatchEvaluator,
        rng: np.random.Generator | None = None,
        noise: tuple[float, float] | None = None,
        deadline: float | None = None,
    ) -> None:
        """Run ``simulations`` simulations in every tree (roots set with :meth:`set_roots`), or fewer
        when ``time.perf_counter()`` passes ``deadline``.

        ``evaluate(forest, leaves)`` gets the indices of the trees whose leaf
        awaits an evaluation (their positions are in ``leaf_board``,
        ``leaf_color``, ``leaf_last``, ``leaf_legal``, ``leaf_forbidden``) and
        returns ``(priors (len(leaves), n*n), values (len(leaves),))``. The
        first round only expands the roots, so it is not counted; ``noise``
        ``(alpha, fraction)`` is then mixed into the root priors (``rng`` draws it).
        """
        priors = np.zeros((self.batch, self.game.num_actions))
        values = np.zeros(self.batch)
        for i in range(simulations + 1):
            leaves = self.select()
            if leaves.size:
                priors[leaves], values[leaves] = evaluate(self, leaves)
                self.expand(priors, values)
            if i == 0 and noise is not None:
                self.add_root_noise(rng if rng is not None else np.random.default_rng(), *noise)
            if deadline is not None and i > 0 and time.perf_counter() >= deadline:
                break


class PUCTForest(LockstepSearch):
    """One PUCT tree per game, searched in lockstep with batched leaf evaluation.

    Usage: set the roots, then :meth:`search` with a batch evaluator, then
    read :meth:`root_visits`::

        forest = PUCTForest(batch, game, capacity)
        forest.set_roots(states)                      # GameStates, none terminal
        forest.search(simulations, evaluate)          # evaluate(forest, leaves) -> (priors, values)
        counts = forest.root_visits()                 # (batch, n*n)

    :meth:`select` and :meth:`expand` are the two halves of one simulation,
    for callers that drive the loop themselves. ``capacity`` bounds the nodes
    of each tree: ``1 + simulations * n*n`` can never overflow (a tree that
    fills up keeps scoring its leaves without expanding them).
    """

    def __init__(self, batch: int, game, capacity: int, c_puct: float = 1.5) -> None:
        if batch < 1 or capacity < 2:
            raise ValueError(f"need batch >= 1 and capacity >= 2, got {batch}, {capacity}")
        self.game = game
        self.c_puct = float(c_puct)
        self.rules = rules_of(game.new_state())
        a = game.num_actions
        self.tree_i = np.zeros((batch, capacity, 5), dtype=np.int64)
        self.tree_f = np.zeros((batch, capacity, 3), dtype=np.float64)
        self.sizes = np.ones(batch, dtype=np.int64)
        self.roots = np.zeros((batch, a), dtype=np.int8)
        self.root_color = np.full(batch, BLACK, dtype=np.int64)
        self.root_last = np.full(batch, -1, dtype=np.int64)
        self.leaf_node = np.zeros(batch, dtype=np.int64)
        self.leaf_board = np.zeros((batch, a), dtype=np.int8)
        self.leaf_color = np.zeros(batch, dtype=np.int64)
        self.leaf_last = np.zeros(batch, dtype=np.int64)
        self.leaf_legal = np.zeros((batch, a), dtype=np.bool_)
        self.leaf_forbidden = np.zeros((batch, a), dtype=np.bool_)
        self.pending = np.zeros(batch, dtype=np.bool_)

    @property
    def batch(self) -> int:
        return self.roots.shape[0]

    def set_root(self, b: int, state: GameState) -> None:
        """Start tree ``b`` afresh at ``state``."""
        if state.terminal:
            raise ValueError("the game is over: there is nothing to search")
        if state.game != self.game:
            raise ValueError(f"state of {state.game} in a forest of {self.game}")
        self.roots[b] = state.board
        self.root_color[b] = state.to_move
        self.root_last[b] = state.last_move
        self.tree_i[b, 0] = (-1, -1, -1, 0, 0)
        self.tree_f[b, 0] = 0.0
        self.sizes[b] = 1

    def set_roots(self, states: list[GameState]) -> None:
        for b, state in enumerate(states):
            self.set_root(b, state)

    def select(self) -> np.ndarray:
        """Walk each tree to a leaf; returns the indices of trees whose leaf needs an evaluation."""
        _select(self.rules, self.c_puct, self.roots, self.root_color, self.root_last, self.tree_i, self.tree_f,
                self.leaf_node, self.leaf_board, self.leaf_color, self.leaf_last, self.leaf_legal,
                self.leaf_forbidden, self.pending)  # fmt: skip
        return np.flatnonzero(self.pending)

    def expand(self, priors: np.ndarray, values: np.ndarray) -> None:
        """Expand the pending leaves with the evaluator's ``priors`` (batch, n*n) and ``values`` (batch,)."""
        priors = np.ascontiguousarray(priors, dtype=np.float64)
        values = np.ascontiguousarray(values, dtype=np.float64)
        if priors.shape != self.leaf_legal.shape or values.shape != (self.batch,):
            raise ValueError(f"expected priors {self.leaf_legal.shape} and values ({self.batch},), "
                             f"got {priors.shape} and {values.shape}")  # fmt: skip
        _expand(self.rules, self.tree_i, self.tree_f, self.sizes, self.leaf_node, self.leaf_board,
                self.leaf_color, self.leaf_legal, self.pending, priors, values)  # fmt: skip
        self.pending[:] = False

    def add_root_noise(self, rng: np.random.Generator, alpha: float, fraction: float) -> None:
        """Mix ``Dirichlet(alpha)`` noise into the priors of every expanded root."""
        for b in range(self.batch):
            first, count = self.tree_i[b, 0, FIRST], self.tree_i[b, 0, COUNT]
            if count > 0:
                prior = self.tree_f[b, first : first + count, PRIOR]
                prior[:] = (1 - fraction) * prior + fraction * rng.dirichlet(np.full(count, alpha))

    def root_visits(self) -> np.ndarray:
        """Visit counts of each root's children, ``(batch, n*n)``."""
        counts = np.zeros((self.batch, self.game.num_actions))
        for b in range(self.batch):
            first, count = self.tree_i[b, 0, FIRST], self.tree_i[b, 0, COUNT]
            children = slice(first, first + count)
            counts[b, self.tree_i[b, children, MOVE]] = self.tree_f[b, children, VISITS]
        return counts

    def leaf_state(self, b: int) -> GameState:
        """The pending leaf of tree ``b`` as a :class:`GameState` (for per-position evaluators)."""
        return GameState.from_position(self.game, self.leaf_board[b], int(self.leaf_color[b]), int(self.leaf_last[b]))


class PUCTSearch:
    """PUCT on one position with a per-position evaluator ``f(state) -> (priors, value)``.

    Optional Dirichlet noise at the root (``dirichlet_alpha``), for self-play
    exploration.
    """

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

    def run(self, state: GameState, simulations: int, time_limit: float | None = None) -> np.ndarray:
        """Visit counts of the root's actions after ``simulations`` simulations (fewer if ``time_limit``
        seconds run out first), shape ``(n*n,)``."""
        forest = PUCTForest(1, state.game, capacity=1 + simulations * state.game.num_actions, c_puct=self.c_puct)
        forest.set_root(0, state)

        def evaluate(forest: PUCTForest, leaves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            priors, value = self.evaluator(forest.leaf_state(0))
            return np.asarray(priors, dtype=np.float64)[None], np.array([value], dtype=np.float64)

        noise = None if self.dirichlet_alpha is None else (self.dirichlet_alpha, self.dirichlet_fraction)
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        forest.search(simulations, evaluate, self.rng, noise, deadline=deadline)
        return forest.root_visits()[0]
