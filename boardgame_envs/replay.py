"""Deprecated: the record viewer moved to :mod:`boardgame_envs.ui.replay`; this name re-exports it for old imports."""

import warnings

from boardgame_envs.ui.replay import KEYS, frame, header, position, replay_terminal  # noqa: F401

warnings.warn("boardgame_envs.replay is deprecated: import boardgame_envs.ui.replay instead", DeprecationWarning, stacklevel=2)
