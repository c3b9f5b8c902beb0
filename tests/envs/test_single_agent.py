"""The Gymnasium view: checkers, rewards on the opponent's winning reply, seeds, illegal actions."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import boardgame_envs  # noqa: F401
from boardgame_envs import IllegalMoveError
from boardgame_envs.envs.single_agent import BoardGameEnv

IDS = ["boardgame_envs/TicTacToe-v0", "boardgame_envs/Gomoku-v0", "boardgame_envs/Renju-v0"]


@pytest.mark.parametrize("env_id", IDS)
def test_checkers_pass(env_id):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    check_env(gymnasium.make(env_id).unwrapped)
    with pytest.warns(UserWarning):  # SB3 notes our planes are not 0..255 images; that is deliberate
        sb3_check_env(gymnasium.make(env_id, channels_first=True).unwrapped)


def test_opponent_winning_reply_returns_minus_one_on_that_step():
    # The scripted opponent takes the top row (cells 0, 1, 2); the learner plays the middle row.
    script = iter([0, 1, 2])
    env = BoardGameEnv("tictactoe", opponent=lambda obs, mask: next(script), seat="second")
    env.reset(seed=0)
    total = []
    for action in (3, 4):
        _, reward, terminated, truncated, _ = env.step(action)
        total.append((reward, terminated, truncated))
    assert total == [(0.0, False, False), (-1.0, True, False)]
    assert type(total[-1][0]) is float


def test_learner_win_and_draw():
    script = iter([3, 4])
    env = BoardGameEnv("tictactoe", opponent=lambda obs, mask: next(script), seat="first")
    env.reset(seed=0)
    assert env.step(0)[1:3] == (0.0, False)
    assert env.step(1)[1:3] == (0.0, False)
    assert env.step(2)[1:3] == (1.0, True)
    draw = BoardGameEnv("tictactoe", opponent="perfect", seat="first")
    obs, info = draw.reset(seed=1)
    perfect = boardgame_envs.policies.PerfectPolicy(seed=2)
    terminated = False
    while not terminated:
        _, reward, terminated, _, info = draw.step(perfect.act(draw.aec))
    assert reward == 0.0 and not info["action_mask"].any()


def test_observation_is_the_learners_and_masks_agree():
    env = BoardGameEnv("gomoku", board_size=7, seat="second", opponent="random", channels_first=True)
    obs, info = env.reset(seed=0)
    assert obs.shape == (4, 7, 7) and obs.dtype == np.uint8
    assert obs[1].sum() == 1 and obs[0].sum() == 0  # the opponent (black) has moved once
    np.testing.assert_array_equal(info["action_mask"], env.action_masks())
    assert env.action_masks().sum() == 48
    flat = BoardGameEnv("tictactoe", flatten=True)
    assert flat.reset(seed=0)[0].shape == (18,)


def test_same_seed_same_episode():
    def episode(seed):
        env = BoardGameEnv("gomoku", board_size=7, opponent="mcts", seat="random")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        frames = [obs]
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            obs, _, terminated, _, _ = env.step(action)
            frames.append(obs)
        return np.stack(frames)

    np.testing.assert_array_equal(episode(5), episode(5))


def test_illegal_actions():
    env = BoardGameEnv("tictactoe", opponent="random")
    env.reset(seed=0)
    env.step(4)
    occupied = 4
    obs, reward, terminated, _, info = env.step(occupied)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True) and "occupied" in info["reason"]
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = BoardGameEnv("tictactoe", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalMoveError, match="out of range"):
        strict.step(42)
    with pytest.raises(ValueError, match="seat"):
        BoardGameEnv(seat="middle")


def test_maskable_ppo_learns_through_subproc_vec_env():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from boardgame_envs.sb3 import BoardCNN

    # Worker processes import nothing for us: the "module:" prefix makes gymnasium import the package.
    vec = make_vec_env("boardgame_envs:boardgame_envs/TicTacToe-v0", n_envs=2, seed=0, vec_env_cls=SubprocVecEnv,
                       env_kwargs={"channels_first": True, "seat": "random"})  # fmt: skip
    model = MaskablePPO(
        "CnnPolicy", vec, n_steps=64, batch_size=64, seed=0,
        policy_kwargs={"features_extractor_class": BoardCNN, "normalize_images": False},
    )  # fmt: skip
    model.learn(256)
    vec.close()
