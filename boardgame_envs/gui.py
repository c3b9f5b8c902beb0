"""Deprecated: the play window moved to :mod:`boardgame_envs.ui.gui`; this name re-exports it for old imports."""

import warnings

from boardgame_envs.ui.gui import BUTTONS, PlayWindow, play_window  # noqa: F401

warnings.warn("boardgame_envs.gui is deprecated: import boardgame_envs.ui.gui instead", DeprecationWarning, stacklevel=2)
