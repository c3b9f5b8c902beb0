"""The Gomocup protocol both ways: an engine process as a policy, any policy as a brain.

* :mod:`~boardgame_envs.gomocup.protocol`: what both ends share (points, rule bits, move
  orders for ``BOARD``, the bounds on what a line may hold);
* :mod:`~boardgame_envs.gomocup.process`: an engine's process, its wall-clock reader,
  its typed errors, and no orphans;
* :mod:`~boardgame_envs.gomocup.engine`: :class:`GomocupEngine`, an external brain
  (``pbrain-*``: Rapfi, Yixin, ...) as a policy, the ``pbrain:PATH`` spec;
* :mod:`~boardgame_envs.gomocup.brain`: :class:`Brain`, any policy as a brain on
  stdin/stdout (``boardgame-envs pbrain``), :func:`serve`;
* :mod:`~boardgame_envs.gomocup.launcher`: :func:`write_launcher`, the program a manager starts.
"""

from boardgame_envs.gomocup.brain import Brain, move_time, serve
from boardgame_envs.gomocup.engine import GomocupEngine
from boardgame_envs.gomocup.launcher import LauncherError, write_launcher
from boardgame_envs.gomocup.process import (
    EngineCrashed,
    EngineError,
    EngineFault,
    EngineIllegalMove,
    EngineProtocolError,
    EngineStartError,
    EngineTimeout,
)  # fmt: skip

__all__ = [
    "Brain", "EngineCrashed", "EngineError", "EngineFault", "EngineIllegalMove", "EngineProtocolError",
    "EngineStartError", "EngineTimeout", "GomocupEngine", "LauncherError", "move_time", "serve", "write_launcher",
]  # fmt: skip
