"""The Gymnasium vector view as a Stable-Baselines3 ``VecEnv``, so SB3 and sb3-contrib train on it in one process.

>>> import gymnasium, boardgame_envs
>>> from boardgame_envs.vector.sb3 import SB3VecEnv
>>> venv = SB3VecEnv(gymnasium.make_vec("boardgame_envs/Renju-v0", num_envs=64, opponent="random"))

``MaskablePPO("MlpPolicy", venv)`` then collects 64 games a step from one
batched call. SB3's conventions, from Gymnasium's same-step auto-reset:
``dones = terminated | truncated``; a finished game's last observation is in
``infos[i]["terminal_observation"]``; ``env_method("action_masks")`` gives the
masks (sb3-contrib's ``get_action_masks``). Wrap it in SB3's ``VecMonitor`` for
episode statistics. This module imports stable_baselines3 (the ``train`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn

from boardgame_envs.vector.gym_env import BoardGameVectorEnv


class SB3VecEnv(VecEnv):
    """Adapter from :class:`~boardgame_envs.vector.gym_env.BoardGameVectorEnv` to SB3's ``VecEnv``.

    Per-game methods reach the whole vector env: ``env_method("set_opponent", spec)``
    calls it once (there is one opponent for all games), ``env_method("action_masks")``
    returns one mask per game; ``get_attr``/``set_attr`` read and write the vector env's attributes.
    """

    def __init__(self, env: Any) -> None:
        base = getattr(env, "unwrapped", env)
        if not isinstance(base, BoardGameVectorEnv):
            raise TypeError(f"SB3VecEnv wraps the vector view of boardgame_envs (gymnasium.make_vec), got {type(env)}")
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
