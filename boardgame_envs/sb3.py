"""A small CNN features extractor for board planes, for Stable-Baselines3 policies.

SB3's ``NatureCNN`` needs images of 36x36 or more; boards are 3x3 to 19x19.
``BoardCNN`` keeps the board size with 3x3 padded convolutions::

    from boardgame_envs.sb3 import BoardCNN
    model = MaskablePPO("CnnPolicy", env, policy_kwargs=dict(
        features_extractor_class=BoardCNN, features_extractor_kwargs=dict(features_dim=128),
        normalize_images=False))

It expects channels-first observations (``channels_first=True`` in the env).
"""

from __future__ import annotations

import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class BoardCNN(BaseFeaturesExtractor):
    """``layers`` 3x3 conv + ReLU blocks of ``channels``, then a linear layer to ``features_dim``."""

    def __init__(self, observation_space: spaces.Box, features_dim: int = 128, channels: int = 32, layers: int = 2):
        if len(observation_space.shape) != 3:
            raise ValueError(f"BoardCNN needs (C, H, W) observations (channels_first=True), got {observation_space.shape}")
        super().__init__(observation_space, features_dim)
        c, h, w = observation_space.shape
        blocks: list[nn.Module] = []
        for i in range(layers):
            blocks += [nn.Conv2d(c if i == 0 else channels, channels, 3, padding=1), nn.ReLU()]
        self.cnn = nn.Sequential(*blocks, nn.Flatten())
        self.linear = nn.Sequential(nn.Linear(channels * h * w, features_dim), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.linear(self.cnn(observations))
