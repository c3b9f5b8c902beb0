"""The SB3 adapter: SB3's VecEnv conventions, and MaskablePPO training on the vector view in one process."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import boardgame_envs  # noqa: F401  (registers the ids)
from boardgame_envs.vector.gym_env import SingleAgentVectorEnv

pytest.importorskip("sb3_contrib")
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.vec_env import VecMonitor  # noqa: E402

from boardgame_envs.vector.sb3 import SB3VecEnv  # noqa: E402


def test_vec_env_conventions():
    venv = SB3VecEnv(gymnasium.make_vec("boardgame_envs/TicTacToe-v0", num_envs=8, opponent="greedy"))
    venv.seed(3)
    obs = venv.reset()
    assert obs.shape == (8, 3, 3, 2) and venv.observation_space.contains(obs[0])
    assert is_masking_supported(venv)
    masks = get_action_masks(venv)
    assert masks.shape == (8, 9) and masks.all()
    done_seen = 0
    for _ in range(6):
        venv.step_async(np.argmax(get_action_masks(venv), axis=1))
        obs, rewards, dones, infos = venv.step_wait()
        assert rewards.dtype == np.float32 and len(infos) == 8
        for i in np.flatnonzero(dones):
            done_seen += 1
            final = infos[i]["terminal_observation"]
            assert final.shape == (3, 3, 2) and final.sum() >= 5  # a finished game holds at least 5 marks
            assert infos[i]["TimeLimit.truncated"] is False
    assert done_seen >= 8
    assert venv.env_method("action_masks", indices=[1, 2])[0].shape == (9,)
    venv.env_method("set_opponent", "random")
    assert venv.get_attr("opponent")[0].name == "random"
    with pytest.raises(TypeError, match="SB3VecEnv wraps the vector view"):
        SB3VecEnv(gymnasium.make("boardgame_envs/TicTacToe-v0"))


def test_seeded_reset_is_reproducible():
    def first_obs():
        venv = SB3VecEnv(SingleAgentVectorEnv(6, game="tictactoe", seat="random", opponent="random"))
        venv.seed(9)
        return venv.reset()

    np.testing.assert_array_equal(first_obs(), first_obs())


def test_maskable_ppo_trains_on_renju_with_64_games():
    venv = VecMonitor(SB3VecEnv(gymnasium.make_vec("boardgame_envs/Renju-v0", num_envs=64, opponent="random",
                                                   flatten=True)))  # fmt: skip
    model = MaskablePPO("MlpPolicy", venv, n_steps=4, batch_size=128, n_epochs=1, seed=0, verbose=0)
    model.learn(2 * 64 * 4)
    assert model.num_timesteps == 2 * 64 * 4
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=get_action_masks(venv))
    assert get_action_masks(venv)[np.arange(64), actions].all()  # the masked policy only picks legal points
