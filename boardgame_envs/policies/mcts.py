"""Monte Carlo tree search: UCT with random rollouts, an MCTS-Solver, all in numba.

The tree lives in flat arrays (one row per node) and a simulation is one
njit call's loop iteration, so a tic-tac-toe search runs hundreds of
thousands of simulations a second. Proven results are backed up (a child
that wins for the player choosing it proves the parent lost for the player
who moved into it; a node whose children all lose is won), so a won position
is played out and a proven loss is never chosen while something else is
left. Expansion is threat-aware: a move that wins at once is the only child,
and if the opponent threatens to win, only the blocks are children.

With ``evaluator=`` the search becomes PUCT over a per-position value/prior
function (``boardgame_envs.policies.puct``, the search the AlphaZero trainer
runs in batches). On games without the m,n,k kernels (connect four) the same
arguments run the protocol's MCTS-Solver (:mod:`boardgame_envs.policies.generic`).
Under a tournament opening rule it takes the opening's decisions by the root
value of a short search of each position it weighs (the evaluator's value with
an evaluator; :mod:`~boardgame_envs.policies.opening_phase`), and searches the
base game once play begins.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from boardgame_envs.games.compile_notice import compile_notice
from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import EMPTY, line_steps, line_windows, opponent
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.protocol import as_family
from boardgame_envs.policies import generic, opening_phase
from boardgame_envs.policies.base import check_budget, check_positive, check_positive_int, game_state_of, random_argmax
from boardgame_envs.policies.kernels import (
    R_K,
    R_N,
    allowed,
    candidates,
    exact_win,
    place,
    rollout_on,
    rules_of,
    wins_both_placed,
)

UNKNOWN, WON, LOST = 0, 1, -1  # proof of a node, for the player who moved into it
LEAF, EXPANDED, TERMINAL = 0, 1, 2
DEFAULT_RADIUS = 2  # tree children: empty points within 2 of a stone (all points on boards up to 5x5)
EVALUATOR_CAP = 2_000  # PUCT simulations under a time limit alone (its tree is sized for this many)
OPENING_SHARE = 32  # a position weighed in an opening decision gets this share of a move's simulations ...
OPENING_MIN_SIMULATIONS = 32  # ... and at least this many


@cached_kernel()
def _expand(node, board, rules, color, radius, tree_i, tree_f, size, cand, moves, block, stones, bits, steps, offsets,
            masks, ends, on_bits):  # fmt: skip
    """Create the children of ``node`` (``color`` to move); returns ``(new tree size, children made)``.

    ``cand``, ``moves`` and ``block`` are work arrays of the board's size (rows of one
    array made once by the caller: a view taken per call costs reference counting).
    ``stones[c]`` counts colour ``c``'s stones: a colour with fewer than
    ``k - 1`` can neither win at once nor need blocking, so no line is checked.
    ``bits`` are the bitboards, used if ``on_bits`` (see :func:`~boardgame_envs.policies.kernels.place`);
    ``steps, offsets`` and ``masks, ends`` the board's
    :func:`~boardgame_envs.games.lines.line_steps` and :func:`~boardgame_envs.games.lines.line_windows`.
    """
    n = rules[R_N]
    count = candidates(board, n, radius, cand)
    m = 0
    b = 0
    can_win = stones[color] >= rules[R_K] - 1
    can_lose = stones[opponent(color)] >= rules[R_K] - 1
    k = rules[R_K]
    exact = exact_win(rules, color)
    exact_other = exact_win(rules, opponent(color))
    winning = False
    for i in range(count):
        a = cand[i]
        if not allowed(board, rules, a, color):
            continue
        win = False
        block_here = False
        if can_win or can_lose:
            # Both colours' lines through ``a`` at once: the win and block tests were
            # most of an expansion's cost (two line checks per candidate).
            win, block_here = wins_both_placed(board, bits, steps, offsets, masks, ends, a, color, k, exact,
                                               exact_other, on_bits)  # fmt: skip
        if can_win and win:
            moves[0] = a  # a win at once is the only move worth a child
            m = 1
            b = 0
            winning = True
            break
        moves[m] = a
        m += 1
        if can_lose and block_here:
            block[b] = a
            b += 1
    if b > 0:
        for i in range(b):
            moves[i] = block[i]
        m = b
    if m == 0 or size + m > tree_i.shape[0]:
        return size, m
    # Children in random order, so ties among unvisited ones are broken fairly.
    for i in range(m - 1, 0, -1):
        j = np.random.randint(i + 1)
        moves[i], moves[j] = moves[j], moves[i]
    first = size
    for i in range(m):
        child = size
        a = moves[i]
        tree_i[child, 0] = node  # parent
        tree_i[child, 1] = a  # move
        tree_i[child, 2] = -1  # first child
        tree_i[child, 3] = 0  # number of children
        tree_i[child, 4] = color  # mover
        tree_i[child, 5] = LEAF
        tree_i[child, 6] = UNKNOWN
        tree_f[child, 0] = 0.0  # visits
        tree_f[child, 1] = 0.0  # value sum for the mover
        tree_f[child, 2] = 0.0  # mean value (sum / visits), kept by the backup
        tree_f[child, 3] = 0.0  # 1 / sqrt(visits), kept by the backup
        if winning:  # the only child: the win found above
            tree_i[child, 5] = TERMINAL
            tree_i[child, 6] = WON
        size += 1
    tree_i[node, 2] = first
    tree_i[node, 3] = m
    tree_i[node, 5] = EXPANDED
    return size, m


@cached_kernel()
def _simulate(root_board, rules, root_color, sims, c, radius, tree_i, tree_f, size, seed):
    """Run ``sims`` simulations on the tree in ``tree_i``/``tree_f``; returns the new tree size.

    The line checks use bitboards on boards that have them (up to 7x7: on tic-tac-toe most of a
    simulation's time went to line checks and their mispredicted branches), else step tables.
    The loop and its rollout are compiled once for each way (tic-tac-toe ~650 -> ~500 ns a
    simulation against one loop that chose per check); :func:`_expand` stays one function
    with a flag: inlined too, it made tic-tac-toe ~10% faster but 15x15 ~2% slower and the
    compilation ~30% longer.
    """
    masks, ends = line_windows(rules[R_N], rules[R_K])
    if masks.shape[1] > 0:
        return _simulations(root_board, rules, root_color, sims, c, radius, tree_i, tree_f, size, seed, masks, ends,
                            True)  # fmt: skip
    return _simulations(root_board, rules, root_color, sims, c, radius, tree_i, tree_f, size, seed, masks, ends,
                        False)  # fmt: skip


@cached_kernel(inline="always")
def _simulations(root_board, rules, root_color, sims, c, radius, tree_i, tree_f, size, seed, masks, ends, on_bits):
    """:func:`_simulate`'s loop, on the bitboards if ``on_bits`` (a constant at each of its two call sites)."""
    np.random.seed(seed)
    path = np.empty(root_board.size + 2, dtype=np.int64)
    board = np.empty_like(root_board)
    scratch = np.empty((3, root_board.size), dtype=np.int64)
    # Row views made once for the whole call: a view taken per simulation costs reference counting.
    cand, moves, block = scratch[0], scratch[1], scratch[2]
    root_stones = np.zeros(3, dtype=np.int64)
    for a in range(root_board.size):
        root_stones[root_board[a]] += 1
    stones = np.empty(3, dtype=np.int64)
    steps, offsets = line_steps(rules[R_N], rules[R_K])  # the line checks' geometry, once a call
    root_bits = np.zeros(3, dtype=np.int64)
    for a in range(root_board.size):
        if root_board[a] != EMPTY:
            place(board, root_bits, a, root_board[a], on_bits)  # ``board`` is overwritten before use
    bits = np.empty(3, dtype=np.int64)
    for _ in range(sims):
        if tree_i[0, 6] != UNKNOWN:
            break  # the root is proven: nothing left to learn
        board[:] = root_board
        stones[:] = root_stones
        bits[:] = root_bits
        color = root_color
        node = 0
        depth = 0
        path[0] = 0
        while tree_i[node, 5] == EXPANDED:
            first = tree_i[node, 2]
            best = -1
            best_score = -1e300
            # UCT: mean + c * sqrt(ln N / v), as mean + (c * sqrt(ln N)) * (1 / sqrt(v)) with the
            # per-child terms kept by the backup: no division or root per child here.
            scale = c * np.sqrt(np.log(max(tree_f[node, 0], 1.0)))
            for ch in range(first, first + tree_i[node, 3]):
                proof = tree_i[ch, 6]
                if proof == WON:
                    best = ch
                    break
                if proof == LOST:
                    continue
                score = 1e200 if tree_f[ch, 0] == 0 else tree_f[ch, 2] + scale * tree_f[ch, 3]
                if score > best_score:
                    best_score = score
                    best = ch
            if best < 0:
                break  # every child proven lost: the proof step below marks this node
            node = best
            place(board, bits, tree_i[node, 1], color, on_bits)
            stones[color] += 1
            color = opponent(color)
            depth += 1
            path[depth] = node
        winner = 0
        if tree_i[node, 5] == TERMINAL:
            winner = tree_i[node, 4] if tree_i[node, 6] == WON else 0
        elif tree_i[node, 5] == LEAF:
            size, m = _expand(node, board, rules, color, radius, tree_i, tree_f, size, cand, moves, block, stones,
                              bits, steps, offsets, masks, ends, on_bits)  # fmt: skip
            if m == 0:
                tree_i[node, 5] = TERMINAL  # no legal move: a draw
            else:
                winner = rollout_on(board, rules, color, cand, stones, bits, steps, offsets, masks, ends, on_bits)
        else:
            winner = 0
        for i in range(depth, -1, -1):
            nd = path[i]
            v = tree_f[nd, 0] + 1.0
            tree_f[nd, 0] = v
            mover = tree_i[nd, 4]
            if winner == mover:
                tree_f[nd, 1] += 1.0
            elif winner != 0:
                tree_f[nd, 1] -= 1.0
            tree_f[nd, 2] = tree_f[nd, 1] / v
            tree_f[nd, 3] = 1.0 / np.sqrt(v)
        # MCTS-Solver: push proofs up the path as far as they go.
        for i in range(depth, -1, -1):
            nd = path[i]
            if tree_i[nd, 5] != EXPANDED:
                continue
            first = tree_i[nd, 2]
            all_lost = True
            any_won = False
            for ch in range(first, first + tree_i[nd, 3]):
                if tree_i[ch, 6] == WON:
                    any_won = True
                    break
                if tree_i[ch, 6] != LOST:
                    all_lost = False
            if any_won:
                tree_i[nd, 6] = LOST
            elif all_lost:
                tree_i[nd, 6] = WON
            else:
                break
    return size


# Measured on the development machine (2 cores, shared): the kernels' one compilation (the loop is
# compiled twice, bitboards and steps: 11.0 s against 5.4 for one loop, `bench firstmove --cold`, load 1).
COMPILE_S = 20
_loaded = False


def _load_kernels() -> None:
    """Load the search kernels from numba's cache, or compile them once and say so, before a first search.

    One simulation on an empty 3x3 board, with the argument types of every search.
    """
    global _loaded
    if not _loaded:
        with compile_notice("the MCTS kernels", COMPILE_S):
            state = MNKGame(3, 3).new_state()
            tree_i = np.zeros((16, 7), dtype=np.int64)
            tree_f = np.zeros((16, 4), dtype=np.float64)
            tree_i[0] = (-1, -1, -1, 0, 2, LEAF, UNKNOWN)
            _simulate(state.board.copy(), rules_of(state), 1, 1, 1.4, 3, tree_i, tree_f, 1, 0)
        _loaded = True


class MCTSPolicy:
    """UCT with random rollouts and MCTS-Solver; PUCT over ``evaluator`` when one is given.

    Args:
        simulations: simulations per move (default 2000); with ``time_limit``
            it is the cap, and ``None`` means "as many as time allows".
        time_limit: seconds per move, or None (the default) for a fixed count.
        c: UCT exploration constant.
        radius: tree children are empty points within this distance of a stone
            (default 2; rollout search only: with an evaluator its priors choose).
        evaluator: ``f(state) -> (priors, value)`` for PUCT instead of rollouts;
            ``time_limit`` applies to it too, with at most :data:`EVALUATOR_CAP`
            simulations when ``simulations`` is None.
        seed: seeds the search, so the same seed plays the same moves
            (for a fixed simulation count).
    """

    name = "mcts"

    def __init__(
        self,
        simulations: int | None = 2000,
        time_limit: float | None = None,
        c: float = 1.4,
        radius: int | None = None,
        evaluator: Callable | None = None,
        seed: int | None = None,
    ) -> None:
        if simulations is None and time_limit is None:
            raise ValueError("give simulations, time_limit or both")
        check_budget("simulations", simulations, allow_none=True)
        check_budget("time_limit", time_limit, allow_none=True)
        check_positive("c", c)
        check_positive_int("radius", radius, allow_none=True)
        if evaluator is not None and radius is not None:
            raise ValueError("radius limits the rollout search's children; with an evaluator its priors choose them")
        self.simulations = None if simulations is None else int(simulations)
        self.time_limit = time_limit
        self.c = float(c)  # one compiled specialization of the kernels, whatever number type c is
        self.radius = DEFAULT_RADIUS if radius is None else int(radius)
        self.evaluator = evaluator
        self.rng = np.random.default_rng(seed)
        self.last_simulations = 0
        self._opening_cache: dict = {}

    def _generic(self, state: Any) -> bool:
        """Whether ``state`` is of a game without the m,n,k kernels: then the protocol's search runs (``generic``)."""
        if as_family(state.game, "mnk") is not None:
            return False
        if self.evaluator is not None or self.simulations is None:
            raise ValueError(
                f"{state.game.name}: MCTS with an evaluator or a time limit alone needs the m,n,k kernels; "
                "give simulations=N (and no evaluator) for this game"
            )
        return True

    def search(self, env: Any) -> np.ndarray:
        """Visit counts of the root's children, shape ``(num_actions,)`` (zeros elsewhere).

        Under an opening rule: during the opening, 1 for the decision :meth:`act`
        takes (it searches no tree there); then the base game's counts on the points.
        """
        state = game_state_of(env)
        if opening_phase.pending(state):
            counts = np.zeros(state.game.num_actions)
            counts[self._opening_decision(state)] = 1.0
            return counts
        inner = opening_phase.playing_state(state)
        counts = self._visits(inner)
        if inner is not state:
            counts = np.concatenate([counts, np.zeros(state.game.num_actions - counts.size)])
        return counts

    def _visits(self, state: Any) -> np.ndarray:
        """:meth:`search` in a game's normal play."""
        if self._generic(state):
            return generic.mcts(state, self.simulations, self.c, self.rng)[0]
        if self.evaluator is not None:
            from boardgame_envs.policies.puct import PUCTSearch

            search = PUCTSearch(self.evaluator, c_puct=self.c, rng=self.rng)
            return search.run(state, self.simulations or EVALUATOR_CAP, time_limit=self.time_limit)
        visits, _ = self._search(state)
        return visits

    def act(self, state: Any) -> int:
        state = game_state_of(state)  # an env stands for its state
        if opening_phase.pending(state):
            return self._opening_decision(state)
        return self._move(opening_phase.playing_state(state))

    def _opening_decision(self, state: Any) -> int:
        return opening_phase.decide(state, self._opening_value, self.rng, self._opening_cache, self._move)

    def _opening_value(self, base: Any) -> float:
        """A base position's value in [-1, 1] for its colour to move: the evaluator's, else a short search's root."""
        if self.evaluator is not None:
            return float(self.evaluator(base)[1])
        _load_kernels()
        sims = max(OPENING_MIN_SIMULATIONS, (self.simulations or EVALUATOR_CAP) // OPENING_SHARE)
        n = base.game.size
        tree_i = np.zeros((1 + sims * n * n, 7), dtype=np.int64)
        tree_f = np.zeros((1 + sims * n * n, 4), dtype=np.float64)
        tree_i[0] = (-1, -1, -1, 0, opponent(base.to_move), LEAF, UNKNOWN)
        _simulate(base.board.copy(), rules_of(base), base.to_move, sims, self.c, self.radius if n > 5 else n,
                  tree_i, tree_f, 1, int(self.rng.integers(2**31)))  # fmt: skip
        if tree_i[0, 6] != UNKNOWN:  # proven for the player who moved into the root
            return -1.0 if tree_i[0, 6] == WON else 1.0
        return -tree_f[0, 1] / max(tree_f[0, 0], 1.0)

    def _move(self, state: Any) -> int:
        """The searched move in ``state`` (a game's normal play)."""
        if self._generic(state):
            return generic.mcts_move(state, self.simulations, self.c, self.rng)
        if self.evaluator is not None:
            return random_argmax(self._visits(state), self.rng)
        visits, proofs = self._search(state)
        won = np.flatnonzero(proofs == WON)
        if won.size:
            return int(won[self.rng.integers(len(won))])
        pool = np.where(self._children & (proofs != LOST), visits, -1.0)
        if pool.max() < 0:  # every move is a proven loss: take the most visited anyway
            pool = np.where(self._children, visits, -1.0)
        return random_argmax(pool, self.rng)

    def _search(self, state) -> tuple[np.ndarray, np.ndarray]:
        _load_kernels()  # before the clock of a timed search starts
        rules = rules_of(state)
        n = state.game.size
        radius = self.radius if n > 5 else n
        budget = self.simulations if self.simulations is not None else 10**9
        capacity = 1 + min(budget, 20_000) * n * n if self.time_limit is None else 2_000_000
        # Uninitialised: the kernels write every field of a row when they make its node, and read
        # no row beyond the tree's size (zeroing ~0.8 MB cost ~9 us a move, ~1% of a tic-tac-toe search).
        tree_i = np.empty((capacity, 7), dtype=np.int64)
        tree_f = np.empty((capacity, 4), dtype=np.float64)
        tree_i[0] = (-1, -1, -1, 0, opponent(state.to_move), LEAF, UNKNOWN)
        tree_f[0] = 0.0
        size = 1
        board = state.board.copy()
        done = 0
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        chunk = budget if deadline is None else 256
        while done < budget:
            step = min(chunk, budget - done)
            size = _simulate(board, rules, state.to_move, step, self.c, radius, tree_i, tree_f, size,
                             int(self.rng.integers(2**31)))  # fmt: skip
            done += step
            if tree_i[0, 6] != UNKNOWN or (deadline is not None and time.perf_counter() >= deadline):
                break
        self.last_simulations = done
        visits = np.zeros(n * n)
        proofs = np.zeros(n * n, dtype=np.int64)
        self._children = np.zeros(n * n, dtype=bool)
        children = slice(tree_i[0, 2], tree_i[0, 2] + tree_i[0, 3])  # the root's children (distinct moves)
        moves = tree_i[children, 1]
        visits[moves] = tree_f[children, 0]
        proofs[moves] = tree_i[children, 6]
        self._children[moves] = True
        return visits, proofs
