"""Fast PettingZoo and Gymnasium environments for tic-tac-toe, gomoku, renju and connect four.

>>> from boardgame_envs import gomoku_v0
>>> env = gomoku_v0.env(board_size=15, rule="renju")

Importing the package registers the Gymnasium ids ``boardgame_envs/...`` and,
where the installed PettingZoo has a registry, the AEC ids
``boardgame_envs/tictactoe-v0``, ``boardgame_envs/gomoku-v0`` and ``boardgame_envs/connect_four-v0``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from boardgame_envs import _compat

_compat.install()  # first: old module paths (even one a module below still imports) resolve through the table

# The env modules, each registering its games with the catalog as it is imported: every module at the root
# named <game>_v<N> (a new game's env module is found by its name, with no line to add here), then the
# shipped ones by name for readers and tools. Both arrows run down, from the package to its env modules.
ENV_MODULE_NAME = re.compile(r"[a-z][a-z0-9_]*_v[0-9]+")


def _env_module_names(paths) -> list[str]:
    """The env modules in the folders ``paths`` (the package's ``__path__``): the modules named ``<game>_v<N>``."""
    return sorted(m.name for m in pkgutil.iter_modules(paths) if ENV_MODULE_NAME.fullmatch(m.name))


for _module in _env_module_names(__path__):
    importlib.import_module(f"{__name__}.{_module}")
from boardgame_envs import connect_four_v0, gomoku_v0, tictactoe_v0  # noqa: E402
from boardgame_envs.games.mnk import IllegalMoveError, MNKGame  # noqa: E402
from boardgame_envs.registration import register_envs  # noqa: E402

__version__ = "0.1.0"
__all__ = ["IllegalMoveError", "MNKGame", "connect_four_v0", "gomoku_v0", "tictactoe_v0", "__version__"]

register_envs()
