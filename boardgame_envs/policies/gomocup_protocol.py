"""Deprecated: moved to :mod:`boardgame_envs.gomocup.protocol`; this name stays importable and warns."""

import importlib
import warnings

warnings.warn(
    "boardgame_envs.policies.gomocup_protocol is deprecated; import from boardgame_envs.gomocup.protocol (or boardgame_envs.gomocup)",
    DeprecationWarning,
    stacklevel=2,
)

# By name, not an import statement: a lower layer names the gomocup package only by strings.
_target = importlib.import_module("boardgame_envs.gomocup.protocol")
__all__ = ['RULE_BITS', 'EXACT_FIVE', 'CONTINUOUS', 'RENJU', 'ORDER_BUDGET', 'ProtocolError', 'rule_from_bits', 'format_point', 'read_point', 'parse_point', 'legal_order']
globals().update({name: getattr(_target, name) for name in __all__})
