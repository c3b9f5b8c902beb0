"""A small CNN features extractor for board planes, for Stable-Baselines3 policies.

SB3's ``NatureCNN`` needs images of 36x36 or more; boards are 3x3 to 19x19.
``BoardCNN`` keeps the board size with 3x3 padded convolutions, so it works
from tic-tac-toe up::

    from boardgame_envs.sb3 import BoardCNN
    env = gymnasium.make("boardgame_envs/Gomoku-v0", board_size=9, channels_first=True)
    model = MaskablePPO("CnnPolicy", env, policy_kwargs=dict(
        features_extractor_class=BoardCNN, features_extractor_kwargs=dict(features_dim=128)))

It expects channels-first observations (``channels_first=True`` in the env).
The planes are 0/1 ``uint8`` with bounds 0..1, so SB3 does not treat them as
0..255 images and feeds them as floats unscaled. It needs the ``train``
extra (torch and Stable-Baselines3), like :mod:`boardgame_envs.alphazero`.
"""

from __future__ import annotations

import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class BoardCNN(BaseFeaturesExtractor):
    """``layers`` 3x3 conv + ReLU blocks of ``channels`` (board size kept), then a linear layer to ``features_dim``.

    Args:
        observation_space: a ``(C, n, n)`` Box, as the env gives with ``channels_first=True``.
        features_dim: size of the features handed to the policy and value heads.
        channels: convolution channels.
        layers: number of convolution blocks (the receptive field is ``2 * layers + 1`` points).
    """

    def __init__(self, observation_space: spaces.Box, features_dim: int = 128, channels: int = 32, layers: int = 2):
        shape = observation_space.shape
        # Boards are square, so a CHW board has shape[1] == shape[2]; HWC planes (n, n, C) usually fail that.
        if len(shape) != 3 or shape[1] != shape[2]:
            raise ValueError(f"BoardCNN needs (C, n, n) observations (channels_first=True in the env), got {shape}")
        for name, value in (("features_dim", features_dim), ("channels", channels), ("layers", layers)):
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        super().__init__(observation_space, features_dim)
        c, h, w = shape
        blocks: list[nn.Module] = []
        for i in range(layers):
            blocks += [nn.Conv2d(c if i == 0 else channels, channels, 3, padding=1), nn.ReLU()]
        self.cnn = nn.Sequential(*blocks, nn.Flatten())
        self.linear = nn.Sequential(nn.Linear(channels * h * w, features_dim), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        """Features ``(batch, features_dim)`` of a batch of ``(batch, C, n, n)`` planes."""
        return self.linear(self.cnn(observations.float()))
