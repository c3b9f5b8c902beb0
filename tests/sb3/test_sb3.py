"""Stable-Baselines3 out of the box: BoardCNN on every board size, MaskablePPO through SubprocVecEnv, no torch in the core."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest
import torch
from gymnasium import spaces

import boardgame_envs  # noqa: F401
from boardgame_envs.envs.single_agent import SingleAgentEnv
from boardgame_envs.vector.sb3 import BoardCNN


@pytest.mark.parametrize("n", [3, 7, 15, 19])
def test_board_cnn_keeps_any_board_size(n):
    extractor = BoardCNN(spaces.Box(0, 1, (4, n, n), np.uint8), features_dim=64)
    out = extractor(torch.zeros(5, 4, n, n))
    assert out.shape == (5, 64) and extractor.features_dim == 64


def test_board_cnn_rejects_channels_last_and_flat():
    with pytest.raises(ValueError, match="channels_first"):
        BoardCNN(spaces.Box(0, 1, (27,), np.uint8))
    with pytest.raises(ValueError, match="channels_first"):
        BoardCNN(spaces.Box(0, 1, (3, 3, 2), np.uint8), features_dim=8)  # HWC: 2 channels last


def test_core_imports_without_torch():
    code = (
        "import sys, gymnasium, boardgame_envs\n"
        "env = gymnasium.make('boardgame_envs/Gomoku-v0', board_size=9, opponent='random', channels_first=True)\n"
        "env.reset(seed=0); env.step(40)\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_maskable_ppo_predicts_only_legal_actions_with_board_cnn():
    from sb3_contrib import MaskablePPO

    env = gymnasium.make("boardgame_envs/Gomoku-v0", board_size=7, channels_first=True)
    model = MaskablePPO("CnnPolicy", env, n_steps=32, batch_size=32, seed=0,
                        policy_kwargs={"features_extractor_class": BoardCNN,
                                       "features_extractor_kwargs": {"features_dim": 32}})  # fmt: skip
    obs, info = env.reset(seed=0)
    only = np.zeros(49, dtype=bool)
    only[17] = True
    for _ in range(5):
        assert model.predict(obs, action_masks=only, deterministic=False)[0] == 17
    action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
    assert info["action_mask"][int(action)]


def test_maskable_ppo_learns_through_subproc_vec_env():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    # Worker processes import nothing for us: the "module:" prefix makes gymnasium import the package.
    vec = make_vec_env("boardgame_envs:boardgame_envs/TicTacToe-v0", n_envs=2, seed=0, vec_env_cls=SubprocVecEnv,
                       env_kwargs={"channels_first": True, "seat": "random"})  # fmt: skip
    try:
        model = MaskablePPO(
            "CnnPolicy", vec, n_steps=512, batch_size=128, n_epochs=2, seed=0,
            policy_kwargs={"features_extractor_class": BoardCNN, "features_extractor_kwargs": {"features_dim": 32}},
        )  # fmt: skip
        model.learn(2048)
        assert model.num_timesteps == 2048
        masks = get_action_masks(vec)  # env_method("action_masks") across the process boundary
        assert masks.shape == (2, 9) and masks.any(axis=1).all()
        vec.env_method("set_opponent", "alphabeta", seed=1)
        model.learn(1024, reset_num_timesteps=False)
    finally:
        vec.close()


def test_self_play_callable_is_a_frozen_model():
    from sb3_contrib import MaskablePPO

    env = SingleAgentEnv("tictactoe", seat="random", flatten=True)
    learner = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, seed=0)
    snapshot = MaskablePPO("MlpPolicy", env, seed=1)
    snapshot.set_parameters(learner.get_parameters())
    env.set_opponent(lambda obs, mask: int(snapshot.predict(obs, action_masks=mask)[0]))
    learner.learn(256)
    assert learner.num_timesteps >= 256
