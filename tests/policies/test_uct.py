"""UCTPolicy: plain UCT over every legal point, with random rollouts and nothing else."""

from __future__ import annotations

import numpy as np
import pytest

from ascii_boards import env_from
from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.policies.mcts import MCTSPolicy
from boardgame_envs.policies.registry import make_policy
from boardgame_envs.policies.uct import UCB1_C, UCTPolicy


def test_spec_builds_it():
    policy = make_policy("uct:playouts=300", seed=0)
    assert isinstance(policy, UCTPolicy) and policy.playouts == 300 and policy.c == UCB1_C


@pytest.mark.parametrize("bad", [{"playouts": 0}, {"playouts": 2.5}, {"playouts": True}, {"c": 0}, {"c": "x"}])
def test_bad_arguments_name_the_value(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        UCTPolicy(**bad)


def test_every_empty_point_is_a_child_unlike_mcts():
    env = gomoku_v0.env(board_size=8, rule="freestyle")
    env.reset()
    env.step(27)
    env.step(36)
    # 62 empty points and 200 playouts: unvisited children come first, so each gets a playout,
    # and every playout passes through exactly one root child.
    visits = UCTPolicy(playouts=200, seed=0).search(env)
    assert (visits[[27, 36]] == 0).all() and (np.delete(visits, [27, 36]) >= 1).all()
    assert visits.sum() == 200
    # MCTSPolicy's tree stops two points from the stones: the far corner is never searched.
    assert MCTSPolicy(simulations=200, seed=0).search(env)[63] == 0


def test_renju_forbidden_points_are_never_children():
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
    # Black to move; e5 makes two open threes (c5-e5 and e7-e5): a double-three, forbidden.
    assert env.observe("black_0")["action_mask"][40] == 0
    visits = UCTPolicy(playouts=400, seed=1).search(env)
    assert visits[40] == 0 and visits.sum() == 400


def test_takes_the_win_and_blocks_in_tictactoe():
    win = env_from(
        """
        X X .
        O O .
        X . O
        """
    )
    assert UCTPolicy(playouts=500, seed=1).act(win) == 2
    block = env_from(
        """
        X . .
        O O .
        X . .
        """
    )
    # X to move has no win; O threatens b3 (row 1 complete at index 5).
    assert UCTPolicy(playouts=500, seed=1).act(block) == 5


def test_legal_unchanged_and_reproducible():
    def game(seed):
        env = tictactoe_v0.env()
        env.reset()
        a, b = UCTPolicy(playouts=100, seed=seed), UCTPolicy(playouts=100, seed=seed + 1)
        moves = []
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            before = env.unwrapped.state().copy()
            action = (a if agent == "player_1" else b).act(env)
            assert env.observe(agent)["action_mask"][action] == 1
            assert (env.unwrapped.state() == before).all()
            moves.append(action)
            env.step(action)
        return moves

    assert game(5) == game(5)
