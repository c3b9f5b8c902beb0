"""Deprecated: moved to :mod:`boardgame_envs.gomocup.engine`; this name stays importable and warns."""

import importlib
import warnings

warnings.warn(
    "boardgame_envs.policies.gomocup is deprecated; import from boardgame_envs.gomocup.engine (or boardgame_envs.gomocup)",
    DeprecationWarning,
    stacklevel=2,
)

# By name, not an import statement: a lower layer names the gomocup package only by strings.
_target = importlib.import_module("boardgame_envs.gomocup.engine")
__all__ = ['GomocupEngine', 'EngineCrashed', 'EngineError', 'EngineFault', 'EngineIllegalMove', 'EngineProtocolError', 'EngineStartError', 'EngineTimeout', 'MAX_TAKEBACK']
globals().update({name: getattr(_target, name) for name in __all__})
