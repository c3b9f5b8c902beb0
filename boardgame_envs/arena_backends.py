"""Deprecated: processes or Ray moved to :mod:`boardgame_envs.arena.backends`; this name re-exports it for old imports."""

import warnings

from boardgame_envs.arena.backends import *  # noqa: F403
from boardgame_envs.arena.backends import __all__  # noqa: F401

warnings.warn(
    "boardgame_envs.arena_backends is deprecated: import boardgame_envs.arena.backends instead",
    DeprecationWarning,
    stacklevel=2,
)
