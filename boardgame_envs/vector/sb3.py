"""Stable-Baselines3 adapters, in one module: a CNN for board planes and the vector view as a ``VecEnv``.

**BoardCNN.** SB3's ``NatureCNN`` needs images of 36x36 or more; boards are 3x3 to 19x19.
``BoardCNN`` keeps the board size with 3x3 padded convolutions, so it works
from tic-tac-toe up::

    from boardgame_envs.vector.sb3 import BoardCNN
    env = gymnasium.make("boardgame_envs/Gomoku-v0", board_size=9, channels_first=True)
    model = MaskablePPO("CnnPolicy", env, policy_kwargs=dict(
        features_extractor_class=BoardCNN, features_extractor_kwargs=dict(features_dim=128)))

It expects channels-first observations (``channels_first=True`` in the env).
The planes are 0/1 ``uint8`` with bounds 0..1, so SB3 does not treat them as
0..255 images and feeds them as floats unscaled.

**SB3VecEnv.** The Gymnasium vector view (``gymnasium.make_vec``) as an SB3 ``VecEnv``, so SB3
and sb3-contrib train on it in one process::

    from boardgame_envs.vector.sb3 import SB3VecEnv
    venv = SB3VecEnv(gymnasium.make_vec("boardgame_envs/Renju-v0", num_envs=64, opponent="random"))

``MaskablePPO("MlpPolicy", venv)`` then collects 64 games a step from one
batched call. SB3's conventions, from Gymnasium's same-step auto-reset:
``dones = terminated | truncated``; a finished game's last observation is in
``infos[i]["terminal_observation"]``; ``env_method("action_masks")`` gives the
masks (sb3-contrib's ``get_action_masks``); with an opponent pool, a finished game's
``infos[i]["opponent"]`` names the member it was played against. Wrap it in SB3's ``VecMonitor`` for
episode statistics.

This is the one module of the package that imports Stable-Baselines3 (the ``train`` extra,
with torch); the envs and the vector view do not, so they install without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn
from torch import nn

from boardgame_envs.vector.gym_env import SingleAgentVectorEnv


class BoardCNN(BaseFeaturesExtractor):
    """``layers`` 3x3 conv + ReLU blocks of ``channels`` (board size kept), then a linear layer to ``features_dim``.

    Args:
        observation_space: a ``(C, rows, cols)`` Box, as the env gives with ``channels_first=True`` (any board
            shape: square or not, as connect four's 6x7).
        features_dim: size of the features handed to the policy and value heads.
        channels: convolution channels.
        layers: number of convolution blocks (the receptive field is ``2 * layers + 1`` points).
    """

    def __init__(self, observation_space: spaces.Box, features_dim: int = 128, channels: int = 32, layers: int = 2):
        shape = tuple(observation_space.shape)
        # A board of any shape (connect four's 6x7 too): the convolutions keep rows and columns. The planes are
        # fewer than the rows or the columns on every board of the package, which is how channels-last
        # observations (rows, cols, C) are told from channels-first ones (C, rows, cols).
        if len(shape) != 3:
            raise ValueError(f"BoardCNN needs observations of a board's planes, (C, rows, cols) as the env gives them "
                             f"with channels_first=True; got shape {shape}")  # fmt: skip
        if shape[2] < min(shape[0], shape[1]) and shape[0] > min(shape[1], shape[2]):
            raise ValueError(f"BoardCNN needs channels-first observations (C, rows, cols); shape {shape} is "
                             f"channels-last ({shape[0]} rows, {shape[1]} columns, {shape[2]} planes): make the env "
                             "with channels_first=True")  # fmt: skip
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
        """Features ``(batch, features_dim)`` of a batch of ``(batch, C, rows, cols)`` planes."""
        return self.linear(self.cnn(observations.float()))


def what_to_pass(env: Any) -> str:
    """:class:`SB3VecEnv`'s error for an ``env`` it cannot wrap: what it got, and the call that gives what it takes."""
    spec = getattr(env, "spec", None)
    env_id = getattr(spec, "id", None)
    kwargs = dict(getattr(spec, "kwargs", None) or {})
    mode = kwargs.pop("vectorization_mode", None)
    num_envs = kwargs.pop("num_envs", getattr(env, "num_envs", 64))
    single = "a single env " if not hasattr(env, "num_envs") else ""
    got = f"{single}{type(env).__name__}" + (f" of {env_id!r}" if env_id else "") + (
        f" (vectorization_mode={mode!r})" if mode else "")  # fmt: skip
    if not env_id or not str(env_id).startswith("boardgame_envs/"):
        return (f"SB3VecEnv wraps the vector view of boardgame_envs, got {got}: pass "
                "gymnasium.make_vec('boardgame_envs/ConnectFour-v0', num_envs=64, vectorization_mode='vector_entry_point', "
                "opponent=...) (any id of the package), or boardgame_envs.vector.gym_env.SingleAgentVectorEnv(64, "
                "game=...); for other envs use SB3's own DummyVecEnv / SubprocVecEnv")  # fmt: skip
    fixed = {k: v for k, v in kwargs.items() if k != "game"}  # the id fixes the game
    if fixed.get("opening_rule") not in (None, False):
        return (f"SB3VecEnv wraps the vector view, got {got}: the batched engine plays no opening rule "
                f"(opening_rule={fixed['opening_rule']!r}), so make_vec gave single-agent envs in turn; wrap those in "
                f"SB3's own DummyVecEnv([lambda: gymnasium.make({env_id!r}, {_arguments(fixed)})] * {num_envs}) "
                "instead, or drop opening_rule for SB3VecEnv")  # fmt: skip
    return (f"SB3VecEnv wraps the vector view, got {got}: pass gymnasium.make_vec({env_id!r}, "
            f"num_envs={num_envs}, vectorization_mode='vector_entry_point'"
            + (f", {_arguments(fixed)}" if fixed else "") + ")")  # fmt: skip


def _arguments(kwargs: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" if len(repr(v)) <= 60 else f"{k}=..." for k, v in kwargs.items())


class SB3VecEnv(VecEnv):
    """Adapter from :class:`~boardgame_envs.vector.gym_env.SingleAgentVectorEnv` to SB3's ``VecEnv``.

    Per-game methods reach the whole vector env: ``env_method("set_opponent", spec)``
    calls it once (there is one opponent for all games), ``env_method("action_masks")``
    returns one mask per game; ``get_attr``/``set_attr`` read and write the vector env's attributes.
    """

    def __init__(self, env: Any) -> None:
        base = getattr(env, "unwrapped", env)
        if not isinstance(base, SingleAgentVectorEnv):
            raise TypeError(what_to_pass(env))
        self.env = env
        self.base = base
        super().__init__(base.num_envs, base.single_observation_space, base.single_action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        obs, info = self.env.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{"action_mask": mask} for mask in info["action_mask"]]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = info["final_obs"]
            for g in np.flatnonzero(dones):
                infos[g]["terminal_observation"] = final[g]
                infos[g]["TimeLimit.truncated"] = bool(truncated[g] and not terminated[g])
        if "illegal_action" in info:
            for g in np.flatnonzero(info["illegal_action"]):
                infos[g]["illegal_action"] = True
        if "final_opponent" in info:  # with an opponent pool: whom each finished game was played against
            for g in np.flatnonzero(info["_final_opponent"]):
                infos[g]["opponent"] = info["final_opponent"][g]
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.env.close()

    def _count(self, indices: VecEnvIndices) -> int:
        return len(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self.base, attr_name)] * self._count(indices)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.base, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        result = getattr(self.base, method_name)(*method_args, **method_kwargs)
        chosen = list(self._get_indices(indices))
        if method_name == "action_masks":
            return list(result[chosen])
        return [result] * len(chosen)

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * self._count(indices)

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs
