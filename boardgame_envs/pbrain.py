"""Deprecated: moved to :mod:`boardgame_envs.gomocup.brain`; this name stays importable and warns."""

import importlib
import warnings

warnings.warn(
    "boardgame_envs.pbrain is deprecated; import from boardgame_envs.gomocup.brain (or boardgame_envs.gomocup)",
    DeprecationWarning,
    stacklevel=2,
)

# By name, not an import statement: a lower layer names the gomocup package only by strings.
_target = importlib.import_module("boardgame_envs.gomocup.brain")
__all__ = ['Brain', 'CommandError', 'move_time', 'serve', 'MOVES_TO_GO', 'SAFETY', 'OVERHEAD_S', 'MIN_THINK_S', 'UNLIMITED_MS', 'NUMERIC_INFO']
globals().update({name: getattr(_target, name) for name in __all__})
__all__ += ["write_launcher"]
globals()["write_launcher"] = importlib.import_module("boardgame_envs.gomocup.launcher").write_launcher
