"""Deprecated: moved to :mod:`boardgame_envs.gomocup.process`; this name stays importable and warns."""

import importlib
import warnings

warnings.warn(
    "boardgame_envs.policies.engine_process is deprecated; import from boardgame_envs.gomocup.process (or boardgame_envs.gomocup)",
    DeprecationWarning,
    stacklevel=2,
)

# By name, not an import statement: a lower layer names the gomocup package only by strings.
_target = importlib.import_module("boardgame_envs.gomocup.process")
__all__ = ['EngineProcess', 'EngineError', 'EngineStartError', 'EngineFault', 'EngineCrashed', 'EngineTimeout', 'EngineProtocolError', 'EngineIllegalMove', 'END_GRACE_S', 'STDERR_LINES', 'TRANSCRIPT_LINES']
globals().update({name: getattr(_target, name) for name in __all__})
