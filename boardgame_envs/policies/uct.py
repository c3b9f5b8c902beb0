"""Plain UCT: the textbook Monte Carlo tree search that AlphaZero papers and tutorials measure against.

Each playout walks the tree by UCB1, expands the leaf it reaches into one
child per legal move (every empty point, minus black's forbidden points under
renju), plays uniformly random legal moves from there to the end of the game,
and backs the result up the path: 1 for a win of the player who moved into a
node, 1/2 for a draw, 0 for a loss. A child is chosen by

    mean reward + c * sqrt(ln(parent visits) / child visits),

unvisited children first (in random order), with ``c = sqrt(2)`` by default
(Kocsis and Szepesvari's UCB1 constant for rewards in [0, 1]). The move
played is the most visited child of the root.

Nothing else: no solver, no threat logic, no move pruning, no rollout policy.
That is the point. :class:`~boardgame_envs.policies.mcts.MCTSPolicy` is the
package's stronger search, and differs in four ways: its tree only holds
points within ``radius`` of a stone; its expansion is threat-aware (a move
that wins at once is the only child; facing a threat of five, only the
blocks are children); it is an MCTS-Solver (proven wins are played and proven
losses avoided); and its rewards are -1/0/+1. ``UCTPolicy(playouts=N)`` is
the fixed yardstick ``uct:playouts=N`` that published AlphaZero gomoku
results use ("pure MCTS with N playouts").
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import EMPTY, line_steps, makes_win, opponent
from boardgame_envs.games.protocol import as_family
from boardgame_envs.policies import generic
from boardgame_envs.policies.base import check_budget, game_state_of, random_argmax
from boardgame_envs.policies.kernels import R_K, R_N, allowed, exact_win, random_rollout, rules_of

UCB1_C = math.sqrt(2.0)
NOT_OVER = -1  # ``outcome`` of a node whose position is not a finished game (else the winner, 0 for a draw)


@cached_kernel()
def _expand(node, board, rules, color, size, parent, move, first, count, outcome):
    """Give ``node`` one child per legal move of ``color``, in random order; returns the new tree size.

    A full tree leaves the node a leaf (its playouts still count).
    """
    start = size
    for a in range(board.size):
        if board[a] == EMPTY and allowed(board, rules, a, color):
            if size == parent.shape[0]:
                return start
            parent[size] = node
            move[size] = a
            outcome[size] = NOT_OVER
            size += 1
    m = size - start
    for i in range(m - 1, 0, -1):  # shuffle: ties among unvisited children are broken fairly
        j = np.random.randint(i + 1)
        move[start + i], move[start + j] = move[start + j], move[start + i]
    first[node] = start
    count[node] = m
    if m == 0:
        outcome[node] = 0  # no legal move left: a draw
    return size


@cached_kernel()
def _playouts(root_board, rules, root_color, playouts, c, parent, move, first, count, outcome, visits, reward, seed):
    """Run ``playouts`` UCT playouts from the root (node 0); returns the tree's size."""
    np.random.seed(seed)
    n = rules[R_N]
    k = rules[R_K]
    board = np.empty_like(root_board)
    empties = np.empty(root_board.size, dtype=np.int64)
    path = np.empty(root_board.size + 2, dtype=np.int64)
    stones = np.zeros(3, dtype=np.int64)
    steps, offsets = line_steps(n, k)
    no_windows = np.zeros((n * n, 0), dtype=np.int64)  # no bitboards here: the rollout checks lines by steps
    bits = np.zeros(3, dtype=np.int64)
    root_stones = np.zeros(3, dtype=np.int64)
    for a in range(root_board.size):
        root_stones[root_board[a]] += 1
    size = _expand(0, root_board, rules, root_color, 1, parent, move, first, count, outcome)
    for _ in range(playouts):
        board[:] = root_board
        stones[:] = root_stones
        color = root_color
        node = 0
        depth = 0
        path[0] = 0
        # Selection: UCB1 down to a node that has not been expanded yet (or a finished game).
        while count[node] > 0 and outcome[node] == NOT_OVER:
            log_n = np.log(visits[node])
            best = -1
            best_score = -1.0
            for ch in range(first[node], first[node] + count[node]):
                if visits[ch] == 0:
                    best = ch
                    break
                score = reward[ch] / visits[ch] + c * np.sqrt(log_n / visits[ch])
                if score > best_score:
                    best_score = score
                    best = ch
            node = best
            a = move[node]
            board[a] = color
            stones[color] += 1
            if visits[node] == 0 and stones[color] >= k and makes_win(board, n, a, color, k, exact_win(rules, color)):
                outcome[node] = color
            color = opponent(color)
            depth += 1
            path[depth] = node
        # Expansion and simulation.
        winner = outcome[node]
        if winner == NOT_OVER:
            if visits[node] > 0 or node == 0:
                size = _expand(node, board, rules, color, size, parent, move, first, count, outcome)
            winner = outcome[node]
            if winner == NOT_OVER:
                winner = random_rollout(board, rules, color, empties, stones, bits, steps, offsets, no_windows,
                                        no_windows)  # fmt: skip
        # Backup: each node's reward is for the player who moved into it (the opposite colour of its mover's turn).
        mover = opponent(color)
        for i in range(depth, -1, -1):
            nd = path[i]
            visits[nd] += 1.0
            if winner == 0:
                reward[nd] += 0.5
            elif winner == mover:
                reward[nd] += 1.0
            mover = opponent(mover)
    return size


class UCTPolicy:
    """Plain UCT with uniform random rollouts (see the module docstring): the classic yardstick.

    Args:
        playouts: playouts (tree walks, each ending in one random game) per move.
        c: the UCB1 exploration constant, for rewards in [0, 1] (default ``sqrt(2)``).
        seed: seeds the search, so the same seed plays the same moves.
    """

    name = "uct"

    def __init__(self, playouts: int = 1000, c: float = UCB1_C, seed: int | None = None) -> None:
        check_budget("playouts", playouts)
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not c > 0:
            raise ValueError(f"c must be a positive number, got {c!r}")
        self.playouts = int(playouts)
        self.c = float(c)
        self.rng = np.random.default_rng(seed)

    def search(self, env: Any) -> np.ndarray:
        """Visits of each root move after the playouts, shape ``(num_actions,)`` (zeros off the legal moves)."""
        state = game_state_of(env)
        if as_family(state.game, "mnk") is None:
            # The protocol's UCT: no solver, rewards +1/0/-1, so the constant doubles to keep UCB1's balance.
            return generic.mcts(state, self.playouts, 2.0 * self.c, self.rng, solver=False)[0]
        empties = int(np.count_nonzero(state.board == EMPTY))
        capacity = 1 + (self.playouts + 1) * empties  # each playout expands at most one node
        parent = np.empty(capacity, dtype=np.int32)
        move = np.empty(capacity, dtype=np.int32)
        first = np.zeros(capacity, dtype=np.int32)
        count = np.zeros(capacity, dtype=np.int32)
        outcome = np.full(capacity, NOT_OVER, dtype=np.int8)
        visits = np.zeros(capacity, dtype=np.float64)
        reward = np.zeros(capacity, dtype=np.float64)
        _playouts(state.board.copy(), rules_of(state), state.to_move, self.playouts, self.c, parent, move, first,
                  count, outcome, visits, reward, int(self.rng.integers(2**31)))  # fmt: skip
        out = np.zeros(state.game.num_actions)
        children = slice(first[0], first[0] + count[0])
        out[move[children]] = visits[children]
        return out

    def act(self, state: Any) -> int:
        legal = game_state_of(state).legal_mask()
        if np.count_nonzero(legal) == 1:
            return int(np.flatnonzero(legal)[0])
        return random_argmax(np.where(legal, self.search(state), -1.0), self.rng)
