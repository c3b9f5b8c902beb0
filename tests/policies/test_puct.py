"""PUCT with a uniform evaluator finds a win in one and a forced block on tic-tac-toe."""

from __future__ import annotations

import numpy as np
import pytest

from ascii_boards import state_from
from boardgame_envs import tictactoe_v0
from boardgame_envs.policies import MCTSPolicy
from boardgame_envs.policies.puct import PUCTSearch


def uniform(state):
    return np.ones(state.game.num_actions), 0.0


def test_win_in_one_and_block():
    win = state_from("X X .\nO O .\n. . .", win_length=3)
    visits = PUCTSearch(uniform, rng=np.random.default_rng(0)).run(win, 200)
    assert visits.argmax() == 2
    block = state_from("X . .\nO O .\nX . .", win_length=3)  # X to move must take c2
    visits = PUCTSearch(uniform, rng=np.random.default_rng(0)).run(block, 400)
    assert visits.argmax() == 5


def test_mcts_policy_with_an_evaluator_acts_through_the_env():
    env = tictactoe_v0.env()
    env.reset()
    policy = MCTSPolicy(evaluator=uniform, simulations=50, seed=0)
    action = policy.act(env)
    assert env.observe("player_1")["action_mask"][action] == 1
    assert policy.search(env).sum() == 50


def test_noise_and_terminal():
    state = state_from("X X .\nO O .\n. . .", win_length=3)
    counts = PUCTSearch(uniform, dirichlet_alpha=0.3, rng=np.random.default_rng(1)).run(state, 30)
    assert counts.sum() == 30 and (counts[state.board != 0] == 0).all()
    state.play(2)
    with pytest.raises(ValueError, match="game is over"):
        PUCTSearch(uniform).run(state, 10)
