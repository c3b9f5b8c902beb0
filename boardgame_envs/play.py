"""Deprecated: terminal play moved to :mod:`boardgame_envs.ui.terminal`; this name re-exports it for old imports."""

import warnings

from boardgame_envs.ui.terminal import play_terminal, usage  # noqa: F401

warnings.warn("boardgame_envs.play is deprecated: import boardgame_envs.ui.terminal instead", DeprecationWarning, stacklevel=2)
