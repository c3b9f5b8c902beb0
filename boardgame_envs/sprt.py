"""Deprecated: the SPRT moved to :mod:`boardgame_envs.arena.sprt`; this name re-exports it for old imports."""

import warnings

from boardgame_envs.arena.sprt import *  # noqa: F403
from boardgame_envs.arena.sprt import __all__  # noqa: F401

warnings.warn(
    "boardgame_envs.sprt is deprecated: import boardgame_envs.arena.sprt instead",
    DeprecationWarning,
    stacklevel=2,
)
