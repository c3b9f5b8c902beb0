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

With ``threats=True`` every new leaf (the root too) is first checked by
:func:`~boardgame_envs.policies.threats.leaf_threats`: a win at once, or by
continuous fours within ``vcf_nodes`` positions, proves it without an
evaluation; a four of the opponent's leaves only its blocks as children (none
under renju when black's block is forbidden: a proven loss). Proofs go up the
tree as in MCTS-Solver: a node with a won child is lost for the player who
moved into it, one whose children are all lost is won; selection never enters
a proven loss while another child is open, and a proven node is scored by its
proof instead of being expanded. :meth:`LockstepSearch.root_policy` plays a
proven win at once and gives proven losses no mass; the search stops early
once every root is proven. Without threats the search is the plain one, visit for visit.

Invariant: a tree's nodes ``[0, size)`` are valid; node 0 is the root; the
children of a node are contiguous; ``W`` of a node is summed from the view of
the player who moved into it, so a parent picks the child with the best
``W / N``; ``OUTCOME`` is proven for that player too.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from boardgame_envs.games.lines import BLACK
from boardgame_envs.games.mnk import MNKState
from boardgame_envs.policies.kernels import rules_of
from boardgame_envs.policies.base import check_budget
from boardgame_envs.policies.puct_kernels import (  # noqa: F401 (the node columns and outcomes re-exported)
    COUNT,
    DRAWN,
    FIRST,
    LOST,
    MOVE,
    OPEN,
    OUTCOME,
    PARENT,
    PRIOR,
    VALUE_SUM,
    VISITS,
    WON,
    expand_leaves,
    select_leaves,
)

Evaluator = Callable[[MNKState], tuple[np.ndarray, float]]
BatchEvaluator = Callable[["PUCTForest", np.ndarray], tuple[np.ndarray, np.ndarray]]


class LockstepSearch:
    """The simulation loop of a forest of PUCT trees, searched in lockstep, and what is read from the roots
    afterwards: :class:`PUCTForest` and :class:`~boardgame_envs.policies.puct_protocol.ProtocolForest` share
    it. A forest supplies ``select()`` (of the trees in its boolean array ``active``), ``expand(priors, values)``,
    ``add_root_noise(rng, alpha, fraction, roots)``, ``root_children(b)``, ``root_outcome(b)``, ``threats``,
    ``batch`` and ``game``."""

    threats: bool = False

    def search(
        self,
        simulations: int | np.ndarray,
        evaluate: BatchEvaluator,
        rng: np.random.Generator | None = None,
        noise: tuple[float, float] | None = None,
        deadline: float | None = None,
        noisy: np.ndarray | None = None,
    ) -> None:
        """Run ``simulations`` simulations in every tree (roots set with :meth:`set_roots`), or fewer
        when ``time.perf_counter()`` passes ``deadline``, or, with threats, once every root is decided
        (:meth:`root_decided`).

        ``simulations`` is one count for all trees or an array of one count a tree
        (a tree whose count is spent waits for the others). ``evaluate(forest, leaves)``
        gets the indices of the trees whose leaf
        awaits an evaluation (their positions are in ``leaf_board``,
        ``leaf_color``, ``leaf_last``, ``leaf_legal``, ``leaf_forbidden``) and
        returns ``(priors (len(leaves), n*n), values (len(leaves),))``. The
        first round only expands the roots, so it is not counted; ``noise``
        ``(alpha, fraction)`` is then mixed into the root priors (``rng`` draws it), of the
        trees in the boolean mask ``noisy`` only when it is given.
        """
        budgets = np.broadcast_to(np.asarray(simulations, dtype=np.int64), (self.batch,))
        priors = np.zeros((self.batch, self.game.num_actions))
        values = np.zeros(self.batch)
        self.active[:] = True
        for i in range(int(budgets.max(initial=0)) + 1):
            if i > 0:
                self.active[:] = budgets >= i
            leaves = self.select()
            if leaves.size:
                priors[leaves], values[leaves] = evaluate(self, leaves)
                self.expand(priors, values)
            if i == 0 and noise is not None:
                self.add_root_noise(rng if rng is not None else np.random.default_rng(), *noise, noisy)
            if deadline is not None and i > 0 and time.perf_counter() >= deadline:
                break
            if self.threats and self.roots_decided():
                break  # more simulations would only count the proofs again, or search a forced move
        self.active[:] = True

    def root_children(self, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Tree ``b``'s root children: ``(moves, visits, value sums, priors, outcomes)``, one entry a child
        (value sums from the view of the player to move at the root; outcomes ``OPEN``, ``WON``, ...)."""
        raise NotImplementedError

    def root_mean_value(self, b: int) -> float:
        """Tree ``b``'s root mean value for the player to move there (after the first round: the evaluator's)."""
        raise NotImplementedError

    def root_outcome(self, b: int) -> int:
        """Tree ``b``'s root as proven, for the player who moved into it (``OPEN``, ``WON``, ``LOST``, ``DRAWN``)."""
        raise NotImplementedError

    def root_decided(self, b: int) -> bool:
        """Whether tree ``b``'s move is decided: its root proven, or left one child (a forced block)."""
        return self.root_outcome(b) != OPEN or len(self.root_children(b)[0]) == 1

    def roots_decided(self) -> bool:
        return all(self.root_decided(b) for b in range(self.batch))

    def root_visits(self) -> np.ndarray:
        """Visit counts of each root's children, ``(batch, num_actions)``."""
        counts = np.zeros((self.batch, self.game.num_actions))
        for b in range(self.batch):
            moves, visits, *_ = self.root_children(b)
            counts[b, moves] = visits
        return counts

    def proven_values(self) -> np.ndarray:
        """Each root's proven value for the player to move, ``(batch,)``: 1 won, -1 lost, 0 drawn, NaN unproven."""
        proven = {OPEN: np.nan, WON: -1.0, LOST: 1.0, DRAWN: 0.0}
        return np.array([proven[self.root_outcome(b)] for b in range(self.batch)])

    def root_policy(self) -> np.ndarray:
        """The distribution to play from, ``(batch, num_actions)``: the visit shares of the root's children.

        With threats, a proven win is played at once (all the mass on a won
        child, the most visited if several) and proven losses get no mass
        while any other move is left. A root without visits falls back on its priors.
        """
        out = np.zeros((self.batch, self.game.num_actions))
        for b in range(self.batch):
            moves, visits, _, priors, outcomes = self.root_children(b)
            if self.threats:
                won = outcomes == WON
                if won.any():
                    out[b, moves[won][np.argmax(visits[won])]] = 1.0
                    continue
                alive = outcomes != LOST
                if alive.any():
                    visits, priors = np.where(alive, visits, 0.0), np.where(alive, priors, 0.0)
            total = visits.sum()
            out[b, moves] = visits / total if total > 0 else priors / priors.sum()
        return out


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
    fills up keeps scoring its leaves without expanding them). ``threats`` turns
    on the threat check and the solver (see the module), ``vcf_nodes`` the
    continuous-four search within it (positions a leaf, 0: none); read the
    result with :meth:`root_policy` and :meth:`proven_values`.
    """

    def __init__(self, batch: int, game, capacity: int, c_puct: float = 1.5, threats: bool = False,
                 vcf_nodes: int = 0) -> None:  # fmt: skip
        if batch < 1 or capacity < 2:
            raise ValueError(f"need batch >= 1 and capacity >= 2, got {batch}, {capacity}")
        self.threats, self.vcf_nodes = check_threats(threats, vcf_nodes)
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
        self.blocks = np.zeros((batch, a), dtype=np.int64)  # scratch of the threat check
        self.active = np.ones(batch, dtype=np.bool_)  # the trees select() walks
        self.root_move = np.full(batch, -1, dtype=np.int64)  # a root child chosen by the caller, -1: PUCT's

    @property
    def batch(self) -> int:
        return self.roots.shape[0]

    def set_root(self, b: int, state: MNKState) -> None:
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

    def set_roots(self, states: list[MNKState]) -> None:
        for b, state in enumerate(states):
            self.set_root(b, state)

    def select(self) -> np.ndarray:
        """Walk each tree to a leaf; returns the indices of trees whose leaf needs an evaluation."""
        select_leaves(self.rules, self.c_puct, self.vcf_nodes if self.threats else -1, self.active, self.root_move,
                      self.roots, self.root_color, self.root_last, self.tree_i, self.tree_f, self.sizes, self.leaf_node,
                      self.leaf_board, self.leaf_color, self.leaf_last, self.leaf_legal, self.leaf_forbidden,
                      self.pending, self.blocks)  # fmt: skip
        return np.flatnonzero(self.pending)

    def expand(self, priors: np.ndarray, values: np.ndarray) -> None:
        """Expand the pending leaves with the evaluator's ``priors`` (batch, n*n) and ``values`` (batch,)."""
        priors = np.ascontiguousarray(priors, dtype=np.float64)
        values = np.ascontiguousarray(values, dtype=np.float64)
        if priors.shape != self.leaf_legal.shape or values.shape != (self.batch,):
            raise ValueError(f"expected priors {self.leaf_legal.shape} and values ({self.batch},), "
                             f"got {priors.shape} and {values.shape}")  # fmt: skip
        expand_leaves(self.rules, self.threats, self.tree_i, self.tree_f, self.sizes, self.leaf_node, self.leaf_board,
                self.leaf_color, self.leaf_legal, self.pending, priors, values)  # fmt: skip
        self.pending[:] = False

    def add_root_noise(self, rng: np.random.Generator, alpha: float, fraction: float,
                       roots: np.ndarray | None = None) -> None:  # fmt: skip
        """Mix ``Dirichlet(alpha)`` noise into the priors of every expanded root (of those in the mask ``roots``)."""
        for b in range(self.batch):
            first, count = self.tree_i[b, 0, FIRST], self.tree_i[b, 0, COUNT]
            if count > 0 and (roots is None or roots[b]):
                prior = self.tree_f[b, first : first + count, PRIOR]
                prior[:] = (1 - fraction) * prior + fraction * rng.dirichlet(np.full(count, alpha))

    def root_children(self, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        first, count = self.tree_i[b, 0, FIRST], self.tree_i[b, 0, COUNT]
        children = slice(first, first + count) if count > 0 else slice(0, 0)
        i, f = self.tree_i[b, children], self.tree_f[b, children]
        return i[:, MOVE], f[:, VISITS], f[:, VALUE_SUM], f[:, PRIOR], i[:, OUTCOME]

    def root_outcome(self, b: int) -> int:
        return int(self.tree_i[b, 0, OUTCOME])

    def roots_decided(self) -> bool:
        root = self.tree_i[:, 0]
        return bool(((root[:, OUTCOME] != OPEN) | (root[:, COUNT] == 1)).all())

    def root_mean_value(self, b: int) -> float:
        visits = self.tree_f[b, 0, VISITS]
        return float(-self.tree_f[b, 0, VALUE_SUM] / visits) if visits > 0 else 0.0

    def leaf_state(self, b: int) -> MNKState:
        """The pending leaf of tree ``b`` as an :class:`MNKState` (for per-position evaluators)."""
        return MNKState.from_position(self.game, self.leaf_board[b], int(self.leaf_color[b]), int(self.leaf_last[b]))


def check_threats(threats: bool, vcf_nodes: int) -> tuple[bool, int]:
    """The forests' threat options, checked: ``vcf_nodes`` is a budget of positions, and needs ``threats``."""
    if not isinstance(threats, bool):
        raise TypeError(f"threats must be True or False, got {threats!r}")
    check_budget("vcf_nodes", vcf_nodes, allow_zero=True)
    if vcf_nodes > 0 and not threats:
        raise ValueError(f"vcf_nodes={vcf_nodes} needs threats=True: the continuous-four search is part of "
                         "the threat check")  # fmt: skip
    return threats, int(vcf_nodes)


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

    def run(self, state: MNKState, simulations: int, time_limit: float | None = None) -> np.ndarray:
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
