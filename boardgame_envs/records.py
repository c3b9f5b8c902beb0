"""Deprecated: game records and SGF moved to :mod:`boardgame_envs.arena.records`; this name re-exports it for old imports."""

import warnings

from boardgame_envs.arena.records import *  # noqa: F403
from boardgame_envs.arena.records import __all__  # noqa: F401

warnings.warn(
    "boardgame_envs.records is deprecated: import boardgame_envs.arena.records instead",
    DeprecationWarning,
    stacklevel=2,
)
