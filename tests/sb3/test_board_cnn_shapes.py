"""BoardCNN on any board: connect four's 6x7 channels-first planes are its input (the board need not be square),
and channels-last planes are refused for what they are, naming the env option that fixes them."""

from __future__ import annotations

import re

import gymnasium
import pytest
import torch
from gymnasium import spaces

import boardgame_envs  # noqa: F401
from boardgame_envs.vector.sb3 import BoardCNN


def _box(shape):
    return spaces.Box(0, 1, shape, dtype="uint8")


def test_connect_four_channels_first_is_taken_and_keeps_its_6x7():
    env = gymnasium.make("boardgame_envs/ConnectFour-v0", channels_first=True)
    space = env.observation_space
    assert space.shape == (2, 6, 7)
    cnn = BoardCNN(space, features_dim=16, channels=4)
    features = cnn(torch.zeros(3, 2, 6, 7))
    assert features.shape == (3, 16)
    assert cnn.linear[0].in_features == 4 * 6 * 7  # rows and columns kept, not squared


@pytest.mark.parametrize("shape", [(6, 7, 2), (3, 3, 2), (9, 9, 4)])
def test_channels_last_is_refused_for_what_it_is(shape):
    rows, cols, planes = shape
    said = (f"shape {shape} is channels-last ({rows} rows, {cols} columns, {planes} planes): make the env with "
            "channels_first=True")
    with pytest.raises(ValueError, match=re.escape(said)):
        BoardCNN(_box(shape))


def test_the_message_no_longer_blames_the_option_that_was_given():
    BoardCNN(_box((2, 6, 7)))  # was: "needs (C, n, n) observations (channels_first=True in the env)"
    with pytest.raises(ValueError, match=r"\(C, rows, cols\).*got shape \(42,\)"):
        BoardCNN(_box((42,)))


def test_maskable_ppo_learns_a_step_on_batched_connect_four_with_it():
    from sb3_contrib import MaskablePPO

    from boardgame_envs.vector.sb3 import SB3VecEnv

    venv = SB3VecEnv(gymnasium.make_vec("boardgame_envs/ConnectFour-v0", num_envs=4, opponent="random",
                                        vectorization_mode="vector_entry_point", channels_first=True))  # fmt: skip
    model = MaskablePPO("CnnPolicy", venv, n_steps=8, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs=dict(features_extractor_class=BoardCNN,
                                           features_extractor_kwargs=dict(features_dim=16, channels=4)))  # fmt: skip
    model.learn(32)
    assert model.num_timesteps >= 32
