"""The continuous-four kernel against a plain reference: same answer, same positions visited.

The kernel finds both sides' winning points once a position and looks again
only along the lines through each trial stone. The reference below is the
direct reading of the rule: after every trial stone, scan every candidate
point for a win of either side. On random positions of the three rules, both
must return the same move and spend the same budget (they visit the same
positions in the same order).
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import gomoku_v0
from boardgame_envs.games.lines import EMPTY, opponent
from boardgame_envs.policies.alphabeta_kernels import vcf
from boardgame_envs.policies.kernels import R_N, allowed, candidates, rules_of, wins


def reference_vcf(board, rules, color, max_fours, budget):
    if max_fours <= 0 or budget[0] <= 0:
        return -1
    budget[0] -= 1
    n = int(rules[R_N])
    cand = np.empty(n * n, dtype=np.int64)
    count = candidates(board, n, 2, cand)
    points = [int(b) for b in cand[:count]]
    other = opponent(color)
    for a in points:
        if not allowed(board, rules, a, color):
            continue
        board[a] = color
        mine = [b for b in points if board[b] == EMPTY and wins(board, rules, b, color)]
        result = -1
        if mine:
            theirs = [b for b in points if board[b] == EMPTY and allowed(board, rules, b, other) and wins(board, rules, b, other)]
            if not theirs:
                if len(mine) > 1 or not allowed(board, rules, mine[0], other):
                    result = a
                else:
                    board[mine[0]] = other
                    if reference_vcf(board, rules, color, max_fours - 1, budget) >= 0:
                        result = a
                    board[mine[0]] = EMPTY
        board[a] = EMPTY
        if result >= 0:
            return result
        if budget[0] <= 0:
            return -1
    return -1


def random_positions(rule, games, seed):
    """Positions of random games whose moves stay near the stones (so lines form), none of them over."""
    rng = np.random.default_rng(seed)
    env = gomoku_v0.raw_env(board_size=15, rule=rule)
    for _ in range(games):
        env.reset()
        state = env.game_state
        stop = int(rng.integers(12, 45))
        while state.num_moves < stop and not state.terminal:
            mask = state.legal_mask()
            if state.num_moves:
                cand = np.empty(225, dtype=np.int64)
                near = cand[: candidates(state.board, 15, 1, cand)]
                near = near[mask[near]]
                choices = near if len(near) else np.flatnonzero(mask)
            else:
                choices = np.array([112])
            env.step(int(rng.choice(choices)))
        if not state.terminal:
            yield state


@pytest.mark.parametrize("rule", ["renju", "freestyle", "standard"])
def test_kernel_matches_the_reference(rule):
    found = 0
    for state in random_positions(rule, games=25, seed={"renju": 1, "freestyle": 2, "standard": 3}[rule]):
        rules = rules_of(state)
        for color in (state.to_move, opponent(state.to_move)):
            ours, theirs = np.array([80]), np.array([80])
            board = state.board.copy()
            move = vcf(board, rules, color, 12, ours)
            assert np.array_equal(board, state.board)
            expected = reference_vcf(state.board.copy(), rules, color, 12, theirs)
            assert (move, ours[0]) == (expected, theirs[0]), (rule, state, color)
            found += move >= 0
    assert found >= 5  # the positions hold continuous-four wins, not only empty answers
