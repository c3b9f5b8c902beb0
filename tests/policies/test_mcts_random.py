"""RandomPolicy and MCTSPolicy: legality, reproducibility, must-win/must-block, solver."""

from __future__ import annotations

import numpy as np

import pytest

from ascii_boards import env_from
from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.policies.mcts import EVALUATOR_CAP, MCTSPolicy
from boardgame_envs.policies.perfect import PerfectPolicy
from boardgame_envs.policies.random import RandomPolicy




@pytest.mark.parametrize("policy", [RandomPolicy(seed=0), MCTSPolicy(seed=0, simulations=200)])
def test_act_is_legal_and_leaves_env_unchanged(policy):
    env = gomoku_v0.env(board_size=9, rule="renju")
    env.reset()
    for _ in range(12):
        before = (env.unwrapped.state(), env.agent_selection, dict(env.rewards))
        action = policy.act(env)
        assert env.observe(env.agent_selection)["action_mask"][action] == 1
        assert (env.unwrapped.state() == before[0]).all() and env.agent_selection == before[1]
        env.step(action)


def test_same_seed_same_moves():
    for make in (lambda: MCTSPolicy(seed=3, simulations=300), lambda: RandomPolicy(seed=3)):
        moves = []
        for _ in range(2):
            env = gomoku_v0.env(board_size=7, win_length=4)
            env.reset()
            a, b = make(), make()
            seq = []
            for agent in env.agent_iter():
                _, _, term, trunc, _ = env.last()
                action = None if term or trunc else (a if agent == "black_0" else b).act(env)
                seq.append(action)
                env.step(action)
            moves.append(seq)
        assert moves[0] == moves[1]


def test_mcts_takes_the_win_and_blocks():
    win = env_from(
        """
        X X .
        O O .
        X . O
        """
    )
    # Three stones each, so X moves: c3 completes the top row.
    assert MCTSPolicy(seed=1, simulations=50).act(win) == 2
    block = env_from(
        """
        . . . . . . .
        . . . . . . .
        . O O O . . .
        . X X . . . .
        . . . . . . .
        . . . . . X .
        . . . . . . .
        """,
        win_length=4,
    )
    # Four in a row; black to move, no win of its own. White's open three b5-d5
    # threatens a5 and e5: only those two moves keep the game going a move longer.
    assert MCTSPolicy(seed=1, simulations=300).act(block) in (14, 18)


def test_solver_proves_the_win_and_plays_it():
    env = env_from(
        """
        X . .
        . O .
        . . X
        """
    )
    # O to move after X a3, O b2, X c1: a corner loses to a fork; only an edge draws.
    policy = MCTSPolicy(seed=0, simulations=5000)
    action = policy.act(env)
    assert action in (1, 3, 5, 7)  # only an edge holds the draw for O


def test_mcts_never_loses_to_perfect_play_in_seeded_games():
    for game in range(24):
        env = tictactoe_v0.env()
        env.reset()
        mcts_first = game % 2 == 0
        players = {
            "player_1": MCTSPolicy(seed=game) if mcts_first else PerfectPolicy(seed=game),
            "player_2": PerfectPolicy(seed=game) if mcts_first else MCTSPolicy(seed=game),
        }
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else players[agent].act(env))
        winner = env.unwrapped.game_state.winner
        assert winner == 0, f"game {game}: MCTS lost"


def test_bad_arguments_and_terminal_positions():
    with pytest.raises(ValueError, match="simulations"):
        MCTSPolicy(simulations=0)
    with pytest.raises(ValueError, match="give simulations, time_limit or both"):
        MCTSPolicy(simulations=None)
    env = tictactoe_v0.raw_env()
    env.reset()
    for a in (0, 3, 1, 4, 2):
        env.step(a)
    with pytest.raises(ValueError, match="game is over"):
        MCTSPolicy().act(env)
    with pytest.raises(TypeError, match="boardgame_envs AEC env"):
        RandomPolicy().act(object())


def _uniform(state):
    n = state.game.num_actions
    return np.full(n, 1.0 / n), 0.0


def test_an_evaluator_search_keeps_its_time_limit():
    env = gomoku_v0.raw_env(board_size=9, rule="freestyle")
    env.reset()
    MCTSPolicy(simulations=20, evaluator=_uniform).search(env)  # compile first
    full = MCTSPolicy(simulations=None, time_limit=60.0, evaluator=_uniform, seed=0).search(env)
    assert full.sum() == EVALUATOR_CAP  # no simulation count: the cap, well inside a minute
    timed = MCTSPolicy(simulations=None, time_limit=0.005, evaluator=_uniform, seed=0).search(env)
    assert 0 < timed.sum() < EVALUATOR_CAP


def test_an_evaluator_refuses_a_radius():
    with pytest.raises(ValueError, match="radius"):
        MCTSPolicy(evaluator=_uniform, radius=3)


@pytest.mark.parametrize("kwargs", [{"simulations": 2.5}, {"radius": 1.5}, {"simulations": True}])
def test_integer_arguments_must_be_integers(kwargs):
    with pytest.raises(ValueError, match="positive integer"):
        MCTSPolicy(**kwargs)


def test_numpy_integer_simulations():
    assert MCTSPolicy(simulations=np.int64(50)).simulations == 50
