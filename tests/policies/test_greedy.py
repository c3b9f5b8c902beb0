"""GreedyPolicy: one ply (win, block, extend lines), with a share of random moves."""

from __future__ import annotations

import numpy as np
import pytest

from ascii_boards import env_from
from boardgame_envs.policies.greedy import GreedyPolicy
from boardgame_envs.policies.registry import make_policy


def test_spec_builds_it():
    policy = make_policy("greedy:epsilon=0.25", seed=0)
    assert isinstance(policy, GreedyPolicy) and policy.epsilon == 0.25


@pytest.mark.parametrize("bad", [-0.1, 1.5, "x", True])
def test_bad_epsilon_names_the_value(bad):
    with pytest.raises(ValueError, match="epsilon"):
        GreedyPolicy(epsilon=bad)


def test_takes_a_win_before_blocking_and_blocks_a_four():
    # Black (to move) has four on row 1 (a five at either end: 9 or 14); white has four on row 3.
    env = env_from(
        """
        . . . . . . . . .
        . X X X X . . . .
        . . . . . . . . .
        . O O O O . . . .
        . . . . . . . . X
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O . . . . . . . .
        """,
        rule="freestyle",
    )
    for seed in range(5):
        assert GreedyPolicy(seed=seed).act(env) in (9, 14)
    # Without its own four, black must stop white's: at 27 or 32.
    env = env_from(
        """
        . . . . . . . . .
        . X X . X . . . .
        . . . . . . . . .
        . O O O O . . . .
        . . . . . . . . X
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """,
        rule="freestyle",
    )
    for seed in range(5):
        assert GreedyPolicy(seed=seed).act(env) in (27, 32)


def test_renju_black_never_chooses_a_forbidden_point():
    env = env_from(
        """
        O . . . . . . . O
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . X X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O . . . . . . . O
        """,
        rule="renju",
    )
    # e5 (action 40) would make two open threes, and it is the point that extends both lines most.
    mask = env.observe("black_0")["action_mask"]
    for seed in range(10):
        action = GreedyPolicy(seed=seed).act(env)
        assert action != 40 and mask[action] == 1


def test_epsilon_one_is_uniform_random_and_zero_is_not():
    env = env_from("X . .\n. O .\n. . .")
    picks = {GreedyPolicy(epsilon=1.0, seed=s).act(env) for s in range(60)}
    assert picks == set(np.flatnonzero(env.observe("player_1")["action_mask"]).tolist())
    # The greedy move in tic-tac-toe here: a corner or edge next to X that also cuts O's lines, never all seven.
    assert len({GreedyPolicy(seed=s).act(env) for s in range(60)}) < 7
