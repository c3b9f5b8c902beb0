"""Deprecated: ``SB3VecEnv`` moved to :mod:`boardgame_envs.sb3`, the one Stable-Baselines3 module; this name re-exports it."""

import warnings

from boardgame_envs.sb3 import SB3VecEnv  # noqa: F401

warnings.warn("boardgame_envs.vector.sb3 is deprecated: import SB3VecEnv from boardgame_envs.sb3", DeprecationWarning, stacklevel=2)
